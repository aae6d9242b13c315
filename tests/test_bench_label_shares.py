"""benchmarks/bench_label_shares.py on a toy budget: both splits timed, bad input."""

from __future__ import annotations

import re

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

pytest.importorskip("sb3_contrib")


def test_bench_label_shares__times_both_splits(capsys: pytest.CaptureFixture[str]) -> None:
    import torch as th

    before = th.get_num_threads()
    try:
        load_benchmark("bench_label_shares").main(
            ["--checkpoint", "beginner", "--preset", "beginner", "--games", "3", "--shares", "2"]
        )
    finally:
        th.set_num_threads(before)
    printed = capsys.readouterr().out
    assert re.search(r"9x9/10 safe: 3 games, \d+ positions, played in [\d.]+ s; 2 shares", printed)
    ratios = re.findall(r"^ *(contiguous|strided): .* slowest / mean ([\d.]+)$", printed, re.M)
    assert [name for name, _ in ratios] == ["contiguous", "strided"]
    assert all(1.0 <= float(ratio) <= 2.0 for _, ratio in ratios)  # 2 shares: at most 2x


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--shares", "0"], "--shares must be >= 1, got 0"),
        (["--preset", "huge"], "unknown preset 'huge'; choose one of"),
        (["--checkpoint", "missing.zip"], "--checkpoint 'missing.zip': no checkpoint at"),
    ],
)
def test_bench_label_shares__bad_input_is_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_label_shares", argv, capsys)
    assert len(lines) == 1 and named in lines[0]
