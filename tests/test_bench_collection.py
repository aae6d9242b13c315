"""benchmarks/bench_collection.py on a toy budget: both ways timed, bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

pytest.importorskip("sb3_contrib")


def test_bench_collection__times_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    import torch as th

    before = th.get_num_threads()
    try:
        load_benchmark("bench_collection").main(
            [
                "--checkpoint",
                "beginner",
                "--preset",
                "beginner",
                "--games",
                "2",
                "--workers",
                "1",
                "--repeats",
                "1",
                "--device",
                "cpu",
            ]
        )
    finally:
        th.set_num_threads(before)
    printed = capsys.readouterr().out
    assert "2 games a round, 1 workers, device play on cpu, 1 rounds each" in printed
    rows = [line.split() for line in printed.splitlines()]
    rows = [row for row in rows if len(row) == 4 and row[0] in ("workers", "device")]
    assert [row[0] for row in rows] == ["workers", "device"]
    assert all(float(row[1]) > 0 and int(row[2]) >= 2 for row in rows)
    assert "device / workers wall time:" in printed


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--preset", "huge"], "unknown preset 'huge'; choose one of"),
        (["--checkpoint", "missing.zip"], "--checkpoint 'missing.zip': no checkpoint at"),
    ],
)
def test_bench_collection__bad_input_is_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_collection", argv, capsys)
    assert len(lines) == 1 and named in lines[0]
