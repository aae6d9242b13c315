"""TorchRL: the Minesweeper env with its action mask, and masked PPO on it, in one file.

TorchRL's conventions: the mask is a tensordict entry ``"action_mask"`` (read from the Gymnasium
``info`` dict by an info reader), the :class:`~torchrl.envs.ActionMask` transform makes the
env's action spec (and so ``rand_step``/random collectors) respect it, and a policy samples from
:class:`~torchrl.modules.MaskedCategorical`. The env's info counts are ``np.int64`` so the
reader batches them as they are.

    python examples/torchrl_masked_ppo.py --frames 100000

Dependencies: ``pip install torchrl`` (the ``torchrl`` extra). The last line printed is a JSON
summary.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import torch
from tensordict import TensorDictBase
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import Binary, Unbounded
from torchrl.envs import ActionMask, GymWrapper, TransformedEnv
from torchrl.envs.libs.gym import default_info_dict_reader
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import mswp_gym  # noqa: F401 - registers the ids


class MaskReader(default_info_dict_reader):
    """TorchRL's info reader, with ``action_mask`` as bool (the env's info gives int8, the form
    ``action_space.sample(mask=...)`` takes; ``MaskedCategorical`` needs bool)."""

    def __call__(self, info_dict: dict, tensordict: TensorDictBase) -> TensorDictBase:
        """Read the info keys, then cast the mask."""
        tensordict = super().__call__(info_dict, tensordict)
        return tensordict.set("action_mask", tensordict.get("action_mask").bool())


def make_env(env_id: str = "Minesweeper-v0") -> TransformedEnv:
    """The env as TorchRL sees it: ``observation`` (rows, cols) int8, ``action_mask`` bool."""
    base = gym.make(env_id)
    cells = int(base.action_space.n)  # type: ignore[attr-defined]
    env = GymWrapper(base, categorical_action_encoding=True)
    env.set_info_dict_reader(
        MaskReader(
            ["action_mask", "invalid_actions"],
            spec={
                "action_mask": Binary(cells, dtype=torch.bool),
                "invalid_actions": Unbounded((), dtype=torch.int64),
            },
        )
    )
    return TransformedEnv(env, ActionMask())


class CellLogits(nn.Module):
    """Visible board codes -> one logit per cell (fully convolutional)."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, 1, 1),
        )

    def forward(self, board: torch.Tensor) -> torch.Tensor:
        """``(..., rows, cols)`` -> ``(..., rows*cols)``."""
        lead = board.shape[:-2]
        x = board.reshape(-1, 1, *board.shape[-2:]).float()
        return self.net(x).reshape(*lead, -1)


class BoardValue(nn.Module):
    """Visible board codes -> a state value."""

    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(channels, 1)

    def forward(self, board: torch.Tensor) -> torch.Tensor:
        """``(..., rows, cols)`` -> ``(..., 1)``."""
        lead = board.shape[:-2]
        x = self.conv(board.reshape(-1, 1, *board.shape[-2:]).float()).mean(dim=(2, 3))
        return self.head(x).reshape(*lead, 1)


def main(argv: list[str] | None = None) -> None:
    """Collect with a masked policy and update it with PPO; print a JSON summary last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="Minesweeper-v0")
    parser.add_argument("--frames", type=int, default=20_000, help="env steps in all")
    parser.add_argument("--frames-per-batch", type=int, default=1_000)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # fastest on small CPUs
    torch.manual_seed(args.seed)

    env = make_env(args.env_id)
    env.set_seed(args.seed)
    actor = ProbabilisticActor(
        TensorDictModule(CellLogits(), in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        spec=env.action_spec,
        return_log_prob=True,
    )
    critic = ValueOperator(BoardValue(), in_keys=["observation"])
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    advantage = GAE(gamma=0.99, lmbda=0.95, value_network=critic)
    optimizer = torch.optim.Adam(loss.parameters(), lr=3e-4)
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.frames,
        auto_register_policy_transforms=False,
    )

    start, steps, episodes, wins, invalid = time.perf_counter(), 0, 0, 0, 0
    for batch in collector:
        steps += batch.numel()
        done = batch["next", "done"].squeeze(-1)
        episodes += int(done.sum())
        wins += int((batch["next", "reward"].squeeze(-1)[done] >= 1.0).sum())
        invalid += int(batch["next", "invalid_actions"].max())
        with torch.no_grad():
            advantage(batch)
        for _epoch in range(args.epochs):
            losses = loss(batch)
            total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
            optimizer.zero_grad()
            total.backward()
            nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
            optimizer.step()
        collector.update_policy_weights_()
        print(f"steps {steps}  episodes {episodes}  wins {wins}")
    seconds = time.perf_counter() - start
    collector.shutdown()
    print(
        json.dumps(
            {
                "library": "torchrl",
                "steps": steps,
                "seconds": round(seconds, 2),
                "steps_per_s": round(steps / seconds, 1),
                "episodes": episodes,
                "wins": wins,
                "invalid_actions": invalid,
            }
        )
    )


if __name__ == "__main__":
    main()
