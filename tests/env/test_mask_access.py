"""``mswp_gym.action_masks(env)``: one way to the mask through wrappers and every vector env."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import mswp_gym
from mswp_gym import MinesweeperEnv
from mswp_gym.vector import MinesweeperVectorEnv

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


def _play_vector(envs: gym.vector.VectorEnv, steps: int = 40) -> None:
    """Step ``envs`` with masked random actions; check the masks' shape and that no row is empty."""
    rng = np.random.default_rng(0)
    envs.reset(seed=0)
    for _ in range(steps):
        masks = mswp_gym.action_masks(envs)
        assert masks.shape == (envs.num_envs, 81) and masks.dtype == bool
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _obs, _r, terminated, truncated, _info = envs.step(actions)
        done = terminated | truncated
        if envs.metadata.get("autoreset_mode") == AutoresetMode.DISABLED and done.any():
            envs.reset(options={"reset_mask": done})


def test_action_masks__single_env_through_a_wrapper_stack() -> None:
    env = gym.make("Minesweeper-v0")
    env = gym.wrappers.RecordEpisodeStatistics(gym.wrappers.TimeLimit(env, 50))
    _obs, info = env.reset(seed=0)
    mask = mswp_gym.action_masks(env)
    assert mask.shape == (81,) and mask.dtype == bool and mask.all()
    _obs, _r, _t, _tr, info = env.step(40)
    assert np.array_equal(mswp_gym.action_masks(env), info["action_mask"].astype(bool))
    assert not mswp_gym.action_masks(env)[40]


def test_action_masks__flag_actions_double_the_width() -> None:
    env = gym.make("Minesweeper-v0", flag_actions=True)
    env.reset(seed=0)
    assert mswp_gym.action_masks(env).shape == (162,)


def test_action_masks__is_a_copy() -> None:
    env = MinesweeperEnv()
    env.reset(seed=0)
    mswp_gym.action_masks(env)[:] = False
    assert env.action_masks().all()


def test_action_masks__a_wrapper_that_overrides_it_answers() -> None:
    class OnlyCorner(gym.Wrapper):
        def action_masks(self) -> np.ndarray:
            mask = np.zeros(81, dtype=bool)
            mask[0] = True
            return mask

    env = OnlyCorner(gym.make("Minesweeper-v0"))
    env.reset(seed=0)
    assert np.flatnonzero(mswp_gym.action_masks(env)).tolist() == [0]


@pytest.mark.parametrize("mode", MODES)
def test_action_masks__gymnasium_sync_vector_env_every_autoreset_mode(mode: AutoresetMode) -> None:
    envs = gym.vector.SyncVectorEnv(
        [lambda: gym.make("Minesweeper-v0") for _ in range(3)], autoreset_mode=mode
    )
    _play_vector(envs)
    envs.close()


@pytest.mark.parametrize("mode", MODES)
def test_action_masks__native_vector_env_every_autoreset_mode(mode: AutoresetMode) -> None:
    envs = gym.make_vec(
        "Minesweeper-v0", num_envs=3, vectorization_mode="vector_entry_point", autoreset_mode=mode
    )
    _play_vector(gym.wrappers.vector.RecordEpisodeStatistics(envs))


def test_action_masks__async_vector_env() -> None:
    envs = gym.vector.AsyncVectorEnv(
        [lambda: gym.make("mswp_gym:Minesweeper-v0") for _ in range(2)]
    )
    try:
        _play_vector(envs, steps=10)
    finally:
        envs.close()


def test_action_masks__native_rows_of_boards_waiting_for_reset_are_all_true() -> None:
    envs = MinesweeperVectorEnv(2, layout="*.\n..")  # 1 mine; revealing (0, 0) loses at once
    envs.reset(seed=0)
    _obs, _r, terminated, _tr, info = envs.step(np.array([0, 1]))
    assert terminated.tolist() == [True, False]
    masks = mswp_gym.action_masks(envs)
    assert masks[0].all()  # its next action only resets it
    assert np.array_equal(masks[1], info["action_mask"][1].astype(bool))


def test_action_masks__sb3_vec_envs() -> None:
    from stable_baselines3.common.vec_env import DummyVecEnv

    from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

    dummy = DummyVecEnv([lambda: gym.make("Minesweeper-v0") for _ in range(2)])
    dummy.reset()
    assert mswp_gym.action_masks(dummy).shape == (2, 81)
    native = MinesweeperSB3VecEnv(4)
    native.reset()
    assert mswp_gym.action_masks(native).shape == (4, 81)


def test_action_masks__rejects_what_is_not_an_env() -> None:
    with pytest.raises(TypeError, match="needs a Gymnasium env"):
        mswp_gym.action_masks(object())
    with pytest.raises(TypeError, match="no action_masks"):
        mswp_gym.action_masks(gym.make("CartPole-v1"))


def test_vector_env__call_get_attr_set_attr_follow_gymnasium() -> None:
    envs = MinesweeperVectorEnv(3)
    envs.reset(seed=0)
    rows = envs.call("action_masks")
    assert len(rows) == 3 and rows[0].shape == (81,)
    assert envs.get_attr("rows") == (9, 9, 9)
    assert len(envs.get_attr("visible")) == 3
    envs.set_attr("rewards", mswp_gym.RewardConfig.sparse())
    assert envs.rewards == mswp_gym.RewardConfig.sparse()
    envs.set_attr("max_steps", [5, 5, 5])
    assert envs.max_steps == 5
    with pytest.raises(ValueError, match="shared by all 3 boards"):
        envs.set_attr("max_steps", [5, 6, 5])
    with pytest.raises(ValueError, match="needs 3 values"):
        envs.set_attr("max_steps", [5])
    with pytest.raises(AttributeError):
        envs.call("no_such_method")


def test_vector_env__metadata_has_the_single_env_frame_rate() -> None:
    envs = gym.make_vec("Minesweeper-v0", num_envs=2, vectorization_mode="vector_entry_point")
    assert envs.metadata["render_fps"] == gym.make("Minesweeper-v0").metadata["render_fps"] == 8
