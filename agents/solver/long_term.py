"""Long-term risk: the part of a cell's risk that a future 50/50 would take anyway.

Two side-by-side unknown cells ``a``, ``b`` become an unresolvable 50/50 when exactly one of them is a
mine and every cell next to only one of them (the six cells beside the pair; off-board cells don't
count) is a mine. In the layouts where that happens, the pair costs a coin flip sooner or later
whatever is played now: guessing ``a`` first loses in the half of those layouts where ``a`` is the
mine, and so would waiting. So a guess's *avoidable* risk is its mine probability minus the
probability of the layouts where it is the mine of such a future 50/50. The same holds for a 2x2 block
with its mines on a diagonal (the four diagonal corner cells beside it must be mines), and for an
*enabler*: a cell beside a would-be 50/50 that must be a mine for it to form (if it is one, the 50/50
costs the same coin flip later).

This is JSMinesweeper's "50/50 influence" (its ``LongTermRiskHelper``): the guess score is multiplied
by ``1 + INFLUENCE_WEIGHT * influence / P(safe)``. Only would-be 50/50s with no revealed cell beside
them and few cells still to become mines are considered (more would be both unlikely and costly to
count).
"""

from __future__ import annotations

import math

import numpy as np

from agents.solver.probability import Analysis, RegionCache, analyse_assuming
from mswp_gym.constants import NO_CLUE

INFLUENCE_WEIGHT = 0.9
"""How much of the 50/50 influence counts in the guess score (JSMinesweeper's figure)."""
OWN_PAIR_MISSING = 3
"""A candidate's own would-be 50/50 pair may still need this many mines beside it."""
OWN_BOX_MISSING = 3
"""A candidate's own would-be 2x2 50/50 may still need this many corner mines."""
ENABLER_MISSING = 1
"""A would-be 50/50 credits the cell it still needs as a mine only if that is the only one."""


