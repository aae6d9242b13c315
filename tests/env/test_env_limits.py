"""No hangs: the default step limit, mask-unaware policies, and the checkers without pygame."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from mswp_gym import MinesweeperEnv
from mswp_gym.config import AUTO_STEPS_PER_CELL
from mswp_gym.vector import MinesweeperVectorEnv

REGISTERED = ["Minesweeper-v0", "Minesweeper-Intermediate-v0", "Minesweeper-Expert-v0"]


@pytest.mark.parametrize("env_id", REGISTERED)
def test_env__registered_ids_truncate_a_policy_that_repeats_a_no_op(env_id: str) -> None:
    env = gym.make(env_id)
    cells = env.unwrapped.rows * env.unwrapped.cols
    _obs, _info = env.reset(seed=0)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        # Cell 0 first (a safe first click), then cell 0 again and again: a no-op every time.
        _obs, _r, terminated, truncated, info = env.step(0)
        steps += 1
    assert truncated and not terminated
    assert steps == AUTO_STEPS_PER_CELL * cells == info["steps"]
    assert info["invalid_actions"] == steps - 1


def test_env__random_policy_without_masks_always_ends() -> None:
    env = gym.make("Minesweeper-v0")
    env.action_space.seed(0)
    for seed in range(30):
        env.reset(seed=seed)
        for _ in range(AUTO_STEPS_PER_CELL * 81):
            _obs, _r, terminated, truncated, _info = env.step(env.action_space.sample())
            if terminated or truncated:
                break
        assert terminated or truncated


def test_env__step_limit_forms() -> None:
    assert MinesweeperEnv(4, 5, 2).max_steps == 40
    assert MinesweeperEnv(4, 5, 2, max_steps=7).max_steps == 7
    assert MinesweeperEnv(4, 5, 2, max_steps=None).max_steps is None
    assert MinesweeperVectorEnv(2, 4, 5, 2).max_steps == 40
    assert MinesweeperVectorEnv(2, 4, 5, 2, max_episode_steps=9).max_steps == 9
    with pytest.raises(ValueError, match="'auto' or None"):
        MinesweeperEnv(max_steps="never")


def test_vector_env__default_limit_truncates_a_no_op_policy() -> None:
    envs = gym.make_vec("Minesweeper-v0", num_envs=2, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    for step in range(1, 200):  # noqa: B007 - the count is read after the loop
        _obs, _r, terminated, truncated, _info = envs.step(np.zeros(2, dtype=np.int64))
        if truncated.any():
            break
    assert step == 162 and truncated.all() and not terminated.any()


def test_sb3_evaluate_policy_without_masks_returns() -> None:
    from stable_baselines3 import PPO
    from stable_baselines3.common.evaluation import evaluate_policy
    from stable_baselines3.common.monitor import Monitor

    env = Monitor(gym.make("Minesweeper-v0"))
    model = PPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu")
    # An untrained deterministic policy keeps choosing the same cell: without the step limit
    # this call never returned.
    _rewards, lengths = evaluate_policy(
        model, env, n_eval_episodes=3, deterministic=True, return_episode_rewards=True
    )
    assert len(lengths) == 3 and max(lengths) <= AUTO_STEPS_PER_CELL * 81


@pytest.mark.parametrize("env_id", ["Minesweeper-v0", "Minesweeper-Expert-v0"])
def test_env__checkers_pass_with_every_advertised_render_mode(env_id: str) -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gym.make(env_id).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SB3 nags about non-image 2-D boxes
        gym_check_env(env)  # render check included: every mode in metadata is built
        sb3_check_env(env)


CHECK_WITHOUT_PYGAME = """
import sys, warnings
sys.modules["pygame"] = None  # what a minimal install looks like to importers
import gymnasium as gym
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env
import mswp_gym
env = gym.make("Minesweeper-v0").unwrapped
assert env.metadata["render_modes"] == ["ansi", "rgb_array"], env.metadata
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    check_env(env)
    sb3_check_env(env)
try:
    mswp_gym.MinesweeperEnv(render_mode="human")
except ImportError as exc:
    print("human:", exc)
"""


def test_env__checkers_pass_without_pygame() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK_WITHOUT_PYGAME], capture_output=True, text=True, check=True
    )
    assert "human: render_mode='human' is unavailable" in out.stdout
    assert "pip install 'mswp-gym[gui]'" in out.stdout
