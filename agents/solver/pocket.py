"""Isolated pockets: parts of the board that nothing outside them can ever inform.

A *pocket* is a set of live unknown cells (unknown, not known to be mines) such that every
neighbour of each of them is revealed, a known mine or in the pocket, and every clue that touches
one of them touches no live cell outside it. No reveal outside a pocket can tell anything about it:
its only link to the rest of the board is the total mine count. When the pocket's own clues leave
its number of mines open, the count may settle it once the rest of the board is cleared, so a
guess inside it can be worth deferring (:func:`agents.solver.guess.choose_guess`,
``defer_pockets``).

Pockets are found by labelling the live unknown cells with 8-connectivity and then joining the
components that a clue touches together.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from scipy import ndimage

from agents.solver.enumerate import count_region, split_regions
from agents.solver.probability import Analysis

_NEAR = np.ones((3, 3), dtype=bool)


def isolated_pockets(analysis: Analysis) -> list[tuple[int, ...]]:
    """The pockets of ``analysis``'s position (see the module docstring), each sorted.

    None is returned while the live unknown cells form a single component (the whole board is
    then one part, and the mine count links it to nothing else), and no pocket holds a cell known
    to be safe (it is about to be revealed, and its number may reach beyond).
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
    return [tuple(cells) for cells in members.values() if not analysis.safe.intersection(cells)]


def uncertain_pocket_cells(analysis: Analysis) -> frozenset[int]:
    """The cells of every pocket whose own clues do not fix how many mines it holds.

    That is a pocket with a cell no remaining clue covers, or whose clues admit layouts with
    different numbers of mines. Counted exactly on ``analysis.reduced`` (the constraints left after
    the local rules), so the answer is exact.
    """
    found: set[int] = set()
    for cells in isolated_pockets(analysis):
        if _count_is_open(analysis, cells):
            found.update(cells)
    return frozenset(found)


def _count_is_open(analysis: Analysis, cells: tuple[int, ...]) -> bool:
    inside = set(cells)
    constraints = tuple(c for c in analysis.reduced if inside.intersection(c[0]))
    covered = {cell for clue_cells, _ in constraints for cell in clue_cells}
    if inside - covered:
        return True
    totals = {0}
    for region in split_regions(constraints):
        counts = count_region(region)
        possible = {counts.min_mines + k for k, n in enumerate(counts.layouts) if n}
        totals = {a + b for a in totals for b in possible}
        if len(totals) > 1:
            return True
    return False


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
