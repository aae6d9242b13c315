"""Read a visible board into the clue constraints that every mine layout must satisfy.

A *position* is what a player sees: an integer ``(rows, cols)`` board of codes from
:mod:`mswp_gym.constants` and the total number of mines. Cells are handled here by their flat index
``row * cols + col`` because the solver walks them one by one in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.cells import neighbour_counts, neighbour_counts_of, neighbour_index, neighbour_table
from mswp_gym.constants import (
    EXPLODED,
    FLAGGED,
    HIDDEN,
    MAX_CODE,
    MIN_CODE,
    MINE,
    NO_CLUE,
    is_clue,
    is_unknown,
)

LIST_WALK_CELLS = 128
"""Boards of at most this many cells are read by walking a Python list of their codes; larger ones
with whole-board NumPy arrays, which cost less there."""

Constraint = tuple[tuple[int, ...], int]
"""``(cells, mines)``: exactly ``mines`` of the flat ``cells`` (sorted, unknown) are mines."""


@dataclass(frozen=True)
class Position:
    """The constraints a visible board puts on the unknown cells.

    Attributes:
        unknown: Flat indices of the ``HIDDEN`` or ``FLAGGED`` cells, in increasing order.
        known_mines: Number of visible mines (``EXPLODED`` or ``MINE``).
        mines_left: ``total_mines - known_mines``: the mines hidden among ``unknown``.
        constraints: One ``(cells, mines)`` per clue that touches an unknown cell.
    """

    rows: int
    cols: int
    unknown: tuple[int, ...]
    known_mines: int
    mines_left: int
    constraints: tuple[Constraint, ...]


def check_board(board: object) -> np.ndarray:
    """Check that ``board`` is a 2-D integer array of valid codes and return it.

    Raises:
        TypeError: ``board`` is not a NumPy array or its dtype is not an integer type.
        ValueError: wrong number of dimensions, an empty board, or a code that is not valid.
    """
    if not isinstance(board, np.ndarray):
        raise TypeError(f"board must be a numpy array, got {type(board).__name__}")
    if not np.issubdtype(board.dtype, np.integer):
        raise TypeError(f"board dtype must be an integer type (int8 codes), got {board.dtype}")
    if board.ndim != 2 or board.size == 0:
        raise ValueError(
            f"board must be a non-empty 2-D (rows, cols) array, got shape {board.shape}"
        )
    outside = (board < MIN_CODE) | (board > MAX_CODE)
    if outside.any():
        row, col = (int(v) for v in np.argwhere(outside)[0])
        raise ValueError(
            f"board holds code {int(board[row, col])} at cell {(row, col)}, "
            f"outside [{MIN_CODE}, {MAX_CODE}]"
        )
    return board


def read_position(board: np.ndarray, total_mines: int) -> Position:
    """Turn a visible board into a :class:`Position`.

    Boards of at most :data:`LIST_WALK_CELLS` cells are walked as a Python list; larger ones are
    read with whole-board masks (both match :func:`read_position_reference`).

    ``total_mines`` counts the whole board's mines, visible ones included.

    Raises:
        TypeError: bad ``board`` type/dtype, or ``total_mines`` is not an int.
        ValueError: bad shape or code, ``total_mines`` outside what the board can hold, or a clue
            that no layout can satisfy (the message names the cell and its clue).
    """
    position, _ = read_position_and_mines(board, total_mines)
    return position


def read_position_and_mines(board: np.ndarray, total_mines: int) -> tuple[Position, list[int]]:
    """:func:`read_position`, and the flat indices of the visible mines (``EXPLODED``/``MINE``)."""
    total_mines = _checked_total(board, total_mines)
    if board.size > LIST_WALK_CELLS:
        return _read_gathered(board, total_mines)
    rows, cols = board.shape
    values = board.ravel().tolist()
    if min(values) < MIN_CODE or max(values) > MAX_CODE:
        check_board(board)
    # per code, not per array: FLAGGED <= v <= HIDDEN is is_unknown and v >= 0 is is_clue
    unknown = [i for i, v in enumerate(values) if FLAGGED <= v <= HIDDEN]
    mines = (
        [i for i, v in enumerate(values) if v in (EXPLODED, MINE)]
        if MINE in values or EXPLODED in values
        else []
    )
    known_mines = len(mines)
    n_unknown = len(unknown)
    if not known_mines <= total_mines <= known_mines + n_unknown:
        return read_position_reference(board, total_mines), mines  # raises
    table = neighbour_table(rows, cols)
    n_clues = len(values) - n_unknown - known_mines - values.count(NO_CLUE)
    # walk from the side with fewer cells
    cells_of, order = _frontier_clues(values, unknown, table, from_unknown=n_unknown < n_clues)
    constraints = _listed_constraints(values, cells_of, order, _mines_around(mines, table), n_clues)
    if constraints is None:
        return read_position_reference(board, total_mines), mines  # raises, naming the clue
    position = Position(
        rows=rows,
        cols=cols,
        unknown=tuple(unknown),
        known_mines=known_mines,
        mines_left=total_mines - known_mines,
        constraints=tuple(constraints),
    )
    return position, mines


def _checked_total(board: np.ndarray, total_mines: int) -> int:
    """``total_mines`` as an int, after the type checks of :func:`read_position_and_mines`.

    Raises:
        TypeError: ``board`` is not an integer NumPy array, or ``total_mines`` is not an int.
        ValueError: ``board`` is not a non-empty 2-D array.
    """
    if not isinstance(board, np.ndarray):
        raise TypeError(f"board must be a numpy array, got {type(board).__name__}")
    if board.dtype.kind not in "iu" or board.ndim != 2 or board.size == 0:
        check_board(board)  # raises the right error
    if isinstance(total_mines, bool) or not isinstance(total_mines, (int, np.integer)):
        raise TypeError(f"total_mines must be an int, got {type(total_mines).__name__}")
    return int(total_mines)


def _frontier_clues(
    values: list[int], unknown: list[int], table: tuple[tuple[int, ...], ...], from_unknown: bool
) -> tuple[dict[int, list[int]], list[int] | dict[int, list[int]]]:
    """The unknown cells around each clue that has some, and the order to list those clues in.

    ``from_unknown`` walks from the unknown cells to their clues, else the other way. Returns
    ``(cells_of, order)``: the clue's unknown cells by clue; the clues, ascending.
    """
    cells_of: dict[int, list[int]] = {}
    if from_unknown:
        for u in unknown:
            for n in table[u]:
                if values[n] >= 0:
                    found = cells_of.get(n)
                    if found is None:
                        cells_of[n] = [u]
                    else:
                        found.append(u)
        return cells_of, sorted(cells_of)
    clues = [i for i, v in enumerate(values) if v >= 0]
    for i in clues:
        cells = [n for n in table[i] if FLAGGED <= values[n] <= HIDDEN]
        if cells:
            cells_of[i] = cells
    return cells_of, cells_of


def _mines_around(mines: list[int], table: tuple[tuple[int, ...], ...]) -> dict[int, int]:
    """How many of ``mines`` each cell next to one touches."""
    mines_around: dict[int, int] = {}
    for m in mines:
        for n in table[m]:
            mines_around[n] = mines_around.get(n, 0) + 1
    return mines_around


def _listed_constraints(
    values: list[int],
    cells_of: dict[int, list[int]],
    order: list[int] | dict[int, list[int]],
    mines_around: dict[int, int],
    n_clues: int,
) -> list[Constraint] | None:
    """The clues' constraints in ``order``, or None if some clue cannot be satisfied (then
    :func:`read_position_reference` raises the error that names it)."""
    constraints = []
    positive = 0  # clues above 0 among the constraints
    for i in order:
        cells = cells_of[i]
        value = values[i]
        missing = value - mines_around[i] if i in mines_around else value
        if missing < 0 or missing > len(cells):
            return None
        positive += value > 0
        constraints.append((tuple(cells), missing))
    # A clue with no unknown neighbour must show exactly its visible mines: every clue above 0
    # that is not a constraint must be one of those next to a mine, with the right count.
    settled = 0
    for i, count in mines_around.items():
        value = values[i]
        if value >= 0 and i not in cells_of:
            if value != count:
                return None
            settled += 1
    if n_clues - values.count(0) - positive != settled:
        return None
    return constraints


def _read_gathered(board: np.ndarray, total_mines: int) -> tuple[Position, list[int]]:
    """:func:`read_position_and_mines` on larger boards: whole-board NumPy masks, then each frontier
    clue's unknown neighbours gathered at once from the ``(cells, 8)`` neighbour table."""
    rows, cols = board.shape
    flat = board.ravel()
    if flat.min() < MIN_CODE or flat.max() > MAX_CODE:
        check_board(board)
    unknown_mask = is_unknown(flat)
    mine_mask = (flat == EXPLODED) | (flat == MINE)
    unknown = np.flatnonzero(unknown_mask)
    mines = np.flatnonzero(mine_mask)
    known_mines, n_unknown = len(mines), len(unknown)
    if not known_mines <= total_mines <= known_mines + n_unknown:
        return read_position_reference(board, total_mines), []  # raises
    table = neighbour_index(rows, cols)
    around = np.append(unknown_mask, False)[table]  # (cells, 8): which neighbours are unknown
    unknown_around = np.count_nonzero(around, axis=1)
    missing = flat.astype(np.int16)
    if known_mines:
        missing = missing - neighbour_counts_of(mines, rows, cols).ravel()
    clue = is_clue(flat)
    if (clue & ((missing < 0) | (missing > unknown_around))).any():
        return read_position_reference(board, total_mines), []  # raises, naming the clue
    frontier = np.flatnonzero(clue & (unknown_around > 0))
    chosen = around[frontier]
    cells = table[frontier][chosen].tolist()
    constraints = []
    start = 0
    for count, need in zip(
        unknown_around[frontier].tolist(), missing[frontier].tolist(), strict=True
    ):
        constraints.append((tuple(cells[start : start + count]), need))
        start += count
    position = Position(
        rows=rows,
        cols=cols,
        unknown=tuple(unknown.tolist()),
        known_mines=known_mines,
        mines_left=total_mines - known_mines,
        constraints=tuple(constraints),
    )
    return position, mines.tolist()


