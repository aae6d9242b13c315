"""What the logic agent does when no cell is proven safe: the guess policies.

``R`` is the mines not yet known (total from the public ``GameSpec`` less those proven or
exploded), ``U`` the undetermined hidden cells, ``C`` those in some sentence, ``F = U - C``.

Policies (``GUESS_POLICIES``):
    ``random``        CS50: a uniform draw over the legal cells that are not known mines.
    ``sentence-max``  CS280: risk(c) = max over the sentences holding c of count / len(cells);
                      an unconstrained cell gets the global density R / |U|.
    ``global``        CS520: as ``sentence-max`` on C; F gets risk clip((R - E) / |F|, 0, 1),
                      E the mines in C estimated from greedily packed disjoint sentences plus
                      risk(c) of each uncovered cell of C.
The least risky cell is guessed; ties are broken by the agent's seeded Generator.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from mswp_gym.cells import Cell

RANDOM = "random"
SENTENCE_MAX = "sentence-max"
GLOBAL = "global"
GUESS_POLICIES: tuple[str, ...] = (RANDOM, SENTENCE_MAX, GLOBAL)

TIE_TOLERANCE = 1e-12
"""Risks closer than this count as equal when choosing among the least risky cells."""


def check_policy(policy: str) -> str:
    """Return ``policy`` if it names a guess policy, else raise ValueError listing them."""
    if policy not in GUESS_POLICIES:
        raise ValueError(f"unknown guess policy {policy!r}; expected one of {GUESS_POLICIES}")
    return policy


def risk_map(
    policy: str,
    undetermined: np.ndarray,
    sentences: Iterable[tuple[Iterable[Cell], int]],
    total_mines: int,
    known_mines: int,
) -> np.ndarray | None:
    """The policy's estimated mine probability of every cell.

    Args:
        policy: one of ``GUESS_POLICIES``.
        undetermined: ``(rows, cols)`` bool, the cells U (hidden, state unknown).
        sentences: ``(cells, count)`` pairs; every cell in them must be in U.
        total_mines: M.
        known_mines: K.

    Returns:
        ``(rows, cols)`` float64 risks for the cells of U (0 elsewhere), or None for ``random``.
    """
    check_policy(policy)
    if policy == RANDOM:
        return None
    rows, cols = undetermined.shape
    sentences_list = [(cells, count) for cells, count in sentences]
    highest: dict[Cell, float] = {}
    for cells, count in sentences_list:
        cell_list = list(cells)
        if not cell_list:
            continue
        ratio = count / len(cell_list)
        for cell in cell_list:
            if highest.get(cell, -1.0) < ratio:
                highest[cell] = ratio
    risk = np.zeros((rows, cols), dtype=np.float64)
    constrained = np.zeros((rows, cols), dtype=bool)
    if highest:
        idx = tuple(np.array(list(highest)).T)
        risk[idx] = list(highest.values())
        constrained[idx] = True
    constrained &= undetermined
    free = undetermined & ~constrained
    remaining = max(total_mines - known_mines, 0)
    n_undetermined = int(undetermined.sum())
    n_free = int(free.sum())
    if n_free:
        if policy == SENTENCE_MAX:
            density = remaining / n_undetermined
        else:
            expected = expected_constrained_mines(sentences_list, risk, constrained)
            density = (remaining - expected) / n_free
        risk[free] = min(max(density, 0.0), 1.0)
    risk[~undetermined] = 0.0
    return risk


@lru_cache(maxsize=1 << 16)
def packing_key(cells: frozenset[Cell]) -> tuple[int, tuple[Cell, ...]]:
    """Sort key of a sentence for the packing: fewest cells first, then its sorted cells."""
    return len(cells), tuple(sorted(cells))


def expected_constrained_mines(
    sentences: list[tuple[Iterable[Cell], int]], risk: np.ndarray, constrained: np.ndarray
) -> float:
    """E, the ``global`` policy's estimate of the mines among the constrained cells.

    Disjoint sentences are packed greedily, fewest cells first (ties by their sorted cells): each
    holds exactly its count. Constrained cells outside the packing add their ``risk``.
    """
    covered: set[Cell] = set()
    expected = 0.0
    keyed = [(packing_key(frozenset(c)), n) for c, n in sentences]
    keyed.sort()
    for (_, cell_tuple), count in keyed:
        cells = frozenset(cell_tuple)
        if cells and covered.isdisjoint(cells):
            covered |= cells
            expected += count
    leftover = constrained.copy()
    if covered:
        leftover[tuple(np.array(list(covered)).T)] = False
    return expected + float(risk[leftover].sum())


def least_risky(candidates: np.ndarray, risk: np.ndarray | None, rng: np.random.Generator) -> int:
    """A candidate of least risk (uniform among them if ``risk`` is None), ties by ``rng``.

    Args:
        candidates: flat cell indices ``row * cols + col``, in increasing order.
        risk: ``(rows, cols)`` risks, or None.
        rng: breaks ties.

    Returns:
        The chosen flat index.

    Raises:
        ValueError: ``candidates`` is empty.
    """
    if len(candidates) == 0:
        raise ValueError("no candidate cell to guess from")
    if risk is not None:
        values = risk.ravel()[candidates]
        candidates = candidates[values <= values.min() + TIE_TOLERANCE]
    return int(candidates[int(rng.integers(len(candidates)))])
