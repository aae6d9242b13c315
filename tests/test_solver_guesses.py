"""The solver's guess rules: unavoidable 50/50s (and pseudo-50/50s), long-term 50/50 influence."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from positions import random_position

from agents.solver.probability import RegionCache, analyse, analyse_assuming
from agents.solver.unavoidable import pseudo_box_cells, unavoidable_guess, unavoidable_pairs
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, MINE, NO_CLUE

M, H = MINE, HIDDEN


def layouts(board: np.ndarray, total_mines: int) -> list[frozenset[int]]:
    """Every set of mine cells (visible mines included) consistent with ``board``."""
    rows, cols = board.shape
    flat = board.ravel().tolist()
    unknown = [i for i, v in enumerate(flat) if v == HIDDEN]
    known = {i for i, v in enumerate(flat) if v == MINE}
    table = neighbour_table(rows, cols)
    clues = [(i, v) for i, v in enumerate(flat) if v >= 0]
    found = []
    for chosen in itertools.combinations(unknown, total_mines - len(known)):
        mines = set(chosen) | known
        if all(sum(n in mines for n in table[i]) == v for i, v in clues):
            found.append(frozenset(mines))
    return found


def small_position(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A small position with many mines shown as known (so that walled-in pairs occur), no flags."""
    board, total, _ = random_position(
        rng, max_rows=4, reveal=0.5, shown_mines=0.4, mine_code=MINE, flags=0.0
    )
    return board, total


def live_order(board: np.ndarray, total: int) -> tuple[list[int], object]:
    analysis = analyse(board, total)
    order = [c for c in analysis.position.unknown if 0.0 < analysis.probability[c] < 1.0]
    return order, analysis


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
        board, total = small_position(rng)
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


# A 2x2 block in the corner, walled in by the board's edges and a mine at (2, 2): the clues beside
# it see only its right column and its bottom row (one mine each), so the two diagonal layouts fit
# and nothing can ever tell them apart. The pair rule misses it: every pair of the block has a
# clue beside only one of its two cells.
BOX_5050 = np.array([[H, H, 1], [H, H, 2], [1, 2, M]], dtype=np.int8)


def test_pseudo_box_cells__a_walled_in_diagonal_5050_is_found_by_the_box_rule_only() -> None:
    order, analysis = live_order(BOX_5050, 3)
    assert list(unavoidable_pairs(analysis, BOX_5050, order, 3, RegionCache())) == []
    assert unavoidable_guess(analysis, BOX_5050, order, 3, RegionCache()) is None
    found = list(pseudo_box_cells(analysis, BOX_5050, order, 3, RegionCache()))
    assert sorted(cell for cell, _ in found) == [0, 1, 3, 4]
    assert {block for _, block in found} == {(0, 1, 3, 4)}
    assert unavoidable_guess(analysis, BOX_5050, order, 3, RegionCache(), boxes=True) == order[0]


def test_pseudo_box_cells__a_cell_that_is_a_mine_only_on_its_diagonal() -> None:
    # Three mines: the block holds two, on either diagonal, or one elsewhere; (0, 0) and (1, 1)
    # are mines only together (the other diagonal's cells can be mines alone, with a mine on
    # (0, 2) or (2, 0)).
    board = np.array([[H, H, H], [H, H, 2], [H, 2, M]], dtype=np.int8)
    order, analysis = live_order(board, 3)
    found = list(pseudo_box_cells(analysis, board, order, 3, RegionCache()))
    assert sorted(cell for cell, _ in found) == [0, 4]


def test_pseudo_box_cells__not_when_a_corner_cell_can_still_show_a_number() -> None:
    # Two clues of 1 and two mines in all: a mine on (0, 0) leaves one mine for both clues, so it
    # must be (1, 1), the diagonal. But the corner (2, 2) is still undecided, and once revealed
    # its number counts (1, 1) without (0, 0)'s other diagonal: the block is not walled in.
    open_corner = np.array([[H, H, 1], [H, H, H], [1, H, H]], dtype=np.int8)
    order, analysis = live_order(open_corner, 2)
    assert list(pseudo_box_cells(analysis, open_corner, order, 2, RegionCache())) == []
    walled = open_corner.copy()
    walled[2, 2] = M
    order, analysis = live_order(walled, 3)
    found = list(pseudo_box_cells(analysis, walled, order, 3, RegionCache()))
    assert sorted(cell for cell, _ in found) == [0, 4]


@pytest.mark.parametrize("seed", range(2))
def test_pseudo_box_cells__are_sound_against_every_layout(seed: int) -> None:
    """In every layout where a found cell is a mine, its block holds exactly its diagonal, and the
    other diagonal instead gives a layout that fits the board: a found cell is safe or one side of
    a 50/50 that nothing can resolve."""
    rng = np.random.default_rng(seed)
    found = 0
    for _ in range(2000):
        board, total, _ = random_position(
            rng, max_rows=5, reveal=0.5, shown_mines=0.4, mine_code=MINE, flags=0.0
        )
        try:
            order, analysis = live_order(board, total)
        except ValueError:
            continue
        for cell, block in pseudo_box_cells(analysis, board, order, total, RegionCache()):
            found += 1
            opposite = block[3 - block.index(cell)]
            others = {c for c in block if c not in (cell, opposite)}
            fits = set(layouts(board, total))
            for mines in fits:
                if cell in mines:
                    assert opposite in mines and not others & mines
                    assert (mines - {cell, opposite}) | others in fits
    assert found > 0, "the random positions should contain some pseudo-50/50 blocks"


def test_analyse_assuming__gives_the_probability_of_the_event() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(200):
        board, total = small_position(rng)
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
