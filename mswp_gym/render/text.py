"""Text rendering: a pure function of the visible board."""

from __future__ import annotations

import numpy as np

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE

_SYMBOLS = {HIDDEN: "#", FLAGGED: "F", EXPLODED: "X", NO_CLUE: "?", MINE: "*", 0: "."}


def render_ansi(visible: np.ndarray, mines: np.ndarray | None = None) -> str:
    """A text grid with row and column indices.

    ``mines`` (after the game) draws hidden mines as ``*``. Lines end with a newline: a header of
    column numbers (mod 10), then one row per line."""
    rows, cols = visible.shape
    width = len(str(rows - 1))
    header = " " * (width + 1) + "".join(str(c % 10) for c in range(cols))
    lines = [header]
    for r in range(rows):
        cells = []
        for c in range(cols):
            code = int(visible[r, c])
            if mines is not None and mines[r, c] and code in (HIDDEN, FLAGGED):
                code = MINE if code == HIDDEN else FLAGGED
            cells.append(_SYMBOLS.get(code, str(code)))
        lines.append(f"{r:>{width}} " + "".join(cells))
    return "\n".join(lines) + "\n"
