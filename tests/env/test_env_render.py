"""Every render mode of the env."""

from __future__ import annotations

import gymnasium
import numpy as np

from mswp_gym import MinesweeperEnv
from mswp_gym.render.rgb import CELL_PX, DIGIT_RGB, HIDDEN_RGB, REVEALED_RGB

LAYOUT = """
. . . . .
. . . . .
. . . * .
. . . . .
* . . . .
"""


def test_render__ansi_shows_the_view_then_the_mines() -> None:
    env = MinesweeperEnv(layout=LAYOUT, render_mode="ansi")
    env.reset(seed=0)
    env.step(0)
    text = env.render()
    assert text.splitlines()[1:] == ["0 .....", "1 ..111", "2 ..1##", "3 111##", "4 #####"]
    env.step(13)
    assert "*" in env.render().splitlines()[5]


def test_render__rgb_array_draws_cells_and_digits() -> None:
    env = MinesweeperEnv(layout=LAYOUT, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(0)
    frame = env.render()
    assert frame.shape == (5 * CELL_PX, 5 * CELL_PX, 3) and frame.dtype == np.uint8
    centre = CELL_PX // 2
    assert tuple(frame[centre + 1, centre + 1]) == REVEALED_RGB  # (0, 0) is an open zero
    assert tuple(frame[4 * CELL_PX + 3, 4 * CELL_PX + 3]) == HIDDEN_RGB
    one = frame[CELL_PX : 2 * CELL_PX, 2 * CELL_PX : 3 * CELL_PX].reshape(-1, 3)
    assert (one == DIGIT_RGB[1]).all(axis=1).sum() > 10  # the '1' glyph is drawn in blue


def test_render__gym_make_list_modes_collect_every_frame() -> None:
    env = gymnasium.make("Minesweeper-v0", render_mode="rgb_array_list")
    env.reset(seed=0)
    env.step(40)
    frames = env.render()
    assert len(frames) == 2 and frames[0].shape == (9 * CELL_PX, 9 * CELL_PX, 3)
    assert not np.array_equal(frames[0], frames[1])


def test_render__human_mode_shows_each_step_in_the_window() -> None:
    env = MinesweeperEnv(render_mode="human")
    twin = MinesweeperEnv(render_mode="rgb_array")
    for each in (env, twin):
        each.reset(seed=0)
        each.step(40)
    frame = twin.render()
    screen = env._viewer.screen  # the window step drew into (headless under SDL's dummy driver)
    height, width = frame.shape[:2]
    assert screen.get_size() == (width, height)
    for x, y in [(3, 3), (width // 2, height // 2), (width - 3, height - 3), (40, 90)]:
        assert tuple(screen.get_at((x, y)))[:3] == tuple(frame[y, x])
    env.close()
    assert env._viewer is None


def test_render__lost_game_draws_the_fatal_mine_on_red() -> None:
    env = MinesweeperEnv(layout=LAYOUT, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(0)
    before = env.render()
    env.step(13)  # the mine at (2, 3)
    after = env.render()
    cell = after[2 * CELL_PX : 3 * CELL_PX, 3 * CELL_PX : 4 * CELL_PX].reshape(-1, 3)
    assert not np.array_equal(before, after)
    assert (cell[:, 0].astype(int) - cell[:, 1].astype(int) > 100).mean() > 0.3  # mostly red
