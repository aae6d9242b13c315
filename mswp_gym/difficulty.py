"""How hard a board is: its 3BV and its openings.

An **opening** is a connected region of zero cells with its border (one click reveals it). The
**3BV** (Bechtel's Board Benchmark Value) is the least number of clicks that reveal every safe
cell without flags: one per opening, plus one per safe cell no opening reveals (as ms-toollib's
``cal_bbbv``). Both work on the bit layout of :mod:`mswp_gym.deduction`. The envs put the layout,
not its 3BV, in an episode's final info: ``bbbv(info["layout"])`` computes it where it is wanted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.deduction import grid
from mswp_gym.generators import layout_values


@dataclass(frozen=True)
class Difficulty:
    """The difficulty figures of one layout."""

    bbbv: int
    """3BV: the least number of clicks that clear the board."""
    openings: int
    """Number of openings (connected regions of zero cells)."""


def difficulty(layout: np.ndarray) -> Difficulty:
    """The 3BV and the openings of ``layout`` (``(rows, cols)`` bool or 0/1 mines).

    Raises:
        ValueError: a layout that is not a non-empty 2-D array, or holds a value other than 0/1.
    """
    mines = np.asarray(layout)
    if mines.ndim != 2 or mines.size == 0:
        raise ValueError(f"a layout must be a non-empty 2-D array, got shape {mines.shape}")
    mines = layout_values(mines)
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
