"""Named codes for the visible board and the outcome of a game.

The visible board is an ``int8`` array of shape ``(rows, cols)``. A revealed safe cell holds its
clue, the number of mines among its (up to) eight neighbours, ``0..8``. Every other state has a
negative code named here, so no bare ``-1`` appears anywhere else in the code base.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from mswp_gym.choices import FirstClick  # noqa: F401 - re-exported from its old home

HIDDEN: Final[int] = -1
"""A cell the player has not revealed and has not flagged."""

FLAGGED: Final[int] = -2
"""A hidden cell the player has flagged. Flags are notes: they never change the truth."""

EXPLODED: Final[int] = -3
"""Score mode only: a mine the player stepped on. It stays visible and the game goes on."""

NO_CLUE: Final[int] = -4
"""A revealed safe cell whose clue is withheld (uncertain-clue models)."""

MINE: Final[int] = -5
"""Used only in pictures of a finished game: a mine shown after the end."""

MIN_CODE: Final[int] = MINE
MAX_CODE: Final[int] = 8
"""The observation's ``Box`` bounds: every visible code lies in ``[MIN_CODE, MAX_CODE]``."""


class Outcome(IntEnum):
    """Where a game stands."""

    PLAYING = 0
    WON = 1
    """Every safe cell revealed without stepping on a mine."""
    LOST = 2
    """A mine was revealed (in score mode the game goes on instead)."""
    CLEARED = 3
    """Score mode: every safe cell revealed after stepping on at least one mine."""
