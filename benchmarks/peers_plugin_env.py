"""Plugs ``Minesweeper-v0`` into the peers harness's ``bench_envs.py`` (single-env rows).

The peers venv needs gymnasium; this repo is put on ``sys.path`` so nothing is installed from it::

    bash "$PEERS_DIR/setup.sh" && "$PEERS_PY" -m pip install -q gymnasium
    "$PEERS_PY" "$PEERS_DIR/bench_envs.py" --no-batched \\
        --plugin benchmarks/peers_plugin_env.py --configs beginner,expert

``null-env`` is a floor, not a peer: an env with our spaces, Gymnasium's default wrappers, a fresh
observation and info dict per step, and no game at all (every step ends the episode after five
steps, like a random clicker's game). Its steps/s is what the harness loop itself allows.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym
import numpy as np

import mswp_gym  # noqa: F401  (registers the ids)

# ``bench_envs`` is injected into this module by the harness before it runs.
bench_envs = globals()["bench_envs"]

NULL_EPISODE_STEPS = 5
"""Steps per episode of the null env (a random clicker's game is about this long)."""


class NullEnv(gym.Env[np.ndarray, int]):
    """No game: the same spaces and returns as ``Minesweeper-v0``, at almost no cost."""

    def __init__(self, rows: int, cols: int) -> None:
        self.action_space = gym.spaces.Discrete(rows * cols)
        self.observation_space = gym.spaces.Box(-5, 8, (rows, cols), np.int8)
        self._board = np.full((rows, cols), -1, dtype=np.int8)
        self._mask = np.ones(rows * cols, dtype=np.int8)
        self._steps = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._steps = 0
        return self._board.copy(), {"action_mask": self._mask.copy()}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._steps += 1
        info = {"action_mask": self._mask.copy(), "steps": self._steps}
        return self._board.copy(), 0.0, self._steps >= NULL_EPISODE_STEPS, False, info


def _null(rows: int, cols: int, mines: int) -> gym.Env:
    return gym.wrappers.OrderEnforcing(gym.wrappers.PassiveEnvChecker(NullEnv(rows, cols)))


ADAPTERS = {
    "mswp-gym": bench_envs.gymnasium_adapter(
        lambda rows, cols, mines: gym.make("Minesweeper-v0", rows=rows, cols=cols, mines=mines),
        mask_fn=lambda obs, info: info["action_mask"],
        to_env_action=lambda a, cols: a,
        package="mswp-gym",
    ),
    "null-env": bench_envs.gymnasium_adapter(
        _null,
        mask_fn=lambda obs, info: info["action_mask"],
        to_env_action=lambda a, cols: a,
        package="mswp-gym",
    ),
}
