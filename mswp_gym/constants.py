"""Named codes for the visible board and the outcome of a game.

The visible board is an ``int8`` array of shape ``(rows, cols)``. A revealed safe cell holds its
clue, the number of mines among its (up to) eight neighbours, ``0..8``. Every other state has a
negative code named here, so no bare ``-1`` appears anywhere else in the code base.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

import numpy as np

from mswp_gym.choices import FirstClick as FirstClick  # re-exported from its old home

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


# The members as module globals, for the per-move code of Board and MinesweeperEnv: reading
# ``Outcome.WON`` searches the enum class (~70 ns), a global ~8 ns. Whole-array code compares
# with ``Outcome.WON.value`` instead: NumPy compares an int8 array with a plain int several
# times faster than with an IntEnum member.
PLAYING: Final = Outcome.PLAYING
WON: Final = Outcome.WON
LOST: Final = Outcome.LOST
CLEARED: Final = Outcome.CLEARED


def is_unknown(board: np.ndarray) -> np.ndarray:
    """Cells the player has not opened: ``HIDDEN`` or ``FLAGGED`` (a flag is only a note)."""
    unknown: np.ndarray = (board == HIDDEN) | (board == FLAGGED)
    return unknown


def is_clue(board: np.ndarray) -> np.ndarray:
    """Opened safe cells that show their clue, ``0..8``."""
    return board >= 0


def is_revealed_safe(board: np.ndarray) -> np.ndarray:
    """Opened safe cells: a clue, or ``NO_CLUE`` where the clue is withheld."""
    opened: np.ndarray = (board >= 0) | (board == NO_CLUE)
    return opened


def is_revealed(board: np.ndarray) -> np.ndarray:
    """Opened cells: a clue, ``NO_CLUE``, or (score mode) an ``EXPLODED`` mine."""
    opened: np.ndarray = (board >= 0) | (board == NO_CLUE) | (board == EXPLODED)
    return opened
