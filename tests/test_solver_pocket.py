"""Isolated pockets and the ``defer_pockets`` guess variant (measured, see docs/solver.md)."""

from __future__ import annotations

import numpy as np

from agents.solver.guess import _deferring_pockets
from agents.solver.pocket import isolated_pockets, uncertain_pocket_cells
from agents.solver.probability import analyse
from mswp_gym.constants import HIDDEN

H = HIDDEN

# Columns 2-5 are revealed, so the hidden columns 0-1 and 6 are two parts that no reveal in one can
# inform about the other. Left: one mine in column 1, column 0 under no clue (its count is open).
# Right: exactly one mine in column 6 (its count is fixed by its clues).
TWO_POCKETS = np.array(
    [
        [H, H, 1, 0, 0, 1, H],
        [H, H, 1, 0, 0, 1, H],
    ],
    dtype=np.int8,
)


def test_pockets_are_the_parts_no_outside_reveal_informs() -> None:
    analysis = analyse(TWO_POCKETS, 3)
    assert sorted(isolated_pockets(analysis)) == [(0, 1, 7, 8), (6, 13)]


def test_only_the_pocket_whose_mine_count_is_open_is_uncertain() -> None:
    assert uncertain_pocket_cells(analyse(TWO_POCKETS, 3)) == frozenset({0, 1, 7, 8})


def test_one_part_is_no_pocket() -> None:
    board = np.array([[H, H, 1, 0], [H, H, 1, 0]], dtype=np.int8)
    assert isolated_pockets(analyse(board, 1)) == []


def test_deferring_moves_the_best_cell_outside_open_pockets_first() -> None:
    analysis = analyse(TWO_POCKETS, 3)
    # (dead, -score, risk, openness, cell): cell 1 (open pocket) scores best, cell 6 is outside it
    scored = [(False, -0.9, 0.5, 3, 1), (False, -0.8, 0.52, 3, 6), (False, -0.7, 0.5, 3, 8)]
    assert _deferring_pockets(scored, analysis, 0.05)[0][4] == 6
    assert _deferring_pockets(scored, analysis, 0.01) == scored  # 0.52 is more than 0.01 riskier
    fixed_first = [scored[1], scored[0], scored[2]]
    assert _deferring_pockets(fixed_first, analysis, 0.05) == fixed_first
