"""Choosing a guess when no cell is certainly safe.

Order of preference, after the published strong solvers (PSEQ, JSMinesweeper):

1. A *forced* guess: a cell of a 50/50 or pseudo-50/50 that no future reveal can resolve (two
   cells that nothing can ever tell apart and that cannot both be mines, see
   :mod:`agents.solver.unavoidable`). Its risk has to be taken sooner or later, so it is taken at
   once, and its number may help elsewhere.
2. Depth 0: the lowest mine probability; exact ties go to the cell with the fewest unknown
   neighbours (the most likely to show a small number and open up), then to the seeded RNG.
3. Depth 1: every cell within ``tolerance`` of the lowest risk (at most ``candidates`` of them) is
   tried: for each number it could show, the next position is analysed, and the candidate is scored
   by its *two-step safety* ``(1 - p) * E_v[s(v)]``, where ``s(v)`` is 1 if the next position has a
   certain safe cell and otherwise its best safety; plus ``progress_weight`` times
   ``(1 - p) * P(the next position has a certain safe cell)``. The numbers a cell can show are
   weighted by the exact number of layouts behind each. Cells that are safe after every number
   (safe merely because the candidate is) do not count as progress, and a candidate that can show
   only one number (it tells nothing) is scored after every other one, so it is played only when
   all candidates are like it. Both were measured against their absence (docs/solver.md) and are
   fixed, not options.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.solver import blended
from agents.solver.probability import Analysis, RegionCache, analyse_reveal
from agents.solver.unavoidable import unavoidable_guess
from mswp_gym.cells import neighbour_index, neighbour_table
from mswp_gym.constants import is_unknown

DEFAULT_CANDIDATES = 10
"""Cells a depth-1 search looks at, at most."""
DEFAULT_TOLERANCE = 0.1
"""A depth-1 candidate's risk may exceed the lowest risk by this much (absolute), at most."""
DEFAULT_PROGRESS_WEIGHT = 0.1
"""Weight of the chance of making progress next to two-step safety in the depth-1 score."""
OFF_FRONTIER_SAMPLES = 4
"""Off-frontier cells are equally risky: only this many (the likeliest to open) are tried."""


@dataclass(frozen=True)
class Guess:
    """A chosen guess and why.

    Attributes:
        cell: Flat index of the cell to reveal.
        risk: Its mine probability.
        score: Its depth-1 score (None at depth 0 or when forced).
        forced: True if no future reveal can change its risk.
        tried: How many candidates were scored.
    """

    cell: int
    risk: float
    score: float | None
    forced: bool
    tried: int


def choose_guess(
    analysis: Analysis,
    board: np.ndarray,
    total_mines: int,
    legal: np.ndarray,
    rng: np.random.Generator,
    depth: int,
    cache: RegionCache,
    candidates: int = DEFAULT_CANDIDATES,
    tolerance: float = DEFAULT_TOLERANCE,
    progress_weight: float = DEFAULT_PROGRESS_WEIGHT,
    blended_score: bool = False,
) -> Guess:
    """Pick the cell to reveal when no unknown cell is certainly safe.

    Args:
        analysis: The analysis of ``board``.
        board: ``(rows, cols)`` visible board.
        total_mines: Mines on the board.
        legal: ``(rows * cols,)`` bool, cells that may be revealed.
        rng: Tie-breaking generator.
        depth: 0 (lowest risk) or 1 (look-ahead).
        cache: Region cache shared with the caller.
        candidates: Depth 1: most cells scored.
        tolerance: Depth 1: how far above the lowest risk a candidate may be.
        progress_weight: Depth 1: weight of the progress term.
        blended_score: Depth 1: score as David Hill's solver does instead
            (:mod:`agents.solver.blended`; candidates, tolerance and progress weight are then its
            own).

    Returns:
        The :class:`Guess`.

    Raises:
        ValueError: no legal cell that is not a certain mine (then any legal cell is returned by the
            caller).
    """
    rows, cols = board.shape
    probability = analysis.probability
    table = neighbour_table(rows, cols)
    unknown = _unknown_cells(board)
    options = [c for c in analysis.position.unknown if legal[c] and c not in analysis.mines]
    if not options:
        raise ValueError("no legal cell is left that is not a certain mine")
    around = np.append(unknown, False)[neighbour_index(rows, cols)].sum(axis=1)
    openness = dict(zip(options, around[options].tolist(), strict=True))
    order = sorted(options, key=lambda c: (probability[c], openness[c]))
    best = float(probability[order[0]])

    forced = unavoidable_guess(analysis, board, order, total_mines, cache)
    if forced is not None:
        return Guess(cell=forced, risk=float(probability[forced]), score=None, forced=True, tried=0)
    if depth == 0:
        ties = [
            c for c in order if probability[c] <= best + 1e-12 and openness[c] == openness[order[0]]
        ]
        cell = ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]
        return Guess(cell=cell, risk=best, score=None, forced=False, tried=1)

    if blended_score:
        pool = blended.candidates(analysis, board, order, openness)
        choice, tried = blended.choose(analysis, board, total_mines, legal, pool, cache)
        return Guess(
            cell=choice.cell,
            risk=1.0 - choice.safety,
            score=choice.weight,
            forced=False,
            tried=tried,
        )
    shortlist = _shortlist(order, probability, analysis.frontier, best, tolerance, candidates)
    scored: list[tuple[bool, float, float, int, int]] = []
    for cell in shortlist:
        outcomes = _outcomes(cell, analysis, total_mines, legal, cache, table)
        risk = float(probability[cell])
        score = _two_step_score(outcomes, risk, progress_weight)
        # A cell that can show only one number tells nothing: it goes last unless nothing else
        # is left.
        dead = len(outcomes) == 1 and risk > 0.0
        scored.append((dead, -score, risk, openness[cell], cell))
    scored.sort()
    _, neg_score, risk, _, cell = scored[0]
    return Guess(cell=cell, risk=risk, score=-neg_score, forced=False, tried=len(scored))


