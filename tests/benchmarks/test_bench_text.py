"""benchmarks/bench_puzzles.py and bench_text_baselines.py: their rows; their bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark


def test_bench_puzzles__prints_a_row_per_preset_and_task(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_benchmark("bench_puzzles").main(["--count", "5", "--presets", "beginner"])
    header, _columns, *rows = capsys.readouterr().out.splitlines()
    assert header.startswith("5 puzzles per preset and task") and len(rows) == 3
    for row in rows:
        name, _task, rate, *shares = row.split()
        assert (
            name == "beginner"
            and float(rate) > 0
            and sum(map(float, shares)) == pytest.approx(100, abs=0.3)
        )


def test_bench_text_baselines__prints_a_row_per_agent(capsys: pytest.CaptureFixture[str]) -> None:
    load_benchmark("bench_text_baselines").main(["--games", "3"])
    *_, logic, solver = capsys.readouterr().out.splitlines()
    assert logic.split()[:2] == ["beginner", "logic:global"] and solver.split()[1] == "solver"
    assert logic.split()[-3:-1] == ["0", "0"]  # no game differs, no reply refused


@pytest.mark.parametrize("name", ["bench_puzzles", "bench_text_baselines"])
def test_bench_text__bad_input_is_one_line(capsys: pytest.CaptureFixture[str], name: str) -> None:
    (line,) = bad_input_lines(name, ["--presets", "huge"], capsys)
    assert line.startswith(f"{name}.py: error: unknown preset 'huge'")
