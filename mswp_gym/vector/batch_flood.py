"""Flood fill for a batch of boards: which cells a click on a zero opens, for many boards at once.

Same contract as :mod:`mswp_gym.floodfill`. Every implementation grows each board's region one
ring at a time (iterative dilation), so a call costs as many rounds as the deepest region:

* :func:`flood_bigint` (default): every board as a bit grid with a one-bit frame, all boards end to
  end in one Python integer; a round is eight shifts/ands/ors. Any board width.
* :func:`flood_dense`: bool arrays, any width (the plain reference).

A revealed zero always has its neighbours revealed, so growing through it opens nothing new; the
caller keeps only the cells not yet revealed.
"""

from __future__ import annotations

import numpy as np


def flood_bigint(zero: np.ndarray, starts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Cells opened by clicking ``starts`` (safe zeros), one click per board, on one big integer.

    Board ``b``'s cell ``(r, c)`` is bit ``(b * (rows + 2) + r + 1) * (cols + 1) + c``: every row
    has one spare bit on its right (which is also the left neighbour of the next row's first
    cell) and every board a spare row above and below. Spare bits are never zeros, so growth
    stops at them: no bounds checks, and boards never touch.

    Returns ``(k, rows*cols)`` bool: the zero region (of ``zero``) of each click and its border.
    """
    k = zero.shape[0]
    height, width = rows + 2, cols + 1
    grid = np.zeros((k, height, width), dtype=bool)
    grid[:, 1:-1, :cols] = zero.reshape(k, rows, cols)
    zeros = _to_int(grid)
    grid[:, 1:-1, :cols] = False
    start_row, start_col = np.divmod(starts, cols)
    grid[np.arange(k), start_row + 1, start_col] = True
    region = _to_int(grid)
    while True:
        seeds = region & zeros
        across = seeds | (seeds << 1) | (seeds >> 1)
        grown = region | across | (across << width) | (across >> width)
        if grown == region:
            break
        region = grown
    bits = k * height * width
    raw = np.frombuffer(region.to_bytes(bits // 8 + 2, "little"), dtype=np.uint8)
    cells = np.unpackbits(raw, count=bits, bitorder="little").view(bool)
    return cells.reshape(k, height, width)[:, 1:-1, :cols].reshape(k, rows * cols)


def _to_int(grid: np.ndarray) -> int:
    """The bool array ``grid``, flattened, as the bits of one non-negative integer (bit i = i)."""
    return int.from_bytes(np.packbits(grid.reshape(-1), bitorder="little").tobytes(), "little")


def flood_dense(zero: np.ndarray, starts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """:func:`flood_bigint` on bool arrays (the plain reference)."""
    k = zero.shape[0]
    zeros = np.zeros((k, rows + 2, cols + 2), dtype=bool)
    zeros[:, 1:-1, 1:-1] = zero.reshape(k, rows, cols)
    region = np.zeros((k, rows + 2, cols + 2), dtype=bool)
    start_row, start_col = np.divmod(starts, cols)
    region[np.arange(k), start_row + 1, start_col + 1] = True
    done = region.copy()
    active = np.arange(k)
    while active.size:
        seeds = region & zeros
        across = seeds[:, :, :-2] | seeds[:, :, 1:-1] | seeds[:, :, 2:]
        block = across[:, :-2] | across[:, 1:-1] | across[:, 2:]
        grown = region.copy()
        grown[:, 1:-1, 1:-1] |= block
        growing = (grown != region).any(axis=(1, 2))
        finished = ~growing
        if finished.any():
            done[active[finished]] = grown[finished]
            active = active[growing]
            grown = grown[growing]
            zeros = zeros[growing]
        region = grown
    return done[:, 1:-1, 1:-1].reshape(k, rows * cols)
