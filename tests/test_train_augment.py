"""Tests of ``augment``: the board symmetries imitation's minibatches are drawn under."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch as th

from mswp_gym.spec import GameSpec
from train.imitation import symmetries, train_steps
from train.network import BoardTrunk, CellNet
from train.rollout import RolloutConfig, collect_positions
from train.settings import TrainSettings

WIDE = GameSpec(3, 6, 3)
"""A board that is not square, so that its transposed views change its shape."""


def test_symmetries__four_flips_then_their_transposes() -> None:
    x = th.arange(2 * 3 * 6).view(2, 3, 6)
    shapes = [tuple(view(x).shape) for view in symmetries(True)]
    assert shapes == [(2, 3, 6)] * 4 + [(2, 6, 3)] * 4
    assert [tuple(view(x).shape) for view in symmetries(False)] == [(2, 3, 6)] * 4
    assert len({tuple(view(x).flatten().tolist()) for view in symmetries(True)}) == 8


@pytest.mark.parametrize("all_views", [False, True])
def test_train_steps__all_views_transposes_boards_that_are_not_square(all_views: bool) -> None:
    th.manual_seed(0)
    net = CellNet(BoardTrunk(WIDE.mines, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    positions, _ = collect_positions(
        net, WIDE, 8, np.random.default_rng(0), RolloutConfig(epsilon=0.0)
    )
    shapes: list[tuple[int, ...]] = []
    net.register_forward_pre_hook(lambda _, inputs: shapes.append(tuple(inputs[0].shape[1:])))
    optimizer = th.optim.Adam(net.parameters(), lr=1e-3)
    train_steps(net, optimizer, positions, 24, 8, np.random.default_rng(3), all_views=all_views)
    assert len(shapes) == 24
    expected = {(3, 6), (6, 3)} if all_views else {(3, 6)}
    assert set(shapes) == expected


def test_settings__augment_is_checked() -> None:
    assert TrainSettings().augment == "shape"
    replace(TrainSettings(), augment="all").check()
    with pytest.raises(ValueError, match=r"augment.*'every'"):
        replace(TrainSettings(), augment="every").check()
