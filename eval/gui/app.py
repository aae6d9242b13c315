"""The ``mswp-play`` window: the board on the left, the controls and the agent's reasoning on the
right (left click reveals, right click flags; buttons and keys drive the agent, autoplay, the
board, the rule and the overlays).
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from common.atomic import atomic_path
from eval.agent_specs import AgentSpec
from eval.gui.choices import BoardSetup, build_agent
from eval.gui.layout import MARGIN, PANEL_WIDTH, Layout, layout_for
from eval.gui.session import GameSession
from eval.gui.widgets import MUTED_RGB, TEXT_RGB, Button, Fonts, draw_button, draw_text, wrap
from mswp_gym.cells import Cell
from mswp_gym.constants import FLAGGED, FirstClick, Outcome, is_unknown
from mswp_gym.render.drawing import (
    board_surface,
    cell_at,
    draw_cell_outline,
    draw_heat_map,
    draw_knowledge,
    heat_colour,
    import_pygame,
)

SPEEDS: tuple[float, ...] = (0.5, 1, 2, 4, 8, 16, 32, 0)
"""Autoplay speeds in moves per second; 0 means one move every frame."""
DEFAULT_SPEED = 4.0
FPS = 60
"""Frames per second of the window loop."""
BACKGROUND_RGB = (40, 44, 52)
WON_RGB = (100, 225, 130)
LOST_RGB = (255, 100, 100)
ERROR_RGB = (255, 150, 120)
LAST_MOVE_RGB = (255, 200, 0)
NEXT_MOVE_RGB = (30, 110, 255)
HOVER_RGB = (255, 255, 255)
BUTTON_HEIGHT = 32
BUTTON_GAP = 8
BUTTONS_TOP = 200
"""y of the first button row, below the status text."""
MOUSE_LEFT, MOUSE_RIGHT = 1, 3
INVISIBLE_DRIVERS = ("dummy", "offscreen")
"""SDL video drivers that draw without showing a window."""


@dataclass
class Overlays:
    """Which reasoning overlays are shown."""

    knowledge: bool = False
    """The agent's proven safe cells and mines, and the move it would make next."""
    heat: str = "off"
    """Heat map of every hidden cell: ``off``, ``solver`` (exact P(mine)) or ``agent`` (the
    agent's own risk map, ``explain().risk``, where it has one)."""


HEAT_MODES: tuple[str, ...] = ("off", "solver", "agent")
"""What the heat-map button cycles through."""
HEAT_LABELS = {"off": "off", "solver": "solver P(mine)", "agent": "agent's risk"}


def nearest_speed(speed: float) -> int:
    """Index in ``SPEEDS`` of the speed closest to ``speed`` (0 picks "every frame")."""
    if speed == 0:
        return SPEEDS.index(0)
    return min((i for i, s in enumerate(SPEEDS) if s > 0), key=lambda i: abs(SPEEDS[i] - speed))


def speed_label(speed: float) -> str:
    """E.g. ``4 moves/s``, ``0.5 moves/s``, ``max``."""
    return "max" if speed == 0 else f"{speed:g} moves/s"


