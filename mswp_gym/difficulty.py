"""How hard a board is: its 3BV and its openings.

An **opening** is a connected region of zero cells (safe cells with no mine around them; cells
touching on a side or a corner are connected) together with its border: one click on any of its
zeros reveals all of it. The **3BV** (Bechtel's Board Benchmark Value) is the least number of
clicks that reveal every safe cell without flags: one per opening, plus one per safe cell that no
opening reveals (a clue with no zero neighbour). It is the standard difficulty figure of
Minesweeper boards, as ms-toollib's ``cal_bbbv`` computes it.

Both work on the bit layout of :mod:`mswp_gym.deduction`: a whole-board step is a few shifts, so
an opening is flooded in as many steps as it is wide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.deduction import grid


@dataclass(frozen=True)
class Difficulty:
    """The difficulty figures of one layout."""

    bbbv: int
    """3BV: the least number of clicks that clear the board."""
    openings: int
    """Number of openings (connected regions of zero cells)."""


def difficulty(layout: np.ndarray) -> Difficulty:
    """The 3BV and the openings of ``layout``.

    Args:
        layout: ``(rows, cols)`` bool (or 0/1), the mines.
    """
    mines = np.asarray(layout, dtype=bool)
    g = grid(*mines.shape)
    bits = g.to_bits(mines)
    safe = g.valid & ~bits
    zeros = safe & ~g.spread(bits)
    lone = safe & ~g.spread(zeros)  # clues that no opening reveals
    openings = 0
    w = g.width
    while zeros:
        region = zeros & -zeros  # the lowest zero left: flood its opening's zeros
        while True:
            h = region | region << 1 | region >> 1
            grown = (h | h << w | h >> w) & zeros
            if grown == region:
                break
            region = grown
        zeros ^= region
        openings += 1
    return Difficulty(bbbv=openings + lone.bit_count(), openings=openings)


def bbbv(layout: np.ndarray) -> int:
    """The 3BV of ``layout`` (see :func:`difficulty`)."""
    return difficulty(layout).bbbv
