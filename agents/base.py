"""The one interface every agent implements, and the shapes of what it explains."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mswp_gym.cells import Cell
from mswp_gym.spec import GameSpec


class MoveReason(StrEnum):
    """How the solver chose its last move: ``explain().move.reason`` (equal to its text)."""

    FIRST_CLICK = "first-click"
    """The rule's first click (a corner under ``safe``, the opening offset under ``opening``)."""
    CERTAIN = "certain"
    """A cell proven safe."""
    ENDGAME = "endgame"
    """The exhaustive endgame search's best win probability."""
    FORCED = "forced"
    """A forced guess: a 50/50 pair or chain that no later move can resolve."""
    GUESS = "guess"
    """The look-ahead's (or, at depth 0, the lowest risk's) guess."""
    FALLBACK = "fallback"
    """No guess could be scored: the first legal cell."""


@dataclass(frozen=True)
class MoveNote:
    """How the solver chose its last move, and the figures its rule weighed: ``explain().move``."""

    reason: MoveReason
    risk: float | None = None
    """The cell's mine probability (guesses and endgame moves; None where the move was certain)."""
    score: float | None = None
    """The look-ahead's score of the cell (depth-1 guesses that were not forced)."""
    tried: int | None = None
    """How many candidate cells the guess scored."""
    win: float | None = None
    """The endgame search's probability of winning the game after this move."""
    cell: Cell | None = None
    """The first click's cell ``(row, col)``."""


@dataclass(frozen=True)
class Explanation:
    """What an agent knows now: the return type of every agent's ``explain()``."""

    safe: frozenset[Cell] = frozenset()
    """Hidden cells the agent has proven safe, ``(row, col)``."""
    mines: frozenset[Cell] = frozenset()
    """Cells the agent has proven to be mines (exploded ones included)."""
    risk: np.ndarray | None = field(default=None, compare=False)
    """``(rows, cols)`` float mine probabilities (NaN on revealed cells), or None if the agent
    has no risk map (or has not moved yet)."""
    certain: bool = False
    """Whether the last move was proven safe."""
    sentences: int | None = None
    """Logic agent: how many sentences its knowledge holds (None for other agents)."""
    approximate: bool = False
    """Solver: a region was too large to count exactly (probabilities approximate, the
    certainties still sound)."""
    move: MoveNote | None = field(default=None, compare=False)
    """Solver: how the last move was chosen (None for other agents, and before the first move)."""

    @classmethod
    def of(cls, safe: Iterable[Cell] = (), mines: Iterable[Cell] = (), **rest: Any) -> Explanation:
        """An explanation from any iterables of cells (turned into frozensets)."""
        return cls(frozenset(safe), frozenset(mines), **rest)


@runtime_checkable
class Agent(Protocol):
    """A Minesweeper player that sees only what a human player sees.

    Contract:
        * ``reset(seed, spec)`` starts a new game. The agent is deterministic given ``seed``:
          the same seed, spec and observations give the same actions.
        * ``act(observation, action_mask)`` receives the visible board, an ``(rows, cols)`` int8
          array of codes from :mod:`mswp_gym.constants` (clues ``0..8``, ``HIDDEN``, ...), and
          the legal-action mask (bool or int8, shape ``(rows*cols,)`` or longer when flag
          actions are on). It returns a flat action index ``row * cols + col`` that is legal.
        * ``explain()`` returns what the agent knows now, an :class:`Explanation`: the cells it
          has proven safe and mines, its risk map (or None) and whether the last move was
          proven safe.
    """

    name: str

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Forget the last game and start a new one under ``spec``, seeded by ``seed``."""
        ...

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Choose a legal flat action for the visible board ``observation``."""
        ...

    def explain(self) -> Explanation:
        """What the agent knows now (see the class contract)."""
        ...


@runtime_checkable
class ReportsCertainty(Protocol):
    """Optional fast path: an agent that says whether its last move was proven safe.

    ``last_move_certain`` must equal ``explain().certain`` at all times (``play_episode`` reads
    it instead of building the explanation)."""

    last_move_certain: bool


def reveal_mask(action_mask: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows*cols,)`` bool: the legal reveal actions of a mask (flag actions dropped).

    Raises:
        ValueError: the mask is shorter than ``rows * cols``, or no reveal action is legal.
    """
    mask = np.asarray(action_mask).ravel()
    if mask.shape[0] < rows * cols:
        raise ValueError(f"action mask of length {mask.shape[0]} is shorter than {rows}x{cols}")
    reveal = mask[: rows * cols].astype(bool)
    if not reveal.any():
        raise ValueError("no legal reveal action: the game is over")
    return reveal


def guess_candidates(legal: np.ndarray, mines: Iterable[int]) -> np.ndarray:
    """``legal`` (bool per cell) less the flat cells ``mines``; ``legal`` itself if none remain."""
    candidates = legal.copy()
    candidates[list(mines)] = False
    return candidates if candidates.any() else legal


class SeededAgent:
    """Shared bookkeeping for the agents: a name, a default ``seed`` for ``reset``, the spec and
    an RNG."""

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.default_seed = seed
        self.spec: GameSpec | None = None
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game: a fresh Generator from ``seed`` (else the constructor's seed)."""
        self.rng = np.random.default_rng(self.default_seed if seed is None else seed)
        self.spec = spec

    def board_size(self, observation: np.ndarray) -> tuple[int, int]:
        """``(rows, cols)`` from the spec, else from the observation.

        Raises:
            ValueError: the observation does not match the spec.
        """
        shape = tuple(int(n) for n in np.shape(observation))
        if len(shape) != 2:
            raise ValueError(f"{self.name} needs a (rows, cols) board, got shape {shape}")
        if self.spec is not None and shape != (self.spec.rows, self.spec.cols):
            raise ValueError(
                f"board of shape {shape} does not match the spec {self.spec.rows}x{self.spec.cols}"
            )
        return shape[0], shape[1]
