"""Pygame drawing shared by the env's ``human`` window and the ``mswp-play`` app.

The board itself is drawn by :func:`mswp_gym.render.rgb.render_rgb` (NumPy); this module puts such
frames on pygame surfaces and draws the reasoning overlays (mine-probability heat map, proven safe
cells and mines, a highlighted cell) on top. pygame is imported lazily, with an install hint.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from mswp_gym.cells import Cell
from mswp_gym.render.rgb import render_rgb

INSTALL_HINT = "the Minesweeper window needs pygame: pip install 'mswp-gym[gui]'"

SAFE_RGB = (0, 170, 60)
"""Ring drawn on a cell proven safe."""
KNOWN_MINE_RGB = (200, 0, 0)
"""Cross drawn on a cell proven to hold a mine."""
HEAT_ALPHA = 150
"""Opacity (0..255) of the heat-map tint over a hidden cell."""

_HEAT_STOPS = np.array(
    [
        [0.0, 0, 190, 70],
        [0.1, 190, 230, 60],
        [0.2, 250, 220, 0],
        [0.4, 250, 140, 0],
        [0.7, 230, 30, 30],
        [1.0, 140, 0, 50],
    ]
)
"""Heat-map colour ramp, (probability, R, G, B) stops: green (safe) through yellow and orange to
dark red (mine). Most of the ramp is spent below 0.5, where a player's choices lie."""

Point = tuple[int, int]


def pygame_available() -> bool:
    """Whether pygame can be imported (checked without importing it)."""
    try:
        return importlib.util.find_spec("pygame") is not None
    except (ImportError, ValueError):  # a broken or blocked installation
        return False


def import_pygame() -> Any:
    """Import pygame (without its start-up banner), or raise an ImportError with an install hint."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(INSTALL_HINT) from err
    return pygame


def frame_surface(frame: np.ndarray) -> Any:
    """A pygame Surface showing an ``(H, W, 3)`` uint8 RGB image."""
    pygame = import_pygame()
    return pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))


def board_surface(
    visible: np.ndarray, cell_px: int, mines: np.ndarray | None = None, exploded: Cell | None = None
) -> Any:
    """The board drawn by :func:`~mswp_gym.render.rgb.render_rgb`, as a pygame Surface."""
    return frame_surface(render_rgb(visible, mines, cell_px=cell_px, exploded=exploded))


def heat_colour(probability: float) -> tuple[int, int, int]:
    """The heat-map colour of a mine probability in ``[0, 1]`` (green safe ... dark red mine).

    Raises:
        ValueError: ``probability`` is NaN or outside ``[0, 1]``.
    """
    if not 0.0 <= probability <= 1.0:
        raise ValueError(f"probability must lie in [0, 1], got {probability!r}")
    stops = _HEAT_STOPS
    red, green, blue = (
        round(float(np.interp(probability, stops[:, 0], stops[:, k]))) for k in (1, 2, 3)
    )
    return red, green, blue


def cell_rect(cell: Cell, origin: Point, cell_px: int) -> tuple[int, int, int, int]:
    """``(left, top, width, height)`` of ``cell`` on a board drawn at ``origin``."""
    return origin[0] + cell[1] * cell_px, origin[1] + cell[0] * cell_px, cell_px, cell_px


def cell_at(pos: Point, origin: Point, cell_px: int, rows: int, cols: int) -> Cell | None:
    """The cell under the pixel ``pos`` (x, y) of a board drawn at ``origin``, or None if off it."""
    x, y = pos[0] - origin[0], pos[1] - origin[1]
    if x < 0 or y < 0:
        return None
    row, col = y // cell_px, x // cell_px
    if row >= rows or col >= cols:
        return None
    return int(row), int(col)


def draw_heat_map(
    target: Any,
    probability: np.ndarray,
    origin: Point,
    cell_px: int,
    frame_only: np.ndarray | None = None,
) -> None:
    """Tint every cell with a finite mine probability by :func:`heat_colour` (NaN cells untouched).

    ``origin`` is the board's top-left pixel on ``target``; ``frame_only`` cells (flagged ones)
    get a coloured frame instead of a fill."""
    pygame = import_pygame()
    rows, cols = probability.shape
    layer = pygame.Surface((cols * cell_px, rows * cell_px), pygame.SRCALPHA)
    inset = max(1, cell_px // 12)
    frame = max(2, cell_px // 8)
    for r, c in zip(*np.nonzero(np.isfinite(probability)), strict=True):
        colour = (*heat_colour(float(probability[r, c])), HEAT_ALPHA)
        rect = (c * cell_px + inset, r * cell_px + inset, cell_px - inset, cell_px - inset)
        if frame_only is not None and frame_only[r, c]:
            pygame.draw.rect(layer, (*colour[:3], 255), rect, frame)
        else:
            layer.fill(colour, rect)
    target.blit(layer, origin)


def draw_knowledge(
    target: Any, safe: Iterable[Cell], mines: Iterable[Cell], origin: Point, cell_px: int
) -> None:
    """Mark cells an agent has proven: a green ring on each safe cell, a red cross on each mine."""
    pygame = import_pygame()
    width = max(2, cell_px // 10)
    for cell in safe:
        left, top, size, _ = cell_rect(cell, origin, cell_px)
        centre = (left + size // 2, top + size // 2)
        pygame.draw.circle(target, SAFE_RGB, centre, max(3, size * 3 // 10), width)
    for cell in mines:
        left, top, size, _ = cell_rect(cell, origin, cell_px)
        pad = size // 4
        a, b = (left + pad, top + pad), (left + size - pad, top + size - pad)
        pygame.draw.line(target, KNOWN_MINE_RGB, a, b, width)
        pygame.draw.line(target, KNOWN_MINE_RGB, (a[0], b[1]), (b[0], a[1]), width)


def draw_cell_outline(
    target: Any,
    cell: Cell,
    origin: Point,
    cell_px: int,
    colour: tuple[int, int, int],
    width: int = 3,
) -> None:
    """Frame one cell (the last move, the agent's next move, the cell under the mouse)."""
    pygame = import_pygame()
    pygame.draw.rect(target, colour, cell_rect(cell, origin, cell_px), width)
