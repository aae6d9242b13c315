"""The pygame window behind ``render_mode="human"``; pygame is imported only here, lazily.

It shows the frames of :func:`mswp_gym.render.rgb.render_rgb`, the same board drawing the
``mswp-play`` app uses (both go through :mod:`mswp_gym.render.drawing`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mswp_gym.render.drawing import INSTALL_HINT, frame_surface, import_pygame

__all__ = ["INSTALL_HINT", "HumanViewer", "import_pygame"]


class HumanViewer:
    """A window that shows frames (``(H, W, 3)`` uint8 images). Works headless under
    ``SDL_VIDEODRIVER=dummy``."""

    def __init__(self, title: str = "Minesweeper") -> None:
        self.pygame = import_pygame()
        self.pygame.display.init()  # no sound device needed
        self.title = title
        self.screen: Any = None
        self.clock = self.pygame.time.Clock()

    def show(self, frame: np.ndarray, fps: int) -> None:
        """Draw ``frame`` and keep the window responsive, at most ``fps`` frames a second."""
        pygame = self.pygame
        height, width = frame.shape[:2]
        if self.screen is None or self.screen.get_size() != (width, height):
            self.screen = pygame.display.set_mode((width, height))
            pygame.display.set_caption(self.title)
        pygame.event.pump()
        self.screen.blit(frame_surface(frame), (0, 0))
        pygame.display.flip()
        self.clock.tick(fps)

    def close(self) -> None:
        if self.screen is not None:
            self.pygame.display.quit()
            self.screen = None
