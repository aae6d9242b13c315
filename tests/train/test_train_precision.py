"""Tests of ``precision``: imitation's training steps in float32 or under bfloat16 autocast."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch as th
from tiny_training import (
    TINY_IMITATION,
    TINY_SPEC,
    random_boards,
    tiny_cell_net,
    tiny_positions,
    tiny_trained_weights,
    tweak,
)

from train import run as run_module
from train.arguments import RESUME_OVERRIDES
from train.checkpoint import load_model
from train.dataset import PositionSet
from train.imitation import masked_bce, train_steps
from train.network import MINE_HEAD
from train.precision import Precision, autocast
from train.settings import TrainSettings, saved_settings
from train.state import read_state


@pytest.fixture(scope="module")
def labelled() -> PositionSet:
    return tiny_positions(move_labels=True)


def test_autocast__bfloat16_runs_the_convolutions_in_bfloat16_and_float32_changes_nothing() -> None:
    net = tiny_cell_net()
    boards = random_boards(4, 5, 5)
    with th.no_grad():
        plain = net(boards, TINY_SPEC.mines)
        with autocast(Precision.FLOAT32, th.device("cpu")):
            same = net(boards, TINY_SPEC.mines)
        with autocast(Precision.BFLOAT16, th.device("cpu")):
            low = net(boards, TINY_SPEC.mines)
    assert plain.dtype == same.dtype == th.float32 and th.equal(plain, same)
    assert low.dtype == th.bfloat16
    # bfloat16 keeps 8 bits of mantissa: close to the float32 logits, not equal to them
    assert not th.equal(low.float(), plain)
    assert th.allclose(low.float(), plain, atol=0.1, rtol=0.05)


def test_train_steps__float32_is_the_default_and_bfloat16_changes_the_steps(
    labelled: PositionSet,
) -> None:
    plain = tiny_trained_weights(labelled, move_weight=1.0)
    float32 = tiny_trained_weights(labelled, move_weight=1.0, precision=Precision.FLOAT32)
    low = tiny_trained_weights(labelled, move_weight=1.0, precision=Precision.BFLOAT16)
    assert all(th.equal(a, b) for a, b in zip(plain, float32, strict=True))
    assert not all(th.equal(a, b) for a, b in zip(plain, low, strict=True))
    # the weights (and Adam's state) stay float32 under autocast
    assert all(w.dtype == th.float32 for w in low)


def test_train_steps__bfloat16_learns_as_float32_does(labelled: PositionSet) -> None:
    boards = th.as_tensor(labelled.boards, dtype=th.float32)
    targets, masks = th.as_tensor(labelled.mine_targets), th.as_tensor(labelled.mine_masks)

    def held_loss(precision: Precision) -> tuple[float, float]:
        net = tiny_cell_net(1)
        with th.no_grad():
            before = float(masked_bce(net(boards, TINY_SPEC.mines)[:, MINE_HEAD], targets, masks))
        optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
        rng = np.random.default_rng(3)
        train_steps(net, optimizer, labelled, 40, 32, rng, precision=precision)
        with th.no_grad():
            after = float(masked_bce(net(boards, TINY_SPEC.mines)[:, MINE_HEAD], targets, masks))
        return before, after

    before, float32 = held_loss(Precision.FLOAT32)
    _, low = held_loss(Precision.BFLOAT16)
    assert float32 < 0.8 * before and low < 0.8 * before
    assert low == pytest.approx(float32, rel=0.1)


def test_settings__precision_is_checked_and_ppo_trains_in_float32() -> None:
    assert TrainSettings().imitation.precision == TrainSettings().bandit.precision == "float32"
    tweak(TINY_IMITATION, imitation__precision="bfloat16").check()
    with pytest.raises(ValueError, match="unknown precision 'float16'; choose one of float32"):
        tweak(TINY_IMITATION, imitation__precision="float16").check()
    from train.arguments import settings_from_args

    with pytest.raises(ValueError, match=r"belongs to \[imitation\], which algo ppo does not read"):
        settings_from_args(["--algo", "ppo", "--imitation.precision", "bfloat16"])


def test_train__a_bfloat16_run_reaches_the_training_steps(tmp_path: Path) -> None:
    runs = {
        precision: run_module.train(
            tweak(
                TINY_IMITATION, out=str(tmp_path / precision), imitation__precision=precision
            ).check()
        )
        for precision in ("float32", "bfloat16")
    }
    weights = {
        precision: [p.detach() for p in load_model(folder).policy.parameters()]
        for precision, folder in runs.items()
    }
    # the same seed collects the same games; only the steps' arithmetic differs
    assert not all(
        th.equal(a, b) for a, b in zip(weights["float32"], weights["bfloat16"], strict=True)
    )
    assert saved_settings(read_state(runs["bfloat16"]).settings).imitation.precision == "bfloat16"
    # like the device and the threads, the arithmetic may change when a run resumes
    assert {"imitation.precision", "bandit.precision"} <= set(RESUME_OVERRIDES)
