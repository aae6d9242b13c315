"""The env against Gymnasium's and SB3's contracts: checkers, determinism, pickling, vector envs."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

import mswp_gym
from mswp_gym import MinesweeperEnv

REGISTERED = [
    "Minesweeper-v0",
    "Minesweeper-Beginner-v0",
    "Minesweeper-Intermediate-v0",
    "Minesweeper-Expert-v0",
]
OBS_MODES = ["board", "channels", "dict"]


@pytest.mark.parametrize("env_id", REGISTERED)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
def test_env__passes_gymnasium_checker(env_id: str, obs_mode: str) -> None:
    env = gym.make(env_id, obs_mode=obs_mode)
    gym_check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", REGISTERED)
@pytest.mark.parametrize("obs_mode", OBS_MODES)
def test_env__passes_sb3_checker(env_id: str, obs_mode: str) -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # SB3 nags about non-image 2-D boxes
        sb3_check_env(gym.make(env_id, obs_mode=obs_mode).unwrapped)


def test_env__checkers_pass_with_flags_and_score_mode() -> None:
    env = MinesweeperEnv(flag_actions=True, score_mode=True, first_click="opening")
    gym_check_env(env, skip_render_check=True)


def test_env__presets_have_the_standard_sizes() -> None:
    sizes = {
        env_id: (e.unwrapped.rows, e.unwrapped.cols, e.unwrapped.mines)
        for env_id in REGISTERED
        for e in [gym.make(env_id)]
    }
    assert sizes == {
        "Minesweeper-v0": (9, 9, 10),
        "Minesweeper-Beginner-v0": (9, 9, 10),
        "Minesweeper-Intermediate-v0": (16, 16, 40),
        "Minesweeper-Expert-v0": (16, 30, 99),
    }
    assert gym.make("Minesweeper-v0").unwrapped.game_spec.first_click == "safe"


def test_env__make_with_module_prefix_needs_no_prior_import() -> None:
    code = (
        "import gymnasium as g, sys\n"
        "assert 'mswp_gym' not in sys.modules\n"
        "e = g.make('mswp_gym:Minesweeper-v0')\n"
        "print(e.reset(seed=0)[0].shape)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "(9, 9)"


def _rollout(env: gym.Env, seed: int, steps: int = 200) -> list:
    trace = []
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((action, np.asarray(obs).tobytes(), reward, terminated, info["outcome"]))
        if terminated or truncated:
            obs, info = env.reset()
    return trace


@pytest.mark.parametrize("first_click", ["any", "safe", "opening"])
def test_env__same_seed_same_episode(first_click: str) -> None:
    a = gym.make("Minesweeper-v0", first_click=first_click)
    b = gym.make("Minesweeper-v0", first_click=first_click)
    assert _rollout(a, 11) == _rollout(b, 11)
    assert _rollout(a, 11) != _rollout(b, 12)


def test_env__pickle_round_trip_keeps_the_game() -> None:
    env = MinesweeperEnv(render_mode="rgb_array")
    _obs, _info = env.reset(seed=5)
    env.step(40)
    clone = pickle.loads(pickle.dumps(env))
    assert np.array_equal(clone.visible, env.visible)
    action = int(np.flatnonzero(env.action_masks())[0])
    assert np.array_equal(clone.step(action)[0], env.step(action)[0])


def test_env__mask_never_all_false_while_playing() -> None:
    # No step limit: the flag storms below would otherwise reach the default one mid-loop.
    env = MinesweeperEnv(5, 5, 20, first_click="any", flag_actions=True, max_steps=None)
    rng = np.random.default_rng(0)
    for seed in range(200):
        _obs, info = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.any()
            assert np.array_equal(env.action_masks(), mask.astype(bool))
            action = env.action_space.sample(mask=mask)
            _obs, _r, terminated, truncated, info = env.step(action)
            # flag everything hidden now and then to push the mask to its edge
            if not terminated and rng.random() < 0.3:
                for a in np.flatnonzero(info["action_mask"][:25]):
                    _obs, _r, terminated, truncated, info = env.step(25 + int(a))
                    assert info["action_mask"].any()


def test_env__gymnasium_vector_envs_reach_masks() -> None:
    for vector_cls in (gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv):
        envs = vector_cls([lambda: gym.make("Minesweeper-v0") for _ in range(2)])
        try:
            _obs, infos = envs.reset(seed=[1, 2])
            assert infos["action_mask"].shape == (2, 81)
            masks = envs.call("action_masks")
            assert len(masks) == 2 and masks[0].dtype == bool
            actions = np.array([np.flatnonzero(m)[0] for m in masks])
            _obs, rewards, _t, _tr, infos = envs.step(actions)
            assert rewards.shape == (2,)
        finally:
            envs.close()


def test_env__sb3_vec_envs_reach_masks() -> None:
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    for vec_cls in (DummyVecEnv, SubprocVecEnv):
        # Subprocesses start fresh: the module prefix registers the ids there too.
        venv = vec_cls([lambda: gym.make("mswp_gym:Minesweeper-v0") for _ in range(2)])
        try:
            venv.seed(3)
            venv.reset()
            masks = get_action_masks(venv)
            assert masks.shape == (2, 81) and masks.all()
            venv.step(np.array([0, 80]))
            masks = get_action_masks(venv)
            assert not masks[0, 0] and not masks[1, 80]
        finally:
            venv.close()


def test_env__module_exports_named_codes() -> None:
    assert (mswp_gym.HIDDEN, mswp_gym.FLAGGED) == (-1, -2)
    assert len({mswp_gym.HIDDEN, mswp_gym.FLAGGED, mswp_gym.EXPLODED, mswp_gym.NO_CLUE}) == 4
