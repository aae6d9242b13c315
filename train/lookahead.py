"""A one-step look-ahead for a network's guesses, by the network's own beliefs (no solver).

At a move where the network is not sure of any cell, the agent plays the candidate ``t`` that
maximises

    ``W(t) = P(t safe) * sum_v P(t shows v) * s(v)``,

where ``s(v)`` is the best safety the *network* reads on the board with ``t`` revealed showing
``v``: one minus the lowest P(mine) it gives any other legal cell there (1 for ``v`` = 0, whose
neighbours are all safe). This is David Hill's look-ahead score (``agents.solver.blended``) with
the network's P(mine) in place of the exact counts:

* ``P(t safe)`` is one minus the network's P(mine) of ``t``;
* ``P(t shows v)`` is the Poisson-binomial distribution of the mines among ``t``'s unknown
  neighbours, each a mine with its own network P(mine) and independently of the others (plus the
  visible mines around ``t``); values below :data:`LEAST_VALUE_SHARE` are dropped and the rest
  renormalised;
* every hypothetical board (each candidate with each of its values) is read in one batched
  forward pass per view.

The candidates are the ``candidates`` legal cells the network rates safest and its own move. A
game plays the same moves for the same network and board: nothing here is random.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mswp_gym.cells import neighbour_table
from mswp_gym.constants import EXPLODED, MINE, is_unknown

GUESS_RISK = 0.01
"""The look-ahead runs only when the network's own move has at least this P(mine): below it the
move is (nearly always) a cell the clues prove safe, and looking ahead would only cost time."""
LEAST_VALUE_SHARE = 1e-3
"""Numbers a candidate shows with a smaller probability than this are not looked at."""

BeliefReader = Callable[[np.ndarray], np.ndarray]
"""Maps ``(B, rows, cols)`` board codes to ``(B, rows * cols)`` P(mine) by the network."""


@dataclass(frozen=True)
class LookAheadChoice:
    """What the look-ahead decided at one guess.

    Attributes:
        move: the flat cell to play.
        candidates: the flat cells scored, in the order scored.
        scores: ``W`` of each candidate.
    """

    move: int
    candidates: tuple[int, ...]
    scores: tuple[float, ...]


def value_distribution(neighbour_risks: np.ndarray, visible_mines: int) -> np.ndarray:
    """P(the cell shows v) for v = 0..8, its unknown neighbours' mines independent.

    Args:
        neighbour_risks: P(mine) of each unknown neighbour.
        visible_mines: mines already shown around the cell.

    Returns:
        ``(9,)`` float64 probabilities summing to 1.
    """
    dist = np.zeros(9)
    counts = np.array([1.0])
    for risk in neighbour_risks.tolist():
        counts = np.convolve(counts, (1.0 - risk, risk))
    dist[visible_mines : visible_mines + len(counts)] = counts
    return dist


def look_ahead(
    board: np.ndarray,
    risk: np.ndarray,
    legal: np.ndarray,
    own_move: int,
    candidates: int,
    read_beliefs: BeliefReader,
) -> LookAheadChoice:
    """The candidate with the best look-ahead score ``W`` (see the module docstring).

    Args:
        board: ``(rows, cols)`` visible codes.
        risk: ``(rows * cols,)`` the network's P(mine) of each cell.
        legal: ``(rows * cols,)`` bool, the cells that may be revealed.
        own_move: the move the network would play without the look-ahead (always a candidate).
        candidates: how many of the safest legal cells to score besides ``own_move`` (>= 1).
        read_beliefs: the network's P(mine) of a batch of boards.

    Returns:
        The choice, with every candidate's score; ties go to the earlier candidate (``own_move``
        first).
    """
    rows, cols = board.shape
    flat = board.ravel()
    masked = np.where(legal, risk, np.inf)
    safest = [int(c) for c in np.argsort(masked, kind="stable")[:candidates] if legal[c]]
    cells = tuple(dict.fromkeys([own_move, *safest]))
    table = neighbour_table(rows, cols)
    unknown = is_unknown(flat)
    boards: list[np.ndarray] = []
    asked: list[tuple[int, int, float]] = []  # (candidate index, board index, weight)
    certain: list[float] = [0.0] * len(cells)
    for index, cell in enumerate(cells):
        around = table[cell]
        hidden = [n for n in around if unknown[n] and n != cell]
        if not hidden:  # its number tells nothing new: the best other cell as it is now
            others = legal.copy()
            others[cell] = False
            certain[index] = 1.0 - float(risk[others].min()) if others.any() else 1.0
            continue
        shown = sum(1 for n in around if flat[n] in (EXPLODED, MINE))
        dist = value_distribution(risk[hidden], shown)
        kept = np.flatnonzero(dist >= LEAST_VALUE_SHARE)
        total = float(dist[kept].sum())
        for value in kept.tolist():
            weight = float(dist[value]) / total
            if value == shown:  # no hidden neighbour is a mine: each one is safe
                certain[index] += weight
                continue
            hypothetical = flat.copy()
            hypothetical[cell] = value
            asked.append((index, len(boards), weight))
            boards.append(hypothetical.reshape(rows, cols))
    expected = list(certain)
    if boards:
        beliefs = read_beliefs(np.stack(boards))
        for index, at, weight in asked:
            others = legal.copy()
            others[cells[index]] = False
            best_safety = 1.0 - float(beliefs[at][others].min()) if others.any() else 1.0
            expected[index] += weight * best_safety
    scores = tuple((1.0 - float(risk[c])) * e for c, e in zip(cells, expected, strict=True))
    move = cells[int(np.argmax(scores))]
    return LookAheadChoice(move=move, candidates=cells, scores=scores)
