"""What the exact-beliefs wrapper costs per step, per preset.

    python benchmarks/bench_beliefs.py --games 50 --presets beginner,intermediate,expert

The exact solver plays ``--games`` seeded games per preset (first click safe) in
``ExactBeliefs(env)`` (:mod:`agents.beliefs`); every ``step`` is timed with and without the
wrapper (the bare env's step is timed inside it). Prints, per preset, the steps timed and the
median and p95 milliseconds per step of the bare env, the wrapped env and their difference: CPU
time of this thread (``time.thread_time``), which other work on a busy machine does not inflate.
"""

from __future__ import annotations

import time
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from benchkit import preset_options

import mswp_gym  # noqa: F401  (registers the env ids)
from agents.beliefs import ExactBeliefs
from agents.solver import SolverAgent
from mswp_gym.encoding import board_from_observation


class _TimedStep(gym.Wrapper[Any, Any, Any, Any]):
    """Records how long each ``step`` of the env below took."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.last = 0.0

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        started = time.thread_time()
        result = self.env.step(action)
        self.last = time.thread_time() - started
        return result


def step_costs(preset: str, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """CPU milliseconds of every step of ``games`` solver games on ``preset``, ``(steps,)`` each:
    the bare env's and the wrapped env's."""
    timed = _TimedStep(gym.make(f"Minesweeper-{preset.capitalize()}-v0"))
    env = ExactBeliefs(timed)
    agent = SolverAgent()
    bare: list[float] = []
    wrapped: list[float] = []
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        agent.reset(seed + game, env.get_wrapper_attr("game_spec"))
        done = False
        while not done:
            action = agent.act(board_from_observation(observation), info["action_mask"])
            started = time.thread_time()
            observation, _, terminated, truncated, info = env.step(action)
            wrapped.append(1e3 * (time.thread_time() - started))
            bare.append(1e3 * timed.last)
            done = terminated or truncated
    return np.array(bare), np.array(wrapped)


def main(argv: list[str] | None = None) -> None:
    args, presets = preset_options(__file__, __doc__, argv)
    print(
        f"CPU ms per step, median / p95, over {args.games} solver games per preset "
        f"(seed {args.seed})"
    )
    print(f"{'preset':<13}{'steps':>7}  {'bare env':>17}  {'with beliefs':>17}  {'added':>17}")
    for name in presets:
        bare, wrapped = step_costs(name, args.games, args.seed)
        cells = [
            f"{np.median(ms):.3f} / {np.percentile(ms, 95):.3f}"
            for ms in (bare, wrapped, wrapped - bare)
        ]
        print(f"{name:<13}{len(bare):>7}  " + "  ".join(f"{c:>17}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
