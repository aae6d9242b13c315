"""benchmarks/bench_optimal.py: our solver against perfect play on boards whose every layout can be
listed: the boards it accepts, the layouts, and the regrets that must add up to the gap."""

from __future__ import annotations

import math

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from agents.base import MoveReason
from mswp_gym.constants import HIDDEN

optimal = load_benchmark("bench_optimal")


def test_parse_board__accepts_small_boards_and_names_what_it_refuses() -> None:
    spec = optimal.parse_board("4x5x4")
    assert (spec.rows, spec.cols, spec.mines, str(spec.first_click)) == (4, 5, 4, "safe")
    for text, words in (
        ("4x5", "ROWSxCOLSxMINES"),
        ("4x5x-1", "ROWSxCOLSxMINES"),
        ("3x3x8", "mines <= cells - 2"),
        ("4x4x0", "mines <= cells - 2"),
        ("8x8x10", "layouts"),
    ):
        with pytest.raises(ValueError, match=words):
            optimal.parse_board(text)


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--boards", "4x4"], "ROWSxCOLSxMINES"),
        (["--boards", "9x9x10"], "at most 50,000 can be listed"),
        (["--workers", "0"], "--workers must be >= 1"),
        (["--player", "logic"], "--player 'logic'"),
    ],
)
def test_main__bad_input_is_one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        optimal.main(argv)
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0]


def test_all_layouts__every_layout_that_keeps_the_corner_safe() -> None:
    spec = optimal.parse_board("3x3x2")
    layouts = optimal.all_layouts(spec)
    assert len(layouts) == len(set(layouts)) == math.comb(8, 2)
    assert all(layout.bit_count() == 2 and not layout & 1 for layout in layouts)
    # a corner showing 1: exactly one mine among its three neighbours (cells 1, 3 and 4)
    board = np.full((3, 3), HIDDEN, dtype=np.int8)
    board[0, 0] = 1
    fits = optimal.fitting(layouts, board, optimal.neighbour_masks(spec))
    assert len(fits) == 3 * 5
    assert all((layout & 0b11010).bit_count() == 1 for layout in fits)


def test_measure__the_endgame_search_plays_small_boards_perfectly() -> None:
    # 455 layouts: the endgame search (up to 1,000) takes every guess, and it is exact
    result = optimal.measure(optimal.parse_board("4x4x3"), (), workers=1)
    assert result.layouts == 455
    assert result.wins == round(result.perfect * result.layouts)
    assert {guess.reason for guess in result.met} == {MoveReason.ENDGAME}
    assert all(regret.value == pytest.approx(0.0, abs=1e-12) for regret in result.regrets.values())


def test_measure__the_regrets_add_up_to_the_gap_to_perfect_play() -> None:
    # without the endgame search the look-ahead guesses, and loses games to perfect play; by the
    # performance difference lemma the regrets at its guesses are exactly those games
    result = optimal.measure(optimal.parse_board("3x5x3"), (("endgame_layouts", 0),), workers=1)
    gap = result.perfect - result.ours
    assert gap > 0.01
    assert sum(map(result.share, result.met)) == pytest.approx(gap, abs=1e-12)
    assert all(regret.value >= -1e-12 for regret in result.regrets.values())
    lines = optimal.report_lines(result)
    assert lines[0].startswith("3x5/3, rule safe, first click (0, 0): 364 layouts")
    assert f"gap: {100 * gap:.3f} points" in lines[3]
    assert f"sum to {100 * gap:.3f} points" in lines[3]
