"""Tests of ``guess_weight``: guess positions drawn more often into imitation minibatches."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch as th
from tiny_training import tiny_positions, tiny_trained_weights

from mswp_gym.constants import HIDDEN
from train.dataset import PositionSet
from train.imitation import guess_positions, sampling_weights
from train.settings import TrainSettings


@pytest.fixture(scope="module")
def labelled() -> PositionSet:
    return tiny_positions(move_labels=True)


def test_guess_positions__are_where_the_solver_player_had_to_choose_a_cell(
    labelled: PositionSet,
) -> None:
    # after the first click (every cell safe under `safe`), the move labels name a cell exactly
    # where no cell is certainly safe, and say "any safe cell" elsewhere
    guesses = guess_positions(labelled)
    first_clicks = (labelled.boards == HIDDEN).all(axis=(1, 2))
    assert first_clicks.any()
    assert not guesses[first_clicks].any()
    assert np.array_equal(guesses, (labelled.move_cells >= 0) & ~first_clicks)
    assert 0 < guesses.sum() < len(labelled)


def test_sampling_weights__scale_guess_positions(labelled: PositionSet) -> None:
    assert sampling_weights(labelled, 1.0) is None
    guesses = guess_positions(labelled)
    p = sampling_weights(labelled, 4.0)
    assert p is not None
    assert p.sum() == pytest.approx(1.0)
    assert np.allclose(p[guesses], 4.0 * p[~guesses][0])
    assert np.allclose(p[~guesses], p[~guesses][0])


def test_train_steps__weight_one_keeps_the_uniform_draws_and_other_weights_change_them(
    labelled: PositionSet,
) -> None:
    plain = tiny_trained_weights(labelled, move_weight=1.0)
    same = tiny_trained_weights(labelled, move_weight=1.0, guess_weight=1.0)
    weighted = tiny_trained_weights(labelled, move_weight=1.0, guess_weight=4.0)
    assert all(th.equal(a, b) for a, b in zip(plain, same, strict=True))
    assert not all(th.equal(a, b) for a, b in zip(plain, weighted, strict=True))


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_settings__bad_guess_weight_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match="guess_weight"):
        replace(TrainSettings(), guess_weight=bad).check()
