"""Choosing a guess when no cell is certainly safe.

Order of preference, after the strong published solvers (PSEQ, David Hill's JSMinesweeper):

1. A *forced* guess: a cell of a 50/50 that no future reveal can resolve
   (:mod:`agents.solver.unavoidable`) or, with ``extended`` (the default), of an extended 50/50
   chain (:mod:`agents.solver.extended`): its risk has to be taken anyway, so it is taken at once.
2. Depth 0: the lowest mine probability; exact ties go to the cell with the fewest unknown
   neighbours, then to the seeded RNG.
3. Depth 1: Hill's look-ahead (:mod:`agents.solver.blended`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.solver import blended
from agents.solver.extended import extended_choice
from agents.solver.probability import Analysis, RegionCache
from agents.solver.unavoidable import unavoidable_guess
from mswp_gym.cells import neighbour_index
from mswp_gym.constants import is_unknown


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
    extended: bool = True,
) -> Guess:
    """Pick the cell to reveal when no unknown cell is certainly safe.

    Raises:
        ValueError: no legal cell that is not a certain mine.
    """
    probability = analysis.probability
    order, openness = guess_order(analysis, board, legal)
    best = float(probability[order[0]])

    forced = forced_guess(analysis, board, order, total_mines, legal, depth, cache, extended)
    if forced is not None:
        return forced
    if depth == 0:
        ties = [
            c for c in order if probability[c] <= best + 1e-12 and openness[c] == openness[order[0]]
        ]
        cell = ties[int(rng.integers(len(ties)))] if len(ties) > 1 else ties[0]
        return Guess(cell=cell, risk=best, score=None, forced=False, tried=1)

    pool = blended.candidates(analysis, board, order, openness)
    choice, tried = blended.choose(analysis, board, total_mines, legal, pool, cache)
    return Guess(
        cell=choice.cell, risk=1.0 - choice.safety, score=choice.weight, forced=False, tried=tried
    )


def forced_guess(
    analysis: Analysis,
    board: np.ndarray,
    order: list[int],
    total_mines: int,
    legal: np.ndarray,
    depth: int,
    cache: RegionCache,
    extended: bool,
) -> Guess | None:
    """The forced guess, if the position has one: a cell of an unavoidable pair
    (:mod:`agents.solver.unavoidable`, the first of ``order``), else with ``extended`` a cell of
    an extended 50/50 chain (of its cells with no extra risk: the first of ``order`` at depth 0,
    the look-ahead's best at depth 1)."""
    cell = unavoidable_guess(analysis, board, order, total_mines, cache)
    tried = 0
    if cell is None and extended:
        found = extended_choice(analysis, board, order, total_mines, cache)
        if found is None:
            return None
        cell = found.cells[0]
        if depth > 0 and len(found.cells) > 1:
            choice, tried = blended.choose(
                analysis, board, total_mines, legal, list(found.cells), cache
            )
            cell = choice.cell
    if cell is None:
        return None
    risk = float(analysis.probability[cell])
    return Guess(cell=cell, risk=risk, score=None, forced=True, tried=tried)


def guess_order(
    analysis: Analysis, board: np.ndarray, legal: np.ndarray
) -> tuple[list[int], dict[int, int]]:
    """The cells that may be guessed (legal, not certain mines), safest first, exact ties to the
    fewest unknown neighbours; and each one's count of unknown neighbours.

    Raises:
        ValueError: no legal cell that is not a certain mine.
    """
    rows, cols = board.shape
    options = [c for c in analysis.position.unknown if legal[c] and c not in analysis.mines]
    if not options:
        raise ValueError("no legal cell is left that is not a certain mine")
    around = np.append(is_unknown(board.ravel()), False)[neighbour_index(rows, cols)].sum(axis=1)
    openness = dict(zip(options, around[options].tolist(), strict=True))
    probability = analysis.probability
    return sorted(options, key=lambda c: (probability[c], openness[c])), openness
