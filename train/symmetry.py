"""Board symmetries for test-time averaging: a network's logits averaged over flipped and
transposed copies of the board.

The networks train on randomly flipped (and, on square boards, transposed) positions, so each view
is a fair reading; the mean of the views' logits, mapped back onto the board, errs less than one
view. Non-square transposed views take a second forward pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch as th
from torch import nn

VIEW_COUNTS = (1, 2, 4, 8)
"""Allowed numbers of views: the board itself; with its 180-degree turn; with both mirror images
(every symmetry that keeps a rectangular board's shape); all eight, the four transposed ones
included (on a board that is not square they have the transposed shape, which a fully
convolutional network plays as well)."""

VIEW_TIE_TOLERANCE = 1e-5
"""Averaged scores within this of the best count as tied (broken by the lowest cell index), so
float32 rounding of mirror-image cells never decides a move."""


@dataclass(frozen=True)
class BoardView:
    """One symmetry of the board: mirror rows and/or columns, then transpose.

    Acts on the last two axes (rows, cols) of a tensor, so it maps boards ``(B, rows, cols)`` and
    logits ``(B, heads, rows, cols)`` alike.
    """

    flip_rows: bool = False
    flip_cols: bool = False
    transpose: bool = False

    def apply(self, x: th.Tensor) -> th.Tensor:
        """The view of ``x`` (mirrors first, then the transpose)."""
        dims = [d for d, on in ((-2, self.flip_rows), (-1, self.flip_cols)) if on]
        if dims:
            x = x.flip(dims)
        return x.transpose(-2, -1) if self.transpose else x

    def invert(self, x: th.Tensor) -> th.Tensor:
        """Map ``x``, given in this view, back onto the original board (undoes :meth:`apply`)."""
        if self.transpose:
            x = x.transpose(-2, -1)
        dims = [d for d, on in ((-2, self.flip_rows), (-1, self.flip_cols)) if on]
        return x.flip(dims) if dims else x


def board_views(count: int) -> tuple[BoardView, ...]:
    """The first ``count`` views of a board (see :data:`VIEW_COUNTS`), the board itself first.

    Every board has all of them: the transposed views of a ``rows x cols`` board that is not square
    are ``cols x rows`` boards, which :func:`averaged_logits` runs as a batch of their own.

    Raises:
        ValueError: ``count`` not in :data:`VIEW_COUNTS`.
    """
    if count not in VIEW_COUNTS:
        raise ValueError(f"symmetries must be one of {VIEW_COUNTS}, got {count!r}")
    flips = (
        BoardView(),
        BoardView(flip_rows=True, flip_cols=True),
        BoardView(flip_rows=True),
        BoardView(flip_cols=True),
    )
    transposed = tuple(BoardView(view.flip_rows, view.flip_cols, transpose=True) for view in flips)
    return (flips + transposed)[:count]


def averaged_logits(
    net: nn.Module, board: th.Tensor, mines: int, views: tuple[BoardView, ...]
) -> th.Tensor:
    """``net``'s per-cell logits of ``board`` averaged over ``views``.

    ``board`` is ``(1, rows, cols)``; returns ``(1, heads, rows, cols)`` logits on it."""
    if len(views) == 1 and views[0] == BoardView():
        out: th.Tensor = net(board, mines)
        return out
    return th.stack(each_view_logits(net, board, mines, views)).mean(dim=0)


def each_view_logits(
    net: nn.Module, board: th.Tensor, mines: int, views: tuple[BoardView, ...]
) -> list[th.Tensor]:
    """``net``'s logits of each of ``views`` of ``board``, mapped back onto the board.

    One batched forward pass per shape: one for a square board, two when the views include
    transposes of a board that is not square.

    Args and shapes: as :func:`averaged_logits`; one ``(1, heads, rows, cols)`` tensor per view,
    in the order of ``views``.
    """
    rows, cols = board.shape[-2:]
    shapes = (False,) if rows == cols else (False, True)
    found: dict[int, th.Tensor] = {}
    for transposed in shapes:
        group = [i for i, view in enumerate(views) if rows == cols or view.transpose == transposed]
        if not group:
            continue
        logits = net(th.cat([views[i].apply(board) for i in group]), mines)
        found.update((i, views[i].invert(logits[k : k + 1])) for k, i in enumerate(group))
    return [found[i] for i in range(len(views))]


def first_best(scores: np.ndarray, tolerance: float) -> int:
    """The lowest index whose score lies within ``tolerance`` of the best score.

    ``scores``: 1-D with a finite score (``-inf``: never chosen); ``tolerance`` 0 is ``argmax``.

    Raises:
        ValueError: ``tolerance`` negative, or no finite score.
    """
    if not tolerance >= 0.0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    best = float(np.max(scores))
    if not np.isfinite(best):
        raise ValueError(f"no finite score among {np.size(scores)} to choose from")
    return int(np.flatnonzero(scores >= best - tolerance)[0])
