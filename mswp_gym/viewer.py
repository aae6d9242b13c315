"""The pygame window behind ``render_mode="human"``; pygame is imported only here, lazily."""

from __future__ import annotations

from typing import Any

import numpy as np

INSTALL_HINT = "render_mode='human' needs pygame: pip install 'mswp-gym[gui]'"


def import_pygame() -> Any:
    """Import pygame or raise an ImportError that says how to install it."""
    try:
        import pygame
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(INSTALL_HINT) from err
    return pygame


class HumanViewer:
    """A window that shows frames (``(H, W, 3)`` uint8 images). Works headless under
    ``SDL_VIDEODRIVER=dummy``."""

    def __init__(self, title: str = "Minesweeper") -> None:
        self.pygame = import_pygame()
        self.pygame.init()
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
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        self.screen.blit(surface, (0, 0))
        pygame.display.flip()
        self.clock.tick(fps)

    def close(self) -> None:
        """Close the window."""
        if self.screen is not None:
            self.pygame.display.quit()
            self.screen = None
