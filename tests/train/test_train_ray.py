"""Collection backends: local processes and Ray give the same labelled positions for a seed."""

from __future__ import annotations

from multiprocessing import resource_sharer

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


def collect(collector: Collector) -> PositionSet:
    th.manual_seed(0)
    net = CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    try:
        positions, _ = collector.collect(net, SPEC, 9, np.random.default_rng(5), CONFIG)
    finally:
        collector.close()
    return positions


def assert_same(first: PositionSet, second: PositionSet) -> None:
    for name in ("boards", "mine_targets", "mine_masks", "open_targets", "open_masks"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name


def test_collector__ray_gives_the_same_positions_as_local_processes() -> None:
    ray = pytest.importorskip("ray")
    local = collect(Collector(2))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = collect(Collector(2, "ray"))
    finally:
        ray.shutdown()
    assert_same(local, remote)


def test_collector__unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backend 'mpi'"):
        Collector(1, "mpi")


def test_settings__ray_address_needs_the_ray_backend() -> None:
    from train.settings import TrainSettings

    with pytest.raises(ValueError, match="needs backend ray"):
        TrainSettings(ray_address="auto").check()
    with pytest.raises(ValueError, match="unknown backend 'mpi'"):
        TrainSettings(backend="mpi").check()


def test_collector__local_processes_receive_the_network_as_plain_bytes() -> None:
    """A tensor that multiprocessing pickles would travel as a shared-memory file descriptor,
    whose sharer thread prints a traceback when a worker dies mid-transfer (a killed run must
    say one line)."""
    collect(Collector(2))
    assert resource_sharer._resource_sharer._listener is None
