"""How clues are shown: exactly, or under one of the CS520 report's three uncertainty models.

1. ``reveal_prob=p``: a revealed safe cell shows its clue with probability ``p``, else ``NO_CLUE``.
2. ``noise="optimistic"``: the shown number is uniform in ``0..true`` (a lower bound).
3. ``noise="cautious"``: the shown number is uniform in ``true..neighbours`` (an upper bound).

Each clue is drawn once, at its reveal, from the env's RNG. Under any uncertainty there is no
flood fill (it would tell the truth the model hides).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.choices import ClueNoise, parse_choice
from mswp_gym.constants import NO_CLUE


@dataclass(frozen=True)
class ClueModel:
    """What a revealed safe cell shows."""

    reveal_prob: float = 1.0
    """Probability that a revealed safe cell shows a clue at all."""
    noise: str = "exact"
    """``exact``, ``optimistic`` (shown <= true) or ``cautious`` (shown >= true)."""

    def __post_init__(self) -> None:
        if (
            isinstance(self.reveal_prob, bool)
            or not isinstance(self.reveal_prob, (int, float))
            or not (0.0 <= self.reveal_prob <= 1.0)
        ):
            raise ValueError(
                f"clue_reveal_prob must be a number in [0, 1], got {self.reveal_prob!r}"
            )
        parse_choice(ClueNoise, self.noise, "clue_noise")  # raises, naming the allowed ones

    @property
    def exact(self) -> bool:
        """Whether clues are always shown and always true (the classic game, with flood fill)."""
        return self.reveal_prob == 1.0 and self.noise == "exact"

    def shown(self, true_count: int, neighbours: int, rng: np.random.Generator) -> int:
        """The code a revealed safe cell shows, given its true count and number of neighbours."""
        if self.reveal_prob < 1.0 and rng.random() >= self.reveal_prob:
            return NO_CLUE
        if self.noise == "optimistic":
            return int(rng.integers(0, true_count + 1))
        if self.noise == "cautious":
            return int(rng.integers(true_count, neighbours + 1))
        return true_count


EXACT = ClueModel()
