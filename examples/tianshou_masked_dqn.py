"""Tianshou 2: DQN with action masking on Minesweeper.

Tianshou's convention: the observation is ``{"obs": ..., "mask": ...}``; its Q-learning policies
give masked actions a value below every legal one and its epsilon-greedy exploration draws only
legal actions. :class:`TianshouMaskObservation` gives the env that form (the mask from
:func:`mswp_gym.action_masks`). Tianshou's policy-gradient algorithms (PPO, A2C) read no mask,
hence DQN here.

    python examples/tianshou_masked_dqn.py --steps 50000

Dependencies: ``pip install tianshou`` (2.x; it brings numba, pandas and h5py, see
docs/libraries.md). The last line printed is a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium import spaces
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import mswp_gym


class TianshouMaskObservation(gym.ObservationWrapper):
    """``{"obs": (rows*cols,) float32 board codes, "mask": (n,) bool legal actions}``."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        n = int(env.action_space.n)
        board = env.observation_space
        self.observation_space = spaces.Dict(
            {
                "obs": spaces.Box(
                    float(board.low.min()),
                    float(board.high.max()),
                    (int(np.prod(board.shape)),),
                    np.float32,
                ),
                "mask": spaces.MultiBinary(n),
            }
        )

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        """The board flattened, with the mask of the position it shows."""
        return {
            "obs": np.asarray(observation, dtype=np.float32).ravel(),
            "mask": mswp_gym.action_masks(self.env),
        }


class InvalidCount(gym.Wrapper):
    """Adds up ``info["invalid_actions"]`` of finished episodes (to show the mask is obeyed)."""

    total = 0

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """Step, counting the no-ops of an episode that ends."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            InvalidCount.total += int(info["invalid_actions"])
        return obs, reward, terminated, truncated, info


def make_env(env_id: str = "Minesweeper-v0") -> gym.Env:
    """One env in Tianshou's masked form."""
    return TianshouMaskObservation(InvalidCount(gym.make(env_id)))


def main(argv: list[str] | None = None) -> None:
    """Train DQN for ``--steps`` env steps; print a JSON summary last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="Minesweeper-v0")
    parser.add_argument("--steps", type=int, default=20_000, help="env steps in all")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # fastest on small CPUs
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # Tianshou's exploration draws from NumPy's global generator

    train_envs = DummyVectorEnv([lambda: make_env(args.env_id) for _ in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args.env_id) for _ in range(2)])
    train_envs.seed(args.seed)
    test_envs.seed(args.seed + 1000)
    probe = make_env(args.env_id)
    cells = int(probe.action_space.n)
    net = Net(state_shape=cells, action_shape=cells, hidden_sizes=[256, 256])
    policy = DiscreteQLearningPolicy(
        model=net, action_space=probe.action_space, eps_training=0.1, eps_inference=0.0
    )
    algorithm = DQN(
        policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.9, target_update_freq=200
    )
    buffer = VectorReplayBuffer(20_000, len(train_envs))
    training = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    testing = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    start = time.perf_counter()
    stats = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=training,
            test_collector=testing,
            max_epochs=1,
            epoch_num_steps=args.steps,
            collection_step_num_env_steps=64,
            test_step_num_episodes=10,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.25,
            verbose=False,
            show_progress=False,
        )
    )
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "library": "tianshou",
                "steps": int(stats.train_step),
                "seconds": round(seconds, 2),
                "steps_per_s": round(stats.train_step / seconds, 1),
                "episodes": int(stats.train_episode),
                "best_test_return": round(float(stats.best_reward), 3),
                "invalid_actions": InvalidCount.total,
            }
        )
    )


if __name__ == "__main__":
    main()
