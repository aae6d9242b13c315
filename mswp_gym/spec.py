"""The public rules of one game: what any player knows before the first click."""

from __future__ import annotations

from dataclasses import dataclass

from mswp_gym.choices import FirstClick


@dataclass(frozen=True)
class GameSpec:
    """Board size, mine count and rules, as a player (or an agent) is told them.

    Agents receive this and the observations; never the layout.
    """

    rows: int
    """Number of rows, >= 1."""
    cols: int
    """Number of columns, >= 1."""
    mines: int
    """Total number of mines on the board."""
    first_click: str = FirstClick.SAFE
    """``any``, ``safe``, ``opening``, ``fixed`` or ``no-guess``: what the first click is
    promised."""
    score_mode: bool = False
    """If True, stepping on a mine does not end the game (the CS520 report's scoring)."""

    clue_reveal_prob: float = 1.0
    """Probability that a revealed safe cell shows its clue (else ``NO_CLUE``)."""
    clue_noise: str = "exact"
    """``exact``, ``optimistic`` (shown <= true count) or ``cautious`` (shown >= true count)."""

    @property
    def exact_clues(self) -> bool:
        """Whether every clue is shown and true (the classic game)."""
        return self.clue_reveal_prob == 1.0 and self.clue_noise == "exact"

    @property
    def cells(self) -> int:
        """``rows * cols``."""
        return self.rows * self.cols

    @property
    def density(self) -> float:
        """Mines per cell."""
        return self.mines / self.cells