class PlayApp:
    """The window around a :class:`~eval.gui.session.GameSession`.

    Args:
        specs: the agents the agent button cycles through; ``specs[0]`` is playing.
        speed: autoplay moves per second (0: every frame); snapped to the nearest of ``SPEEDS``.
        headless: draw off-screen; ``run`` then plays autoplay to the end (or draws one frame).
        screenshot: where ``run`` (and the S key) saves the window as PNG.
        stop_after: autoplay switches itself off after this many agent moves in the game.
    """

    def __init__(
        self,
        session: GameSession,
        specs: list[AgentSpec],
        setups: list[BoardSetup],
        *,
        autoplay: bool = False,
        speed: float = DEFAULT_SPEED,
        overlays: Overlays | None = None,
        headless: bool = False,
        screenshot: Path | None = None,
        stop_after: int | None = None,
    ) -> None:
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        self.pygame = import_pygame()
        self.pygame.display.init()  # display and fonts only: no sound device is needed
        self.pygame.font.init()
        driver = self.pygame.display.get_driver()
        if not headless and driver in INVISIBLE_DRIVERS:
            print(
                f"mswp-play: warning: SDL video driver {driver!r} shows no window (no display?); "
                "use --headless to play to the end and exit",
                file=sys.stderr,
            )
        self.session = session
        self.specs = specs
        self.agent_index = 0
        self.setups = setups
        self.autoplay = autoplay
        self.speed_index = nearest_speed(speed)
        self.overlays = overlays if overlays is not None else Overlays()
        self.headless = headless
        self.screenshot = screenshot
        self.stop_after = stop_after
        self.fonts = Fonts()
        self.hover: tuple[int, int] | None = None
        self.message = ""
        self.message_is_error = False
        self.failed = False
        self.running = True
        self._last_auto = float("-inf")
        self.layout: Layout = layout_for(session.spec.rows, session.spec.cols)
        self.screen: Any = None
        self._open_window()

    # ------------------------------------------------------------ geometry
    def _open_window(self) -> None:
        self.layout = layout_for(self.session.spec.rows, self.session.spec.cols)
        if self.screen is None or self.screen.get_size() != self.layout.size:
            self.screen = self.pygame.display.set_mode(self.layout.size)
        self.pygame.display.set_caption("Minesweeper: mswp-play")

    def cell_under(self, pos: tuple[int, int]) -> Cell | None:
        """The board cell under pixel ``pos``, or None."""
        spec = self.session.spec
        return cell_at(pos, self.layout.board_origin, self.layout.cell_px, spec.rows, spec.cols)

    def cell_centre(self, cell: Cell) -> tuple[int, int]:
        """Pixel (x, y) at the centre of ``cell`` (what tests click)."""
        x0, y0 = self.layout.board_origin
        size = self.layout.cell_px
        return x0 + cell[1] * size + size // 2, y0 + cell[0] * size + size // 2

    def buttons(self) -> list[Button]:
        """The panel's buttons as they are now (labels follow the state)."""
        left, width = self.layout.panel_left, PANEL_WIDTH
        rows: list[list[tuple[str, str, bool]]] = [
            [("ai_move", "AI Move  [space]", False)],
            [("autoplay", f"Autoplay: {'on' if self.autoplay else 'off'}  [a]", self.autoplay)],
            [
                ("slower", "-", False),
                ("speed", f"Speed: {speed_label(SPEEDS[self.speed_index])}", False),
                ("faster", "+", False),
            ],
            [("new_game", "New game  [r]", False), ("replay", "Replay", False)],
            [("agent", f"Agent: {self.specs[self.agent_index].label}", False)],
            [
                (f"board:{i}", setup.name.capitalize(), self._is_current_board(setup))
                for i, setup in enumerate(self.setups)
            ],
            [("rule", f"First click: {self.session.board.first_click}", False)],
            [
                (
                    "knowledge",
                    f"Known safe/mines: {'on' if self.overlays.knowledge else 'off'}  [k]",
                    self.overlays.knowledge,
                )
            ],
            [
                (
                    "heat",
                    f"Heat map: {HEAT_LABELS[self.overlays.heat]}  [h]",
                    self.overlays.heat != "off",
                )
            ],
        ]
        buttons: list[Button] = []
        top = BUTTONS_TOP
        for row in rows:
            widths = self._row_widths(row, width)
            x = left
            for (key, label, on), w in zip(row, widths, strict=True):
                buttons.append(Button(key, (x, top, w, BUTTON_HEIGHT), label, on))
                x += w + BUTTON_GAP
            top += BUTTON_HEIGHT + BUTTON_GAP
        return buttons

    @staticmethod
    def _row_widths(row: list[tuple[str, str, bool]], width: int) -> list[int]:
        if row[0][0] == "slower":  # small -/+ around the speed label
            small = 40
            return [small, width - 2 * small - 2 * BUTTON_GAP, small]
        each = (width - BUTTON_GAP * (len(row) - 1)) // len(row)
        return [each] * len(row)

    def _is_current_board(self, setup: BoardSetup) -> bool:
        board = self.session.board
        return (setup.rows, setup.cols, setup.mines) == (board.rows, board.cols, board.mines)

    # -------------------------------------------------------------- events
    def handle_event(self, event: Any) -> None:
        """React to one pygame event (quit, key, mouse motion or click)."""
        pygame = self.pygame
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEMOTION:
            self.hover = tuple(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.hover = tuple(event.pos)
            self.click(tuple(event.pos), event.button)
        elif event.type == pygame.KEYDOWN:
            self.press_key(event.key)

    def click(self, pos: tuple[int, int], button: int = MOUSE_LEFT) -> None:
        """A mouse click at ``pos``: left reveals (on a clue with as many flags around it: reveals
        its other neighbours) or presses a button; right flags."""
        cell = self.cell_under(pos)
        if cell is not None:
            if button == MOUSE_LEFT and self.session.visible[cell] >= 1:
                self.session.chord(cell)
            elif button == MOUSE_LEFT:
                self.session.reveal(cell)
            elif button == MOUSE_RIGHT:
                self.session.toggle_flag(cell)
            self._after_move()
            return
        if button != MOUSE_LEFT:
            return
        for item in self.buttons():
            if item.contains(pos):
                self.press(item.key)
                return

    def press_key(self, key: int) -> None:
        """Keyboard shortcuts: space AI move, a autoplay, r new game, k/h overlays, +/- speed,
        s screenshot, q/Esc quit."""
        pygame = self.pygame
        actions = {
            pygame.K_SPACE: "ai_move",
            pygame.K_a: "autoplay",
            pygame.K_r: "new_game",
            pygame.K_k: "knowledge",
            pygame.K_h: "heat",
            pygame.K_PLUS: "faster",
            pygame.K_EQUALS: "faster",
            pygame.K_MINUS: "slower",
            pygame.K_s: "screenshot",
        }
        if key in (pygame.K_q, pygame.K_ESCAPE):
            self.running = False
        elif key in actions:
            self.press(actions[key])

    def press(self, key: str) -> None:
        """Do what the button ``key`` does."""
        self.message = ""
        if key == "ai_move":
            self.ai_move()
        elif key == "autoplay":
            self.autoplay = not self.autoplay and not self.session.over
        elif key in ("slower", "faster"):
            step = 1 if key == "faster" else -1
            self.speed_index = min(max(self.speed_index + step, 0), len(SPEEDS) - 1)
        elif key == "new_game":
            self.session.new_game()
        elif key == "replay":
            self.session.replay()
        elif key == "agent":
            self._next_agent()
        elif key.startswith("board:"):
            self._set_board(
                self.setups[int(key.partition(":")[2])].with_rule(self.session.board.first_click)
            )
        elif key == "rule":
            rules = FirstClick.drawn()
            current = self.session.board.first_click
            following = (
                rules[(rules.index(current) + 1) % len(rules)] if current in rules else rules[0]
            )
            self._set_board(self.session.board.with_rule(following))
        elif key == "knowledge":
            self.overlays.knowledge = not self.overlays.knowledge
        elif key == "heat":
            mode = (HEAT_MODES.index(self.overlays.heat) + 1) % len(HEAT_MODES)
            self.overlays.heat = HEAT_MODES[mode]
        elif key == "screenshot":
            path = self.screenshot or Path("mswp-play.png")
            self.save_screenshot(path)
            self._say(f"saved {path}")

    def ai_move(self) -> None:
        """One agent move; says whether it was certain, a guess or a network's move (or why it
        could not move)."""
        if self.session.over:
            self._say("the game is over: press New game")
            return
        try:
            self.session.ai_move()
        except Exception as err:  # the window shows any agent failure instead of dying
            self.autoplay = False
            self.failed = True
            self._say(f"agent error: {type(err).__name__}: {err}", error=True)
        self._after_move()

    def update(self, now: float) -> None:
        """Autoplay: make a move when one is due at time ``now`` (seconds)."""
        if not self.autoplay or self.session.over:
            return
        speed = SPEEDS[self.speed_index]
        if self.headless or speed == 0 or now - self._last_auto >= 1.0 / speed:
            self._last_auto = now
            self.ai_move()

    def _after_move(self) -> None:
        if self.session.over or (
            self.stop_after is not None and self.session.counts.ai >= self.stop_after
        ):
            self.autoplay = False

    def _next_agent(self) -> None:
        index = (self.agent_index + 1) % len(self.specs)
        spec = self.specs[index]
        try:
            agent = build_agent(spec)
        except (ValueError, ImportError, FileNotFoundError) as err:
            self._say(f"cannot use agent {spec.label!r}: {err}", error=True)
            return
        self.agent_index = index
        self.session.set_agent(agent)

    def _set_board(self, board: BoardSetup) -> None:
        try:
            self.session.set_board(board)
        except (ValueError, TypeError) as err:
            self._say(str(err), error=True)
            return
        self.autoplay = False
        self._open_window()

    def _say(self, text: str, error: bool = False) -> None:
        self.message, self.message_is_error = text, error

    # ------------------------------------------------------------- drawing
    def draw(self) -> None:
        """Draw the whole window (board, overlays, panel) on the screen surface."""
        screen = self.screen
        screen.fill(BACKGROUND_RGB)
        self._draw_board()
        self._draw_panel()

    def _draw_board(self) -> None:
        session, layout = self.session, self.layout
        origin, size = layout.board_origin, layout.cell_px
        self.screen.blit(
            board_surface(session.visible, size, session.layout, session.exploded), origin
        )
        if not session.over:
            values, _, _ = self._heat_values()
            if values is not None:
                draw_heat_map(self.screen, values, origin, size, session.visible == FLAGGED)
            if self.overlays.knowledge:
                plan = self._plan()
                if plan is not None:
                    explanation = plan.move.explanation
                    visible = session.visible
                    mines = [cell for cell in explanation.mines if visible[cell] != FLAGGED]
                    draw_knowledge(self.screen, explanation.safe, mines, origin, size)
                    draw_cell_outline(self.screen, plan.move.cell, origin, size, NEXT_MOVE_RGB)
        if session.last_cell is not None:
            draw_cell_outline(self.screen, session.last_cell, origin, size, LAST_MOVE_RGB, 2)
        hovered = self.cell_under(self.hover) if self.hover else None
        if hovered is not None:
            draw_cell_outline(self.screen, hovered, origin, size, HOVER_RGB, 1)

    def _heat_values(self) -> tuple[np.ndarray | None, str | None, bool]:
        """The heat map shown now: ``(values, problem, approximate)``; values is a
        ``(rows, cols)`` array in ``[0, 1]``, NaN off the hidden cells, or None with the reason."""
        if self.overlays.heat == "off" or self.session.over:
            return None, None, False
        if self.overlays.heat == "solver":
            heat, problem = self.session.heat_map()
            if heat is None:
                return None, problem, False
            return heat.probability, None, heat.approximate
        plan = self._plan()
        risk = None if plan is None else plan.move.explanation.risk
        if risk is None:
            return (
                None,
                f"agent {self.specs[self.agent_index].label!r} gives no risk map now",
                False,
            )
        visible = self.session.visible
        values = np.asarray(risk, dtype=float)
        if values.shape != visible.shape:
            shapes = f"shape {values.shape}, the board {visible.shape}"
            return None, f"the agent's risk map has {shapes}", False
        values = np.clip(values, 0.0, 1.0)
        for cell in plan.move.explanation.mines:  # risk maps may leave settled cells at 0
            values[cell] = 1.0
        for cell in plan.move.explanation.safe:
            values[cell] = 0.0
        unknown = is_unknown(visible)
        return np.where(unknown & np.isfinite(values), values, np.nan), None, False

    def _plan(self) -> Any:
        try:
            return self.session.plan()
        except Exception as err:  # shown, not raised: the overlay is optional
            self.overlays.knowledge = False
            self._say(f"agent error while planning: {type(err).__name__}: {err}", error=True)
            return None

    def _status(self) -> tuple[str, tuple[int, int, int]]:
        outcome = self.session.outcome
        if outcome == Outcome.WON:
            return "You won!" if self.session.counts.ai == 0 else "Won!", WON_RGB
        if outcome == Outcome.LOST:
            return "Boom! Lost.", LOST_RGB
        return "Playing", (235, 235, 235)

    def _line(
        self,
        text: str,
        x: int,
        y: int,
        size: int = 24,
        colour: tuple[int, int, int] = TEXT_RGB,
        gap: int = 0,
    ) -> int:
        """Draw one line of panel text at ``(x, y)``; returns the ``y`` below it (and ``gap``)."""
        return y + draw_text(self.screen, self.fonts, text, (x, y), size, colour) + gap

    def _draw_panel(self) -> None:
        session, counts = self.session, self.session.counts
        x, y = self.layout.panel_left, MARGIN
        y = self._line("Minesweeper", x, y, 40, gap=4)
        y = self._line(session.board.describe(), x, y, gap=2)
        game = f"game {session.game + 1}, seed {session.game_seed}"
        y = self._line(
            f"first click: {session.board.first_click}   {game}", x, y, 20, MUTED_RGB, gap=8
        )
        status, colour = self._status()
        y = self._line(status, x, y, 40, colour, gap=4)
        y = self._line(f"Mines left: {session.mines_left}    Moves: {counts.reveals}", x, y, gap=2)
        kinds = (
            f"({session.move_kind}s: it proves nothing)"
            if session.move_kind
            else f"({counts.certain} certain, {counts.guessed} guessed)"
        )
        y = self._line(f"Agent moves: {counts.ai}  {kinds}", x, y, 20, gap=2)
        last = session.last_ai
        if last is not None:
            kind = "certain" if last.certain else (session.move_kind or "a guess")
            if last.risk is not None:
                kind += f", solver's P(mine) {last.risk:.3f}"
            shade = (140, 220, 160) if last.certain else (255, 200, 120)
            self._line(f"Last agent move: {last.cell}, {kind}", x, y, 20, shade)
        for button in self.buttons():
            draw_button(self.screen, self.fonts, button)
        y = BUTTONS_TOP + 9 * (BUTTON_HEIGHT + BUTTON_GAP) + 4
        y = self._draw_hover_info(x, y)
        if self.overlays.knowledge or self.overlays.heat != "off":
            y = self._draw_legend(x, y)
        if self.message:
            shade = ERROR_RGB if self.message_is_error else MUTED_RGB
            for line in wrap(self.message, self.fonts, 20, PANEL_WIDTH):
                y = self._line(line, x, y, 20, shade)

    def _draw_hover_info(self, x: int, y: int) -> int:
        cell = self.cell_under(self.hover) if self.hover else None
        if self.overlays.heat == "off" or self.session.over:
            return y
        values, problem, approximate = self._heat_values()
        if values is None:
            for line in wrap(f"no heat map: {problem}", self.fonts, 20, PANEL_WIDTH):
                y = self._line(line, x, y, 20, ERROR_RGB)
            return y
        name = "P(mine)" if self.overlays.heat == "solver" else "agent's risk"
        if cell is not None and np.isfinite(values[cell]):
            p = float(values[cell])
            y = self._line(f"{name} at {cell} = {p:.4f}", x, y, 24, heat_colour(p), gap=2)
            self._draw_tooltip(f"{p:.4f}", heat_colour(p))
        else:
            y = self._line(f"hover a hidden cell for its {name}", x, y, 20, MUTED_RGB, gap=2)
        if approximate:
            y = self._line("(some probabilities approximate)", x, y, 20, MUTED_RGB, gap=2)
        return y

    def _draw_tooltip(self, text: str, colour: tuple[int, int, int]) -> None:
        if self.hover is None:
            return
        pygame = self.pygame
        rendered = self.fonts.get(24).render(text, True, (0, 0, 0))
        box = rendered.get_rect(topleft=(self.hover[0] + 14, self.hover[1] + 14)).inflate(10, 6)
        box.clamp_ip(self.screen.get_rect())
        pygame.draw.rect(self.screen, (255, 255, 255), box, border_radius=4)
        pygame.draw.rect(self.screen, colour, box, 3, border_radius=4)
        self.screen.blit(rendered, rendered.get_rect(center=box.center))

    def _draw_legend(self, x: int, y: int) -> int:
        if self.overlays.heat != "off":
            ramp_width = PANEL_WIDTH - 80
            for i in range(ramp_width):
                colour = heat_colour(i / (ramp_width - 1))
                self.pygame.draw.line(
                    self.screen, colour, (x + 40 + i, y + 2), (x + 40 + i, y + 14)
                )
            self._line("safe", x, y, 20, MUTED_RGB)
            self._line("mine", x + ramp_width + 44, y, 20, MUTED_RGB)
            y += 20
        if self.overlays.knowledge:
            y = self._line("green ring: proven safe; red X: proven mine", x, y, 20, MUTED_RGB)
            y = self._line("blue box: agent's next move", x, y, 20, MUTED_RGB)
        return self._line("yellow box: last move", x, y, 20, MUTED_RGB, gap=4)

    # ---------------------------------------------------------------- run
    def frame(self) -> None:
        """One loop step: handle queued events, make a due autoplay move, draw, flip."""
        for event in self.pygame.event.get():
            self.handle_event(event)
        self.update(time.monotonic())
        self.draw()
        self.pygame.display.flip()

    def run(self, max_frames: int | None = None) -> int:
        """Run the window until it is closed (headless: until autoplay ends the game, or one
        frame). Saves the screenshot if one was asked for.

        Returns:
            0, or 1 if the agent failed during a headless run.
        """
        clock = self.pygame.time.Clock()
        limit = max_frames
        if limit is None and self.headless:
            limit = 10 * self.session.spec.cells + 10
        frames = 0
        while self.running:
            self.frame()
            frames += 1
            if self.headless and (not self.autoplay or self.session.over):
                break
            if limit is not None and frames >= limit:
                break
            if not self.headless:
                clock.tick(FPS)
        if self.screenshot is not None:
            self.draw()
            self.save_screenshot(self.screenshot)
        return 1 if (self.headless and self.failed) else 0

    def save_screenshot(self, path: Path) -> None:
        """Save the window as PNG at ``path`` (its folder is created), atomically.

        Raises:
            OSError: the file cannot be written (pygame's error, as one line).
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with atomic_path(path) as temporary:
                self.pygame.image.save(self.screen, str(temporary))
        except self.pygame.error as err:
            raise OSError(f"cannot save the screenshot {str(path)!r}: {err}") from None

    def close(self) -> None:
        self.pygame.display.quit()
