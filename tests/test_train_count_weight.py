"""Tests of ``count_weight``: a loss on the gap between the mine head's summed P(mine) and the
mine count."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch as th
from tiny_training import TINY_SPEC, tiny_cell_net, tiny_positions, tiny_trained_weights

from train.dataset import PositionSet
from train.imitation import count_error, undecided
from train.network import MINE_HEAD
from train.settings import TrainSettings


@pytest.fixture(scope="module")
def labelled() -> PositionSet:
    return tiny_positions(move_labels=False)


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


def test_train_steps__weight_zero_changes_nothing_and_a_weight_changes_the_steps(
    labelled: PositionSet,
) -> None:
    plain = tiny_trained_weights(labelled, heads=2)
    zero = tiny_trained_weights(labelled, heads=2, count_weight=0.0)
    counted = tiny_trained_weights(labelled, heads=2, count_weight=2.0)
    assert all(th.equal(a, b) for a, b in zip(plain, zero, strict=True))
    assert not all(th.equal(a, b) for a, b in zip(plain, counted, strict=True))


def test_count_error__its_gradient_moves_every_hidden_cell_against_the_gap() -> None:
    logits = th.tensor([[[0.0, 1.0, -2.0], [3.0, 0.5, 9.0]]], requires_grad=True)
    targets = th.tensor([[[0.2, 0.5, 0.1], [0.9, 0.3, 0.0]]])
    masks = th.tensor([[[True, True, True], [True, True, False]]])
    count_error(logits, targets, masks).backward()
    p = th.sigmoid(logits.detach())
    gap = float(((p - targets) * masks).sum())
    expected = 2.0 * gap / 5.0 * p * (1.0 - p) * masks
    assert logits.grad is not None
    assert th.allclose(logits.grad, expected, atol=1e-6)


def test_count_error__minimising_it_brings_a_network_to_the_mine_count(
    labelled: PositionSet,
) -> None:
    net = tiny_cell_net(1, heads=2).train()
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    boards = th.as_tensor(labelled.boards, dtype=th.float32)
    targets, masks = th.as_tensor(labelled.mine_targets), th.as_tensor(labelled.mine_masks)
    errors = []
    for _ in range(60):
        loss = count_error(net(boards, TINY_SPEC.mines)[:, MINE_HEAD], targets, masks)
        errors.append(float(loss.detach()))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert errors[-1] < 0.2 * errors[0]


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_settings__bad_count_weight_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="count_weight"):
        replace(TrainSettings(), count_weight=bad).check()


def test_undecided__only_hidden_cells_with_labels_strictly_between_0_and_1() -> None:
    targets = th.tensor([[[0.0, 0.25, 1.0], [0.5, 0.7, 1.0]]])
    masks = th.tensor([[[True, True, True], [False, True, True]]])
    expected = th.tensor([[[False, True, False], [False, True, False]]])
    assert th.equal(undecided(targets, masks), expected)


def test_count_error__over_undecided_cells_ignores_the_settled_ones() -> None:
    # two settled mines the network doubts, two undecided cells whose beliefs add up, and a
    # revealed cell
    targets = th.tensor([[[1.0, 1.0, 0.4, 0.6, 0.0]]])
    masks = th.tensor([[[True, True, True, True, False]]])
    beliefs = th.tensor([[[0.5, 0.5, 0.7, 0.3, 0.5]]])
    logits = th.logit(beliefs)
    assert float(count_error(logits, targets, masks)) == pytest.approx(1.0**2 / 4, rel=1e-4)
    only = undecided(targets, masks)
    assert float(count_error(logits, targets, only)) == pytest.approx(0.0, abs=1e-6)


def test_train_steps__count_over_undecided_cells_changes_the_steps(
    labelled: PositionSet,
) -> None:
    hidden = tiny_trained_weights(labelled, heads=2, count_weight=2.0)
    only = tiny_trained_weights(labelled, heads=2, count_weight=2.0, count_undecided=True)
    assert not all(th.equal(a, b) for a, b in zip(hidden, only, strict=True))


def test_settings__count_cells_is_checked() -> None:
    with pytest.raises(ValueError, match=r"count_cells.*'everywhere'"):
        replace(TrainSettings(), count_cells="everywhere").check()
    with pytest.raises(ValueError, match="count_cells='undecided' needs labels 'solver'"):
        replace(TrainSettings(), count_cells="undecided", labels="truth").check()
    replace(TrainSettings(), count_cells="undecided", count_weight=0.1).check()
