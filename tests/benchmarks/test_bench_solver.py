"""benchmarks/bench_solver.py: agent specs as ``python -m eval`` reads them, and bad input in one
line before any game is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark


def test_parse_agent__eval_spec_syntax_with_typed_values() -> None:
    bench = load_benchmark("bench_solver")
    assert bench.parse_agent("solver") == ("solver", {})
    assert bench.parse_agent("solver:endgame_layouts=2000:endgame_nodes=200000:extended=False") == (
        "solver",
        {"endgame_layouts": 2000, "endgame_nodes": 200000, "extended": False},
    )


def test_bench_solver__options_reach_the_agent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # with the endgame search off the solver still plays (and its option is an int, not text)
    bench = load_benchmark("bench_solver")
    out = tmp_path / "r.json"
    spec = "solver:endgame_layouts=0:endgame_cells=10"
    argv = ["--boards", "beginner", "--rules", "safe", "--games", "3", "--agent", spec]
    bench.main([*argv, "--json", str(out)])
    (line,) = capsys.readouterr().out.strip().splitlines()
    assert line.startswith(f"{spec} 9x9/10     safe     N=3 ")
    (row,) = json.loads(out.read_text())["results"]
    assert row["agent"] == spec and row["games"] == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--agent", "solver:endgame_layouts=x"],
            "--agent 'solver:endgame_layouts=x': endgame_layouts='x' must be an integer >= 0",
        ),
        (["--agent", "solver:bogus=1"], "--agent 'solver:bogus=1': SolverAgent.__init__() got"),
        (
            ["--rules", "safe,bogus"],
            "unknown first-click rule 'bogus'; choose from any, safe, opening",
        ),
        (["--boards", "3x3"], "bad board '3x3'; expected ROWSxCOLS/MINES"),
        (["--boards", "3x3/20", "--rules", "safe"], "mines=20 leaves no safe cell on a 3x3 board"),
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--workers", "0"], "--workers must be >= 1, got 0"),
    ],
)
def test_bench_solver__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (line,) = bad_input_lines("bench_solver", argv, capsys)
    assert line.startswith(f"bench_solver.py: error: {message}")
