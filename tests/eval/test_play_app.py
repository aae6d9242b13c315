"""The play window, driven headless (SDL dummy driver) by posted mouse and key events; the checks
read the window's pixels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.base import Explanation
from eval.gui.app import NEXT_MOVE_RGB, Overlays, PlayApp
from eval.gui.choices import agent_specs, board_setups, build_agent, preset_setup
from eval.gui.layout import layout_for
from eval.gui.session import GameSession
from mswp_gym.constants import FLAGGED, HIDDEN, Outcome
from mswp_gym.render.drawing import HEAT_ALPHA, heat_colour, import_pygame
from mswp_gym.render.rgb import FLAG_RGB, HIDDEN_RGB, REVEALED_RGB

pygame = import_pygame()


def make_app(
    agent: str = "logic:global", preset: str = "beginner", seed: int = 3, **kwargs: object
) -> PlayApp:
    board = preset_setup(preset)
    specs = agent_specs(agent)
    session = GameSession(board, build_agent(specs[0]), seed)
    return PlayApp(session, specs, board_setups(board), headless=True, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def app() -> Iterator[PlayApp]:
    window = make_app()
    yield window
    window.close()


def post_click(app: PlayApp, pos: tuple[int, int], button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    app.frame()


def press_button(app: PlayApp, key: str) -> None:
    button = next(b for b in app.buttons() if b.key == key)
    left, top, width, height = button.rect
    post_click(app, (left + width // 2, top + height // 2))


def pixel(app: PlayApp, pos: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(app.screen.get_at(pos))[:3]


def inside(app: PlayApp, cell: tuple[int, int]) -> tuple[int, int]:
    """A pixel inside the cell, clear of its bevel and glyph."""
    x, y = app.cell_centre(cell)
    quarter = app.layout.cell_px // 4
    return x - quarter - 2, y + quarter + 2


def blend(colour: tuple[int, int, int], under: tuple[int, int, int]) -> tuple[int, int, int]:
    a = HEAT_ALPHA / 255
    return tuple(round(c * a + u * (1 - a)) for c, u in zip(colour, under, strict=True))  # type: ignore[return-value]


def test_play_app__left_click_reveals_the_cell_in_the_window(app: PlayApp) -> None:
    app.frame()
    assert pixel(app, inside(app, (4, 4))) == HIDDEN_RGB
    post_click(app, app.cell_centre((4, 4)))
    assert app.session.visible[4, 4] >= 0  # the first click is safe
    assert pixel(app, inside(app, (4, 4))) == REVEALED_RGB
    assert app.session.counts.human == 1


def test_play_app__right_click_flags_the_cell(app: PlayApp) -> None:
    post_click(app, app.cell_centre((0, 0)), button=3)
    assert app.session.visible[0, 0] == FLAGGED and app.session.mines_left == 9
    (left, top), size = app.layout.board_origin, app.layout.cell_px
    patch = pygame.surfarray.array3d(app.screen)[left : left + size, top : top + size]
    assert (patch.reshape(-1, 3) == FLAG_RGB).all(axis=1).sum() > 20


def test_play_app__ai_move_button_and_space_key_make_agent_moves(app: PlayApp) -> None:
    press_button(app, "ai_move")
    assert app.session.counts.ai == 1 and app.session.last_ai is not None
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    app.frame()
    assert app.session.counts.ai == 2
    assert app.session.counts.certain + app.session.counts.guessed == 2


def test_play_app__heat_map_tints_hidden_cells_by_probability(app: PlayApp) -> None:
    post_click(app, app.cell_centre((4, 4)))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h))
    app.frame()
    assert app.overlays.heat == "solver"
    heat, problem = app.session.heat_map()
    assert problem is None and heat is not None
    hidden = [(int(r), int(c)) for r, c in np.argwhere(app.session.visible == HIDDEN)]
    for cell in hidden[:5]:
        expected = blend(heat_colour(float(heat.probability[cell])), HIDDEN_RGB)
        assert all(
            abs(a - b) <= 2 for a, b in zip(pixel(app, inside(app, cell)), expected, strict=True)
        )
    press_button(app, "heat")  # the agent's own risk map: logic:global has one
    assert app.overlays.heat == "agent"
    plan = app.session.plan()
    assert plan is not None and plan.move.explanation.risk is not None
    risk = plan.move.explanation.risk
    settled = plan.move.explanation.safe | plan.move.explanation.mines
    for cell in [cell for cell in hidden if cell not in settled][:5]:
        expected = blend(heat_colour(float(risk[cell])), HIDDEN_RGB)
        assert all(
            abs(a - b) <= 2 for a, b in zip(pixel(app, inside(app, cell)), expected, strict=True)
        )
    press_button(app, "heat")
    assert app.overlays.heat == "off"
    assert pixel(app, inside(app, hidden[0])) == HIDDEN_RGB


def test_play_app__hover_with_heat_map_shows_a_tooltip(app: PlayApp) -> None:
    post_click(app, app.cell_centre((4, 4)))
    press_button(app, "heat")
    row, col = (int(v) for v in np.argwhere(app.session.visible == HIDDEN)[0])
    pos = app.cell_centre((row, col))
    before = pygame.surfarray.array3d(app.screen).copy()
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    app.frame()
    after = pygame.surfarray.array3d(app.screen)
    box = after[pos[0] + 14 : pos[0] + 60, pos[1] + 14 : pos[1] + 30]
    assert (box.reshape(-1, 3) == (255, 255, 255)).all(axis=1).sum() > 50  # the white tooltip
    assert not np.array_equal(before, after)


def test_play_app__knowledge_overlay_frames_the_agents_next_move() -> None:
    window = make_app(agent="logic", seed=4)
    try:
        for _ in range(5):
            window.press("ai_move")
        window.press("knowledge")
        window.frame()
        plan = window.session.plan()
        assert plan is not None
        (x0, y0), size = window.layout.board_origin, window.layout.cell_px
        row, col = plan.move.cell
        corner = (x0 + col * size + 1, y0 + row * size + 1)
        assert pixel(window, corner) == NEXT_MOVE_RGB
        window.press("ai_move")
        assert window.session.last_cell == plan.move.cell
    finally:
        window.close()


def test_play_app__board_and_rule_buttons_change_the_game_and_window() -> None:
    window = make_app()
    try:
        press_button(window, "board:2")  # Expert
        assert (window.session.spec.rows, window.session.spec.cols, window.session.spec.mines) == (
            16,
            30,
            99,
        )
        assert window.screen.get_size() == layout_for(16, 30).size
        press_button(window, "rule")
        assert window.session.spec.first_click == "opening"
        press_button(window, "board:0")
        assert window.session.spec.rows == 9 and window.session.spec.first_click == "opening"
        assert window.screen.get_size() == layout_for(9, 9).size
    finally:
        window.close()


def test_play_app__agent_button_cycles_agents(app: PlayApp) -> None:
    first = app.session.agent
    press_button(app, "agent")
    assert app.agent_index == 1 and app.session.agent is not first
    assert app.specs[1].label == "logic"


def test_play_app__speed_buttons_and_autoplay_toggle(app: PlayApp) -> None:
    start = app.speed_index
    press_button(app, "faster")
    press_button(app, "faster")
    press_button(app, "slower")
    assert app.speed_index == start + 1
    press_button(app, "autoplay")
    assert app.autoplay


def test_play_app__headless_autoplay_plays_to_the_end_and_saves_a_screenshot(
    tmp_path: Path,
) -> None:
    shot = tmp_path / "final.png"
    window = make_app(
        agent="solver", autoplay=True, screenshot=shot, overlays=Overlays(heat="solver")
    )
    try:
        assert window.run() == 0
    finally:
        window.close()
    assert window.session.over and not window.autoplay
    assert (
        window.session.counts.ai
        == window.session.counts.certain + window.session.counts.guessed
        > 0
    )
    image = pygame.image.load(str(shot))
    assert image.get_size() == layout_for(9, 9).size


def test_play_app__stop_after_pauses_autoplay() -> None:
    window = make_app(agent="logic", autoplay=True, stop_after=3)
    try:
        window.run()
        assert window.session.counts.ai == 3 or window.session.over
        assert not window.autoplay
    finally:
        window.close()


def test_play_app__agent_failure_is_shown_not_raised() -> None:
    class Broken:
        name = "broken"

        def reset(self, seed: object = None, spec: object = None) -> None: ...

        def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            raise RuntimeError("out of ideas")

        def explain(self) -> Explanation:
            return Explanation()

    window = make_app()
    try:
        window.session.set_agent(Broken())  # type: ignore[arg-type]
        window.autoplay = True
        window.press("ai_move")
        window.frame()
        assert window.failed and not window.autoplay and "out of ideas" in window.message
        assert window.session.outcome == Outcome.PLAYING
    finally:
        window.close()


def test_play_app__quit_event_stops_the_loop(app: PlayApp) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.frame()
    assert not app.running
    assert agents.available()  # the registry is importable alongside the window


def test_widgets__long_labels_are_elided_to_fit(app: PlayApp) -> None:
    from eval.gui.widgets import elide

    label = "Agent: ppo:/tmp/trainruns/beginner__imitation+ppo__0__20261123-111045/model-final.zip"
    short = elide(label, app.fonts, 16, 290)
    assert "..." in short and short.startswith("Agent: ppo") and short.endswith(".zip")
    assert app.fonts.get(16).size(short)[0] <= 290
    assert elide("AI Move", app.fonts, 16, 290) == "AI Move"


def test_play_app__left_click_on_a_flagged_clue_chords(app: PlayApp) -> None:
    post_click(app, app.cell_centre((4, 4)))
    session = app.session
    truth = session.env._board.mines  # type: ignore[union-attr]  # test-only peek at the truth
    visible = session.visible
    rows, cols = visible.shape
    from mswp_gym.cells import neighbours

    clue = next(
        (int(r), int(c))
        for r, c in np.argwhere(visible >= 1)
        if any(
            visible[n] == HIDDEN and not truth[n] for n in neighbours((int(r), int(c)), rows, cols)
        )
    )
    for cell in neighbours(clue, rows, cols):
        if truth[cell]:
            post_click(app, app.cell_centre(cell), button=3)
    target = next(n for n in neighbours(clue, rows, cols) if session.visible[n] == HIDDEN)
    assert pixel(app, inside(app, target)) == HIDDEN_RGB
    post_click(app, app.cell_centre(clue))
    assert session.visible[target] >= 0
    assert pixel(app, inside(app, target)) == REVEALED_RGB
