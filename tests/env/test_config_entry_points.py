"""One table of bad inputs, run against every entry point: each refuses the same way.

The entry points are :class:`GameConfig` itself, the single env, ``gym.make``, the vector env,
``gym.make_vec`` with the vector entry point and the SB3 adapter. Each must raise the same error
type with a message that names the bad value; and each must accept the same good inputs, giving
an equal config.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import mswp_gym  # noqa: F401 - registers the ids
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig
from mswp_gym.env import MinesweeperEnv
from mswp_gym.vector import MinesweeperVectorEnv


def _sb3(**kwargs: Any) -> Any:
    pytest.importorskip("stable_baselines3")
    from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

    return MinesweeperSB3VecEnv(2, **kwargs)


ENTRY_POINTS: dict[str, Callable[..., Any]] = {
    "config": GameConfig,
    "env": MinesweeperEnv,
    "gym.make": lambda **kw: gym.make("Minesweeper-v0", **kw),
    "vector": lambda **kw: MinesweeperVectorEnv(2, **kw),
    "gym.make_vec": lambda **kw: gym.make_vec(
        "Minesweeper-v0", num_envs=2, vectorization_mode="vector_entry_point", **kw
    ),
    "sb3": _sb3,
}

BAD: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"rows": 0}, ValueError, "rows must be an integer >= 1, got 0"),
    ({"cols": 2.5}, ValueError, "cols must be an integer >= 1, got 2.5"),
    ({"rows": True}, ValueError, "rows must be an integer >= 1, got True"),
    (
        {"rows": 100_000, "cols": 100_000},
        ValueError,
        "a 100000x100000 board has 10,000,000,000 cells; the limit is 1,000,000 cells",
    ),
    ({"rows": 1001, "cols": 1000}, ValueError, "1001x1000 board has 1,001,000 cells"),
    ({"mines": 81}, ValueError, "mines=81 leaves no safe cell on a 9x9 board"),
    ({"mines": -3}, ValueError, "mines must be >= 0, got -3"),
    ({"mines": "ten"}, TypeError, "mines must be an integer, got 'ten'"),
    ({"mines": 2.0}, TypeError, "mines must be an integer, got 2.0"),
    ({"mines": 10, "density": 0.1}, ValueError, "give mines or density, not both"),
    ({"density": 1.5}, ValueError, "density must be a number in \\[0, 1\\), got 1.5"),
    ({"density": float("nan")}, ValueError, "density must be a number in \\[0, 1\\), got nan"),
    ({"density": "0.1"}, ValueError, "density must be a number in \\[0, 1\\), got '0.1'"),
    ({"first_click": "center"}, ValueError, "unknown first_click rule 'center'; choose one of any"),
    ({"first_click": "opening", "mines": 73}, ValueError, "holds at most 72 mines; got mines=73"),
    ({"first_click": "fixed"}, ValueError, "first_click='fixed' needs a layout"),
    ({"obs_mode": "pixels"}, ValueError, "unknown obs_mode 'pixels'; choose one of board"),
    ({"score_mode": "false"}, TypeError, "score_mode must be True or False, got 'false'"),
    ({"score_mode": 1}, TypeError, "score_mode must be True or False, got 1"),
    ({"flag_actions": "no"}, TypeError, "flag_actions must be True or False, got 'no'"),
    ({"max_steps": 0}, ValueError, "max_steps must be an integer >= 1, 'auto' or None, got 0"),
    ({"max_steps": True}, ValueError, "max_steps must be .* got True"),
    ({"max_steps": 2.5}, ValueError, "max_steps must be .* got 2.5"),
    ({"max_steps": "never"}, ValueError, "max_steps must be .* got 'never'"),
    ({"rewards": {"win": 1, "lose": -1}}, ValueError, "unknown reward keys \\['lose'\\]"),
    ({"rewards": {"win": float("inf")}}, ValueError, "reward win must be a finite number, got inf"),
    ({"rewards": 3}, TypeError, "rewards must be a RewardConfig or a dict, got int"),
    (
        {"clue_reveal_prob": 1.5},
        ValueError,
        "clue_reveal_prob must be a number in \\[0, 1\\], got 1.5",
    ),
    ({"clue_reveal_prob": float("nan")}, ValueError, "clue_reveal_prob must be .* got nan"),
    ({"clue_reveal_prob": "half"}, ValueError, "clue_reveal_prob must be .* got 'half'"),
    ({"clue_noise": "loud"}, ValueError, "unknown clue_noise 'loud'; choose one of exact"),
    (
        {"layout": np.array([[0.5, 0.0]])},
        ValueError,
        "layout holds only 0/1 .* got 0.5 at \\(0, 0\\)",
    ),
    ({"layout": np.array([[0, 2]])}, ValueError, "layout holds only 0/1 .* got 2 at \\(0, 1\\)"),
    ({"layout": np.array([[0.0, np.nan]])}, ValueError, "layout holds only 0/1 .* got nan"),
    ({"layout": [[None, 0]]}, ValueError, "layout holds only 0/1 .* got None at \\(0, 0\\)"),
    ({"layout": "*.\n..", "rows": 20}, ValueError, "rows=20 but the layout has 2 rows"),
    ({"layout": "*.\n..", "cols": 3}, ValueError, "cols=3 but the layout has 2 cols"),
    ({"layout": "*.", "mines": 2}, ValueError, "mines=2 but the layout holds 1"),
    ({"layout": "*.", "density": 0.5}, ValueError, "density=0.5 beside a layout"),
    ({"layout": "*.", "first_click": "safe"}, ValueError, "use first_click='fixed'"),
    ({"layout": "**"}, ValueError, "needs a safe cell"),
    ({"layout": "..\n."}, ValueError, "row 1 has 1 cells"),
    ({"preset": "huge"}, ValueError, "unknown preset 'huge'"),
]


def _ids(case: tuple[dict[str, Any], type[Exception], str]) -> str:
    return ",".join(f"{k}={v!r}"[:30] for k, v in case[0].items())


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("case", BAD, ids=[_ids(c) for c in BAD])
def test_entry_points__refuse_the_same_bad_inputs(
    entry: str, case: tuple[dict[str, Any], type[Exception], str]
) -> None:
    kwargs, error, message = case
    with pytest.raises(error, match=message) as caught:
        ENTRY_POINTS[entry](**kwargs)
    assert "\n" not in str(caught.value)  # one line


GOOD: list[dict[str, Any]] = [
    {},
    {"density": 0.1},
    {"density": np.float32(0.25)},
    {"layout": "*.\n.."},
    {"layout": np.array([[1, 0], [0, 0]], dtype=np.uint8)},
    {"layout": np.array([[1.0, 0.0], [0.0, 0.0]])},
    {"rows": 3, "cols": 3},
    {"rows": np.int8(100), "cols": np.int8(100)},
    {"mines": np.int64(5)},
    {"max_steps": np.int64(5)},
    {"max_steps": None},
    {"first_click": FirstClick.OPENING},
    {"first_click": "any", "obs_mode": "channels", "flag_actions": np.True_},
    {"score_mode": True, "rewards": {"win": 2}},
    {"clue_reveal_prob": 0.5, "clue_noise": "optimistic"},
    {"clue_reveal_prob": 1, "clue_noise": "cautious"},
]


def _config_of(built: Any) -> GameConfig:
    if isinstance(built, GameConfig):
        return built
    inner = getattr(built, "venv", built)  # the SB3 adapter
    return inner.unwrapped.config if hasattr(inner, "unwrapped") else inner.config


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("kwargs", GOOD, ids=[_ids((g, ValueError, "")) for g in GOOD])
def test_entry_points__accept_the_same_good_inputs(entry: str, kwargs: dict[str, Any]) -> None:
    config = _config_of(ENTRY_POINTS[entry](**kwargs))
    assert config == GameConfig(**kwargs)


def test_game_config__np_int8_size_does_not_overflow() -> None:
    config = GameConfig(np.int8(100), np.int8(100))
    assert (config.rows, config.cols, config.mines) == (100, 100, 1235)
    assert type(config.rows) is int


def test_game_config__is_frozen_and_hashable() -> None:
    config = GameConfig(preset="expert", first_click="opening")
    with pytest.raises(AttributeError):
        config.rows = 3  # type: ignore[misc]
    assert config == GameConfig(16, 30, 99, first_click="opening")
    assert len({config, GameConfig(16, 30, 99, first_click="opening")}) == 1
    assert config.first_click is FirstClick.OPENING and config.spec.cells == 480


@pytest.mark.parametrize("make", [MinesweeperEnv, lambda **kw: MinesweeperVectorEnv(2, **kw)])
def test_envs__config_beside_game_arguments_is_refused(make: Callable[..., Any]) -> None:
    with pytest.raises(ValueError, match=r"give config or game arguments, not both .* rows"):
        make(config=GameConfig(), rows=5)
    with pytest.raises(TypeError, match="config must be a GameConfig, got dict"):
        make(config={"rows": 5})
    env = make(config=GameConfig(5, 5, 3, obs_mode="channels"), render_mode="ansi")
    assert (env.rows, env.cols, env.mines, env.obs_mode) == (5, 5, 3, "channels")


@pytest.mark.parametrize(
    "env_id",
    [
        "Minesweeper-v0",
        "Minesweeper-Beginner-v0",
        "Minesweeper-Intermediate-v0",
        "Minesweeper-Expert-v0",
    ],
)
def test_registered_ids__every_argument_works_through_make(env_id: str) -> None:
    board = gym.make(env_id).unwrapped
    assert board.game_spec.first_click == "safe"
    assert gym.make(env_id, density=0.1).unwrapped.mines == round(0.1 * board.rows * board.cols)
    small = gym.make(env_id, rows=3, cols=3).unwrapped
    assert (small.rows, small.cols, small.mines) == (3, 3, 1)
    fixed = gym.make(env_id, layout="*..\n...").unwrapped
    assert (fixed.rows, fixed.cols, fixed.mines, fixed.game_spec.first_click) == (2, 3, 1, "fixed")
    assert gym.make(env_id, first_click="any").unwrapped.game_spec.first_click == "any"
    assert gym.make(env_id, mines=7).unwrapped.mines == 7
    venv = gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", density=0.2)
    assert venv.mines == round(0.2 * board.rows * board.cols)


def test_registered_ids__keep_their_preset_boards() -> None:
    for env_id, size in [
        ("Minesweeper-v0", (9, 9, 10)),
        ("Minesweeper-Intermediate-v0", (16, 16, 40)),
        ("Minesweeper-Expert-v0", (16, 30, 99)),
    ]:
        env = gym.make(env_id).unwrapped
        assert (env.rows, env.cols, env.mines) == size


def test_generator__is_injected_not_assigned() -> None:
    from eval.pairing import CoupledFirstClick

    generator = CoupledFirstClick("opening")
    env = MinesweeperEnv(config=GameConfig(first_click="opening", generator=generator))
    assert env.generator is generator
    with pytest.raises(
        ValueError, match="first_click='safe' but the generator's rule is 'opening'"
    ):
        GameConfig(first_click="safe", generator=generator)
    with pytest.raises(ValueError, match="needs placement='generator'"):
        MinesweeperVectorEnv(2, generator=generator)
    venv = MinesweeperVectorEnv(2, generator=generator, placement="generator")
    venv.reset(seed=0)
    assert venv.generator is generator


def test_game_config__replace_rebuilds_and_validates() -> None:
    config = GameConfig(first_click="safe", max_steps="auto")
    opening = replace(config, first_click="opening")
    assert opening.first_click is FirstClick.OPENING and opening.generator.name == "opening"
    bigger = replace(config, rows=16, cols=16)
    assert bigger.step_limit == 2 * 256 and bigger.mines == 10
    fixed = GameConfig(layout="*.\n..")
    assert replace(fixed, score_mode=True).layout.sum() == 1
    with pytest.raises(ValueError, match="rows=3 but the layout has 2 rows"):
        replace(fixed, rows=3)
    with pytest.raises(TypeError, match="flag_actions must be True or False, got 'yes'"):
        replace(config, flag_actions="yes")
