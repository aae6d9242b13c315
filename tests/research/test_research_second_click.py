"""research/bench_second_click.py on a toy budget: the candidates on one set of layouts."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from mswp_gym.spec import GameSpec

BEGINNER = GameSpec(9, 9, 10, "safe")


def test_layout_showing__the_corner_shows_the_clue_and_is_seeded() -> None:
    bench = load_benchmark("bench_second_click")
    for clue in (1, 2, 3):
        layout = bench.layout_showing(BEGINNER, clue, 0, 5)
        assert not layout[0, 0] and int(layout[:2, :2].sum()) == clue
        assert int(layout.sum()) == BEGINNER.mines
        assert (layout == bench.layout_showing(BEGINNER, clue, 0, 5)).all()
    assert (
        bench.layout_showing(BEGINNER, 1, 0, 5) != bench.layout_showing(BEGINNER, 1, 0, 6)
    ).any()


def test_play__a_fixed_second_click_is_made_and_the_solver_s_own_is_reported() -> None:
    bench = load_benchmark("bench_second_click")
    fixed = bench.play(bench.Game(BEGINNER, 1, 0, 3, (8, 8)))
    assert fixed.second == (8, 8)
    own = bench.play(bench.Game(BEGINNER, 1, 0, 3, None))
    assert own.second != (0, 0)
    assert own == bench.play(bench.Game(BEGINNER, 1, 0, 3, None))  # seeded: the same game


def test_bench_second_click__prints_every_candidate(capsys: pytest.CaptureFixture[str]) -> None:
    toy = ["--preset", "beginner", "--clue", "1", "--games", "3", "--workers", "1"]
    load_benchmark("bench_second_click").main([*toy, "--cells", "8,8;2,2"])
    printed = capsys.readouterr().out
    assert "9x9/10, rule safe, first click (0, 0) showing 1; 3 games per candidate" in printed
    assert "the solver's own second click: " in printed
    rows = [line.split()[0] for line in printed.splitlines()[3:]]
    assert rows == ["solver", "(8,", "(2,"]
    assert printed.count(", p = ") == 2


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--clue", "0"], "--clue must be in [1, 3]"),
        (["--clue", "4"], "--clue must be in [1, 3]"),
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--workers", "0"], "--workers must be >= 1, got 0"),
        (["--seed", "-1"], "--seed must be >= 0, got -1"),
        (["--preset", "huge"], "unknown preset 'huge'; choose one of"),
        (["--cells", "0,0"], "cell '0,0' is the first click"),
        (["--cells", "16,3"], "cell '16,3' is off the 16x30 board"),
        (["--cells", "1;2"], "bad cell '1': want ROW,COL"),
    ],
)
def test_bench_second_click__bad_input_is_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_second_click", argv, capsys)
    assert len(lines) == 1 and named in lines[0]
