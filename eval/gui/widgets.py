"""Buttons and text for the control panel (pygame; the default font, so nothing to install)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mswp_gym.render.drawing import import_pygame

Rect = tuple[int, int, int, int]
"""(left, top, width, height)."""

TEXT_RGB = (235, 235, 235)
MUTED_RGB = (170, 175, 185)
BUTTON_RGB = (222, 222, 222)
BUTTON_ON_RGB = (120, 190, 255)
BUTTON_TEXT_RGB = (20, 20, 20)
BUTTON_EDGE_RGB = (90, 90, 90)
FONT_SIZES = (24, 20, 16)
"""Button labels use the largest of these that fits."""


@dataclass(frozen=True)
class Button:
    """A clickable box in the panel."""

    key: str
    """What clicking it does (handled by the app)."""
    rect: Rect
    label: str
    on: bool = False
    """Drawn highlighted (a toggle that is on, the current choice)."""

    def contains(self, pos: tuple[int, int]) -> bool:
        """Whether the pixel ``pos`` (x, y) lies inside the button."""
        left, top, width, height = self.rect
        return left <= pos[0] < left + width and top <= pos[1] < top + height


class Fonts:
    """pygame's default font at the sizes the panel uses (created once)."""

    def __init__(self) -> None:
        pygame = import_pygame()
        pygame.font.init()
        self._fonts = {size: pygame.font.Font(None, size) for size in (*FONT_SIZES, 30, 40)}

    def get(self, size: int) -> Any:
        """The default font at ``size`` (one of the sizes made in ``__init__``)."""
        return self._fonts[size]


def draw_text(
    surface: Any,
    fonts: Fonts,
    text: str,
    pos: tuple[int, int],
    size: int = 24,
    colour: tuple[int, int, int] = TEXT_RGB,
) -> int:
    """Draw one line of text with its top-left at ``pos``; returns the line's height."""
    rendered = fonts.get(size).render(text, True, colour)
    surface.blit(rendered, pos)
    return int(rendered.get_height())


def draw_button(surface: Any, fonts: Fonts, button: Button) -> None:
    """Draw a button: a box with its label centred, in the largest font that fits."""
    pygame = import_pygame()
    rect = pygame.Rect(button.rect)
    pygame.draw.rect(surface, BUTTON_ON_RGB if button.on else BUTTON_RGB, rect, border_radius=5)
    pygame.draw.rect(surface, BUTTON_EDGE_RGB, rect, 1, border_radius=5)
    room = rect.width - 8
    for size in FONT_SIZES:
        rendered = fonts.get(size).render(button.label, True, BUTTON_TEXT_RGB)
        if rendered.get_width() <= room:
            break
    else:
        label = elide(button.label, fonts, FONT_SIZES[-1], room)
        rendered = fonts.get(FONT_SIZES[-1]).render(label, True, BUTTON_TEXT_RGB)
    surface.blit(rendered, rendered.get_rect(center=rect.center))


def elide(text: str, fonts: Fonts, size: int, width: int) -> str:
    """``text`` with its middle replaced by ``...`` until it is at most ``width`` pixels wide
    (keeps both ends: the agent name and a checkpoint's file name)."""
    font = fonts.get(size)
    if font.size(text)[0] <= width:
        return text
    head, tail = len(text) // 2, len(text) - len(text) // 2
    while head + tail > 2:
        if head >= tail:
            head -= 1
        else:
            tail -= 1
        candidate = f"{text[:head]}...{text[len(text) - tail :]}"
        if font.size(candidate)[0] <= width:
            return candidate
    return "..."


def wrap(text: str, fonts: Fonts, size: int, width: int) -> list[str]:
    """Split ``text`` into lines at most ``width`` pixels wide (longer words stay whole)."""
    font = fonts.get(size)
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and font.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
