"""Read a visible board into the clue constraints that every mine layout must satisfy.

A *position* is what a player sees: an integer ``(rows, cols)`` board of codes from
:mod:`mswp_gym.constants` and the total number of mines. Cells are handled here by their flat index
``row * cols + col`` because the solver walks them one by one in Python.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.cells import neighbour_counts, neighbour_table
from mswp_gym.constants import EXPLODED, MAX_CODE, MIN_CODE, MINE, is_clue, is_unknown

Constraint = tuple[tuple[int, ...], int]
"""``(cells, mines)``: exactly ``mines`` of the flat ``cells`` (sorted, unknown) are mines."""

@dataclass(frozen=True)
class Position:
    """The constraints a visible board puts on the unknown cells.

    Attributes:
        rows: Board height.
        cols: Board width.
        unknown: Flat indices of the cells whose content is unknown (``HIDDEN`` or ``FLAGGED``: a flag
            is the player's note, not the truth), in increasing order.
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
        raise ValueError(f"board must be a non-empty 2-D (rows, cols) array, got shape {board.shape}")
    outside = (board < MIN_CODE) | (board > MAX_CODE)
    if outside.any():
        row, col = (int(v) for v in np.argwhere(outside)[0])
        raise ValueError(f"board holds code {int(board[row, col])} at cell {(row, col)}, outside [{MIN_CODE}, {MAX_CODE}]")
    return board


def read_position(board: np.ndarray, total_mines: int) -> Position:
    """Turn a visible board into a :class:`Position`.

    Args:
        board: ``(rows, cols)`` integer codes (see :mod:`mswp_gym.constants`).
        total_mines: Mines on the whole board, visible ones included.

    Returns:
        The position's unknown cells and clue constraints.

    Raises:
        TypeError: bad ``board`` type/dtype, or ``total_mines`` is not an int.
        ValueError: bad shape or code, ``total_mines`` outside what the board can hold, or a clue that
            no layout can satisfy (the message names the cell and its clue).
    """
    board = check_board(board)
    if isinstance(total_mines, bool) or not isinstance(total_mines, (int, np.integer)):
        raise TypeError(f"total_mines must be an int, got {type(total_mines).__name__}")
    total_mines = int(total_mines)
    rows, cols = board.shape
    unknown_mask = is_unknown(board)
    mine_mask = (board == EXPLODED) | (board == MINE)
    known_mines = int(mine_mask.sum())
    n_unknown = int(unknown_mask.sum())
    if not known_mines <= total_mines <= known_mines + n_unknown:
        raise ValueError(
            f"total_mines={total_mines} is impossible for this board: it shows {known_mines} mines and "
            f"{n_unknown} unknown cells, so total_mines must lie in [{known_mines}, {known_mines + n_unknown}]"
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
            f"{int(mines_around[row, col])} visible mines and {int(unknown_around[row, col])} unknown cells"
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
