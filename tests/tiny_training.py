"""The smallest training settings the train tests start from (toy budgets only).

Each test module derives its own settings from ``TINY_BOARD`` with ``dataclasses.replace``, so the
board and the network every train test uses are stated once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO

from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train.dataset import PositionSet
from train.imitation import train_steps
from train.network import BoardTrunk, CellNet
from train.rollout import RolloutConfig, collect_positions
from train.settings import (
    Algorithm,
    BanditSettings,
    ImitationSettings,
    PPOSettings,
    TrainSettings,
    with_values,
)

TINY_BOARD = TrainSettings(
    preset="beginner",
    rows=5,
    cols=5,
    mines=3,
    channels=4,
    blocks=1,
    workers=1,
    eval_baselines=False,
)
"""A 5x5 board with 3 mines, a 4-channel network of one block, one worker, no logic baselines."""

TINY_IMITATION = replace(
    TINY_BOARD,
    imitation=ImitationSettings(rounds=1, games_per_round=4, gradient_steps=2, batch_size=16),
    eval_games=0,
    algo=Algorithm.IMITATION,
)
"""One DAgger round of 4 games and 2 Adam steps on ``TINY_BOARD``, no evaluation: the quickest run
that writes a checkpoint."""

TINY_ROUNDS = {"rounds": 2, "games_per_round": 12, "gradient_steps": 3, "batch_size": 16}
"""Rounds of 12 games and 3 Adam steps, for imitation and the bandit alike."""
TINY_RUN = replace(
    TINY_BOARD,
    imitation=ImitationSettings(**TINY_ROUNDS),  # type: ignore[arg-type]  # all ints
    bandit=BanditSettings(**TINY_ROUNDS),  # type: ignore[arg-type]  # all ints
    ppo=PPOSettings(
        total_timesteps=192, n_envs=2, n_steps=32, batch_size=32, n_epochs=1, eval_every_steps=64
    ),
    eval_games=4,
    time_budget_minutes=0.0,
)
"""Toy budgets on ``TINY_BOARD``: DAgger (or bandit) rounds of 12 games and 3 Adam steps, PPO
runs of 192 env steps (an evaluation and checkpoint every 64)."""


TINY_SPEC = GameSpec(5, 5, 3)
"""The board of the loss-level imitation tests: 5x5 with 3 mines, first click safe."""


def tiny_cell_net(seed: int = 0, heads: int = 3) -> CellNet:
    """A 4-channel, 1-block network for ``TINY_SPEC`` with ``heads`` per-cell outputs (3: mine,
    opening and move), its weights seeded by ``seed``, in eval mode."""
    th.manual_seed(seed)
    return CellNet(BoardTrunk(TINY_SPEC.mines, 4, 1), th.nn.Conv2d(4, heads, 1)).eval()


def tiny_positions(move_labels: bool) -> PositionSet:
    """The positions of 12 games on ``TINY_SPEC`` played by ``tiny_cell_net()``, solver labels
    (and the solver player's moves with ``move_labels``)."""
    config = RolloutConfig(move_labels=move_labels)
    positions, _ = collect_positions(
        tiny_cell_net(), TINY_SPEC, 12, np.random.default_rng(0), config
    )
    return positions


def tiny_trained_weights(
    positions: PositionSet, heads: int = 3, **losses: float | bool
) -> list[th.Tensor]:
    """The weights of ``tiny_cell_net(1, heads)`` after 5 seeded Adam steps of imitation on
    ``positions`` (``losses``: ``train_steps``'s weights, e.g. ``move_weight``), for comparing
    what a setting changes."""
    net = tiny_cell_net(1, heads)
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    train_steps(net, optimizer, positions, 5, 16, np.random.default_rng(7), **losses)
    return [p.detach().clone() for p in net.parameters()]


def random_boards(count: int, rows: int, cols: int) -> th.Tensor:
    """``count`` seeded ``(rows, cols)`` boards of hidden cells and small clues, as floats."""
    codes = np.random.default_rng(0).choice([HIDDEN, 0, 1, 2], size=(count, rows, cols))
    return th.as_tensor(codes, dtype=th.float32)


def assert_grown_network_plays_as_before(
    target: MaskablePPO, source: MaskablePPO, note: str, expected: str
) -> None:
    """After ``start_from`` copied ``source`` into ``target`` (MaskablePPO models of a 5x5
    board) with ``note``: the note says ``expected`` and both networks give the same logits."""
    assert expected in note
    boards = random_boards(8, 5, 5)
    old_net: CellNet = source.policy.cell_net()
    new_net: CellNet = target.policy.cell_net()
    with th.no_grad():
        assert th.allclose(new_net(boards), old_net(boards), atol=1e-6)


def tweak(settings: TrainSettings, **changes: Any) -> TrainSettings:
    """``settings`` with ``changes``; a section's field is written ``SECTION__FIELD`` (e.g.
    ``ppo__total_timesteps=64``)."""
    return with_values(settings, {name.replace("__", "."): v for name, v in changes.items()})
