"""Exhaustive endgame search: when few layouts remain, find the guess with the best chance to win.

Every layout consistent with the position is listed (each equally likely). The win probability of
a set of layouts ``S`` is 1 if ``|S| == 1``; else, if some cell is safe in every layout and shows
different numbers across ``S``, ``sum_v |S_v| / |S| * win(S_v)`` (a free reveal); else the best
risky reveal, ``max_c sum_v |S_{c safe, v}| / |S| * win(S_{c safe, v})``. Flood fill need not be
played out (the free reveals show all it would), so these are the game's exact win probabilities.
Sub-results are memoised by the set of layouts; on overflow of the node budget the caller falls
back to the ordinary guess.
"""

from __future__ import annotations

import math

import numpy as np

from agents.solver.probability import Analysis
from mswp_gym.cells import neighbour_table

DEFAULT_ENDGAME_LAYOUTS = 1000
"""Search exhaustively when at most this many layouts remain."""
MAX_ENDGAME_CELLS = 60
"""... and at most this many undecided unknown cells."""
NODE_BUDGET = 100_000
"""Search nodes (memo misses) before the endgame search gives up."""
TIE = 1e-12
"""Win probabilities closer than this are equal: the first move found keeps the lead."""


class _OutOfBudget(RuntimeError):
    pass


def endgame_move(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    legal: np.ndarray,
    max_layouts: int = DEFAULT_ENDGAME_LAYOUTS,
    node_budget: int = NODE_BUDGET,
    max_cells: int = MAX_ENDGAME_CELLS,
) -> tuple[int, float] | None:
    """The guess with the highest win probability, if the position is small enough to search.

    Searches with at most ``max_layouts`` layouts and ``max_cells`` undecided cells left, within
    ``node_budget`` memo misses. Returns ``(flat cell, win probability)``, or None (too large, out
    of budget, or ``analysis`` approximate).
    """
    if analysis.approximate or analysis.log_layouts > math.log(max_layouts) + 1e-9:
        return None
    position = analysis.position
    settled = analysis.safe | analysis.mines
    cells = [c for c in position.unknown if c not in settled]
    if not cells or len(cells) > max_cells:
        return None
    mines_left = position.mines_left - len(analysis.mines)
    layouts = _layouts(cells, position.constraints, analysis.mines, mines_left, max_layouts)
    if layouts is None or len(layouts) < 2:
        return None
    rows, cols = board.shape
    table = neighbour_table(rows, cols)
    bit = {c: 1 << i for i, c in enumerate(cells)}
    around = [sum(bit[n] for n in table[c] if n in bit) for c in cells]
    movable = [i for i, c in enumerate(cells) if legal[c]]
    search = _Search(around, movable, node_budget)
    try:
        win, best = search.best_move(tuple(layouts))
    except _OutOfBudget:
        return None
    if best is None:
        return None
    return cells[best], win


def _layouts(
    cells: list[int],
    constraints: tuple[tuple[tuple[int, ...], int], ...],
    known_mines: frozenset[int],
    mines_left: int,
    limit: int,
) -> list[int] | None:
    """Every layout of ``cells`` (as a bitmask over their positions) meeting the clues and the
    count."""
    rules = _clue_rules(cells, constraints, known_mines)
    order = _frontier_first(rules, len(cells))
    rules_of = _rules_by_position(rules, order)
    need = [n for _, n in rules]
    room = [len(members) for members, _ in rules]
    found: list[int] = []
    n = len(order)

    def search(p: int, mines: int, mask: int) -> None:
        if len(found) > limit:
            return
        if mines > mines_left or mines + (n - p) < mines_left:
            return
        if p == n:
            found.append(mask)
            return
        for value in (0, 1):
            ok = True
            for r in rules_of[p]:
                need[r] -= value
                room[r] -= 1
            for r in rules_of[p]:
                if need[r] < 0 or need[r] > room[r]:
                    ok = False
            if ok:
                search(p + 1, mines + value, mask | (value << order[p]))
            for r in rules_of[p]:
                need[r] += value
                room[r] += 1

    search(0, 0, 0)
    return None if len(found) > limit else found


def _clue_rules(
    cells: list[int],
    constraints: tuple[tuple[tuple[int, ...], int], ...],
    known_mines: frozenset[int],
) -> list[tuple[list[int], int]]:
    """Each clue as ``(positions in cells of its undecided cells, mines missing among them)``."""
    index = {c: i for i, c in enumerate(cells)}
    rules = []
    for clue_cells, mines in constraints:
        missing = mines - sum(1 for c in clue_cells if c in known_mines)
        members = [index[c] for c in clue_cells if c in index]
        rules.append((members, missing))
    return rules


