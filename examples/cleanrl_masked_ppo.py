"""CleanRL-style masked PPO on the native batched vector env, in one file.

The loop of CleanRL's ``ppo.py`` (rollout, GAE, clipped surrogate, minibatch epochs) with
invalid-action masking: illegal actions get a logit of -1e8 before the softmax, in the rollout
and in the update. The env is :class:`mswp_gym.vector.MinesweeperVectorEnv` with ``SAME_STEP``
autoreset, so the observation and mask returned by ``step`` are always those of a live game (a
finished board is already reset; its last observation is in ``info["final_obs"]``).
The network is fully convolutional: one logit per cell, so any board size works.

    python examples/cleanrl_masked_ppo.py --total-timesteps 200000
    python examples/cleanrl_masked_ppo.py --board expert --num-envs 128

Dependencies: torch (``pip install -e '.[train]'``). The last line printed is a JSON summary.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

import mswp_gym


@dataclass(frozen=True)
class Args:
    """Settings (each one a ``--flag``)."""

    board: str = "beginner"
    """Preset: beginner, intermediate or expert."""
    total_timesteps: int = 100_000
    """Env steps in all (boards x steps)."""
    num_envs: int = 64
    """Boards stepped together."""
    num_steps: int = 32
    """Steps per board per rollout."""
    learning_rate: float = 2.5e-4
    """Adam step size."""
    gamma: float = 0.99
    """Discount."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    num_minibatches: int = 4
    """Minibatches per epoch."""
    update_epochs: int = 4
    """Epochs per rollout."""
    clip_coef: float = 0.2
    """PPO clip."""
    ent_coef: float = 0.01
    """Entropy bonus."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clip."""
    seed: int = 1
    """Seeds torch, the boards and the sampler."""
    threads: int = 1
    """torch threads: 1 is fastest on small CPUs (torch's default can be 10x slower there)."""


def parse_args(argv: list[str] | None = None) -> Args:
    """Parse ``--flag value`` pairs for every :class:`Args` field."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for field in dataclasses.fields(Args):
        parser.add_argument(
            f"--{field.name.replace('_', '-')}", type=type(field.default), default=field.default
        )
    return Args(**vars(parser.parse_args(argv)))


class Agent(nn.Module):
    """Fully-convolutional actor-critic: ``(B, 13, rows, cols)`` one-hot boards -> cell logits."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(13, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
        )
        self.actor = nn.Conv2d(channels, 1, 1)
        self.critic = nn.Linear(channels, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        """``(B,)`` state values."""
        return self.critic(self.trunk(obs).mean(dim=(2, 3))).squeeze(1)

    def act(
        self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Sample (or score) an action among the legal ones: action, log-prob, entropy, value."""
        features = self.trunk(obs)
        logits = self.actor(features).flatten(1)
        logits = torch.where(mask, logits, torch.tensor(-1e8))  # the masking, as in CleanRL's
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        value = self.critic(features.mean(dim=(2, 3))).squeeze(1)
        return action, dist.log_prob(action), dist.entropy(), value


def train(args: Args) -> dict[str, Any]:
    """Train; returns the summary that ``main`` prints."""
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    envs = gym.make_vec(
        f"Minesweeper-{args.board.capitalize()}-v0",
        num_envs=args.num_envs,
        vectorization_mode="vector_entry_point",
        obs_mode="channels",
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    agent = Agent()
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n, s = args.num_envs, args.num_steps
    n_actions = int(envs.single_action_space.n)  # type: ignore[attr-defined]
    obs_shape = envs.single_observation_space.shape
    assert obs_shape is not None  # (13, rows, cols) one-hot planes
    obs_buf = torch.zeros((s, n, *obs_shape))
    mask_buf = torch.zeros((s, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((s, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((s, n)) for _ in range(4))

    next_obs_np, _info = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs_np)
    next_mask = torch.as_tensor(mswp_gym.action_masks(envs))
    next_done = torch.zeros(n)
    wins: list[float] = []
    start, steps = time.perf_counter(), 0
    iterations = max(1, args.total_timesteps // (n * s))
    for iteration in range(1, iterations + 1):
        for t in range(s):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            next_obs_np, reward, terminated, truncated, info = envs.step(action.numpy())
            steps += n
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(next_obs_np)
            next_mask = torch.as_tensor(mswp_gym.action_masks(envs))  # the new games' masks
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            if "final_info" in info:
                ended = info["_final_info"]
                wins.extend(info["final_info"]["is_success"][ended].astype(float).tolist())

        with torch.no_grad():  # GAE, as in CleanRL
            next_value = agent.value(next_obs)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(s)):
                not_done = 1.0 - (next_done if t == s - 1 else done_buf[t + 1])
                following = next_value if t == s - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * following * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + val_buf

        b_obs = obs_buf.reshape(-1, *obs_buf.shape[2:])
        b_mask, b_act = mask_buf.reshape(-1, n_actions), act_buf.reshape(-1)
        b_logp, b_adv, b_ret = logp_buf.reshape(-1), advantages.reshape(-1), returns.reshape(-1)
        batch = n * s
        minibatch = batch // args.num_minibatches
        order = np.arange(batch)
        rng = np.random.default_rng(args.seed + iteration)
        for _epoch in range(args.update_epochs):
            rng.shuffle(order)
            for lo in range(0, batch, minibatch):
                idx = torch.as_tensor(order[lo : lo + minibatch])
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(
                    -adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                ).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = wins[-500:]
        print(
            f"iteration {iteration}/{iterations}  steps {steps}  "
            f"win rate (last {len(recent)} games) {np.mean(recent) if recent else 0:.3f}"
        )
    seconds = time.perf_counter() - start
    envs.close()
    recent = wins[-500:]
    return {
        "library": "cleanrl-style",
        "steps": steps,
        "seconds": round(seconds, 2),
        "steps_per_s": round(steps / seconds, 1),
        "episodes": len(wins),
        "win_rate_last_500": round(float(np.mean(recent)) if recent else 0.0, 4),
    }


def main(argv: list[str] | None = None) -> None:
    """Train with the command line's settings and print the JSON summary last."""
    print(json.dumps(train(parse_args(argv))))


if __name__ == "__main__":
    main()