class LongTermRisk:
    """Counts the 50/50 influence of cells of one position (results cached per call site).

    Args:
        analysis: The analysis of the position.
        board: ``(rows, cols)`` visible board.
        total_mines: Mines on the board.
        cache: Region cache shared with the caller.
    """

    def __init__(self, analysis: Analysis, board: np.ndarray, total_mines: int, cache: RegionCache) -> None:
        self.analysis = analysis
        self.total_mines = total_mines
        self.cache = cache
        position = analysis.position
        self.rows, self.cols = position.rows, position.cols
        self.known_mines = analysis.mines | analysis.visible_mines
        self.mute = frozenset(np.flatnonzero(board.ravel() == NO_CLUE).tolist())
        self.unknown = frozenset(position.unknown)
        self.mines_left = position.mines_left - len(analysis.mines)
        self._tallies: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}

    # ------------------------------------------------------------------ public
    def influence(self, cell: int) -> float:
        """The probability of the layouts where ``cell`` is a mine that a future 50/50 would cost anyway.

        Capped at the smaller of the cell's mine and safe probabilities.
        """
        p = float(self.analysis.probability[cell])
        if not 0.0 < p < 1.0:
            return 0.0
        row, col = divmod(cell, self.cols)
        total = 0.0
        for partner in self._orthogonal(row, col):
            found = self._pair(cell, partner, OWN_PAIR_MISSING)
            if found is not None:
                mines, safe = found
                total += self._tally((cell, *mines), (partner, *safe))
        best_box = 0.0
        for top, left in ((row - 1, col - 1), (row - 1, col), (row, col - 1), (row, col)):
            found = self._box(top, left, cell, OWN_BOX_MISSING)
            if found is not None:
                best_box = max(best_box, self._tally(*found))
        total += best_box
        total += self._enabler_influence(row, col, cell)
        return min(total, p, 1.0 - p)

    def score_factor(self, cell: int) -> float:
        """``1 + INFLUENCE_WEIGHT * influence / P(safe)``: the multiplier of the cell's guess score."""
        safe = 1.0 - float(self.analysis.probability[cell])
        if safe <= 0.0:
            return 1.0
        return 1.0 + INFLUENCE_WEIGHT * self.influence(cell) / safe

    # ----------------------------------------------------------------- geometry
    def _inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def _hidden(self, cell: int) -> bool:
        return cell in self.unknown and cell not in self.known_mines

    def _orthogonal(self, row: int, col: int) -> list[int]:
        out = []
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if self._inside(row + dr, col + dc):
                cell = (row + dr) * self.cols + col + dc
                if self._hidden(cell):
                    out.append(cell)
        return out

    def _beside(self, cells: list[tuple[int, int]], limit: int) -> list[int] | None:
        """The cells of ``cells`` (on the board) still needed as mines, or None if one is revealed or
        more than ``limit`` are needed."""
        needed: list[int] = []
        for row, col in cells:
            if not self._inside(row, col):
                continue
            cell = row * self.cols + col
            if cell in self.known_mines or cell in self.mute:
                continue
            if cell not in self.unknown:
                return None  # revealed: it tells the two apart
            needed.append(cell)
            if len(needed) > limit:
                return None
        return needed

    def _pair(self, a: int, b: int, limit: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """For the side-by-side pair ``a``, ``b``: the cells that must be mines (beside it) for the pair
        to be a 50/50 with its mine on ``a``, and the cells that must be safe, or None."""
        ra, ca = divmod(a, self.cols)
        rb, cb = divmod(b, self.cols)
        if ra == rb:
            low, high = min(ca, cb), max(ca, cb)
            beside = [(ra + d, low - 1) for d in (-1, 0, 1)] + [(ra + d, high + 1) for d in (-1, 0, 1)]
        else:
            low, high = min(ra, rb), max(ra, rb)
            beside = [(low - 1, ca + d) for d in (-1, 0, 1)] + [(high + 1, ca + d) for d in (-1, 0, 1)]
        needed = self._beside(beside, limit)
        if needed is None or len(needed) + 1 > self.mines_left:
            return None
        return tuple(needed), ()

    def _box(self, top: int, left: int, cell: int, limit: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """For the 2x2 block at ``(top, left)`` containing ``cell``: the mines (``cell``, its diagonal
        partner, the needed corner cells) and safe cells (the other diagonal) of a diagonal 50/50."""
        if not (self._inside(top, left) and self._inside(top + 1, left + 1)):
            return None
        block = [(top + r) * self.cols + left + c for r in (0, 1) for c in (0, 1)]
        if not all(self._hidden(b) for b in block):
            return None
        corners = [(top - 1, left - 1), (top - 1, left + 2), (top + 2, left - 1), (top + 2, left + 2)]
        needed = self._beside(corners, limit)
        if needed is None or len(needed) + 2 > self.mines_left:
            return None
        index = block.index(cell)
        partner = block[3 - index]
        others = tuple(b for b in block if b not in (cell, partner))
        return (cell, partner, *needed), others

    def _enabler_influence(self, row: int, col: int, cell: int) -> float:
        """Influence from the would-be 50/50 pairs that need ``cell`` (and nothing else) as a mine."""
        total = 0.0
        for offset in (-1, 0, 1):
            for near, far in ((1, 2), (-2, -1)):
                # the pair beside the cell's column (side by side in a row), then beside its row
                for (a_row, a_col), (b_row, b_col) in (
                    ((row + offset, col + near), (row + offset, col + far)),
                    ((row + near, col + offset), (row + far, col + offset)),
                ):
                    if self._inside(a_row, a_col) and self._inside(b_row, b_col):
                        total += self._enabled(a_row * self.cols + a_col, b_row * self.cols + b_col, cell)
        return total

    def _enabled(self, a: int, b: int, cell: int) -> float:
        if not (self._hidden(a) and self._hidden(b)):
            return 0.0
        found = self._pair(a, b, ENABLER_MISSING)
        if found is None or found[0] != (cell,):
            return 0.0
        return self._tally((a, cell), (b,))

    # ------------------------------------------------------------------ counting
    def _tally(self, mines: tuple[int, ...], safe: tuple[int, ...]) -> float:
        """The probability that every cell of ``mines`` is a mine and every cell of ``safe`` is safe."""
        key = (tuple(sorted(mines)), tuple(sorted(safe)))
        if key in self._tallies:
            return self._tallies[key]
        probability = self.analysis.probability
        value = 0.0
        if all(float(probability[m]) > 0.0 for m in mines) and all(float(probability[s]) < 1.0 for s in safe):
            try:
                given = analyse_assuming(self.analysis, key[0], key[1], self.total_mines, self.cache)
                value = math.exp(given.log_layouts - self.analysis.log_layouts)
            except ValueError:
                value = 0.0
        self._tallies[key] = value
        return value
