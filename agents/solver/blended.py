"""Depth-1 guessing after David Hill's solver: blended next-move safety and 50/50 influence.

Candidates: every frontier cell whose safety is at least ``CUT_OFF`` times the best; off-frontier
cells safer than ``OFF_FRONTIER_CUT_OFF`` times the best (all when fewer than
``FEW_OFF_FRONTIER`` are left, else the promising ones); if none, the lowest-risk cell.

Score of candidate ``t`` with mine probability ``p`` (Hill's ``SecondarySafetyEvaluator``)::

    W(t) = ffi(t) * sum_v P(t safe, t shows v) * blend(v) * (1 + PROGRESS_BONUS * P(progress))
    blend(v) = (4 * s1 + s2) / 5

where ``s1 >= s2`` are the two best safeties among the legal unknown cells of the position after
``t`` shows ``v``; ``ffi`` is the 50/50-influence factor of :mod:`agents.solver.long_term`;
progress means the next position has a certainly safe cell not made safe by ``t`` alone.
Candidates are scored safest first and dropped once they cannot beat the best so far; a safer
candidate that is safe whenever the choice is (by more than ``EQUALITY``) replaces the choice,
as does a safer cell that is the safest after every number the choice can show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.solver.long_term import LongTermRisk
from agents.solver.probability import Analysis, RegionCache, analyse_reveal
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import is_clue

CUT_OFF = 0.9
"""Frontier candidates have at least this fraction of the best safety (Hill's hard cut-off)."""
OFF_FRONTIER_CUT_OFF = 0.95
"""Off-frontier cells are candidates only when safer than this fraction of the best safety."""
FEW_OFF_FRONTIER = 30
"""With fewer off-frontier cells than this, every one of them is a candidate."""
PROGRESS_BONUS = 0.001
"""Weight of the chance of progress, as a factor ``1 + PROGRESS_BONUS * P(progress)``."""
BEST_WEIGHT = 4.0
"""Weight of the best next-move safety in the blend (the second best has weight 1)."""
EQUALITY = 0.0001
"""A replacement must be safer than the choice by more than this."""


@dataclass(frozen=True)
class Scored:
    """One candidate's evaluation.

    Attributes:
        cell: Flat index.
        safety: ``1 - p``.
        weight: The score ``W`` (an upper bound if ``pruned``).
        clears: Expected number of certainly safe cells after it.
        dead: It can show only one number.
        pruned: Scoring stopped early: ``weight`` is only a bound below the best.
        linked: Cells safe whenever it is safe (None if pruned).
        safest: The cell that is the single safest after every number it can show, or None.
    """

    cell: int
    safety: float
    weight: float
    clears: float
    dead: bool
    pruned: bool
    linked: frozenset[int] | None
    safest: int | None


def candidates(
    analysis: Analysis, board: np.ndarray, order: list[int], openness: dict[int, int]
) -> list[int]:
    """The cells worth scoring, in scoring order (module docstring).

    Args:
        order: Legal cells that are not certain mines, by risk and then fewest unknown neighbours.
        openness: Unknown neighbours of each cell of ``order``.
    """
    probability = analysis.probability
    frontier = analysis.frontier
    on = [c for c in order if c in frontier]
    off = [c for c in order if c not in frontier]
    off_safety = 1.0 - float(probability[off[0]]) if off else 0.0
    best = max(off_safety, 1.0 - float(probability[on[0]]) if on else 0.0)
    chosen = [c for c in on if 1.0 - float(probability[c]) >= CUT_OFF * best]
    if off and off_safety > OFF_FRONTIER_CUT_OFF * best:
        if len(off) < FEW_OFF_FRONTIER:
            chosen += sorted(off)
        else:
            chosen += _promising_off_frontier(analysis, board, off, openness)
    return chosen or order[:1]


def _promising_off_frontier(
    analysis: Analysis, board: np.ndarray, off: list[int], openness: dict[int, int]
) -> list[int]:
    """Off-frontier cells two steps from a clue with unknown neighbours, then those with 2-3
    unknown neighbours (Hill's off-edge candidates when many are left)."""
    rows, cols = board.shape
    flat = board.ravel()
    off_set = set(off)
    table = neighbour_table(rows, cols)
    unknown = set(analysis.position.unknown)
    found: list[int] = []
    seen: set[int] = set()
    for witness in np.flatnonzero(is_clue(flat)).tolist():
        if not any(n in unknown for n in table[witness]):
            continue
        row, col = divmod(witness, cols)
        for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            r, c = row + dr, col + dc
            if 0 <= r < rows and 0 <= c < cols:
                cell = r * cols + c
                if cell in off_set and cell not in seen:
                    seen.add(cell)
                    found.append(cell)
    for cell in sorted(off):
        if 1 < openness[cell] < 4 and cell not in seen:
            seen.add(cell)
            found.append(cell)
    return found


def choose(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    legal: np.ndarray,
    shortlist: list[int],
    cache: RegionCache,
) -> tuple[Scored, int]:
    """Score ``shortlist`` in order and return the chosen candidate and how many were scored.

    Raises:
        ValueError: an empty ``shortlist``.
    """
    if not shortlist:
        raise ValueError("no candidate to score")
    long_term = LongTermRisk(analysis, board, total_mines, cache)
    table = neighbour_table(*board.shape)
    scored: list[Scored] = []
    best: Scored | None = None
    for cell in shortlist:
        bound = None if best is None or best.dead else best.weight
        result = _score(cell, analysis, total_mines, legal, cache, table, long_term, bound)
        scored.append(result)
        if result.pruned:
            continue
        if (
            best is None
            or (best.dead and not result.dead)
            or (best.dead == result.dead and result.weight > best.weight)
        ):
            best = result
    ranked = sorted(
        range(len(scored)), key=lambda i: (scored[i].dead, -scored[i].weight, -scored[i].clears, i)
    )
    choice = scored[ranked[0]]
    by_cell = {s.cell: s for s in scored}
    if choice.linked:
        for other in scored:
            if other.cell in choice.linked and other.safety - choice.safety > EQUALITY:
                choice = other
                break
    if choice.safest is not None and choice.safest in by_cell:
        better = by_cell[choice.safest]
        if better.safety > choice.safety:
            choice = better
    return choice, len(scored)


def _score(
    cell: int,
    analysis: Analysis,
    total_mines: int,
    legal: np.ndarray,
    cache: RegionCache,
    table: tuple[tuple[int, ...], ...],
    long_term: LongTermRisk,
    bound: float | None,
) -> Scored:
    """Hill's weight of ``cell``, stopping early once it cannot reach ``bound``."""
    safety = 1.0 - float(analysis.probability[cell])
    factor = long_term.factor(cell)
    visible = analysis.visible_mines
    known = sum(1 for n in table[cell] if n in visible)
    hidden_around = sum(1 for n in table[cell] if n in long_term.unknown)
    secondary = 0.0
    left = safety
    clears = 0.0
    values = 0
    safe_sets: list[tuple[float, frozenset[int]]] = []
    safest: list[int | None] = []
    for value in range(known, known + hidden_around + 1):
        if bound is not None:
            reachable = (secondary + left * factor) * (1.0 + PROGRESS_BONUS * safety)
            if reachable < bound:
                return Scored(cell, safety, reachable, clears, False, True, None, None)
        try:
            after = analyse_reveal(analysis, cell, value, total_mines, cache)
        except ValueError:
            continue
        share = math.exp(after.log_layouts - analysis.log_layouts)
        values += 1
        top, second, top_cell = _two_best(after, legal)
        secondary += share * (BEST_WEIGHT * top + second) / (BEST_WEIGHT + 1.0) * factor
        clears += share * len(after.safe)
        safe_sets.append((share, after.safe))
        safest.append(top_cell if top > second else None)
        left -= share
    linked = frozenset.intersection(*(s for _, s in safe_sets)) if safe_sets else frozenset()
    if len(linked) >= 2:
        weight = safety * (1.0 + PROGRESS_BONUS * safety)
    else:
        progress = sum(share for share, safe in safe_sets if safe - linked)
        weight = secondary * (1.0 + PROGRESS_BONUS * progress)
    same = safest[0] if safest and all(s == safest[0] for s in safest) else None
    return Scored(cell, safety, weight, clears, values == 1, False, linked, same)


def _two_best(after: Analysis, legal: np.ndarray) -> tuple[float, float, int]:
    """The two best safeties among legal unknown cells of ``after`` that are not certain mines,
    and the cell with the best one."""
    cells = np.fromiter(after.position.unknown, dtype=np.intp, count=len(after.position.unknown))
    risks = after.probability[cells]
    keep = legal[cells] & (risks < 1.0)
    cells, risks = cells[keep], risks[keep]
    if risks.size == 0:
        return 0.0, 0.0, -1
    if risks.size == 1:
        return 1.0 - float(risks[0]), 0.0, int(cells[0])
    two = np.argpartition(risks, 1)[:2]
    first, second = sorted(two.tolist(), key=lambda i: (risks[i], cells[i]))
    return 1.0 - float(risks[first]), 1.0 - float(risks[second]), int(cells[first])
