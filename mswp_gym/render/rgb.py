"""``rgb_array`` rendering drawn with NumPy alone (no pygame): readable digits, flags and mines.

:func:`render_rgb` is the one board-drawing function of the project: the env's ``rgb_array`` and
``human`` modes and the ``mswp-play`` window all show the board it draws.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mswp_gym.cells import Cell
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE, is_revealed_safe
from mswp_gym.inputs import is_integer

CELL_PX = 24
"""Default side of one cell in pixels."""

MIN_CELL_PX = 8
"""The smallest cell :func:`render_rgb` draws: a 5x7 glyph still fits inside it."""

HIDDEN_RGB = (176, 176, 176)
REVEALED_RGB = (224, 224, 224)
GRID_RGB = (128, 128, 128)
BEVEL_LIGHT_RGB = (236, 236, 236)
BEVEL_DARK_RGB = (120, 120, 120)
EXPLODED_RGB = (230, 40, 40)
FLAG_RGB = (220, 0, 0)
WRONG_FLAG_RGB = (150, 60, 200)
MINE_RGB = (20, 20, 20)
DIGIT_RGB: dict[int, tuple[int, int, int]] = {
    1: (0, 0, 255),
    2: (0, 128, 0),
    3: (255, 0, 0),
    4: (0, 0, 128),
    5: (128, 0, 0),
    6: (0, 128, 128),
    7: (0, 0, 0),
    8: (96, 96, 96),
}

# 5x7 bitmaps, scaled by an integer factor that fits the cell.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("####.", "....#", "....#", ".###.", "....#", "....#", "####."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": (".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "?": (".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."),
    "flag": ("..##.", ".###.", "####.", "..#..", "..#..", ".###.", "#####"),
    "mine": ("..#..", "#####", "##.##", "#####", "#####", "#####", "..#.."),
    "cross": ("#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"),
}
_BITMAPS = {
    name: np.array([[ch == "#" for ch in line] for line in rows]) for name, rows in _GLYPHS.items()
}


def glyph_scale(cell_px: int) -> int:
    """The integer factor that scales a 5x7 glyph to about 60% of a ``cell_px`` cell (>= 1)."""
    return max(1, round(cell_px * 0.6 / 7))


@lru_cache(maxsize=256)
def _glyph_mask(glyph: str, scale: int) -> np.ndarray:
    return np.kron(_BITMAPS[glyph], np.ones((scale, scale), dtype=bool))


_FLAT, _RAISED, _BLOWN = 0, 1, 2
"""Kinds of cell background: revealed, hidden (bevelled), the mine that went off."""


@lru_cache(maxsize=32)
def _tiles(cell_px: int) -> np.ndarray:
    """``(3, cell_px, cell_px, 3)`` uint8: one cell's background for each kind (read-only)."""
    width = max(1, cell_px // 10) + 1  # the first row and column are covered by the grid line
    tiles = np.empty((3, cell_px, cell_px, 3), dtype=np.uint8)
    tiles[_FLAT] = REVEALED_RGB
    tiles[_BLOWN] = EXPLODED_RGB
    raised = tiles[_RAISED]
    raised[:] = HIDDEN_RGB
    raised[:width, :] = BEVEL_LIGHT_RGB
    raised[:, :width] = BEVEL_LIGHT_RGB
    raised[cell_px - width :, width:] = BEVEL_DARK_RGB
    raised[width:, cell_px - width :] = BEVEL_DARK_RGB
    tiles.flags.writeable = False
    return tiles


def _stamp(
    image: np.ndarray, cell: Cell, glyph: str, rgb: tuple[int, int, int], cell_px: int
) -> None:
    mask = _glyph_mask(glyph, glyph_scale(cell_px))
    top = cell[0] * cell_px + (cell_px - mask.shape[0] + 1) // 2
    left = cell[1] * cell_px + (cell_px - mask.shape[1] + 1) // 2
    image[top : top + mask.shape[0], left : left + mask.shape[1]][mask] = rgb


def render_rgb(
    visible: np.ndarray,
    mines: np.ndarray | None = None,
    *,
    cell_px: int = CELL_PX,
    exploded: Cell | None = None,
) -> np.ndarray:
    """Draw the visible board as an image.

    ``mines`` (after the game) draws the hidden mines and crosses out wrong flags; ``exploded``
    is drawn on red. Returns a ``(rows * cell_px, cols * cell_px, 3)`` uint8 image.

    Raises:
        ValueError: ``visible`` is not 2-D, ``mines`` has another shape, or ``cell_px`` is too
            small.
    """
    visible = np.asarray(visible)
    if visible.ndim != 2:
        raise ValueError(f"visible must be a (rows, cols) board, got shape {visible.shape}")
    if mines is not None and np.shape(mines) != visible.shape:
        raise ValueError(f"mines has shape {np.shape(mines)}, the board {visible.shape}")
    if not is_integer(cell_px) or cell_px < MIN_CELL_PX:
        raise ValueError(f"cell_px must be an integer >= {MIN_CELL_PX}, got {cell_px!r}")
    cell_px = int(cell_px)
    kind = np.full(visible.shape, _RAISED, dtype=np.intp)
    kind[is_revealed_safe(visible)] = _FLAT
    kind[visible == EXPLODED] = _BLOWN
    if exploded is not None:
        kind[exploded] = _BLOWN
    rows, cols = visible.shape
    image = (
        _tiles(cell_px)[kind].transpose(0, 2, 1, 3, 4).reshape(rows * cell_px, cols * cell_px, 3)
    )
    image[::cell_px, :] = GRID_RGB
    image[:, ::cell_px] = GRID_RGB
    image[-1, :] = GRID_RGB
    image[:, -1] = GRID_RGB
    wrong_flag = (
        (visible == FLAGGED) & ~np.asarray(mines, dtype=bool) if mines is not None else None
    )
    for r, c in zip(*np.nonzero(visible != HIDDEN), strict=True):
        code = int(visible[r, c])
        cell = (int(r), int(c))
        if 1 <= code <= 8:
            _stamp(image, cell, str(code), DIGIT_RGB[code], cell_px)
        elif code == FLAGGED:
            wrong = wrong_flag is not None and wrong_flag[r, c]
            glyph, rgb = ("cross", WRONG_FLAG_RGB) if wrong else ("flag", FLAG_RGB)
            _stamp(image, cell, glyph, rgb, cell_px)
        elif code in (EXPLODED, MINE):
            _stamp(image, cell, "mine", MINE_RGB, cell_px)
        elif code == NO_CLUE:
            _stamp(image, cell, "?", MINE_RGB, cell_px)
    if mines is not None:
        for r, c in zip(
            *np.nonzero(np.asarray(mines, dtype=bool) & (visible == HIDDEN)), strict=True
        ):
            _stamp(image, (int(r), int(c)), "mine", MINE_RGB, cell_px)
    return image
