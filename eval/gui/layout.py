"""Where things go in the window: the board on the left, the control panel on the right."""

from __future__ import annotations

from dataclasses import dataclass

from mswp_gym.render.rgb import MIN_CELL_PX

MARGIN = 16
"""Pixels around the board and the panel."""
PANEL_WIDTH = 300
"""Width of the control panel."""
PANEL_MIN_HEIGHT = 700
"""The window is at least this tall, so every control fits beside a small board."""
BOARD_MAX_SIZE = (840, 640)
"""(width, height) the board may take before its cells shrink."""
MAX_CELL_PX = 40
"""Cells never grow beyond this, however small the board."""


@dataclass(frozen=True)
class Layout:
    """Geometry of the window for one board size."""

    rows: int
    cols: int
    cell_px: int
    """Side of one cell in pixels."""

    @property
    def board_origin(self) -> tuple[int, int]:
        """Top-left pixel (x, y) of the board."""
        return MARGIN, MARGIN

    @property
    def board_size(self) -> tuple[int, int]:
        """(width, height) of the board in pixels."""
        return self.cols * self.cell_px, self.rows * self.cell_px

    @property
    def panel_left(self) -> int:
        """x of the panel's left edge."""
        return 2 * MARGIN + self.board_size[0]

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the window."""
        width = self.panel_left + PANEL_WIDTH + MARGIN
        height = max(self.board_size[1] + 2 * MARGIN, PANEL_MIN_HEIGHT)
        return width, height


def layout_for(rows: int, cols: int) -> Layout:
    """The layout of a ``rows x cols`` board: the largest cell (up to ``MAX_CELL_PX``) that keeps
    the board within ``BOARD_MAX_SIZE``, but never below the smallest drawable cell."""
    fit = min(MAX_CELL_PX, BOARD_MAX_SIZE[0] // cols, BOARD_MAX_SIZE[1] // rows)
    return Layout(rows, cols, max(MIN_CELL_PX, fit))
