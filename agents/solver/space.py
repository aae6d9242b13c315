"""Small-area deferral: guesses wait in small enclosed unknown areas (Hill's ``SpaceCounter``).

A candidate guess lies in a *large* area when at least ``threshold`` open unknown cells (unknown
and not certain mines) can be reached from it, 8-connected over open unknown cells and also across
one revealed number to the open cells around it. A certain mine is a wall. In a small enclosed
area a guess can open little, and the area's own risk has to be faced only at the end of the game,
so while some candidate lies in a large area, those in small areas are not scored (Hill's
``SecondarySafetyEvaluator.evaluateLocations``, with his threshold of 8).
"""

from __future__ import annotations

import numpy as np

from agents.solver.probability import Analysis
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import is_clue

SMALL_AREA = 8
"""Hill's threshold: an area of fewer open unknown cells than this is small."""


def in_large_areas(
    analysis: Analysis, board: np.ndarray, cells: list[int], threshold: int = SMALL_AREA
) -> list[int]:
    """The cells of ``cells`` that lie in a large area (module docstring), in their order.

    Args:
        analysis: The analysis of ``board`` (its certain mines are walls).
        board: ``(rows, cols)`` visible board.
        cells: Candidate cells (flat), all unknown.
        threshold: An area of at least this many open unknown cells is large.
    """
    rows, cols = board.shape
    table = neighbour_table(rows, cols)
    open_cells = np.zeros(rows * cols, dtype=bool)
    open_cells[list(analysis.position.unknown)] = True
    open_cells[list(analysis.mines)] = False
    revealed = is_clue(board.ravel())
    size: dict[int, bool] = {}
    found = []
    for cell in cells:
        if cell not in size:
            large, area = _grow(cell, open_cells, revealed, table, threshold)
            for member in area:
                size[member] = large or size.get(member, False)
        if size[cell]:
            found.append(cell)
    return found


def _grow(
    cell: int,
    open_cells: np.ndarray,
    revealed: np.ndarray,
    table: tuple[tuple[int, ...], ...],
    threshold: int,
) -> tuple[bool, list[int]]:
    """Whether ``cell``'s area is large, and the cells reached before that was known (all of a
    small area; the whole of it is then known to be small)."""
    seen = {cell}
    queue = [cell]
    index = 0
    while index < len(queue):
        for near in table[queue[index]]:
            if open_cells[near]:
                steps: tuple[int, ...] = (near,)
            elif revealed[near]:
                steps = table[near]
            else:
                continue
            for step in steps:
                if open_cells[step] and step not in seen:
                    seen.add(step)
                    queue.append(step)
                    if len(seen) >= threshold:
                        return True, queue
        index += 1
    return len(seen) >= threshold, queue
