"""Collection backends: local processes and Ray give the same labelled positions for a seed."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

from mswp_gym.spec import GameSpec
from train.dataset import PositionSet
from train.imitation import Collector
from train.network import BoardTrunk, CellNet
from train.rollout import RolloutConfig

SPEC = GameSpec(5, 5, 3)
CONFIG = RolloutConfig(labels="solver")


def collect(collector: Collector, on_device: bool = False) -> PositionSet:
    th.manual_seed(0)
    net = CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    play_on = "device" if on_device else "workers"
    try:
        positions, _ = collector.collect(net, SPEC, 9, np.random.default_rng(5), CONFIG, play_on)
    finally:
        collector.close()
    return positions


def assert_same(first: PositionSet, second: PositionSet) -> None:
    for name in ("boards", "mine_targets", "mine_masks", "open_targets", "open_masks"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name


def test_collector__ray_gives_the_same_positions_as_local_processes() -> None:
    # Both ways of collecting: each job plays and labels, or this process plays and the jobs
    # label (play_on device, train.played); one Ray start serves both.
    ray = pytest.importorskip("ray")
    local = collect(Collector(2))
    local_labels = collect(Collector(2), on_device=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = collect(Collector(2, "ray"))
        remote_labels = collect(Collector(2, "ray"), on_device=True)
    finally:
        ray.shutdown()
    assert_same(local, remote)
    assert_same(local_labels, remote_labels)


def test_collector__unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'mpi'"):
        Collector(1, "mpi")


def test_settings__ray_address_needs_the_ray_backend() -> None:
    from train.settings import TrainSettings

    with pytest.raises(ValueError, match="needs backend ray"):
        TrainSettings(ray_address="auto").check()
    with pytest.raises(ValueError, match="unknown backend 'mpi'"):
        TrainSettings(backend="mpi").check()
