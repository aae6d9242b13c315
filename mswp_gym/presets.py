"""The standard boards."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Preset:
    """A named board size and mine count."""

    name: str
    rows: int
    cols: int
    mines: int


PRESETS: dict[str, Preset] = {
    "beginner": Preset("beginner", 9, 9, 10),
    "intermediate": Preset("intermediate", 16, 16, 40),
    "expert": Preset("expert", 16, 30, 99),
}


def preset(name: str) -> Preset:
    """The preset called ``name`` (case-insensitive).

    Raises:
        ValueError: naming the unknown preset and the known ones.
    """
    try:
        return PRESETS[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None
