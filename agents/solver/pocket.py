"""Isolated pockets: parts of the board that nothing outside them can ever inform, searched exactly.

A *pocket* is a set of unknown cells, not known to be mines, such that every neighbour of each of
them is revealed, a known mine or in the pocket, and every clue that touches one of them touches no
live unknown cell outside it. No reveal outside a pocket can tell anything about it (its only link
to the rest of the board is the total mine count), and it must be cleared before the game is won.
So while the whole board has too many layouts for the endgame search, a small pocket can still be
played perfectly: its layouts are listed, each weighted by the exact number of ways the rest of the
board can hold the remaining mines, and the reveal with the highest chance of clearing the pocket is
found by the endgame's memoised search (:mod:`agents.solver.endgame`; flood fill ignored, so the
chances are lower bounds). Playing a pocket first costs nothing: the games it loses are lost
whenever it is played, and its numbers may tell the rest of the board how many mines are left.

Pockets are found by labelling the live unknown cells (unknown, not a known mine) with
8-connectivity and then joining the components that a clue touches together.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from agents.solver.endgame import NODE_BUDGET, OutOfBudget, WinSearch, list_layouts
from agents.solver.probability import Analysis, RegionCache, analyse
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import MINE, NO_CLUE

DEFAULT_POCKET_LAYOUTS = 200
"""Search a pocket exhaustively when it has at most this many layouts."""
MAX_POCKET_CELLS = 30
"""... and at most this many cells."""

_NEAR = np.ones((3, 3), dtype=bool)


@dataclass(frozen=True)
class PocketMove:
    """The best reveal in an isolated pocket.

    Attributes:
        cell: Flat index of the cell to reveal.
        win: Probability of clearing the pocket from here with perfect play (a lower bound).
        cells: The pocket's cells.
    """

    cell: int
    win: float
    cells: tuple[int, ...]


def isolated_pockets(
    analysis: Analysis, max_cells: int = MAX_POCKET_CELLS
) -> list[tuple[int, ...]]:
    """The pockets of at most ``max_cells`` cells (see the module docstring), each sorted.

    None is returned while the live unknown cells form a single component (then the endgame
    search is the one that applies), and no pocket holds a cell known to be safe (it is about to
    be revealed, and its number may reach beyond).
    """
    position = analysis.position
    rows, cols = position.rows, position.cols
    live = np.zeros(rows * cols, dtype=bool)
    live[list(position.unknown)] = True
    if analysis.mines:
        live[list(analysis.mines)] = False
    labels, count = ndimage.label(live.reshape(rows, cols), structure=_NEAR)
    if count < 2:
        return []
    flat = labels.ravel()
    joined = _join_by_clues(flat, count, position.constraints)
    members: dict[int, list[int]] = defaultdict(list)
    for cell in np.flatnonzero(live).tolist():
        members[joined[flat[cell]]].append(cell)
    if len(members) < 2:
        return []
    return [
        tuple(cells)
        for cells in members.values()
        if len(cells) <= max_cells and not analysis.safe.intersection(cells)
    ]


def _join_by_clues(
    labels: np.ndarray, count: int, constraints: tuple[tuple[tuple[int, ...], int], ...]
) -> list[int]:
    """For each label ``0..count``, the smallest label joined to it through clues that touch
    cells of both."""
    parent = list(range(count + 1))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for clue_cells, _ in constraints:
        roots = {find(int(labels[c])) for c in clue_cells if labels[c]}
        if len(roots) > 1:
            least = min(roots)
            for root in roots:
                parent[root] = least
    return [find(x) for x in range(count + 1)]


def pocket_move(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    legal: np.ndarray,
    cache: RegionCache,
    max_layouts: int = DEFAULT_POCKET_LAYOUTS,
    node_budget: int = NODE_BUDGET,
    max_cells: int = MAX_POCKET_CELLS,
    mixed_counts: bool = True,
) -> PocketMove | None:
    """The best first reveal of the isolated pocket with the highest chance of being cleared.

    Args:
        analysis: The exact analysis of ``board`` (no certain safe cell left to play).
        board: ``(rows, cols)`` visible board (the one ``analysis`` was made from).
        total_mines: Mines on the board.
        legal: ``(rows * cols,)`` bool legal reveals.
        cache: Region cache for the analyses that weigh the pocket's layouts.
        max_layouts: Search a pocket only if it has at most this many layouts.
        node_budget: Search nodes per pocket before giving up on it.
        max_cells: Search a pocket only if it has at most this many cells.
        mixed_counts: Also play a pocket whose layouts hold different numbers of mines.

    Returns:
        The :class:`PocketMove`, or None when no pocket can be searched (none, too large, out of
        budget, or ``analysis`` is approximate).
    """
    if analysis.approximate:
        return None
    best: PocketMove | None = None
    for cells in isolated_pockets(analysis, max_cells):
        move = _search_pocket(
            analysis,
            board,
            total_mines,
            legal,
            cache,
            cells,
            max_layouts,
            node_budget,
            mixed_counts,
        )
        if move is not None and (best is None or move.win > best.win + 1e-12):
            best = move
    return best


def weighted_layouts(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    cache: RegionCache,
    cells: tuple[int, ...],
    max_layouts: int = DEFAULT_POCKET_LAYOUTS,
) -> dict[int, float] | None:
    """The layouts of the pocket ``cells`` that fit the clues and the mine count, with weights.

    Returns:
        ``{layout: weight}``: a layout is a bitmask over ``cells`` (bit ``i`` set: ``cells[i]`` is
        a mine); its weight is proportional to the exact number of layouts of the whole board that
        agree with it (the largest weight is 1). None if the pocket has more than ``max_layouts``
        layouts by its clues alone.
    """
    inside = set(cells)
    constraints = tuple(
        (clue_cells, mines)
        for clue_cells, mines in analysis.position.constraints
        if inside.intersection(clue_cells)
    )
    found = list_layouts(
        list(cells), constraints, analysis.mines, len(cells), max_layouts, fewest=0
    )
    if found is None:
        return None
    weights = _rest_weights(analysis, board, total_mines, cache, cells, found)
    return {layout: weight for layout, weight in weights.items() if weight > 0.0}


def _search_pocket(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    legal: np.ndarray,
    cache: RegionCache,
    cells: tuple[int, ...],
    max_layouts: int,
    node_budget: int,
    mixed_counts: bool,
) -> PocketMove | None:
    weights = weighted_layouts(analysis, board, total_mines, cache, cells, max_layouts)
    if weights is None or len(weights) < 2:
        return None
    if not mixed_counts and len({layout.bit_count() for layout in weights}) > 1:
        return None
    layouts = tuple(sorted(weights))
    rows, cols = board.shape
    table = neighbour_table(rows, cols)
    bit = {c: 1 << i for i, c in enumerate(cells)}
    around = [sum(bit[n] for n in table[c] if n in bit) for c in cells]
    movable = [i for i, c in enumerate(cells) if legal[c]]
    search = WinSearch(around, movable, node_budget, weights)
    try:
        win, choice = search.best_move(layouts)
    except OutOfBudget:
        return None
    if choice is None:
        return None
    return PocketMove(cell=cells[choice], win=win, cells=cells)


def _rest_weights(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    cache: RegionCache,
    cells: tuple[int, ...],
    layouts: list[int],
) -> dict[int, float]:
    """Each pocket layout's relative weight: the exact number of layouts of the rest of the board
    given the pocket's mine count (0 where the rest cannot hold the remaining mines).

    That number depends only on how many mines the pocket holds, so one analysis per mine count is
    made: the board with one such pocket layout written in (mines as ``MINE``, safe cells as
    ``NO_CLUE``, which carries no clue).
    """
    by_count: dict[int, list[int]] = defaultdict(list)
    for layout in layouts:
        by_count[layout.bit_count()].append(layout)
    logs: dict[int, float] = {}
    flat_known = list(analysis.mines)
    for count, group in by_count.items():
        filled = board.copy()
        flat = filled.ravel()
        if flat_known:
            flat[flat_known] = MINE
        sample = group[0]
        for i, cell in enumerate(cells):
            flat[cell] = MINE if (sample >> i) & 1 else NO_CLUE
        try:
            logs[count] = analyse(filled, total_mines, cache).log_layouts
        except ValueError:
            continue
    if not logs:
        return {}
    top = max(logs.values())
    return {
        layout: math.exp(logs[count] - top)
        for count, group in by_count.items()
        if count in logs
        for layout in group
    }
