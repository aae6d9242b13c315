"""benchmarks/bench_grading.py: a row per preset with the moves it graded; its bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark


def test_bench_grading__prints_a_row_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    load_benchmark("bench_grading").main(["--games", "2", "--presets", "beginner"])
    header, columns, row = capsys.readouterr().out.splitlines()
    assert header.startswith("CPU ms per graded move over 2 solver games")
    assert columns.split() == ["preset", "moves", "median", "p95"]
    name, moves, median, p95 = row.split()
    assert name == "beginner" and int(moves) >= 1 and 0 < float(median) <= float(p95)


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--games", "0"], "--games must be >= 1, got 0"), (["--presets", "huge"], "unknown preset")],
)
def test_bench_grading__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (line,) = bad_input_lines("bench_grading", argv, capsys)
    assert line.startswith(f"bench_grading.py: error: {message}")
