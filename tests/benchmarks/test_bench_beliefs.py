"""benchmarks/bench_beliefs.py: a row per preset with the steps it timed; its bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark


def test_bench_beliefs__prints_a_row_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    load_benchmark("bench_beliefs").main(["--games", "2", "--presets", "beginner"])
    header, columns, row = capsys.readouterr().out.splitlines()
    assert header.startswith("CPU ms per step, median / p95, over 2 solver games")
    assert columns.split()[:2] == ["preset", "steps"]
    name, steps, *figures = row.split()
    assert name == "beginner" and int(steps) >= 2 and len(figures) == 9


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--games", "0"], "--games must be >= 1, got 0"), (["--presets", "huge"], "unknown preset")],
)
def test_bench_beliefs__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (line,) = bad_input_lines("bench_beliefs", argv, capsys)
    assert line.startswith(f"bench_beliefs.py: error: {message}")