def _unknown_cells(board: np.ndarray) -> np.ndarray:
    """``(rows * cols,)`` bool: hidden or flagged cells."""
    flat = board.ravel()
    return is_unknown(flat)


def _shortlist(
    order: list[int],
    probability: np.ndarray,
    frontier: frozenset[int],
    best: float,
    tolerance: float,
    candidates: int,
) -> list[int]:
    """The cells worth a look-ahead: near the lowest risk, off-frontier cells sampled sparingly.

    Off-frontier cells share one risk; the ones tried are those with the fewest unknown neighbours
    (``order`` sorts them first: likeliest to open an area).
    """
    near = [c for c in order if probability[c] <= best + tolerance]
    on = [c for c in near if c in frontier][:candidates]
    off = [c for c in near if c not in frontier]
    return on + off[:OFF_FRONTIER_SAMPLES]


@dataclass(frozen=True)
class _Outcome:
    weight: float
    """Share of the layouts (with the cell safe) that show this value."""
    safety: float
    """Best safety of a cell that is not certain in the next position."""
    safe: frozenset[int]
    """Certain safe cells of the next position."""


def _outcomes(
    cell: int,
    analysis: Analysis,
    total_mines: int,
    legal: np.ndarray,
    cache: RegionCache,
    table: tuple[tuple[int, ...], ...],
) -> list[_Outcome]:
    """For each number ``cell`` can show: its probability, and what the next position offers."""
    visible = analysis.visible_mines
    unknown = set(analysis.position.unknown)
    known = sum(1 for n in table[cell] if n in visible)
    hidden_around = sum(1 for n in table[cell] if n in unknown)
    found: list[tuple[float, float, frozenset[int]]] = []
    for value in range(known, known + hidden_around + 1):
        try:
            after = analyse_reveal(analysis, cell, value, total_mines, cache)
        except ValueError:
            continue
        cells = np.fromiter(
            after.position.unknown, dtype=np.intp, count=len(after.position.unknown)
        )
        risks = after.probability[cells]
        # certain cells hold exactly 0.0 or 1.0 (never by rounding), so this drops after.safe/mines
        keep = legal[cells] & (risks > 0.0) & (risks < 1.0)
        risks = risks[keep]
        safety = 1.0 - float(risks.min()) if risks.size else 1.0
        found.append((after.log_layouts, safety, after.safe))
    if not found:
        return []
    top = max(item[0] for item in found)
    weights = [math.exp(item[0] - top) for item in found]
    total = sum(weights)
    return [
        _Outcome(w / total, safety, safe)
        for w, (_, safety, safe) in zip(weights, found, strict=True)
    ]


def _two_step_score(outcomes: list[_Outcome], risk: float, progress_weight: float) -> float:
    """``(1 - p) * (E_v[s(v)] + progress_weight * P(progress))`` (see the module docstring).

    Cells that are safe after every value (safe merely because ``cell`` is) do not count as
    progress, and a next position whose only safe cells are those is scored by its best safety
    among the other cells.
    """
    if not outcomes:
        return 0.0
    common: frozenset[int] = frozenset()
    if len(outcomes) > 1:
        common = frozenset.intersection(*(o.safe for o in outcomes))
    expected_safety = 0.0
    progress = 0.0
    for outcome in outcomes:
        clears = len(outcome.safe - common)
        moves_on = clears > 0
        expected_safety += outcome.weight * (1.0 if moves_on else outcome.safety)
        progress += outcome.weight * moves_on
    return (1.0 - risk) * (expected_safety + progress_weight * progress)
