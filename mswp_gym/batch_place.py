"""Mine placement and clue counts for a batch of boards at once (the batched generators).

Boards are flat: a layout is a ``(k, rows*cols)`` bool array, cell ``row*cols + col``. Placement
ranks every allowed cell by a uniform random key and puts the mines on the ``mines`` smallest
keys (``np.argpartition``), which is a uniform draw among the layouts the first-click rule allows:
the same distribution as :mod:`mswp_gym.generators`, though not the same draws.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

_EXCLUDED_KEY = np.iinfo(np.uint64).max
"""Key given to cells the rule keeps free: they rank last, so they never get a mine."""


@lru_cache(maxsize=64)
def block_table(rows: int, cols: int) -> np.ndarray:
    """For every flat cell, the flat indices of its 3x3 block clipped to the board.

    Returns:
        ``(rows*cols, 9)`` intp; column 0 is the cell itself, and slots for neighbours off the
        board repeat the cell itself, so a gather over a row touches only the clipped block.
        Read-only (cached).
    """
    r, c = np.divmod(np.arange(rows * cols), cols)
    table = np.empty((rows * cols, 9), dtype=np.intp)
    table[:, 0] = r * cols + c
    slot = 1
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            nr, nc = r + dr, c + dc
            inside = (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
            table[:, slot] = np.where(inside, nr * cols + nc, table[:, 0])
            slot += 1
    table.setflags(write=False)
    return table


def place_mines(
    keys: np.ndarray, mines: int, clicks: np.ndarray | None, rule: str, rows: int, cols: int
) -> np.ndarray:
    """Layouts for ``k`` boards from their keys, honouring the first-click rule.

    Args:
        keys: ``(k, rows*cols)`` uint64 uniform keys (see :func:`mswp_gym.batch_rng.stream_keys`);
            overwritten where cells are excluded.
        mines: mines per board, within the rule's limit (checked by the caller).
        clicks: ``(k,)`` flat first-click cells (``safe``/``opening``); None for ``any``.
        rule: ``any``, ``safe`` or ``opening``.
        rows: board rows.
        cols: board columns.

    Returns:
        ``(k, rows*cols)`` bool layouts with exactly ``mines`` mines each.

    Raises:
        ValueError: for an unknown rule, or a rule that needs clicks without them.
    """
    k, cells = keys.shape
    if rule != "any":
        if clicks is None:
            raise ValueError(f"first_click={rule!r} needs the first clicks")
        boards = np.arange(k)
        if rule == "safe":
            keys[boards, clicks] = _EXCLUDED_KEY
        elif rule == "opening":
            keys[boards[:, None], block_table(rows, cols)[clicks]] = _EXCLUDED_KEY
        else:
            raise ValueError(f"unknown batched placement rule {rule!r}; use any, safe or opening")
    layouts = np.zeros((k, cells), dtype=bool)
    if mines == 0 or k == 0:
        return layouts
    picks = np.argpartition(keys, mines - 1, axis=1)[:, :mines]
    layouts[np.arange(k)[:, None], picks] = True
    return layouts


def batch_neighbour_counts(layouts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Clue of every cell of every board: its number of neighbouring mines.

    Args:
        layouts: ``(k, rows*cols)`` bool.
        rows: board rows.
        cols: board columns.

    Returns:
        ``(k, rows*cols)`` int8 counts in ``0..8`` (mines get their own count too).
    """
    k = layouts.shape[0]
    padded = np.zeros((k, rows + 2, cols + 2), dtype=np.int8)
    padded[:, 1:-1, 1:-1] = layouts.reshape(k, rows, cols)
    # Sum the three rows first, then the three columns: 4 additions instead of 7.
    vertical = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]
    block = vertical[:, :, :-2] + vertical[:, :, 1:-1] + vertical[:, :, 2:]
    return (block - padded[:, 1:-1, 1:-1]).reshape(k, rows * cols)
