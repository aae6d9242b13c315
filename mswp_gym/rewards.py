"""Rewards are data: one frozen config passed to the env, no reward literals inside ``step``."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class RewardConfig:
    """What each kind of step earns.

    The defaults (win +1, loss -1, informed progress +0.3, blind guess -0.3) are the common
    shaping of published DQN/PPO Minesweeper work: dense and bounded, informed beats blind.
    """

    win: float = 1.0
    """The step that reveals the last safe cell."""
    loss: float = -1.0
    """A step onto a mine (in score mode: each explosion; the game goes on)."""
    progress: float = 0.3
    """A safe reveal next to an already revealed cell (an informed move), not ending the game."""
    guess: float = -0.3
    """A safe reveal with no revealed neighbour (a blind guess), after the first move."""
    invalid: float = -0.3
    """An in-space action that changes nothing (an already revealed cell)."""
    flag: float = 0.0
    """A flag toggle (flag actions only)."""
    first_move: float = 0.0
    """The first reveal of a game when it does not end it: it is always blind, so no penalty."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise ValueError(f"reward {field.name} must be a finite number, got {value!r}")
            object.__setattr__(self, field.name, float(value))

    @classmethod
    def from_dict(cls, values: dict[str, float]) -> RewardConfig:
        """Build from a mapping, naming any unknown key.

        Raises:
            ValueError: for a key that is not a reward field, or a bad value.
        """
        known = {field.name for field in fields(cls)}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"unknown reward keys {sorted(unknown)}; known: {sorted(known)}")
        return cls(**values)

    @classmethod
    def sparse(cls) -> RewardConfig:
        """+1 for a win, -1 for a loss, nothing else."""
        return cls(progress=0.0, guess=0.0, invalid=0.0)

    @classmethod
    def per_reveal(cls) -> RewardConfig:
        """+1 for a win, -1 for a loss, +0.3 for every other safe reveal, blind or informed.

        A move's reward then says only whether its cell was safe (with discount 0: a bandit).
        """
        return cls(guess=0.3)
