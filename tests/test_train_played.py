"""Collection with play in one process on the training device and labels in the workers
(:mod:`train.played`, ``play_on = "device"``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_IMITATION, tiny_cell_net

from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train.dataset import MOVE_ANY_SAFE, PositionSet
from train.imitation import Collector
from train.network import CellNet
from train.played import NOT_FIRST, label_played, play_unlabelled
from train.rollout import RolloutConfig, collect_positions
from train.settings import TrainSettings

SPEC = GameSpec(5, 5, 3)
ARRAYS = ("boards", "mine_targets", "mine_masks", "open_targets", "open_masks", "move_cells")


def _net(move_head: bool) -> CellNet:
    return tiny_cell_net(heads=3 if move_head else 2)


def _on_device(collector: Collector, config: RolloutConfig, spec: GameSpec = SPEC) -> PositionSet:
    try:
        positions, _ = collector.collect(
            _net(config.move_labels), spec, 9, np.random.default_rng(5), config, "device"
        )
    finally:
        collector.close()
    return positions


def _same(first: PositionSet, second: PositionSet) -> bool:
    return all(np.array_equal(getattr(first, name), getattr(second, name)) for name in ARRAYS)


@pytest.mark.parametrize("first_click", ["safe", "opening", "any"])
def test_played__without_move_labels_it_is_in_place_collection(first_click: str) -> None:
    # With no move labels in-place labelling draws nothing from the generator, so playing first
    # and labelling after must give exactly the same positions and targets.
    spec = GameSpec(6, 6, 5, first_click=first_click)
    config = RolloutConfig(epsilon=0.2, rescue=0.8, labels="solver")
    in_place, in_place_stats = collect_positions(
        _net(False), spec, 7, np.random.default_rng(3), config
    )
    played, stats = play_unlabelled(_net(False), spec, 7, np.random.default_rng(3), config)
    labelled, _ = label_played(played, spec, config)
    assert _same(in_place, labelled)
    assert stats["wins"] == in_place_stats["wins"] and stats["positions"] == len(labelled)
    laid_out = played.first != NOT_FIRST
    assert laid_out.sum() == (7 if spec.first_click != "any" else 0)


def test_played__same_positions_for_any_worker_count() -> None:
    config = RolloutConfig(labels="solver", move_labels=True)
    assert _same(_on_device(Collector(1), config), _on_device(Collector(3), config))


def test_played__every_position_gets_the_solver_players_move() -> None:
    positions = _on_device(Collector(1), RolloutConfig(labels="solver", move_labels=True))
    for board, mine, move in zip(
        positions.boards, positions.mine_targets, positions.move_cells, strict=True
    ):
        hidden = board == HIDDEN
        if not hidden.all() and (hidden & (mine == 0.0)).any():
            assert move == MOVE_ANY_SAFE
        else:  # the first click or a guess: a hidden cell
            assert move >= 0 and hidden.flat[move]


def test_played__chunks_are_strided_shares_that_interleave_back_in_order() -> None:
    config = RolloutConfig(labels="truth")
    played, _ = play_unlabelled(_net(False), SPEC, 4, np.random.default_rng(1), config)
    whole, _ = label_played(played, SPEC, config)
    for parts in (1, 2, 5, len(played) + 3):
        chunks = played.chunks(parts)
        assert 1 <= len(chunks) <= parts and all(len(chunk) > 0 for chunk in chunks)
        count = len(chunks)
        for j, chunk in enumerate(chunks):  # share j: positions j, j + count, ...
            assert np.array_equal(chunk.visible, played.visible[j::count])
            assert np.array_equal(chunk.seed, played.seed[j::count])
        joined = PositionSet.interleave([label_played(c, SPEC, config)[0] for c in chunks])
        assert _same(joined, whole)


def test_dataset__interleave_refuses_parts_no_strided_split_gives() -> None:
    one = PositionSet(
        np.zeros((1, 2, 2), np.int8),
        np.zeros((1, 2, 2), np.float32),
        np.zeros((1, 2, 2), bool),
        np.zeros((1, 2, 2), np.float32),
        np.zeros((1, 2, 2), bool),
        np.zeros(1, np.int32),
    )
    parts = [PositionSet.empty(2, 2), one]
    with pytest.raises(ValueError, match=r"parts of \[0, 1\] positions are not a strided split"):
        PositionSet.interleave(parts)
    with pytest.raises(ValueError, match="interleave needs at least one PositionSet"):
        PositionSet.interleave([])


def test_settings__play_on_is_checked() -> None:
    assert TrainSettings(play_on="device").check().play_on == "device"
    with pytest.raises(ValueError, match="unknown play_on 'gpu'; choose one of workers, device"):
        TrainSettings(play_on="gpu").check()


def test_collector__unknown_play_on_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown play_on 'gpu'; choose one of workers, device"):
        Collector(1).collect(_net(False), SPEC, 1, np.random.default_rng(0), RolloutConfig(), "gpu")


def test_train__a_run_that_plays_on_the_device_trains(tmp_path: Path) -> None:
    from train.run import train
    from train.state import read_state

    settings = replace(TINY_IMITATION, out=str(tmp_path), workers=2, play_on="device")
    state = read_state(train(settings.check()))
    assert state.iteration == 1 and state.positions_seen >= 4
