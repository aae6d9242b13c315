"""Long-term risk: the part of a cell's risk that a future 50/50 would take anyway.

Two side-by-side unknown cells become an unresolvable 50/50 when exactly one is a mine and every
*enabler* (the on-board cells next to only one of them) is a mine; likewise a 2x2 block with its
mines on a diagonal. In those layouts guessing the cell now loses nothing that waiting would not.

This is David Hill's "50/50 influence" (JSMinesweeper's ``LongTermRiskHelper``): a guess's score
is multiplied by ``1 + INFLUENCE_WEIGHT * I / P(safe)``, where ``I`` (capped at the smaller of
the cell's mine and safe probabilities) is ``max(H(c, right), H(c, left)) + max(V(c, down),
V(c, up)) + max over the four 2x2 blocks holding c + E(c)``: the exact probabilities that each
pattern forms with ``c`` as its mine (no enabler revealed, at most ``OWN_MISSING`` enablers not
yet mines), and ``E(c)`` the patterns that need only ``c`` as their last mine, where that exceeds
``ENABLER_THRESHOLD``. Probabilities come from :func:`agents.solver.probability.analyse_assuming`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import product

import numpy as np

from agents.solver.probability import Analysis, RegionCache, analyse_assuming
from agents.solver.unavoidable import mute_cells
from mswp_gym.cells import neighbour_sets

INFLUENCE_WEIGHT = 0.9
"""How much of the 50/50 influence counts in the guess score (Hill's figure)."""
OWN_MISSING = 3
"""A candidate's own would-be 50/50 may still need this many enabler mines."""
ENABLER_THRESHOLD = 0.025
"""A would-be 50/50 credits the one enabler it still needs only above this probability (Hill's)."""

_Pattern = tuple[tuple[int, ...], tuple[int, ...]]
"""``(mines, safe)``: the cells that must be mines and safe for a 50/50 to have formed."""


class LongTermRisk:
    """Counts the 50/50 influence of the cells of one position (probabilities cached).

    Args:
        analysis: The analysis of the position.
    """

    def __init__(
        self, analysis: Analysis, board: np.ndarray, total_mines: int, cache: RegionCache
    ) -> None:
        self.analysis = analysis
        self.total_mines = total_mines
        self.cache = cache
        position = analysis.position
        self.rows, self.cols = position.rows, position.cols
        self.mute = mute_cells(analysis, board)
        self.unknown = frozenset(position.unknown)
        self.around = neighbour_sets(self.rows, self.cols)
        self.mines_left = position.mines_left - len(analysis.mines)
        self._probabilities: dict[_Pattern, float] = {}

    # ------------------------------------------------------------------ public
    def influence(self, cell: int) -> float:
        """The probability of the layouts where ``cell`` is the mine of a would-be 50/50 (module
        docstring), capped at the smaller of its mine and safe probabilities."""
        p = float(self.analysis.probability[cell])
        if not 0.0 < p < 1.0 or not self._undecided(cell):
            return 0.0
        row, col = divmod(cell, self.cols)
        horizontal = self._likeliest(self._pair(cell, (row, col + d), OWN_MISSING) for d in (1, -1))
        vertical = self._likeliest(self._pair(cell, (row + d, col), OWN_MISSING) for d in (1, -1))
        corners = ((row - 1, col - 1), (row - 1, col), (row, col - 1), (row, col))
        block = self._likeliest(self._block(t, left, cell, OWN_MISSING) for t, left in corners)
        total = horizontal + vertical + block + self._enabled(cell)
        return min(total, p, 1.0 - p)

    def factor(self, cell: int) -> float:
        """``1 + INFLUENCE_WEIGHT * influence / P(safe)``: the multiplier of the cell's score."""
        safe = 1.0 - float(self.analysis.probability[cell])
        if safe <= 0.0:
            return 1.0
        return 1.0 + INFLUENCE_WEIGHT * self.influence(cell) / safe

    def _likeliest(self, patterns: Iterable[_Pattern | None]) -> float:
        """The highest :meth:`_probability` among ``patterns`` that exist (None: not one), or 0."""
        return max((self._probability(p) for p in patterns if p is not None), default=0.0)

    # ----------------------------------------------------------------- geometry
    def _inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def _undecided(self, cell: int) -> bool:
        return cell in self.unknown and cell not in self.mute and cell not in self.analysis.safe

    def _missing(self, enablers: Iterable[int], limit: int) -> list[int] | None:
        """The ``enablers`` (on-board cells) not yet mines; None if one is revealed with a clue (it
        would tell the pattern's cells apart) or more than ``limit`` are missing."""
        missing: list[int] = []
        for cell in enablers:
            if cell in self.mute:
                continue
            if cell not in self.unknown:
                return None
            missing.append(cell)
            if len(missing) > limit:
                return None
        return missing

    def _pair(self, cell: int, other: tuple[int, int], limit: int) -> _Pattern | None:
        """The 50/50 of ``cell`` and its orthogonal neighbour ``other``, its mine on ``cell``."""
        if not self._inside(*other) or not self._undecided(cell):
            return None
        partner = other[0] * self.cols + other[1]
        if not self._undecided(partner):
            return None
        # the cells next to exactly one of the two (as in unavoidable._indistinguishable)
        beyond = (self.around[cell] ^ self.around[partner]) - {cell, partner}
        missing = self._missing(beyond, limit)
        if missing is None or len(missing) + 1 > self.mines_left:
            return None
        return (cell, *missing), (partner,)

    def _block(self, top: int, left: int, cell: int, limit: int) -> _Pattern | None:
        """The diagonal 50/50 of the 2x2 block at ``(top, left)`` with a mine on ``cell``."""
        if not (self._inside(top, left) and self._inside(top + 1, left + 1)):
            return None
        block = [(top + r) * self.cols + left + c for r in (0, 1) for c in (0, 1)]
        if cell not in block or not all(self._undecided(b) for b in block):
            return None
        corners = [
            r * self.cols + c
            for r in (top - 1, top + 2)
            for c in (left - 1, left + 2)
            if self._inside(r, c)
        ]
        missing = self._missing(corners, limit)
        if missing is None or len(missing) + 2 > self.mines_left:
            return None
        index = block.index(cell)
        partner = block[3 - index]
        others = tuple(b for b in block if b not in (cell, partner))
        return (cell, partner, *missing), others

    def _enabled(self, cell: int) -> float:
        """``E(cell)``: the summed probability of the would-be 50/50s that need ``cell`` as their
        one missing mine, each counted only above ``ENABLER_THRESHOLD``.

        Such a 50/50 lies beyond ``cell``: a pair two cells long one or two steps to its side (in
        the three rows or columns through and beside it), or a 2x2 block diagonally beyond it.
        """
        row, col = divmod(cell, self.cols)
        found: list[_Pattern | None] = []
        for d in (-1, 0, 1):
            for near in (1, -2):  # the pair's first cell: just beyond, or two steps before
                first = (row + d) * self.cols + col + near
                if self._inside(row + d, col + near) and self._inside(row + d, col + near + 1):
                    found.append(self._pair(first, (row + d, col + near + 1), 1))
                first = (row + near) * self.cols + col + d
                if self._inside(row + near, col + d) and self._inside(row + near + 1, col + d):
                    found.append(self._pair(first, (row + near + 1, col + d), 1))
        for top, left in product((row + 1, row - 2), (col + 1, col - 2)):
            if self._inside(top, left):
                found.append(self._block(top, left, top * self.cols + left, 1))
        total = 0.0
        for pattern in found:
            if pattern is None or pattern[0][-1] != cell or cell in pattern[1]:
                continue
            own = 2 if len(pattern[1]) == 2 else 1
            if len(pattern[0]) != own + 1:
                continue
            probability = self._probability(pattern)
            if probability > ENABLER_THRESHOLD:
                total += probability
        return total

    # ------------------------------------------------------------------ counting
    def _probability(self, pattern: _Pattern) -> float:
        """The probability that the pattern's mines are mines and its safe cells safe."""
        key = (tuple(sorted(pattern[0])), tuple(sorted(pattern[1])))
        if key in self._probabilities:
            return self._probabilities[key]
        probability = self.analysis.probability
        value = 0.0
        if all(float(probability[m]) > 0.0 for m in key[0]) and all(
            float(probability[s]) < 1.0 for s in key[1]
        ):
            try:
                given = analyse_assuming(
                    self.analysis, key[0], key[1], self.total_mines, self.cache
                )
                value = math.exp(given.log_layouts - self.analysis.log_layouts)
            except ValueError:
                value = 0.0
        self._probabilities[key] = value
        return value
