"""Opening a safe cell: a zero opens its whole zero region and that region's border.

Three implementations with one contract, chosen by board size (a byte-per-cell integer, a walk
with a neighbour table, NumPy layers). :func:`flood_region` returns the cells to open; flags never
block the cascade.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mswp_gym.cells import SMALL_BOARD_CELLS, neighbour_table
from mswp_gym.choices import FloodMethod

TINY_BOARD_CELLS = 128
"""Boards with at most this many cells use the integer rings (``"rings"``); up to
:data:`~mswp_gym.cells.SMALL_BOARD_CELLS` the walk, beyond it the layers."""

METHODS: tuple[str, ...] = tuple(m.value for m in FloodMethod)
"""The flood-fill implementations, all with the same result."""

_ZERO_BYTE = bytes([1] + [0] * 255)
"""``bytes.translate`` table: a clue byte 0 becomes 1, any other becomes 0."""


def flood_region(
    counts: np.ndarray,
    revealed: np.ndarray,
    row: int,
    col: int,
    *,
    count_bytes: bytes | None = None,
    method: str | None = None,
) -> np.ndarray:
    """The cells a click on the hidden safe cell ``(row, col)`` opens; changes nothing.

    A clue opens only itself; a zero opens its whole zero region and that region's border, less
    the cells already revealed.

    Args:
        counts: ``(rows, cols)`` int8 neighbouring-mine counts.
        revealed: ``(rows, cols)`` bool, the open cells; ``(row, col)`` must not be one.
        count_bytes: ``counts.tobytes()``, if the caller keeps one.
        method: one of :data:`METHODS` to force an implementation (tests); None picks by size.

    Returns:
        ``(n,)`` intp distinct flat indices of the cells to open, the clicked cell included.

    Raises:
        ValueError: on an unknown ``method``.
    """
    rows, cols = counts.shape
    start = row * cols + col
    if counts[row, col]:
        return np.array([start], dtype=np.intp)
    if count_bytes is None:
        count_bytes = counts.tobytes()
    if method is None:
        cells = rows * cols
        method = (
            "rings"
            if cells <= TINY_BOARD_CELLS
            else "walk"
            if cells <= SMALL_BOARD_CELLS
            else "layers"
        )
    if method == "rings":
        return _rings(count_bytes, revealed, start)
    if method == "walk":
        return _walk(count_bytes, revealed, start)
    if method == "layers":
        return _layers(counts, revealed, row, col)
    raise ValueError(f"unknown flood-fill method {method!r}; use one of {', '.join(METHODS)}")


@lru_cache(maxsize=64)
def _ring_masks(rows: int, cols: int) -> tuple[int, int, int]:
    """Byte-per-cell integer masks: every cell, every cell but column 0, every cell but the last."""
    every = int.from_bytes(b"\x01" * (rows * cols), "little")
    first_col = int.from_bytes((b"\x01" + b"\x00" * (cols - 1)) * rows, "little")
    last_col = first_col << 8 * (cols - 1)
    return every, every & ~first_col, every & ~last_col


def _rings(count_bytes: bytes, revealed: np.ndarray, start: int) -> np.ndarray:
    # Cell i is byte i (value 0 or 1) of one integer. A ring dilates the zeros reached so far by
    # one cell in all eight directions (a shift by one byte moves a column, by a row of bytes a
    # row; the column masks stop wrap-around) and keeps the zeros; at the fixed point, the last
    # dilation is the region: the zeros and their border.
    rows, cols = revealed.shape
    every, not_first, not_last = _ring_masks(rows, cols)
    zeros = int.from_bytes(count_bytes.translate(_ZERO_BYTE), "little")
    row = 8 * cols
    reached = 1 << 8 * start
    while True:
        across = reached | (reached << 8 & not_first) | (reached >> 8 & not_last)
        around = across | across << row | across >> row
        grown = around & zeros
        if grown == reached:
            break
        reached = grown
    # Revealed cells are not opened again (the region's revealed cells are all border clues).
    fresh = around & (every ^ int.from_bytes(revealed.tobytes(), "little"))
    return np.frombuffer(fresh.to_bytes(rows * cols, "little"), dtype=np.bool_).nonzero()[0]


def _walk(count_bytes: bytes, revealed: np.ndarray, start: int) -> np.ndarray:
    # Revealed cells start out as seen: a hidden zero's component cannot contain a revealed zero
    # (that zero's cascade would have opened it) and a revealed clue is a border, so every cell the
    # walk reaches is newly opened. Bytes give fast element access without per-cell NumPy scalars.
    around = neighbour_table(*revealed.shape)
    counts = count_bytes
    seen = bytearray(revealed.tobytes())
    seen[start] = 1
    opened = [start]
    stack = [start]
    pop, push, add = stack.pop, stack.append, opened.append
    while stack:
        for n in around[pop()]:
            if not seen[n]:
                seen[n] = 1
                add(n)
                if not counts[n]:
                    push(n)
    return np.array(opened, dtype=np.intp)


@lru_cache(maxsize=64)
def _offsets(width: int) -> np.ndarray:
    return np.array(
        [dr * width + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)],
        dtype=np.intp,
    )


def _layers(counts: np.ndarray, revealed: np.ndarray, row: int, col: int) -> np.ndarray:
    rows, cols = counts.shape
    width = cols + 2
    # Padded copies: the border ring is "blocked" so neighbours never need bounds checks.
    blocked_grid = np.ones((rows + 2, width), dtype=bool)
    blocked_grid[1:-1, 1:-1] = revealed
    zero_grid = np.zeros((rows + 2, width), dtype=bool)
    zero_grid[1:-1, 1:-1] = counts == 0
    blocked = blocked_grid.ravel()
    zero = zero_grid.ravel()
    offsets = _offsets(width)
    start = (row + 1) * width + (col + 1)
    blocked[start] = True
    layers = [np.array([start], dtype=np.intp)]
    frontier = layers[0]
    while frontier.size:
        around = (frontier[:, None] + offsets).ravel()
        around = np.unique(around[~blocked[around]])
        blocked[around] = True
        layers.append(around)
        frontier = around[zero[around]]
    padded = np.concatenate(layers)
    opened: np.ndarray = (padded // width - 1) * cols + (padded % width - 1)
    return opened