def _rules_by_position(rules: list[tuple[list[int], int]], order: list[int]) -> list[list[int]]:
    """For each step of ``order``, the indices of the rules its cell lies under."""
    position_of = {v: p for p, v in enumerate(order)}
    rules_of: list[list[int]] = [[] for _ in order]
    for r, (members, _) in enumerate(rules):
        for m in members:
            rules_of[position_of[m]].append(r)
    return rules_of


def _frontier_first(rules: list[tuple[list[int], int]], n_cells: int) -> list[int]:
    """The order in which :func:`_layouts` decides cells: the frontier cells first (in clue
    order), then the free ones."""
    order = dict.fromkeys(m for members, _ in rules for m in members)  # first occurrences
    return [*order, *(i for i in range(n_cells) if i not in order)]


class _Search:
    """Memoised win-probability search over sets of layouts (bitmasks)."""

    def __init__(
        self, around: list[int], movable: list[int], node_budget: int = NODE_BUDGET
    ) -> None:
        self.around = around
        self.node_budget = node_budget
        self.movable = movable
        self.memo: dict[tuple[int, ...], float] = {}
        self.nodes = 0

    def best_move(self, layouts: tuple[int, ...]) -> tuple[float, int | None]:
        """The best risky move from ``layouts`` and its win probability.

        Moves are tried in ``movable`` order, the first best kept; a move no safer than the best
        win so far is skipped, one that can no longer beat it abandoned (same result, fewer nodes).
        """
        best_win, best_cell = -1.0, None
        total = len(layouts)
        for safe, i in self._safe_counts(layouts):
            if safe / total <= best_win + TIE:
                continue
            win = self._after_reveal(layouts, i, best_win + TIE)
            if win > best_win + TIE:
                best_win, best_cell = win, i
        return best_win, best_cell

    def _risky(self, layouts: tuple[int, ...]) -> list[int]:
        union = 0
        common = -1
        for layout in layouts:
            union |= layout
            common &= layout
        # A cell is a risky option if it is a mine in some layouts but not in all of them.
        return [i for i in self.movable if (union >> i) & 1 and not (common >> i) & 1]

    def _safe_counts(self, layouts: tuple[int, ...]) -> list[tuple[int, int]]:
        """``(layouts where i is safe, i)`` for each risky move ``i`` (:meth:`_risky` order)."""
        return [
            (sum(1 for layout in layouts if not layout & (1 << i)), i) for i in self._risky(layouts)
        ]

    def _after_reveal(self, layouts: tuple[int, ...], i: int, floor: float = -1.0) -> float:
        """The win probability after revealing ``i``; once it can no longer exceed ``floor``, an
        upper bound of it that does not exceed ``floor`` instead."""
        bit = 1 << i
        parts: dict[int, list[int]] = {}
        for layout in layouts:
            if not layout & bit:
                parts.setdefault((layout & self.around[i]).bit_count(), []).append(layout)
        total = len(layouts)
        left = sum(len(part) for part in parts.values()) / total
        value = 0.0
        for part in parts.values():
            share = len(part) / total
            left -= share
            value += share * self.win(tuple(part))
            if value + left <= floor:
                return value + left
        return value

    def win(self, layouts: tuple[int, ...]) -> float:
        """Probability of winning from this set of equally likely layouts, playing perfectly."""
        if len(layouts) == 1:
            return 1.0
        found = self.memo.get(layouts)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _OutOfBudget
        union, common = 0, -1
        for layout in layouts:
            union |= layout
            common &= layout
        varying = union & ~common
        value = None
        for i in self.movable:
            if (union >> i) & 1 or not self.around[i] & varying:
                continue  # not safe in every layout, or the same number in all of them
            counts = {(layout & self.around[i]).bit_count() for layout in layouts}
            if len(counts) > 1:  # a free, informative reveal
                value = self._after_reveal(layouts, i)
                break
        if value is None:
            value = max(self._best_value(layouts), 0.0)
        self.memo[layouts] = value
        return value

    def _best_value(self, layouts: tuple[int, ...]) -> float:
        """The win probability of the best risky move from ``layouts`` (-1 if none): the moves
        tried safest first, so that once one is no safer than the best win so far, none is left
        that could beat it."""
        total = len(layouts)
        safe = sorted(self._safe_counts(layouts), key=lambda pair: -pair[0])
        best = -1.0
        for count, i in safe:
            if count / total <= best + TIE:
                break
            win = self._after_reveal(layouts, i, best + TIE)
            if win > best + TIE:
                best = win
        return best
