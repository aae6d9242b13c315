"""Exact counting of the layouts of one frontier region, by mine count.

Cells that lie under exactly the same clues are interchangeable, so they are counted as one *group*:
a group of ``s`` cells holding ``m`` mines stands for ``comb(s, m)`` layouts. The search backtracks
over groups, bounding each group's mines by the clues it touches, so every leaf is a valid
assignment. Counts are exact Python integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import comb

from agents.solver.position import Constraint

DEFAULT_NODE_BUDGET = 400_000
"""Search nodes one region may use before it is handed to the approximation."""


class RegionTooLarge(RuntimeError):
    """The region's search exceeded its node budget."""


@dataclass(frozen=True)
class RegionCounts:
    """How many layouts a region has for each number of mines in it.

    Attributes:
        groups: The region's cells, grouped (cells under the same clues), each tuple sorted.
        min_mines: The fewest mines any layout of the region has.
        layouts: ``layouts[k]`` is the exact number of layouts with ``min_mines + k`` mines.
        group_mines: ``group_mines[g][k]`` is the total, over those layouts, of the mines in group
            ``g``.
    """

    groups: tuple[tuple[int, ...], ...]
    min_mines: int
    layouts: tuple[int, ...]
    group_mines: tuple[tuple[int, ...], ...]


