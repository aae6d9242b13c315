"""RLlib (new API stack): PPO with action masking on Minesweeper.

RLlib's masking module (``ActionMaskingTorchRLModule``, from RLlib's own examples) reads a Dict
observation ``{"action_mask", "observations"}``; :class:`RLlibMaskObservation` gives the env
that form (the mask from :func:`mswp_gym.action_masks`, the board flattened to float32).

    python examples/rllib_action_mask.py --iterations 20

Dependencies: ``pip install "ray[rllib]"``. RLlib 2.60 pins gymnasium 1.2.2 and brings pandas,
pyarrow and scipy: install it in its own venv (see docs/libraries.md). The last line printed is
a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import ray
from gymnasium import spaces
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

import mswp_gym


class RLlibMaskObservation(gym.ObservationWrapper):
    """``{"action_mask": (n,) float32 0/1, "observations": (rows*cols,) float32 board codes}``."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        n = int(env.action_space.n)
        board = env.observation_space
        self.observation_space = spaces.Dict(
            {
                "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32),
                "observations": spaces.Box(
                    float(board.low.min()),
                    float(board.high.max()),
                    (int(np.prod(board.shape)),),
                    np.float32,
                ),
            }
        )

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        """The board flattened, with the mask of the position it shows."""
        return {
            "action_mask": mswp_gym.action_masks(self.env).astype(np.float32),
            "observations": np.asarray(observation, dtype=np.float32).ravel(),
        }


def make_env(config: dict[str, Any]) -> gym.Env:
    """RLlib's env creator: ``config`` goes to ``gym.make`` (e.g. ``{"id": ..., "rows": 5}``)."""
    config = dict(config)
    return RLlibMaskObservation(gym.make(config.pop("id", "Minesweeper-v0"), **config))


def main(argv: list[str] | None = None) -> None:
    """Train PPO for a few iterations; print a JSON summary last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="Minesweeper-v0")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    args = parser.parse_args(argv)

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    register_env("minesweeper-masked", make_env)
    config = (
        PPOConfig()
        .environment("minesweeper-masked", env_config={"id": args.env_id})
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .training(train_batch_size=args.batch, minibatch_size=250, num_epochs=2)
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": [128, 128]},
            )
        )
    )
    algo = config.build_algo()
    start, steps, reward = time.perf_counter(), 0, float("nan")
    for iteration in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        steps = int(runners.get("num_env_steps_sampled_lifetime", steps))
        reward = float(runners.get("episode_return_mean", reward))
        print(f"iteration {iteration + 1}: steps {steps}, mean return {reward:.3f}")
    seconds = time.perf_counter() - start
    algo.stop()
    ray.shutdown()
    print(
        json.dumps(
            {
                "library": "rllib",
                "steps": steps,
                "seconds": round(seconds, 2),
                "steps_per_s": round(steps / seconds, 1),
                "episode_return_mean": round(reward, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
