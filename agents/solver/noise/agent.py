"""The solver under the CS520 report's uncertain clues: a thin wrapper that switches by the spec.

Exact clues (with or without hidden ones): the exact :class:`agents.solver.SolverAgent`.
``optimistic`` / ``cautious`` clues: certain cells from the bounded inference
(:mod:`agents.logic.bounded`) and exhaustive enumeration, then the lowest posterior mine
probability (:mod:`agents.solver.noise.probability`), ties broken by the seeded Generator.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import Explanation, MoveNote, MoveReason, guess_candidates, reveal_mask
from agents.logic.bounded import BoundedKnowledge
from agents.observe import ObservationFeeder
from agents.solver import SolverAgent
from agents.solver.noise.probability import (
    DEFAULT_NOISE_BUDGET,
    NoisyAnalysis,
    RegionCache,
    noisy_analysis,
)
from mswp_gym.cells import to_cell, to_index
from mswp_gym.constants import is_unknown
from mswp_gym.spec import GameSpec

TIE_TOLERANCE = 1e-9
"""Probabilities this close count as equal when choosing the least risky guess."""


class NoisySolverAgent(SolverAgent):
    """The solver for any clue model: :class:`SolverAgent` on exact clues, posteriors on noisy ones.

    Args:
        noise_budget: search nodes per frontier region under noisy clues before approximating.
        **kwargs: passed to :class:`SolverAgent` (``seed``, ``spec``, ``depth``, ...).
    """

    name = "solver"

    def __init__(self, *, noise_budget: int = DEFAULT_NOISE_BUDGET, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if noise_budget < 1:
            raise ValueError(f"noise_budget={noise_budget} must be >= 1")
        self.noise_budget = noise_budget
        self._knowledge: BoundedKnowledge | None = None
        self._feeder: ObservationFeeder | None = None
        self._noisy: NoisyAnalysis | None = None
        self._noisy_board: np.ndarray | None = None
        self._regions: RegionCache = {}

    @property
    def noisy(self) -> bool:
        """Whether the current spec has bounded (optimistic / cautious) clues."""
        return self.spec is not None and self.spec.clue_noise != "exact"

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game under ``spec`` (else the constructor's)."""
        super().reset(seed, spec)
        self._knowledge = None
        self._feeder = None
        self._noisy = None
        self._noisy_board = None
        self._regions = {}

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The cell to reveal: as :class:`SolverAgent` on exact numbers, else by the posterior."""
        if not self.noisy:
            return super().act(observation, action_mask)
        board = np.asarray(observation)
        rows, cols = self.board_size(board)
        mask = reveal_mask(action_mask, rows, cols)
        analysis = self._analyse(board)
        safe = [c for c in sorted(analysis.safe) if mask[c]]
        if safe:
            self._certain = True
            self._last = MoveNote(MoveReason.CERTAIN)
            return safe[0]
        legal = np.flatnonzero(guess_candidates(mask, analysis.mines))
        risk = np.nan_to_num(analysis.probability[legal], nan=1.0)
        best = legal[risk <= risk.min() + TIE_TOLERANCE]
        choice = int(best[int(self.rng.integers(len(best)))])
        self._certain = False
        self._last = MoveNote(MoveReason.GUESS, risk=float(analysis.probability[choice]))
        return choice

    def explain(self) -> Explanation:
        """As :meth:`SolverAgent.explain`; under noisy clues ``approximate`` says whether a region
        was too large to enumerate (probabilities then approximate, certainties still sound)."""
        if not self.noisy:
            return super().explain()
        if self._noisy is None or self._noisy_board is None:
            return Explanation(move=self._last)
        cols = self._noisy_board.shape[1]
        hidden = is_unknown(self._noisy_board.ravel())
        return Explanation.of(
            (to_cell(c, cols) for c in self._noisy.safe if hidden[c]),
            (to_cell(c, cols) for c in self._noisy.mines),
            risk=self._noisy.probability.reshape(self._noisy_board.shape).copy(),
            certain=self._certain,
            approximate=self._noisy.approximate,
            move=self._last,
        )

    def _analyse(self, board: np.ndarray) -> NoisyAnalysis:
        assert self.spec is not None
        rows, cols = board.shape
        if self._knowledge is None or self._feeder is None:
            self._knowledge = BoundedKnowledge(rows, cols, self.spec.clue_noise)
            self._feeder = ObservationFeeder(self._knowledge, (rows, cols))
        self._feeder.feed(board)
        knowledge = self._knowledge
        hidden = is_unknown(board.ravel())
        known_mines = {to_index(c, cols) for c in knowledge.mines}
        known_safe = {i for i in (to_index(c, cols) for c in knowledge.safes) if hidden[i]}
        analysis = noisy_analysis(
            board,
            self.spec.clue_noise,
            self.spec.mines,
            known_mines,
            known_safe,
            self.noise_budget,
            self._regions,
        )
        # What the enumeration proves is fed back, so later sentences start from it.
        for cell in sorted(analysis.safe - known_safe):
            knowledge.mark_safe(to_cell(cell, cols))
        for cell in sorted(analysis.mines - known_mines):
            knowledge.mark_mine(to_cell(cell, cols))
        knowledge.infer()
        self._noisy = analysis
        self._noisy_board = board.copy()
        return analysis
