"""The public rules of one game: what any player knows before the first click, and the one
text form of a board, ``ROWSxCOLS/MINES`` (:func:`parse_board`, :attr:`GameSpec.board`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mswp_gym.choices import FirstClick, parse_choice

_BOARD = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_board(text: str, first_click: FirstClick | str = FirstClick.SAFE) -> GameSpec:
    """The board written ``ROWSxCOLS/MINES`` (e.g. ``16x30/99``), under ``first_click``.

    Raises:
        ValueError: ``text`` is not of that form (naming it); sizes are the env's to check.
    """
    match = _BOARD.match(text)
    if match is None:
        raise ValueError(f"bad board {text.strip()!r}; expected ROWSxCOLS/MINES, e.g. 16x30/99")
    rows, cols, mines = (int(group) for group in match.groups())
    return GameSpec(rows, cols, mines, parse_choice(FirstClick, first_click, "first_click rule"))


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
    first_click: FirstClick = FirstClick.SAFE
    """What the first click is promised (a string value is accepted and converted)."""
    score_mode: bool = False
    """If True, stepping on a mine does not end the game (the CS520 report's scoring)."""

    clue_reveal_prob: float = 1.0
    """Probability that a revealed safe cell shows its clue (else ``NO_CLUE``)."""
    clue_noise: str = "exact"
    """``exact``, ``optimistic`` (shown <= true count) or ``cautious`` (shown >= true count)."""

    def __post_init__(self) -> None:
        rule = parse_choice(FirstClick, self.first_click, "first_click rule")
        object.__setattr__(self, "first_click", rule)

    @property
    def board(self) -> str:
        """``ROWSxCOLS/MINES``, e.g. ``16x30/99`` (what :func:`parse_board` reads)."""
        return f"{self.rows}x{self.cols}/{self.mines}"

    @property
    def exact_clues(self) -> bool:
        """Whether every clue is shown and true (the classic game)."""
        return self.clue_reveal_prob == 1.0 and self.clue_noise == "exact"

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def density(self) -> float:
        """Mines per cell."""
        return self.mines / self.cells
