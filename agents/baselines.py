"""Simple baselines: a uniform random player and the CS520 report's local-rules player."""

from __future__ import annotations

import numpy as np

from agents.base import Explanation, SeededAgent, guess_candidates, reveal_mask
from mswp_gym.cells import neighbour_counts, neighbours, to_cell, to_index
from mswp_gym.constants import EXPLODED, HIDDEN, is_clue
from mswp_gym.spec import GameSpec


class RandomAgent(SeededAgent):
    """Reveals a cell drawn uniformly from the legal reveal actions. Knows nothing."""

    name = "random"
    move_kind = "random move"
    last_move_certain = False
    """Never proves anything (see :class:`agents.base.ReportsCertainty`)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A uniformly random legal reveal action.

        Raises:
            ValueError: no reveal action is legal.
        """
        rows, cols = self.board_size(observation)
        legal = np.flatnonzero(reveal_mask(action_mask, rows, cols))
        return int(legal[int(self.rng.integers(len(legal)))])

    def explain(self) -> Explanation:
        """Proves nothing: empty sets, no risk map, never certain."""
        return Explanation()


class LocalRulesAgent(SeededAgent):
    """The CS520 report's baseline: per-clue rules only, no inference across clues.

    For every revealed clue with ``known`` neighbours known to be mines and ``hidden`` other hidden
    neighbours: ``clue - known == 0`` makes ``hidden`` safe, ``clue - known == len(hidden)`` makes
    it mines; swept over all clues until neither fires. Under ``optimistic`` clues only the mine
    rule is sound, under ``cautious`` only the safe rule; ``NO_CLUE`` cells give none. The agent
    reveals the first known-safe hidden cell in row-major order, else a uniformly random legal
    cell not known to be a mine.
    """

    name = "local"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.mines: set[int] = set()
        self.safes: set[int] = set()
        self.last_move_certain = False

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Forget the last game."""
        super().reset(seed, spec)
        self.mines = set()
        self.safes = set()
        self.last_move_certain = False
        self._cols = 1

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A cell a single clue proves safe, else a random legal cell not known to be a mine.

        Raises:
            ValueError: no reveal action is legal.
        """
        board = np.asarray(observation)
        rows, cols = self.board_size(board)
        self._cols = cols
        reveal = reveal_mask(action_mask, rows, cols)
        self._apply_rules(board)
        safe = [index for index in self.safes if reveal[index]]
        if safe:
            self.last_move_certain = True
            return min(safe)
        self.last_move_certain = False
        legal = np.flatnonzero(guess_candidates(reveal, self.mines))
        return int(legal[int(self.rng.integers(len(legal)))])

    def explain(self) -> Explanation:
        """Cells the per-clue rules proved (safe ones not yet revealed), no risk map."""
        return Explanation.of(
            (to_cell(i, self._cols) for i in self.safes),
            (to_cell(i, self._cols) for i in self.mines),
            certain=self.last_move_certain,
        )

    def _apply_rules(self, board: np.ndarray) -> None:
        rows, cols = board.shape
        flat = board.ravel()
        self.mines.update(int(i) for i in np.flatnonzero(flat == EXPLODED))
        self.safes = {i for i in self.safes if flat[i] == HIDDEN}
        hidden = flat == HIDDEN
        # Only clues with a hidden neighbour can fire: finding them is one vectorised count, so
        # an empty 1000x1000 board costs milliseconds, not a million-cell neighbour table.
        frontier = is_clue(flat) & (neighbour_counts(board == HIDDEN).ravel() > 0)
        clues = [int(i) for i in np.flatnonzero(frontier)]
        table = {
            index: [to_index(n, cols) for n in neighbours(to_cell(index, cols), rows, cols)]
            for index in clues
        }
        noise = self.spec.clue_noise if self.spec is not None else "exact"
        changed = True
        while changed:
            changed = False
            for index in clues:
                around = table[index]
                unknown = [
                    n for n in around if hidden[n] and n not in self.mines and n not in self.safes
                ]
                if not unknown:
                    continue
                left = int(flat[index]) - sum(1 for n in around if n in self.mines)
                if left == 0 and noise != "optimistic":
                    self.safes.update(unknown)
                    changed = True
                elif left == len(unknown) and noise != "cautious":
                    self.mines.update(unknown)
                    changed = True