def read_position_reference(board: np.ndarray, total_mines: int) -> Position:
    """:func:`read_position` with whole-board NumPy arrays: the reference the tests compare it with.

    Raises the same errors with the same messages.
    """
    board = check_board(board)
    total_mines = _checked_total(board, total_mines)
    rows, cols = board.shape
    unknown_mask = is_unknown(board)
    mine_mask = (board == EXPLODED) | (board == MINE)
    known_mines = int(mine_mask.sum())
    n_unknown = int(unknown_mask.sum())
    if not known_mines <= total_mines <= known_mines + n_unknown:
        raise ValueError(
            f"total_mines={total_mines} is impossible for this board: it shows {known_mines} mines "
            f"and {n_unknown} unknown cells, so total_mines must lie in "
            f"[{known_mines}, {known_mines + n_unknown}]"
        )
    clue_mask = is_clue(board)
    unknown_around = neighbour_counts(unknown_mask)
    mines_around = neighbour_counts(mine_mask)
    missing = board.astype(np.int16) - mines_around
    bad = clue_mask & ((missing < 0) | (missing > unknown_around))
    if bad.any():
        row, col = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(
            f"clue {int(board[row, col])} at cell {(row, col)} cannot be satisfied: it touches "
            f"{int(mines_around[row, col])} visible mines and "
            f"{int(unknown_around[row, col])} unknown cells"
        )
    table = neighbour_table(rows, cols)
    unknown_flat = unknown_mask.ravel().tolist()
    missing_flat = missing.ravel()
    constraints = []
    for index in np.flatnonzero((clue_mask & (unknown_around > 0)).ravel()).tolist():
        cells = tuple(n for n in table[index] if unknown_flat[n])
        constraints.append((cells, int(missing_flat[index])))
    return Position(
        rows=rows,
        cols=cols,
        unknown=tuple(np.flatnonzero(unknown_mask.ravel()).tolist()),
        known_mines=known_mines,
        mines_left=total_mines - known_mines,
        constraints=tuple(constraints),
    )
