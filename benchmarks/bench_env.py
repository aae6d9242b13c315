"""Env throughput: a uniformly random valid policy on Beginner and Expert.

Three loops over the *same* games (same seeds, same action sequences):

* ``gym.make``: the registered env with Gymnasium's default wrappers, as users get it;
* ``unwrapped``: the bare ``MinesweeperEnv``;
* ``engine``: the bare board engine (generator + :class:`Board` + ``reveal``) replaying the
  recorded actions, with the same policy cost (reading the legal cells);

so the env's own overhead shows as a ratio measured in one run (``peers_plugin_env.py`` puts the
env beside the PyPI Minesweeper envs)::

    .venv/bin/python benchmarks/bench_env.py --seconds 5
"""

from __future__ import annotations

import random
import time

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

import mswp_gym
from common.cli import OneLineParser
from mswp_gym.board import Board
from mswp_gym.constants import HIDDEN
from mswp_gym.generators import make_generator
from mswp_gym.presets import PRESETS, Preset

Trace = list[tuple[int, list[int]]]
"""The games one loop played: each episode's seed and actions."""


def play_env(env: gym.Env, seconds: float) -> tuple[Trace, float]:
    """Random valid policy for ``seconds``; returns the games played and the time they took."""
    episodes: Trace = []
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            policy = random.Random(seed)
            _obs, info = env.reset(seed=seed)
            actions: list[int] = []
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"])
                action = int(legal[policy.randrange(len(legal))])
                _obs, _r, terminated, truncated, info = env.step(action)
                actions.append(action)
                done = terminated or truncated
            episodes.append((seed, actions))
            seed += 1
    return episodes, time.perf_counter() - start


def replay_env(env: gym.Env, trace: Trace) -> float:
    """Replay ``trace`` on ``env`` with the same policy cost; returns the time."""
    start = time.perf_counter()
    for seed, actions in trace:
        policy = random.Random(seed)
        _obs, info = env.reset(seed=seed)
        for action in actions:
            legal = np.flatnonzero(info["action_mask"])
            policy.randrange(len(legal))
            _obs, _r, _t, _tr, info = env.step(action)
    return time.perf_counter() - start


def replay_engine(preset: Preset, trace: Trace) -> float:
    """Replay ``trace`` on the bare engine (same layouts: the env's seeding); returns the time."""
    rows, cols, mines = preset.rows, preset.cols, preset.mines
    generator = make_generator("safe")
    start = time.perf_counter()
    for seed, actions in trace:
        policy = random.Random(seed)
        rng, _ = seeding.np_random(seed)
        board: Board | None = None
        for action in actions:
            row, col = divmod(action, cols)
            if board is None:
                board = Board(generator.layout(rows, cols, mines, rng, (row, col)))
                legal = np.arange(rows * cols)
            else:
                legal = np.flatnonzero(board.visible.ravel() == HIDDEN)
            policy.randrange(len(legal))
            board.reveal(row, col)
    return time.perf_counter() - start


def main() -> None:
    parser = OneLineParser(prog="bench_env.py", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per board")
    parser.add_argument("--boards", default="beginner,expert", help="comma-separated presets")
    args = parser.parse_args()
    print(f"mswp-gym {mswp_gym.__version__}, numpy {np.__version__}, gymnasium {gym.__version__}")
    print(
        f"{'board':<10} {'loop':<10} {'steps':>8} {'steps/s':>10} {'ep_len':>7} {'vs engine':>10}"
    )
    for name in parser.entries(args.boards, PRESETS, "preset"):
        env = gym.make(f"Minesweeper-{name.capitalize()}-v0")
        play_env(env, 0.5)  # warm-up
        trace, wrapped_s = play_env(env, args.seconds)
        unwrapped_s = replay_env(env.unwrapped, trace)
        engine_s = replay_engine(PRESETS[name], trace)
        steps = sum(len(actions) for _, actions in trace)
        ep_len = steps / len(trace)
        for loop, seconds in (
            ("gym.make", wrapped_s),
            ("unwrapped", unwrapped_s),
            ("engine", engine_s),
        ):
            print(
                f"{name:<10} {loop:<10} {steps:>8} {steps / seconds:>10,.0f} {ep_len:>7.2f} "
                f"{seconds / engine_s:>9.2f}x"
            )


if __name__ == "__main__":
    main()
