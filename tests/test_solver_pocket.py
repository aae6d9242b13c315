"""Isolated pockets: found where nothing outside can inform them, weighted and searched exactly."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from positions import random_position
from test_solver_guesses import layouts as brute_force_layouts

from agents.solver import SolverAgent
from agents.solver.endgame import WinSearch
from agents.solver.pocket import isolated_pockets, pocket_move, weighted_layouts
from agents.solver.probability import RegionCache, analyse
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, MINE, NO_CLUE
from mswp_gym.spec import GameSpec

M, H, N = MINE, HIDDEN, NO_CLUE


def test_isolated_pockets__walled_in_areas_are_pockets() -> None:
    board = np.array(
        [
            [H, H, M, H, H, H],
            [H, H, M, H, H, H],
            [M, M, M, H, H, H],
        ],
        dtype=np.int8,
    )
    analysis = analyse(board, 8)
    assert sorted(isolated_pockets(analysis)) == [(0, 1, 6, 7), (3, 4, 5, 9, 10, 11, 15, 16, 17)]
    assert isolated_pockets(analysis, max_cells=5) == [(0, 1, 6, 7)]


def test_isolated_pockets__a_clue_between_two_areas_joins_them() -> None:
    # (0, 0) and (0, 2) do not touch, but the clue (0, 1) counts them together
    assert isolated_pockets(analyse(np.array([[H, 1, H, H]], dtype=np.int8), 1)) == []
    # a revealed cell without a clue does not
    pockets = isolated_pockets(analyse(np.array([[H, N, H, H]], dtype=np.int8), 1))
    assert sorted(pockets) == [(0,), (2, 3)]


def test_isolated_pockets__none_while_one_area_is_left() -> None:
    board = np.array([[H, H, 1, 0], [H, H, 1, 0]], dtype=np.int8)
    assert isolated_pockets(analyse(board, 2)) == []


def _pocket_positions(count: int) -> list[tuple[np.ndarray, int, tuple[int, ...]]]:
    """Random small positions with at least one pocket (and their first pocket)."""
    rng = np.random.default_rng(5)
    found = []
    while len(found) < count:
        board, total, _ = random_position(
            rng, max_rows=5, reveal=0.5, shown_mines=0.4, mine_code=MINE, flags=0.0
        )
        if (board == HIDDEN).sum() > 14:
            continue
        pockets = isolated_pockets(analyse(board, total))
        if pockets:
            found.append((board, total, pockets[0]))
    return found


_CASES = _pocket_positions(40)


@pytest.mark.parametrize("case", range(len(_CASES)))
def test_weighted_layouts__match_the_whole_boards_layouts(case: int) -> None:
    board, total, cells = _CASES[case]
    analysis = analyse(board, total)
    weights = weighted_layouts(analysis, board, total, RegionCache(), cells)
    assert weights is not None
    counts: Counter[int] = Counter()
    for mines in brute_force_layouts(board, total):
        counts[sum(1 << i for i, c in enumerate(cells) if c in mines)] += 1
    assert set(weights) == set(counts)
    top = max(counts.values())
    for layout, weight in weights.items():
        assert weight == pytest.approx(counts[layout] / top, rel=1e-9)


def test_pocket_move__its_chance_is_that_of_the_brute_force_search() -> None:
    checked = 0
    for board, total, _pocket in _CASES:
        analysis = analyse(board, total)
        legal = (board == HIDDEN).ravel()
        if analysis.safe:
            continue  # the player reveals certain cells before it looks for pockets
        move = pocket_move(analysis, board, total, legal, RegionCache())
        if move is None:
            continue
        counts: Counter[int] = Counter()
        for mines in brute_force_layouts(board, total):
            counts[sum(1 << i for i, c in enumerate(move.cells) if c in mines)] += 1
        rows, cols = board.shape
        table = neighbour_table(rows, cols)
        bit = {c: 1 << i for i, c in enumerate(move.cells)}
        around = [sum(bit[n] for n in table[c] if n in bit) for c in move.cells]
        search = WinSearch(around, list(range(len(move.cells))), weights=dict(counts))
        best, _ = search.best_move(tuple(sorted(counts)))
        assert move.win == pytest.approx(best, abs=1e-12)
        assert move.cell in move.cells and legal[move.cell]
        assert 0.0 < analysis.probability[move.cell] < 1.0
        checked += 1
    assert checked >= 5


def test_solver__plays_a_walled_in_pocket_before_guessing_elsewhere() -> None:
    # A 2x2 pocket walled in by known mines, beside a large open area that the endgame search
    # cannot list: the pocket is searched on its own and played first.
    rows, cols = 8, 12
    board = np.full((rows, cols), HIDDEN, dtype=np.int8)
    board[:3, 2] = MINE
    board[2, :3] = MINE
    spec = GameSpec(rows=rows, cols=cols, mines=20)
    agent = SolverAgent(seed=0, spec=spec)
    agent.reset(seed=0, spec=spec)
    legal = (board == HIDDEN).ravel()
    cell = agent.act(board, legal)
    assert cell in (0, 1, cols, cols + 1)
    move = agent.explain().move
    assert move["reason"] == "pocket"
    assert 0.0 < move["win"] < 1.0
    off = SolverAgent(seed=0, spec=spec, pocket_layouts=0)
    off.reset(seed=0, spec=spec)
    off.act(board, legal)
    assert off.explain().move["reason"] != "pocket"
    assert not math.isnan(move["risk"])
