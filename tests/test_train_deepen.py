"""Deepening a trained network (train.deepen): a run with more blocks than its ``--init``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch as th
from tiny_training import TINY_IMITATION, assert_grown_network_plays_as_before, random_boards

from train import run as run_module
from train.checkpoint import load_model
from train.deepen import added_blocks, block_count, start_as_identity
from train.network import BoardTrunk


def _deeper_copy(shallow: BoardTrunk, blocks: int) -> tuple[BoardTrunk, list[str]]:
    deep = BoardTrunk(shallow.mines, channels=4, blocks=blocks)
    source = shallow.state_dict()
    result = deep.load_state_dict(source, strict=False)
    grown = added_blocks(result.missing_keys, source)
    assert grown == result.missing_keys and result.unexpected_keys == []
    start_as_identity(deep, grown)
    return deep, grown


def test_added_blocks__only_blocks_past_the_sources_last_one() -> None:
    source = {
        "t.trunk.blocks.0.conv1.weight": th.zeros(1),
        "t.trunk.blocks.1.conv2.bias": th.zeros(1),
    }
    missing = [
        "t.trunk.blocks.2.conv1.weight",
        "t.trunk.blocks.3.conv2.bias",
        "t.trunk.stem.weight",
    ]
    grown = added_blocks(missing, source)
    assert grown == missing[:2] and block_count(grown) == 2
    assert added_blocks(["t.trunk.blocks.1.conv1.weight"], source) == []  # a hole, not a new block
    assert added_blocks(missing, {"t.trunk.stem.weight": th.zeros(1)}) == []


def test_start_as_identity__the_deeper_trunk_computes_the_same_then_its_new_blocks_train() -> None:
    th.manual_seed(0)
    shallow = BoardTrunk(10, channels=4, blocks=2)
    deep, grown = _deeper_copy(shallow, blocks=4)
    assert block_count(grown) == 2
    boards = random_boards(3, 7, 9)
    with th.no_grad():
        assert th.equal(deep(boards), shallow(boards))
    deep(boards).sum().backward()
    last = deep.blocks[3]
    assert last.conv2.weight.grad is not None and bool(last.conv2.weight.grad.abs().sum() > 0)
    with th.no_grad():
        th.nn.init.normal_(last.conv2.weight)
        assert not th.allclose(deep(boards), shallow(boards))


def test_train__a_deeper_run_starts_from_a_shallower_network(tmp_path: Path) -> None:
    shallow_dir = run_module.train(replace(TINY_IMITATION, out=str(tmp_path / "a")).check())
    deep_settings = replace(
        TINY_IMITATION,
        out=str(tmp_path / "b"),
        init=str(shallow_dir),
        blocks=TINY_IMITATION.blocks + 2,
    )
    deep_dir = run_module.train(deep_settings.check())
    source, target = load_model(shallow_dir), load_model(deep_dir)
    assert len(target.policy.features_extractor.trunk.blocks) == TINY_IMITATION.blocks + 2
    note = run_module.start_from(target, source, "shallow")  # as at the run's start
    assert_grown_network_plays_as_before(
        target, source, note, "2 new last blocks start as the identity"
    )
    with pytest.raises(ValueError, match="another network shape"):
        run_module.start_from(source, target, "deep")  # blocks are not dropped


def test_train__a_network_with_a_global_pool_is_not_grown(tmp_path: Path) -> None:
    pooled = replace(TINY_IMITATION, out=str(tmp_path / "a"), global_pool=True)
    pooled_dir = run_module.train(pooled.check())
    deeper = replace(
        pooled, out=str(tmp_path / "b"), init=str(pooled_dir), blocks=pooled.blocks + 1
    )
    with pytest.raises(ValueError, match=r"has a global pool before its last block.*keep its 1 "):
        run_module.train(deeper.check())
