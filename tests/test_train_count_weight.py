"""Tests of ``count_weight``: a loss on the gap between the mine head's summed P(mine) and the
mine count."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch as th

from mswp_gym.spec import GameSpec
from train.dataset import PositionSet
from train.imitation import count_error, train_steps
from train.network import MINE_HEAD, BoardTrunk, CellNet
from train.rollout import RolloutConfig, collect_positions
from train.settings import TrainSettings

SPEC = GameSpec(5, 5, 3)


def _net(seed: int = 0) -> CellNet:
    th.manual_seed(seed)
    return CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()


@pytest.fixture(scope="module")
def labelled() -> PositionSet:
    positions, _ = collect_positions(_net(), SPEC, 12, np.random.default_rng(0), RolloutConfig())
    return positions


def test_count_error__zero_when_the_beliefs_add_up_and_the_squared_gap_otherwise() -> None:
    targets = th.tensor([[[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]])
    masks = th.tensor([[[True, True, False], [True, True, False]]])
    # beliefs that differ cell by cell but add up to the same 2 mines over the hidden cells
    beliefs = th.tensor([[[0.75, 0.25, 0.9], [0.5, 0.5, 0.9]]])
    assert float(count_error(th.logit(beliefs), targets, masks)) == pytest.approx(0.0, abs=1e-6)
    high = th.tensor([[[0.75, 0.75, 0.0], [1.0, 0.5, 0.0]]]).clamp(1e-6, 1 - 1e-6)
    # gap 1.0 over 4 hidden cells; positions with no hidden cell, or no revealed one (before the
    # first click, where every target is 0 under `safe`), do not count
    none_hidden = th.zeros(1, 2, 3, dtype=th.bool)
    all_hidden = th.ones(1, 2, 3, dtype=th.bool)
    value = count_error(
        th.logit(th.cat([high, high, high])),
        th.cat([targets, targets, th.zeros_like(targets)]),
        th.cat([masks, none_hidden, all_hidden]),
    )
    assert float(value) == pytest.approx(1.0**2 / 4, rel=1e-4)


def _trained(positions: PositionSet, **kwargs: float) -> CellNet:
    net = _net(1)
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    train_steps(net, optimizer, positions, 100, 16, np.random.default_rng(7), **kwargs)
    return net


def _mean_count_error(net: CellNet, positions: PositionSet) -> float:
    with th.no_grad():
        logits = net(th.as_tensor(positions.boards, dtype=th.float32), SPEC.mines)
    return float(
        count_error(
            logits[:, MINE_HEAD],
            th.as_tensor(positions.mine_targets),
            th.as_tensor(positions.mine_masks),
        )
    )


def test_train_steps__weight_zero_changes_nothing_and_a_weight_cuts_the_count_error(
    labelled: PositionSet,
) -> None:
    plain = _trained(labelled)
    zero = _trained(labelled, count_weight=0.0)
    counted = _trained(labelled, count_weight=20.0)
    pairs = zip(plain.parameters(), zero.parameters(), strict=True)
    assert all(th.equal(a, b) for a, b in pairs)
    assert _mean_count_error(counted, labelled) < _mean_count_error(plain, labelled)


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_settings__bad_count_weight_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="count_weight"):
        replace(TrainSettings(), count_weight=bad).check()
