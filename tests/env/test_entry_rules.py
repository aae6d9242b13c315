"""Actions, seeds and game arguments: one rule at every entry point.

The entry points are the single env, ``gym.make``, the vector env (both placements) and the SB3
adapter. Each must refuse bools as actions, read seeds by Gymnasium's rule without aliasing, take
its game arguments from :class:`GameConfig` alone, and report the step limit and a lost board's
frame as the single env does.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import mswp_gym  # noqa: F401 - registers the ids
from mswp_gym.config import GameConfig
from mswp_gym.env import GAME_ARGUMENTS, MinesweeperEnv
from mswp_gym.vector import MinesweeperVectorEnv

sb3_vec = pytest.importorskip("mswp_gym.vector.sb3_vec")

# ---------------------------------------------------------------- actions

SINGLE: dict[str, Callable[[], Any]] = {
    "env": lambda: MinesweeperEnv(),
    "gym.make": lambda: gym.make("Minesweeper-v0"),
}
BATCHED: dict[str, Callable[[], Any]] = {
    "vector": lambda: MinesweeperVectorEnv(2),
    "vector-generator": lambda: MinesweeperVectorEnv(2, placement="generator"),
}
BOOLS = [True, False, np.True_, np.array(True), np.array([True])]


@pytest.mark.parametrize("entry", list(SINGLE))
@pytest.mark.parametrize("action", BOOLS, ids=repr)
def test_single_env_step__refuses_bools(entry: str, action: Any) -> None:
    env = SINGLE[entry]()
    env.reset(seed=0)
    with pytest.raises(
        ValueError, match=r"is not an integer in Discrete\(81\).*bools are not"
    ) as e:
        env.step(action)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("entry", list(BATCHED))
@pytest.mark.parametrize(
    "actions", [[True, False], np.array([True, True]), [np.True_, 1]], ids=repr
)
def test_vector_env_step__refuses_bools(entry: str, actions: Any) -> None:
    env = BATCHED[entry]()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"of board 0 is not an integer .*bools are not"):
        env.step(actions)


def test_sb3_adapter_step__refuses_bools() -> None:
    venv = sb3_vec.MinesweeperSB3VecEnv(2)
    venv.reset()
    with pytest.raises(ValueError, match=r"action True of board 0 is not an integer"):
        venv.step(np.array([True, False]))


@pytest.mark.parametrize(
    "action", [3, np.int64(3), np.uint8(3), np.array(3), np.array([3])], ids=repr
)
def test_single_env_step__takes_integers_of_any_kind(action: Any) -> None:
    env = MinesweeperEnv(layout="*..\n...\n...")  # (0, 0) a mine: cell 3, (1, 0), shows 1
    env.reset(seed=0)
    assert env.step(action)[0][1, 0] == 1


# ---------------------------------------------------------------- seeds


def _sb3_reset(seed: Any) -> Any:
    venv = sb3_vec.MinesweeperSB3VecEnv(2)
    venv.seed(seed)
    return venv.reset()


SEEDED: dict[str, Callable[[Any], Any]] = {
    "env": lambda seed: MinesweeperEnv().reset(seed=seed),
    "gym.make": lambda seed: gym.make("Minesweeper-v0").reset(seed=seed),
    "vector": lambda seed: MinesweeperVectorEnv(2).reset(seed=seed),
    "vector-generator": lambda seed: MinesweeperVectorEnv(2, placement="generator").reset(
        seed=seed
    ),
    "vector-list": lambda seed: MinesweeperVectorEnv(2).reset(seed=[seed, 0]),
    "sb3": _sb3_reset,
}
BAD_SEEDS: list[tuple[Any, type[Exception], str]] = [
    (-1, ValueError, "got -1"),
    (2**64, ValueError, "got 18446744073709551616"),
    (2**64 + 5, ValueError, "got 18446744073709551621"),
    (True, TypeError, "got True"),
    (np.True_, TypeError, "got np.True_|got True"),
    (1.5, TypeError, "got 1.5"),
    ("a", TypeError, "got 'a'"),
]


@pytest.mark.parametrize("entry", list(SEEDED))
@pytest.mark.parametrize("case", BAD_SEEDS, ids=lambda c: repr(c[0]))
def test_seeds__are_refused_alike_everywhere(
    entry: str, case: tuple[Any, type[Exception], str]
) -> None:
    seed, error, message = case
    with pytest.raises(error, match=message) as caught:
        SEEDED[entry](seed)
    text = str(caught.value)
    assert "\n" not in text and "seed" in text and "[0, 2**64)" in text


@pytest.mark.parametrize("entry", list(SEEDED))
def test_seeds__take_numpy_integers(entry: str) -> None:
    SEEDED[entry](np.int64(3))
    SEEDED[entry](np.uint64(2**64 - 2))


def test_vector_seed__board_seed_past_the_limit_is_refused_not_wrapped() -> None:
    with pytest.raises(ValueError, match=r"board 1's seed\) must be .* got 18446744073709551616"):
        MinesweeperVectorEnv(2).reset(seed=2**64 - 1)
    with pytest.raises(ValueError, match=r"board 1's seed"):
        sb3_vec.MinesweeperSB3VecEnv(2).seed(2**64 - 1)


@pytest.mark.parametrize("placement", ["batched", "generator"])
def test_vector_seed__numpy_and_python_seeds_play_the_same_games(placement: str) -> None:
    layouts = []
    for seed in (3, np.int64(3), np.uint32(3)):
        env = MinesweeperVectorEnv(2, first_click="any", placement=placement)
        env.reset(seed=seed)
        layouts.append(env.truth().mines)
    assert all(np.array_equal(layouts[0], other) for other in layouts[1:])


def test_single_env_seed__numpy_seed_plays_the_python_seed_game() -> None:
    layouts = []
    for seed in (3, np.int64(3)):
        env = MinesweeperEnv(first_click="any", max_steps=1)
        env.reset(seed=seed)
        layouts.append(env.step(40)[4]["layout"])  # the episode ends: info shows the layout
    assert np.array_equal(*layouts)


# ---------------------------------------------------------------- step limit and frames


def _native(**kwargs: Any) -> Any:
    return gym.make_vec(
        "Minesweeper-v0", num_envs=1, vectorization_mode="vector_entry_point", **kwargs
    )


def _sync(**kwargs: Any) -> Any:
    return gym.make_vec("Minesweeper-v0", num_envs=1, vectorization_mode="sync", **kwargs)


@pytest.mark.parametrize("make", [_native, _sync], ids=["vector_entry_point", "sync"])
def test_step_limit__game_ending_on_the_last_step_is_terminated_and_truncated(
    make: Callable[..., Any],
) -> None:
    layout = np.zeros((3, 3), dtype=bool)
    layout[0, 0] = True
    envs = make(layout=layout, max_episode_steps=1)
    envs.reset(seed=0)
    _, _, terminated, truncated, _ = envs.step(np.array([8]))
    assert (bool(terminated[0]), bool(truncated[0])) == (True, True)


def test_step_limit__single_env_agrees_with_time_limit() -> None:
    env = MinesweeperEnv(layout="*..\n...\n...", max_steps=1)
    env.reset(seed=0)
    assert env.step(8)[2:4] == (True, True)
    limited = gym.make("Minesweeper-v0", layout="*..\n...\n...", max_episode_steps=1)
    limited.reset(seed=0)
    assert limited.step(8)[2:4] == (True, True)


@pytest.mark.parametrize("placement", ["batched", "generator"])
def test_vector_render__lost_board_frame_matches_the_single_env(placement: str) -> None:
    layout = "..*.\n....\n*...\n...."
    single = MinesweeperEnv(layout=layout, render_mode="rgb_array")
    batch = MinesweeperVectorEnv(2, layout=layout, render_mode="rgb_array", placement=placement)
    single.reset(seed=0)
    batch.reset(seed=0)
    for single_action, batch_actions in ((15, [15, 15]), (2, [2, 5])):  # board 0 loses at (0, 2)
        single.step(single_action)
        batch.step(np.array(batch_actions))
    frame = single.render()
    frames = batch.render()
    np.testing.assert_array_equal(frames[0], frame)
    assert not np.array_equal(frames[1], frame)


# ---------------------------------------------------------------- game arguments


def test_game_arguments__are_game_configs_parameters_and_no_env_lists_them() -> None:
    config_parameters = list(inspect.signature(GameConfig).parameters)
    assert list(GAME_ARGUMENTS) == config_parameters
    assert {f.name for f in fields(GameConfig)} == set(config_parameters) - {"density", "preset"}
    for built in (MinesweeperEnv, MinesweeperVectorEnv, sb3_vec.MinesweeperSB3VecEnv):
        own = inspect.signature(built).parameters
        assert not set(own) & set(config_parameters), built
        kinds = {p.kind for p in own.values()}
        assert inspect.Parameter.VAR_KEYWORD in kinds, built


NON_DEFAULT: dict[str, Any] = {
    "rows": 4,
    "cols": 5,
    "mines": 3,
    "first_click": "any",
    "score_mode": True,
    "clue_reveal_prob": 0.5,
    "clue_noise": "cautious",
    "obs_mode": "channels",
    "flag_actions": True,
    "rewards": {"win": 2.0},
    "max_steps": 7,
}


@pytest.mark.parametrize(
    "make",
    [
        MinesweeperEnv,
        lambda **kw: gym.make("Minesweeper-v0", **kw).unwrapped,
        lambda **kw: MinesweeperVectorEnv(2, **kw),
        lambda **kw: sb3_vec.MinesweeperSB3VecEnv(2, **kw).venv,
    ],
    ids=["env", "gym.make", "vector", "sb3"],
)
def test_game_arguments__every_one_reaches_the_config_at_every_entry_point(
    make: Callable[..., Any],
) -> None:
    assert set(NON_DEFAULT) | {"density", "preset", "layout", "generator"} == set(GAME_ARGUMENTS)
    assert make(**NON_DEFAULT).config == GameConfig(**NON_DEFAULT)
    assert make(preset="intermediate").config == GameConfig(preset="intermediate")
    assert make(density=0.25).config.mines == 20
    assert make(layout="*.\n..").config.layout is not None
    with pytest.raises(TypeError, match=r"unknown argument 'colums'; the game arguments are rows"):
        make(colums=5)


# ---------------------------------------------------------------- human rendering


def test_human_render__without_pygame_names_our_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame now fails
    monkeypatch.setitem(MinesweeperEnv.metadata, "render_modes", ["ansi", "rgb_array"])
    for make in (
        lambda: gym.make("Minesweeper-v0", render_mode="human"),
        lambda: MinesweeperEnv(render_mode="human"),
    ):
        with pytest.raises(ImportError) as caught:
            make()
        text = str(caught.value)
        assert "pip install 'mswp-gym[gui]'" in text and "\n" not in text
        assert "classic-control" not in text
