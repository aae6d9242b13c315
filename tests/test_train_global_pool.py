"""Board-wide context in the trunk (train.network.GlobalPool, the ``global_pool`` setting)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch as th
from tiny_training import TINY_IMITATION, assert_grown_network_plays_as_before, random_boards

from train import run as run_module
from train.checkpoint import load_model
from train.network import BoardTrunk, GlobalPool


def _pooled_copy(plain: BoardTrunk) -> BoardTrunk:
    pooled = BoardTrunk(plain.mines, channels=4, blocks=2, global_pool=True)
    result = pooled.load_state_dict(plain.state_dict(), strict=False)
    assert result.unexpected_keys == [] and all("global_pool" in k for k in result.missing_keys)
    return pooled


def test_global_pool__starts_as_the_trunk_without_it_then_sees_the_whole_board() -> None:
    th.manual_seed(0)
    plain = BoardTrunk(10, channels=4, blocks=2)
    pooled = _pooled_copy(plain)
    boards = random_boards(3, 6, 30)
    with th.no_grad():
        assert th.equal(pooled(boards), plain(boards))  # the last layer starts at zero
        assert pooled.global_pool is not None
        th.nn.init.normal_(pooled.global_pool.out.weight)
        boards[:, :, -1] = 1.0
        far = boards.clone()  # the far column, 29 cells from column 0 (past the receptive
        far[:, :, -1] = 3.0  # field), shows other clues; the unknown cells stay the same
        for trunk, reaches in ((plain, False), (pooled, True)):
            near_change = trunk(far)[..., 0] - trunk(boards)[..., 0]
            assert bool((near_change.abs() > 0).any()) is reaches


def test_global_pool__commutes_with_flips_and_transposes() -> None:
    th.manual_seed(1)
    pool = GlobalPool(4)
    th.nn.init.normal_(pool.out.weight)
    x = th.randn(2, 4, 5, 7)
    with th.no_grad():
        out = pool(x)
        assert not th.allclose(out, x)
        assert th.allclose(pool(x.flip(3)), out.flip(3), atol=1e-6)
        assert th.allclose(pool(x.transpose(2, 3)), out.transpose(2, 3), atol=1e-6)


def test_global_pool__needs_a_block() -> None:
    with pytest.raises(ValueError, match="global_pool needs blocks >= 1"):
        BoardTrunk(3, channels=4, blocks=0, global_pool=True)
    # refused with the settings, before a run folder is made
    with pytest.raises(ValueError, match=r"global_pool needs blocks >= 1 .*got 0"):
        replace(TINY_IMITATION, blocks=0, global_pool=True).check()


def test_train__a_global_pool_run_starts_from_a_network_without_it(tmp_path: Path) -> None:
    plain_dir = run_module.train(replace(TINY_IMITATION, out=str(tmp_path / "a")).check())
    pooled_dir = run_module.train(
        replace(
            TINY_IMITATION, out=str(tmp_path / "b"), init=str(plain_dir), global_pool=True
        ).check()
    )
    source, target = load_model(plain_dir), load_model(pooled_dir)
    trunk = target.policy.features_extractor.trunk
    assert trunk.global_pool is not None  # saved and loaded
    trunk.global_pool = GlobalPool(4)  # as a fresh run's model has it (this one trained)
    note = run_module.start_from(target, source, "plain")
    assert_grown_network_plays_as_before(target, source, note, "global pool starts at zero")
    with pytest.raises(ValueError, match="another network shape"):
        run_module.start_from(source, target, "pooled")  # the pool cannot be dropped
