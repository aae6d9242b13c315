"""Exact grades of moves for the text env: from the visible board only, never the layout.

``TextMinesweeperEnv(reward_mode="graded", grader=ExactGrader())`` (or through
``gym.make("Minesweeper-Text-v0", ...)``) grades each move by the exact mine probabilities of
:func:`agents.solver.probability.analyse`, the solver's engine: a cell is certain exactly when
every layout consistent with the clues and the mine count agrees.
"""

from __future__ import annotations

import numpy as np

from agents.solver.probability import RegionCache, analyse
from mswp_gym.constants import is_unknown
from mswp_gym.text.env import Grade


class ExactGrader:
    """The :class:`~mswp_gym.text.env.Grader` of exact probabilities, with a per-game cache."""

    def __init__(self) -> None:
        self.cache = RegionCache()

    def reset(self) -> None:
        """A new game: a fresh region cache."""
        self.cache = RegionCache()

    def grade(self, board: np.ndarray, mines: int, row: int, col: int) -> Grade:
        """The exact :class:`~mswp_gym.text.env.Grade` of ``(row, col)`` on ``board``."""
        analysis = analyse(board, mines, self.cache)
        index = row * board.shape[1] + col
        unknown = analysis.probability[is_unknown(board).ravel()]
        best = 1.0 - float(unknown.min()) if unknown.size else 1.0
        p_mine = float(analysis.probability[index])
        return Grade(p_mine, index in analysis.safe, index in analysis.mines, best)
