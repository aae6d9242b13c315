"""The fixed choices of the game and the envs, as string enums.

Each is a :class:`enum.StrEnum`: its members are strings, so every argument that takes one also
takes the plain string (``first_click="safe"`` or ``first_click=FirstClick.SAFE``), and a member
prints and compares as its value. :func:`parse_choice` turns user input into a member with a
one-line error that names the bad value and the allowed ones.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

_E = TypeVar("_E", bound=StrEnum)


class FirstClick(StrEnum):
    """Who places the mines, and what the first click is promised (:mod:`mswp_gym.generators`)."""

    ANY = "any"
    """The layout is fixed at reset; the first click can hit a mine (CS50)."""
    SAFE = "safe"
    """Mines are placed at the first reveal, never under it (Windows XP)."""
    OPENING = "opening"
    """Mines are placed at the first reveal, never in the 3x3 block around it (Windows 7)."""
    FIXED = "fixed"
    """A given layout, whatever the click."""
    NO_GUESS = "no-guess"
    """Mines are placed at the first reveal, never in the 3x3 block around it, so that the whole
    board can then be solved without a guess (:mod:`mswp_gym.deduction`)."""

    @classmethod
    def drawn(cls) -> tuple[FirstClick, ...]:
        """The rules that draw a random layout (all but ``fixed``): what the command lines offer."""
        return tuple(rule for rule in cls if rule is not cls.FIXED)

    @property
    def safe_start(self) -> bool:
        """Whether the first click is promised no mine."""
        return self not in (FirstClick.ANY, FirstClick.FIXED)

    @property
    def opens_block(self) -> bool:
        """Whether the first click's 3x3 block is promised no mine."""
        return self in (FirstClick.OPENING, FirstClick.NO_GUESS)


class ClueNoise(StrEnum):
    """How a shown clue relates to the true count (see :mod:`mswp_gym.clues`)."""

    EXACT = "exact"
    OPTIMISTIC = "optimistic"
    """Shown <= true: drawn uniformly from ``0..true``."""
    CAUTIOUS = "cautious"
    """Shown >= true: drawn uniformly from ``true..neighbours``."""


class ObsMode(StrEnum):
    """The observation form (see :mod:`mswp_gym.encoding`)."""

    BOARD = "board"
    CHANNELS = "channels"
    DICT = "dict"


class FloodMethod(StrEnum):
    """The single board's flood-fill implementations (see :mod:`mswp_gym.floodfill`)."""

    RINGS = "rings"
    WALK = "walk"
    LAYERS = "layers"


class BatchFlood(StrEnum):
    """The batched engine's flood-fill implementations (see :mod:`mswp_gym.vector.batch_flood`)."""

    BIGINT = "bigint"
    DENSE = "dense"


class Placement(StrEnum):
    """How the vector env places mines: one batched draw, or the single env's generator per
    board."""

    BATCHED = "batched"
    GENERATOR = "generator"


def parse_choice(kind: type[_E], value: object, name: str) -> _E:
    """``value`` as a member of ``kind``.

    Args:
        kind: the StrEnum.
        value: a member or its string value.
        name: the argument's name, for the error.

    Raises:
        ValueError: naming the bad value and the allowed ones.
    """
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    allowed = ", ".join(member.value for member in kind)
    raise ValueError(f"unknown {name} {value!r}; choose one of {allowed}")
