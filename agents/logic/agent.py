"""The CS50 logic agent: a knowledge-based player that reveals proven-safe cells, else guesses."""

from __future__ import annotations

import numpy as np

from agents.base import Explanation, SeededAgent, guess_candidates, reveal_mask
from agents.logic.bounded import BoundedKnowledge
from agents.logic.cs50 import MinesweeperAI
from agents.logic.guessing import GLOBAL, RANDOM, check_policy, least_risky, risk_map
from agents.logic.indexed import IndexedMinesweeperAI
from agents.observe import ObservationFeeder
from mswp_gym.cells import to_index
from mswp_gym.constants import is_unknown
from mswp_gym.spec import GameSpec

ENGINES: dict[str, type[MinesweeperAI | IndexedMinesweeperAI]] = {
    "indexed": IndexedMinesweeperAI,
    "plain": MinesweeperAI,
}
"""``indexed``: the fast engine (default); ``plain``: the CS50 reference loop, for comparison."""


class LogicAgent(SeededAgent):
    """Plays by CS50 inference from the visible board, guessing per a policy when stuck.

    Each ``act`` feeds the newly revealed cells to the CS50 player (:mod:`agents.observe`) and
    plays the first proven-safe hidden cell in row-major order, else a guess chosen by ``guess``
    (:mod:`agents.logic.guessing`). Under uncertain clues the knowledge is a
    :class:`agents.logic.bounded.BoundedKnowledge`.

    Args:
        guess: ``"random"`` (CS50), ``"sentence-max"`` (CS280) or ``"global"`` (CS520).
        engine: ``"indexed"`` (fast, default) or ``"plain"`` (the reference algorithm).

    Raises:
        ValueError: unknown ``guess`` or ``engine``.
    """

    def __init__(self, guess: str = RANDOM, engine: str = "indexed", seed: int | None = None):
        super().__init__(seed)
        self.guess = check_policy(guess)
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; expected one of {sorted(ENGINES)}")
        self.engine = engine
        self.name = "logic" if guess == RANDOM else f"logic-{guess}"
        self.ai: MinesweeperAI | IndexedMinesweeperAI | BoundedKnowledge | None = None
        self.feeder: ObservationFeeder | None = None
        self.last_move_certain = False
        self._board: np.ndarray | None = None
        self._risk: np.ndarray | None = None
        self._risk_fresh = False
        self._mines_mask = np.zeros((0, 0), dtype=bool)
        self._mines_counted = -1
        self._undetermined_cache: tuple[tuple[int, int, int], np.ndarray] | None = None

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Forget the last game; a new CS50 player is built on the first ``act``."""
        super().reset(seed, spec)
        self.ai = None
        self.feeder = None
        self.last_move_certain = False
        self._board = None
        self._risk = None
        self._risk_fresh = False
        self._mines_counted = -1
        self._undetermined_cache = None

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A proven-safe hidden cell if there is one, else a guess; as a flat action index.

        Raises:
            ValueError: no reveal action is legal, or the board does not match the spec.
        """
        board = np.asarray(observation)
        rows, cols = self.board_size(board)
        if self.ai is None or self.feeder is None:
            if self.spec is not None and not self.spec.exact_clues:
                # Uncertain clues (CS520 models): sentences with bounds, see agents.logic.bounded.
                self.ai = BoundedKnowledge(rows, cols, self.spec.clue_noise, self.rng)
            else:
                self.ai = ENGINES[self.engine](rows, cols, self.rng)
            self.feeder = ObservationFeeder(self.ai, (rows, cols))
        self._board = board
        self._risk_fresh = False
        self.feeder.feed(board)
        reveal = reveal_mask(action_mask, rows, cols)
        if self.guess == GLOBAL:
            self._apply_total_count(board)
        safe = [cell for cell in self.ai.safes - self.ai.moves_made if reveal[to_index(cell, cols)]]
        if safe:
            self.last_move_certain = True
            return to_index(min(safe), cols)
        self.last_move_certain = False
        candidates = guess_candidates(reveal, (to_index(cell, cols) for cell in self.ai.mines))
        self._risk = self._risk_map(board)
        self._risk_fresh = True
        return least_risky(np.flatnonzero(candidates), self._risk, self.rng)

    def explain(self) -> Explanation:
        """What the agent knows now.

        ``risk`` is the guess policy's map (None for ``random`` or before the first move);
        ``sentences`` counts the knowledge's sentences."""
        if self.ai is None:
            return Explanation(sentences=0)
        if not self._risk_fresh and self._board is not None:
            self._risk = self._risk_map(self._board)
            self._risk_fresh = True
        return Explanation.of(
            self.ai.safes - self.ai.moves_made,
            self.ai.mines,
            risk=self._risk,
            certain=self.last_move_certain,
            sentences=self.ai.sentence_count(),
        )

    def _undetermined(self, board: np.ndarray) -> np.ndarray:
        """``(rows, cols)`` bool: hidden cells whose state the knowledge has not settled.

        Cached until ``mines``, ``safes`` or ``moves_made`` (which only grow) change size."""
        assert self.ai is not None
        state = (len(self.ai.mines), len(self.ai.safes), len(self.ai.moves_made))
        if self._undetermined_cache is not None and self._undetermined_cache[0] == state:
            return self._undetermined_cache[1]
        undetermined = is_unknown(board)  # flags are notes, not knowledge
        # Known mines only grow, so their mask is rebuilt only when the set has grown.
        if len(self.ai.mines) != self._mines_counted:
            self._mines_mask = np.zeros(board.shape, dtype=bool)
            if self.ai.mines:
                self._mines_mask[tuple(np.array(list(self.ai.mines)).T)] = True
            self._mines_counted = len(self.ai.mines)
        undetermined &= ~self._mines_mask
        pending_safe = self.ai.safes - self.ai.moves_made
        if pending_safe:
            undetermined[tuple(np.array(list(pending_safe)).T)] = False
        self._undetermined_cache = (state, undetermined)
        return undetermined

    def _total_mines(self) -> int:
        if self.spec is None:
            raise ValueError(f"guess policy {self.guess!r} needs the GameSpec (its mine count)")
        return self.spec.mines

    def _risk_map(self, board: np.ndarray) -> np.ndarray | None:
        assert self.ai is not None
        if self.guess == RANDOM:
            return None
        return risk_map(
            self.guess,
            self._undetermined(board),
            # Bounded sentences give a float midpoint as the count; risk_map only divides it.
            self.ai.sentence_items(),  # type: ignore[arg-type]
            self._total_mines(),
            len(self.ai.mines),
        )

    def _apply_total_count(self, board: np.ndarray) -> None:
        """Mark all undetermined cells safe (or all mines) when the mine total proves it."""
        assert self.ai is not None
        remaining = self._total_mines() - len(self.ai.mines)
        undetermined = self._undetermined(board)
        n_undetermined = int(np.count_nonzero(undetermined))
        if not n_undetermined or 0 < remaining < n_undetermined:
            return
        mark = self.ai.mark_safe if remaining <= 0 else self.ai.mark_mine
        for row, col in np.argwhere(undetermined):
            mark((int(row), int(col)))
        self.ai.infer()
