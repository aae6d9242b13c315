"""The solver's guess rules: unavoidable 50/50s (and pseudo-50/50s), long-term 50/50 influence."""

from __future__ import annotations

import math

import numpy as np
import pytest
from positions import layouts, live_order, walled_position

from agents.solver.probability import RegionCache, analyse_assuming
from agents.solver.unavoidable import unavoidable_guess, unavoidable_pairs
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, MINE, NO_CLUE

M, H = MINE, HIDDEN


def test_unavoidable_guess__a_pair_between_mines_on_the_edge_is_guessed_at_once() -> None:
    # (1, 1) and (1, 2) hold one mine; each cell beside only one of them is a mine or off the board.
    board = np.array([[M, 3, 3, M], [M, H, H, M]], dtype=np.int8)
    order, analysis = live_order(board, 5)
    assert unavoidable_guess(analysis, board, order, 5, RegionCache()) in (5, 6)


def test_unavoidable_guess__a_pseudo_pair_that_may_be_safe_is_guessed_at_once() -> None:
    # One mine among the four hidden cells (by the mine count), walled in by mines: whatever is
    # revealed later counts them together, so the risk has to be taken sooner or later.
    board = np.array([[M, H, H, M], [M, H, H, M]], dtype=np.int8)
    order, analysis = live_order(board, 5)
    assert unavoidable_guess(analysis, board, order, 5, RegionCache()) in (1, 2, 5, 6)


def test_unavoidable_guess__not_when_both_can_be_mines() -> None:
    board = np.array([[M, H, H, M], [M, H, H, M]], dtype=np.int8)
    order, analysis = live_order(board, 6)  # two mines among the four: a pair can hold both
    pairs = list(unavoidable_pairs(analysis, board, order, 6, RegionCache()))
    assert pairs == []


def test_unavoidable_guess__not_when_a_clue_beside_one_of_them_can_still_tell() -> None:
    # The clue (0, 1) covers only (1, 1) and (1, 2) among unknown cells, and neither touches another
    # unknown cell; but the clue (2, 0) touches (1, 1) and not (1, 2), and its other unknown cell
    # (3, 0) is undecided: settling it later tells the two apart (here it already makes (1, 1) the
    # likelier mine). An older, narrower rule took this for a dead 50/50.
    board = np.array(
        [
            [M, 3, 3, M, H, H],
            [M, H, H, M, H, H],
            [3, M, 6, M, H, H],
            [H, H, M, M, H, H],
        ],
        dtype=np.int8,
    )
    total = 11
    order, analysis = live_order(board, total)
    assert analysis.probability[7] != analysis.probability[8]
    pairs = list(unavoidable_pairs(analysis, board, order, total, RegionCache()))
    assert all(7 not in pair and 8 not in pair for pair in pairs)


@pytest.mark.parametrize("seed", range(4))
def test_unavoidable_pairs__are_sound_against_every_layout(seed: int) -> None:
    """Every pair found holds at most one mine, and swapping its two cells in any layout gives a
    layout that fits the board and shows the same number on every other cell: nothing can ever tell
    the two apart."""
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(300):
        board, total = walled_position(rng)
        rows, cols = board.shape
        try:
            order, analysis = live_order(board, total)
        except ValueError:
            continue
        table = neighbour_table(rows, cols)
        fits = set(layouts(board, total))
        for a, b in unavoidable_pairs(analysis, board, order, total, RegionCache()):
            found += 1
            for mines in fits:
                assert not (a in mines and b in mines)
                swapped = frozenset(
                    (mines - {a, b})
                    | ({b} if a in mines else set())
                    | ({a} if b in mines else set())
                )
                assert swapped in fits
                for cell in range(rows * cols):
                    if cell in (a, b) or cell in mines:
                        continue
                    same = sum(n in mines for n in table[cell]) == sum(
                        n in swapped for n in table[cell]
                    )
                    assert same or board.ravel()[cell] == NO_CLUE
    assert found > 0, "the random positions should contain some unavoidable pairs"


def test_analyse_assuming__gives_the_probability_of_the_event() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(200):
        board, total = walled_position(rng)
        try:
            order, analysis = live_order(board, total)
        except ValueError:
            continue
        if len(order) < 2:
            continue
        fits = layouts(board, total)
        a, b = (int(c) for c in rng.choice(order, 2, replace=False))
        expected = sum(1 for mines in fits if a in mines and b not in mines) / len(fits)
        try:
            given = analyse_assuming(analysis, (a,), (b,), total, RegionCache())
            got = math.exp(given.log_layouts - analysis.log_layouts)
        except ValueError:
            got = 0.0
        assert got == pytest.approx(expected, abs=1e-9)
        checked += 1
    assert checked > 50
