"""``rgb_array`` rendering drawn with NumPy alone (no pygame): readable digits, flags and mines."""

from __future__ import annotations

import numpy as np

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE

CELL_PX = 24
"""Side of one cell in pixels."""

HIDDEN_RGB = (176, 176, 176)
REVEALED_RGB = (224, 224, 224)
GRID_RGB = (128, 128, 128)
EXPLODED_RGB = (230, 40, 40)
FLAG_RGB = (220, 0, 0)
MINE_RGB = (20, 20, 20)
DIGIT_RGB: dict[int, tuple[int, int, int]] = {
    1: (0, 0, 255), 2: (0, 128, 0), 3: (255, 0, 0), 4: (0, 0, 128),
    5: (128, 0, 0), 6: (0, 128, 128), 7: (0, 0, 0), 8: (96, 96, 96),
}

# 5x7 bitmaps, scaled x2 when drawn.
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
}


def _mask(name: str) -> np.ndarray:
    bitmap = np.array([[ch == "#" for ch in line] for line in _GLYPHS[name]])
    return np.kron(bitmap, np.ones((2, 2), dtype=bool))


_MASKS = {name: _mask(name) for name in _GLYPHS}


def _stamp(image: np.ndarray, r: int, c: int, glyph: str, rgb: tuple[int, int, int]) -> None:
    mask = _MASKS[glyph]
    top = r * CELL_PX + (CELL_PX - mask.shape[0]) // 2
    left = c * CELL_PX + (CELL_PX - mask.shape[1]) // 2
    image[top : top + mask.shape[0], left : left + mask.shape[1]][mask] = rgb


def render_rgb(visible: np.ndarray, mines: np.ndarray | None = None) -> np.ndarray:
    """Draw the visible board as an image.

    Args:
        visible: ``(rows, cols)`` int8 visible board.
        mines: if given (after the game), hidden mines are drawn too.

    Returns:
        ``(rows * CELL_PX, cols * CELL_PX, 3)`` uint8 RGB image.
    """
    rows, cols = visible.shape
    known = visible >= 0
    known |= visible == NO_CLUE
    background = np.where(known[..., None], REVEALED_RGB, HIDDEN_RGB).astype(np.uint8)
    background[visible == EXPLODED] = EXPLODED_RGB
    image = np.repeat(np.repeat(background, CELL_PX, axis=0), CELL_PX, axis=1)
    image[::CELL_PX, :] = GRID_RGB
    image[:, ::CELL_PX] = GRID_RGB
    for r, c in zip(*np.nonzero(visible != HIDDEN)):
        code = int(visible[r, c])
        if 1 <= code <= 8:
            _stamp(image, r, c, str(code), DIGIT_RGB[code])
        elif code == FLAGGED:
            _stamp(image, r, c, "flag", FLAG_RGB)
        elif code in (EXPLODED, MINE):
            _stamp(image, r, c, "mine", MINE_RGB)
        elif code == NO_CLUE:
            _stamp(image, r, c, "?", MINE_RGB)
    if mines is not None:
        for r, c in zip(*np.nonzero(mines & (visible == HIDDEN))):
            _stamp(image, r, c, "mine", MINE_RGB)
    return image
