"""Mine placement and clue counts for a batch of boards at once (the batched generators).

Boards are flat: a layout is a ``(k, rows*cols)`` bool array. Every allowed cell gets a uniform
random key and the mines go on the ``mines`` smallest keys (found with one ``np.partition``): a
uniform draw among the layouts the first-click rule allows, the distribution of
:mod:`mswp_gym.generators`. Keys are distinct within a board (:mod:`mswp_gym.vector.batch_rng`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

_EXCLUDED_KEY = np.iinfo(np.uint32).max
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

    ``keys``: ``(k, rows*cols)`` uint32, distinct within each row, overwritten where cells are
    excluded; ``clicks``: ``(k,)`` flat first clicks (None for ``any``). Returns ``(k, rows*cols)``
    bool layouts with exactly ``mines`` mines each.

    Raises:
        ValueError: for an unknown rule, or a rule that needs clicks without them.
    """
    k, cells = keys.shape
    boards = np.arange(k)
    excluded: np.ndarray | None = None
    if rule != "any":
        if clicks is None:
            raise ValueError(f"first_click={rule!r} needs the first clicks")
        if rule == "safe":
            excluded = clicks[:, None]
        elif rule == "opening":
            excluded = block_table(rows, cols)[clicks]
        else:
            raise ValueError(f"unknown batched placement rule {rule!r}; use any, safe or opening")
        keys[boards[:, None], excluded] = _EXCLUDED_KEY
    if mines == 0 or k == 0:
        return np.zeros((k, cells), dtype=bool)
    threshold = np.partition(keys, mines - 1, axis=1)[:, mines - 1]
    layouts = keys <= threshold[:, None]
    full = threshold == _EXCLUDED_KEY
    if excluded is not None and full.any():
        # Only when every allowed cell gets a mine and one allowed key happens to be the
        # excluded key: the excluded cells tie with it, so lay out the allowed cells directly.
        allowed = np.ones((int(full.sum()), cells), dtype=bool)
        allowed[np.arange(allowed.shape[0])[:, None], excluded[full]] = False
        layouts[full] = allowed
    return layouts


def batch_neighbour_counts(layouts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(k, rows*cols)`` int8 neighbouring-mine counts of ``(k, rows*cols)`` bool layouts (mines
    get theirs too)."""
    k = layouts.shape[0]
    width = cols + 2
    padded = np.zeros((k, rows + 2, width), dtype=np.int8)
    padded[:, 1:-1, 1:-1] = layouts.reshape(k, rows, cols)
    # Work on the whole batch as one flat array: long contiguous slices instead of many
    # 9-element rows. The zero frame keeps boards apart, so a sum never crosses into another.
    flat = padded.reshape(-1)
    vertical = flat[: -2 * width] + flat[width:-width] + flat[2 * width :]  # centre: i + width
    block = vertical[:-2] + vertical[1:-1] + vertical[2:]  # centre: i + width + 1
    block -= flat[width + 1 : -width - 1]
    out = np.empty(flat.size, dtype=np.int8)
    out[width + 1 : -width - 1] = block
    return out.reshape(k, rows + 2, width)[:, 1:-1, 1:-1].reshape(k, rows * cols)
