"""Text pictures of boards, so tests and bug reports can show them.

A *full picture* shows the truth and the player's view together, one character per cell, one
line per row (spaces between characters are ignored, blank lines at either end too):

====== =============================================
symbol meaning
====== =============================================
``.``  hidden safe cell
``*``  hidden mine
``f``  flagged safe cell (a wrong flag)
``F``  flagged mine
``0-8`` revealed safe cell showing its clue
``X``  revealed mine (exploded, score mode)
====== =============================================

A *view picture* shows only what the player sees: ``#`` hidden, ``F`` flagged, ``0-8`` clues,
``X`` exploded mine, ``?`` revealed without a clue, ``*`` a mine shown after the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE

_VIEW_SYMBOLS: dict[str, int] = {
    "#": HIDDEN,
    "F": FLAGGED,
    "X": EXPLODED,
    "?": NO_CLUE,
    "*": MINE,
    **{str(d): d for d in range(9)},
}
_VIEW_CHARS: dict[int, str] = {code: ch for ch, code in _VIEW_SYMBOLS.items()}
_FULL_SYMBOLS = set(".*fFX012345678")


@dataclass(frozen=True)
class PictureState:
    """What a full picture says, cell by cell. All arrays are ``(rows, cols)``."""

    mines: np.ndarray  # bool
    revealed: np.ndarray  # bool
    flagged: np.ndarray  # bool
    digits: np.ndarray  # int8: the digit drawn on a revealed safe cell, -1 elsewhere


def _grid(picture: str, allowed: set[str] | dict[str, int]) -> list[str]:
    lines = [line.replace(" ", "") for line in picture.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise ValueError("an empty picture has no board")
    width = len(lines[0])
    for number, line in enumerate(lines):
        if len(line) != width:
            raise ValueError(
                f"picture row {number} has {len(line)} cells but row 0 has {width}: {line!r}"
            )
        for ch in line:
            if ch not in allowed:
                raise ValueError(
                    f"unknown symbol {ch!r} in picture row {number}; "
                    f"allowed: {''.join(sorted(allowed))}"
                )
    return lines


def parse_picture(picture: str) -> PictureState:
    """Read a full picture.

    Raises:
        ValueError: on an empty picture, ragged rows or an unknown symbol (named in the message).
    """
    lines = _grid(picture, _FULL_SYMBOLS)
    chars = np.array([list(line) for line in lines])
    mines = np.isin(chars, ["*", "F", "X"])
    digits = np.full(chars.shape, -1, dtype=np.int8)
    is_digit = np.char.isdigit(chars)
    digits[is_digit] = chars[is_digit].astype(np.int8)
    return PictureState(
        mines=mines,
        revealed=is_digit | (chars == "X"),
        flagged=np.isin(chars, ["f", "F"]),
        digits=digits,
    )


def render_picture(
    mines: np.ndarray,
    revealed: np.ndarray,
    flagged: np.ndarray,
    counts: np.ndarray,
    show_mines: bool,
) -> str:
    """Draw a board as a full picture (``show_mines``) or as the player's view."""
    rows = []
    for r in range(mines.shape[0]):
        line = []
        for c in range(mines.shape[1]):
            mine, open_, flag = mines[r, c], revealed[r, c], flagged[r, c]
            if open_:
                line.append("X" if mine else str(int(counts[r, c])))
            elif flag:
                line.append("F" if (mine or not show_mines) else "f")
            elif show_mines:
                line.append("*" if mine else ".")
            else:
                line.append("#")
        rows.append("".join(line))
    return "\n".join(rows)


def view_from_text(picture: str) -> np.ndarray:
    """Read a view picture into an ``(rows, cols)`` int8 visible board.

    Raises:
        ValueError: on an empty picture, ragged rows or an unknown symbol.
    """
    lines = _grid(picture, _VIEW_SYMBOLS)
    return np.array([[_VIEW_SYMBOLS[ch] for ch in line] for line in lines], dtype=np.int8)


def view_to_text(visible: np.ndarray) -> str:
    """Draw an ``(rows, cols)`` visible board as a view picture.

    Raises:
        ValueError: if a cell holds a code that is not a known visible code.
    """
    try:
        return "\n".join("".join(_VIEW_CHARS[int(v)] for v in row) for row in visible)
    except KeyError as err:
        raise ValueError(f"{err.args[0]} is not a visible-board code") from None
