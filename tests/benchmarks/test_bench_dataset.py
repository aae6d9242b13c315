"""benchmarks/bench_dataset.py: a row per preset with its positions per second; its bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark


def test_bench_dataset__prints_a_row_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    load_benchmark("bench_dataset").main(["--games", "2", "--presets", "beginner"])
    header, columns, row = capsys.readouterr().out.splitlines()
    assert header == "one shard of 2 solver games per preset (seed 0)"
    assert columns.split() == [
        "preset",
        "positions",
        "seconds",
        "positions/s",
        "per",
        "CPU",
        "second",
    ]
    name, positions, seconds, *rates = row.split()
    assert name == "beginner" and int(positions) >= 2 and float(seconds) >= 0
    assert all(float(rate.replace(",", "")) > 0 for rate in rates)


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--games", "0"], "--games must be >= 1, got 0"), (["--presets", "huge"], "unknown preset")],
)
def test_bench_dataset__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (line,) = bad_input_lines("bench_dataset", argv, capsys)
    assert line.startswith(f"bench_dataset.py: error: {message}")