def connected(cell_sets: Sequence[Iterable[int]]) -> list[list[int]]:
    """The indices of ``cell_sets`` grouped by shared cells (union-find), each group in order."""
    parent = list(range(len(cell_sets)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for index, cells in enumerate(cell_sets):
        for cell in cells:
            ra, rb = root(index), root(owner.setdefault(cell, index))
            if ra != rb:
                parent[ra] = rb
    groups: dict[int, list[int]] = {}
    for index in range(len(cell_sets)):
        groups.setdefault(root(index), []).append(index)
    return list(groups.values())


def split_regions(constraints: tuple[Constraint, ...]) -> list[tuple[Constraint, ...]]:
    """Split constraints into independent regions (no cell shared between regions)."""
    groups = connected([cells for cells, _ in constraints])
    return [tuple(sorted(constraints[i] for i in group)) for group in groups]


def cells_by_signature(constraints: tuple[Constraint, ...]) -> dict[tuple[int, ...], list[int]]:
    """The region's groups: cells keyed by the indices of the clues they lie under (cells under
    exactly the same clues are interchangeable), in order of first appearance."""
    signature: dict[int, list[int]] = {}
    for index, (cells, _) in enumerate(constraints):
        for cell in cells:
            signature.setdefault(cell, []).append(index)
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell, indices in signature.items():
        by_signature.setdefault(tuple(indices), []).append(cell)
    return by_signature


def count_region(
    constraints: tuple[Constraint, ...], node_budget: int = DEFAULT_NODE_BUDGET
) -> RegionCounts:
    """Count the layouts of one region exactly.

    Args:
        constraints: The region's constraints (sorted, as :func:`split_regions` returns them).
        node_budget: Maximum search nodes.

    Returns:
        The exact counts per number of mines.

    Raises:
        RegionTooLarge: the search needed more than ``node_budget`` nodes.
        ValueError: the region has no valid layout.
    """
    group_list = list(cells_by_signature(constraints).items())
    order = _search_order([sig for sig, _ in group_list], len(constraints))
    groups = tuple(tuple(sorted(group_list[g][1])) for g in order)
    n_groups = len(groups)
    assignment = [0] * n_groups
    totals: dict[int, list[int]] = {}
    search = _make_search(
        [group_list[g][0] for g in order],
        [len(g) for g in groups],
        list(constraints),
        assignment,
        _make_record(totals, assignment),
        node_budget,
    )
    search(0, 0, 1)
    if not totals:
        raise ValueError("the clues of a region admit no layout")
    low_k, high_k = min(totals), max(totals)
    empty = [0] * (n_groups + 1)
    rows = [totals.get(k, empty) for k in range(low_k, high_k + 1)]
    return RegionCounts(
        groups=groups,
        min_mines=low_k,
        layouts=tuple(row[n_groups] for row in rows),
        group_mines=tuple(tuple(row[g] for row in rows) for g in range(n_groups)),
    )


def _make_record(totals: dict[int, list[int]], assignment: list[int]) -> Callable[[int, int], None]:
    """The leaf action of :func:`_make_search`: ``record(mines, weight)`` adds a full assignment of
    ``weight`` layouts to ``totals[mines]`` (its per-group mine totals, then the layout count)."""
    n_groups = len(assignment)

    def record(mines: int, weight: int) -> None:
        row = totals.get(mines)
        if row is None:
            row = totals[mines] = [0] * (n_groups + 1)
        row[n_groups] += weight
        for g in range(n_groups):
            if assignment[g]:
                row[g] += weight * assignment[g]

    return record


def _make_search(
    group_constraints: list[tuple[int, ...]],
    sizes: list[int],
    constraints: list[Constraint],
    assignment: list[int],
    record: Callable[[int, int], None],
    node_budget: int,
) -> Callable[[int, int, int], None]:
    """The backtracking search over groups, as a closure (its state in free variables is faster to
    reach than attributes): ``search(position, mines, weight)`` tries every mine count of group
    ``position`` the touched clues allow, keeps the current one in ``assignment`` and calls
    ``record`` at every full assignment.

    Raises (from the search):
        RegionTooLarge: the search needed more than ``node_budget`` nodes.
    """
    n_groups = len(sizes)
    need = [mines for _, mines in constraints]
    bounds_of = _rooms_after(group_constraints, sizes, constraints)
    weights = [[comb(s, m) for m in range(s + 1)] for s in sizes]
    nodes = 0

    def search(position: int, mines: int, weight: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > node_budget:
            raise RegionTooLarge(
                f"region of {n_groups} groups needs more than {node_budget} search nodes"
            )
        if position == n_groups:
            record(mines, weight)
            return
        low, high = 0, sizes[position]
        for c, rest in bounds_of[position]:
            # plain ifs: measurably faster than min/max in this hot loop
            if need[c] < high:
                high = need[c]
            if need[c] - rest > low:
                low = need[c] - rest
        if low > high:
            return
        touched = group_constraints[position]
        ways = weights[position]
        for m in range(low, high + 1):
            for c in touched:
                need[c] -= m
            assignment[position] = m
            search(position + 1, mines + m, weight * ways[m])
            for c in touched:
                need[c] += m
        assignment[position] = 0

    return search


def _rooms_after(
    group_constraints: list[tuple[int, ...]], sizes: list[int], constraints: list[Constraint]
) -> list[list[tuple[int, int]]]:
    """For each group in search order, ``(clue, cells of the clue after this group)`` per clue it
    touches: the room a clue has left for its mines once this group is decided (the search order
    is fixed, so it does not depend on the assignment)."""
    room = [len(cells) for cells, _ in constraints]
    bounds_of = []
    for touched, size in zip(group_constraints, sizes, strict=True):
        bounds = []
        for c in touched:
            room[c] -= size
            bounds.append((c, room[c]))
        bounds_of.append(bounds)
    return bounds_of


def _search_order(signatures: list[tuple[int, ...]], n_constraints: int) -> list[int]:
    """Order groups so that clues are closed as early as possible (a greedy, breadth-first walk)."""
    groups_of: list[list[int]] = [[] for _ in range(n_constraints)]
    for g, sig in enumerate(signatures):
        for c in sig:
            groups_of[c].append(g)
    placed = [False] * len(signatures)
    opened = [False] * n_constraints
    order: list[int] = []
    queue = [0] if n_constraints else []
    while len(order) < len(signatures):
        if not queue:
            queue = [next(c for c in range(n_constraints) if not opened[c])]
        c = queue.pop(0)
        if opened[c]:
            continue
        opened[c] = True
        for g in groups_of[c]:
            if not placed[g]:
                placed[g] = True
                order.append(g)
                for other in signatures[g]:
                    if not opened[other]:
                        queue.append(other)
    return order
