"""Plugs the batched ``MinesweeperVectorEnv`` into ``/work/shared/peers/bench_envs.py`` (batched rows).

The harness times a ``Batched`` factory ``(rows, cols, mines, B, K, seed) -> (init, chunk)``:
``chunk`` advances all B boards by K steps with a uniformly random legal action per board and
auto-reset, and returns the number of episodes finished. Here a chunk is K calls of
``env.step`` on a ``MinesweeperVectorEnv(autoreset_mode=SAME_STEP)``, the same select-based
auto-reset as the JAX rows, with the actions drawn by ``bench_vector.random_valid_actions``
from ``env.action_masks()`` (the policy's cost counts, as for every row). Rules: first click
safe (mines laid at the first click), flood fill; ``mswp-gym-vector-any`` lays the mines at
reset instead (the first click may be a mine), as jumanji does. No batched reset-only figure
(it is JAX-only in the harness); ``bench_vector.py`` prints fresh boards/s.

    bash /work/shared/peers/setup.sh && /tmp/peers-venv/bin/pip install gymnasium
    cd /work/shared/peers && nice -n 10 /tmp/peers-venv/bin/python bench_envs.py --no-single \
        --only jumanji,mswp-gym-vector --plugin /work/main/benchmarks/peers_env_plugin.py \
        --out /tmp/peers_vector.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import numpy as np
from bench_vector import random_valid_actions

from mswp_gym.vector import MinesweeperVectorEnv

# ``bench_envs`` is injected into this module by the harness before it runs.
bench_envs = globals()["bench_envs"]


class _Count(int):
    """An episode count the harness can ``block_until_ready()`` like a JAX scalar."""

    def block_until_ready(self) -> _Count:
        return self


def _vector_batched(
    rows: int, cols: int, mines: int, batch: int, k_steps: int, seed: int
) -> tuple[Any, Any]:
    def init() -> tuple[MinesweeperVectorEnv, np.random.Generator]:
        env = MinesweeperVectorEnv(batch, rows, cols, mines, autoreset_mode="SameStep")
        env.reset(seed=seed)
        return env, np.random.default_rng(seed)

    def chunk(carry: tuple[MinesweeperVectorEnv, np.random.Generator]) -> tuple[Any, _Count]:
        env, rng = carry
        finished = 0
        for _ in range(k_steps):
            _, _, terminated, truncated, _ = env.step(random_valid_actions(env.action_masks(), rng))
            finished += int(np.count_nonzero(terminated | truncated))
        return carry, _Count(finished)

    return init, chunk


def _vector_batched_any(
    rows: int, cols: int, mines: int, batch: int, k_steps: int, seed: int
) -> tuple[Any, Any]:
    return _vector_batched(rows, cols, mines, batch, k_steps, seed, first_click="any")


BATCHED = {
    "mswp-gym-vector": bench_envs.Batched(
        _vector_batched,
        lambda r, c, m: (r, c, m),
        "mswp-gym",
        note="numpy MinesweeperVectorEnv, SAME_STEP autoreset, first click safe, flood fill",
    ),
    "mswp-gym-vector-any": bench_envs.Batched(
        _vector_batched_any,
        lambda r, c, m: (r, c, m),
        "mswp-gym",
        note="as mswp-gym-vector, but mines laid at reset (first click may hit one), like jumanji",
    ),
}
