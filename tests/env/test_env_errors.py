"""Every bad input gets a clear error that names the bad value."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym import MinesweeperEnv, RewardConfig
from mswp_gym.constants import HIDDEN
from mswp_gym.encoding import board_from_observation
from mswp_gym.presets import preset


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rows": 0}, ValueError, "rows must be an integer >= 1, got 0"),
        ({"cols": 2.5}, ValueError, "cols must be an integer >= 1, got 2.5"),
        ({"mines": 81}, ValueError, "mines=81 leaves no safe cell on a 9x9 board"),
        ({"mines": -3}, ValueError, "mines must be >= 0, got -3"),
        ({"mines": "ten"}, TypeError, "mines must be an integer, got 'ten'"),
        ({"mines": 10, "density": 0.1}, ValueError, "not both"),
        ({"density": 1.5}, ValueError, "density must be a number in \\[0, 1\\), got 1.5"),
        (
            {"first_click": "opening", "mines": 73},
            ValueError,
            "holds at most 72 mines; got mines=73",
        ),
        ({"first_click": "center"}, ValueError, "unknown first_click rule 'center'"),
        ({"obs_mode": "pixels"}, ValueError, "unknown obs_mode 'pixels'"),
        ({"render_mode": "gif"}, ValueError, "unknown render_mode 'gif'"),
        ({"max_steps": 0}, ValueError, "max_steps must be an integer >= 1, 'auto' or None, got 0"),
        ({"rewards": {"win": 1, "lose": -1}}, ValueError, "unknown reward keys \\['lose'\\]"),
        ({"rewards": 3}, TypeError, "rewards must be a RewardConfig or a dict, got int"),
        ({"layout": "..\n.", "first_click": "fixed"}, ValueError, "row 1 has 1 cells"),
        ({"layout": "*.", "mines": 2}, ValueError, "mines=2 but the layout holds 1"),
    ],
)
def test_env__bad_arguments_are_named(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        MinesweeperEnv(**kwargs)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (81, "action 81 is outside the action space Discrete\\(81\\)"),
        (-1, "action -1 is outside"),
        (3.5, "action 3.5 is not an integer"),
        ("a", "action 'a' is not an integer"),
        (np.array([1, 2]), "is not an integer"),
    ],
)
def test_env__bad_actions_are_named(action: object, message: str) -> None:
    env = MinesweeperEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        env.step(action)


def test_env__numpy_actions_reveal_the_cell_they_name() -> None:
    # each numpy action plays the cell its value names, as the int does: (0, 3), then (0, 4)
    env, twin = MinesweeperEnv(), MinesweeperEnv()
    env.reset(seed=0)
    twin.reset(seed=0)
    for action, value in [(np.int64(3), 3), (np.array(4), 4)]:
        assert np.array_equal(env.step(action)[0], twin.step(value)[0])
        assert env.visible[divmod(value, 9)] != HIDDEN


def test_rewards__non_numbers_are_named() -> None:
    with pytest.raises(ValueError, match="reward win must be a finite number, got nan"):
        RewardConfig(win=float("nan"))


def test_presets__unknown_name_is_named() -> None:
    with pytest.raises(ValueError, match="unknown preset 'hard'"):
        preset("hard")


def test_encoding__unreadable_observation_is_named() -> None:
    with pytest.raises(ValueError, match="shape \\(3,\\)"):
        board_from_observation(np.zeros(3))
    with pytest.raises(ValueError, match="'board' key"):
        board_from_observation({"grid": 1})
