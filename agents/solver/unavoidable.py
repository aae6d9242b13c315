"""Unavoidable guesses: 50/50s and pseudo-50/50s that no future reveal can resolve.

Two unknown cells ``a`` and ``b`` are *indistinguishable* when every cell that neighbours exactly
one of them is off the board, a known mine, or a revealed cell without a clue (``NO_CLUE``): no
clue can ever tell them apart. If they also cannot both be mines, a guess at even odds between
them is due anyway, so one is guessed at once and its number may help elsewhere (the "50/50 and
pseudo-50/50" rule of JSMinesweeper).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from agents.solver.probability import Analysis, RegionCache, analyse_assuming
from mswp_gym.cells import neighbour_sets
from mswp_gym.constants import NO_CLUE


def unavoidable_guess(
    analysis: Analysis, board: np.ndarray, order: list[int], total_mines: int, cache: RegionCache
) -> int | None:
    """A cell of an indistinguishable pair that holds at most one mine, if the position has one.

    Args:
        analysis: The analysis of the position (no certainly safe cell left to play).
        order: The cells that may be guessed, best first (legal, not certain mines).

    Returns:
        The cell of the first such pair that comes first in ``order``, or None.
    """
    for a, b in unavoidable_pairs(analysis, board, order, total_mines, cache):
        return a if order.index(a) < order.index(b) else b
    return None


def mute_cells(analysis: Analysis, board: np.ndarray) -> frozenset[int]:
    """The cells that can never tell two of their neighbours apart: known mines (proven or
    visible) and clue-less revealed cells. Off-board cells are mute too (callers skip them)."""
    return (
        analysis.mines
        | analysis.visible_mines
        | frozenset(np.flatnonzero(board.ravel() == NO_CLUE).tolist())
    )


def unavoidable_pairs(
    analysis: Analysis, board: np.ndarray, order: list[int], total_mines: int, cache: RegionCache
) -> Iterator[tuple[int, int]]:
    """Every indistinguishable pair of uncertain cells of ``order`` that cannot hold two mines.

    Arguments as for :func:`unavoidable_guess`. Pairs are side-by-side cells, and any two cells that
    a clue covers alone; each is yielded once, as ``(a, b)`` with ``a < b``.
    """
    position = analysis.position
    rows, cols = position.rows, position.cols
    mute = mute_cells(analysis, board)
    live = {c for c in order if 0.0 < float(analysis.probability[c]) < 1.0}
    if len(live) < 2:
        return
    around = neighbour_sets(rows, cols)
    for a, b in _candidate_pairs(live, mute, analysis, rows, cols):
        if _indistinguishable(a, b, mute, around) and not _can_both_be_mines(
            a, b, analysis, total_mines, cache
        ):
            yield a, b


def _candidate_pairs(
    live: set[int], mute: frozenset[int], analysis: Analysis, rows: int, cols: int
) -> list[tuple[int, int]]:
    """Side-by-side live pairs whose three cells beyond each end are all mute or off the board (a
    NumPy pre-filter: in the open, almost none are), then the live pairs that a clue covers
    alone."""
    quiet = np.ones((rows + 4, cols + 4), dtype=bool)  # off-board counts as mute
    inner = np.zeros(rows * cols, dtype=bool)
    if mute:
        inner[list(mute)] = True
    quiet[2:-2, 2:-2] = inner.reshape(rows, cols)
    alive = np.zeros((rows + 4, cols + 4), dtype=bool)
    flat_live = np.zeros(rows * cols, dtype=bool)
    flat_live[list(live)] = True
    alive[2:-2, 2:-2] = flat_live.reshape(rows, cols)
    # column (row) of three quiet cells centred on each cell
    column = (
        quiet[:-2, :] & quiet[1:-1, :] & quiet[2:, :]
    )  # (rows + 2, cols + 4), centred at row + 1
    line = quiet[:, :-2] & quiet[:, 1:-1] & quiet[:, 2:]  # (rows + 4, cols + 2), centred at col + 1
    here, right, below = alive[2:-2, 2:-2], alive[2:-2, 3 : cols + 3], alive[3 : rows + 3, 2:-2]
    at_rows, at_cols = slice(1, rows + 1), slice(1, cols + 1)
    across = here & right & column[at_rows, 1 : cols + 1] & column[at_rows, 4 : cols + 4]
    down = here & below & line[1 : rows + 1, at_cols] & line[4 : rows + 4, at_cols]
    # (the off-board padding is never alive, so a pair never wraps past the edge)
    pairs = [(a, a + 1) for a in np.flatnonzero(across).tolist()]
    pairs += [(a, a + cols) for a in np.flatnonzero(down).tolist()]
    seen = set(pairs)
    for cells, _mines in analysis.reduced:
        inside = [c for c in cells if c in live]
        if len(inside) == 2:
            key = (min(inside), max(inside))
            if key not in seen:
                seen.add(key)
                pairs.append(key)
    return pairs


def _indistinguishable(
    a: int, b: int, mute: frozenset[int], around: tuple[frozenset[int], ...]
) -> bool:
    """Whether every cell next to exactly one of ``a``, ``b`` (other than the pair) is ``mute``: a
    known mine or a revealed cell without a clue, which can never show a number."""
    return (around[a] ^ around[b]) - {a, b} <= mute


def _can_both_be_mines(
    a: int, b: int, analysis: Analysis, total_mines: int, cache: RegionCache
) -> bool:
    """Whether some layout of the position has mines on both ``a`` and ``b``."""
    for cells, mines in analysis.reduced:
        if mines <= 1 and a in cells and b in cells:
            return False
    try:
        given_a = analyse_assuming(analysis, (a,), (), total_mines, cache)
    except ValueError:  # a cannot be a mine at all
        return False
    return b not in given_a.safe
