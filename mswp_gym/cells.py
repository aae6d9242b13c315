"""Cells are ``(row, col)`` everywhere; a flat action index is ``row * cols + col``.

This module is the one place that converts between them and that knows the neighbourhood.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

Cell = tuple[int, int]


def to_index(cell: Cell, cols: int) -> int:
    """Flat index of ``cell`` on a board with ``cols`` columns."""
    return cell[0] * cols + cell[1]


def to_cell(index: int, cols: int) -> Cell:
    """``(row, col)`` of flat ``index`` on a board with ``cols`` columns."""
    row, col = divmod(int(index), cols)
    return row, col


def parse_cell(text: str, option: str) -> Cell:
    """``"ROW,COL"`` (a command-line option's value) as a cell.

    Raises:
        ValueError: not two integers separated by a comma (the message names ``option``).
    """
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"{option} must be ROW,COL (two integers), got {text!r}") from None
    return row, col


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The up to eight cells around ``cell`` that lie on the board, in row-major order."""
    r, c = cell
    return [
        (i, j)
        for i in range(max(r - 1, 0), min(r + 2, rows))
        for j in range(max(c - 1, 0), min(c + 2, cols))
        if (i, j) != (r, c)
    ]


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every flat index, the flat indices of its neighbours (cached per board size).

    Only meant for boards small enough to walk cell by cell in Python (:data:`SMALL_BOARD_CELLS`).
    """
    return tuple(
        tuple(to_index(n, cols) for n in neighbours(to_cell(i, cols), rows, cols))
        for i in range(rows * cols)
    )


@lru_cache(maxsize=64)
def neighbour_sets(rows: int, cols: int) -> tuple[frozenset[int], ...]:
    """:func:`neighbour_table` as frozensets, for set arithmetic in cell-by-cell walks."""
    return tuple(frozenset(around) for around in neighbour_table(rows, cols))


@lru_cache(maxsize=64)
def neighbour_index(rows: int, cols: int) -> np.ndarray:
    """``(rows*cols, 8)`` intp: each cell's neighbours' flat indices, padded with ``rows*cols``."""
    cells = rows * cols
    out = np.full((cells, 8), cells, dtype=np.intp)
    for index, around in enumerate(neighbour_table(rows, cols)):
        out[index, : len(around)] = around
    out.flags.writeable = False
    return out


SMALL_BOARD_CELLS = 4096
"""Boards with at most this many cells are small: they get per-cell neighbour tables (cached per
size: :func:`neighbour_table`, :func:`neighbour_index`) and are worked cell by cell in Python
(clue counts scatter each mine's neighbours, the flood fill walks, the env reads neighbours);
larger boards use whole-board NumPy operations instead."""


def neighbour_counts(mask: np.ndarray) -> np.ndarray:
    """How many ``True`` cells of ``mask`` surround each cell (the cell itself excluded).

    Args:
        mask: ``(rows, cols)`` bool.

    Returns:
        ``(rows, cols)`` int8 counts in ``0..8``.
    """
    rows, cols = mask.shape
    if rows * cols <= SMALL_BOARD_CELLS:
        return neighbour_counts_of(np.ravel(mask).nonzero()[0], rows, cols)
    padded = np.zeros((rows + 2, cols + 2), dtype=np.int8)
    padded[1:-1, 1:-1] = mask
    shifts = [(i, j) for i in range(3) for j in range(3) if (i, j) != (1, 1)]
    return sum(
        (padded[i : i + rows, j : j + cols] for i, j in shifts), np.zeros_like(mask, np.int8)
    )


def neighbour_counts_of(cells: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """:func:`neighbour_counts` of the set of flat indices ``cells`` (each at most once).

    Scatters each listed cell's neighbours with one ``bincount``: the cost grows with the number
    of cells listed, not with the board, so it is meant for few cells on boards of at most
    :data:`SMALL_BOARD_CELLS` cells (it builds a ``(rows*cols, 8)`` table per board size).

    Returns:
        ``(rows, cols)`` int8 counts in ``0..8``.
    """
    around = neighbour_index(rows, cols).take(cells, axis=0).ravel()
    counts = np.bincount(around, minlength=rows * cols + 1)[:-1].astype(np.int8)
    counts.shape = (rows, cols)
    return counts


def region_around(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """``cell`` and its neighbours: the 3x3 block clipped to the board."""
    return [cell, *neighbours(cell, rows, cols)]
