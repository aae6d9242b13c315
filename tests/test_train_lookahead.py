"""Tests of the network's one-step look-ahead (train.lookahead and the agent's option)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from tiny_training import TINY_IMITATION

from mswp_gym.constants import HIDDEN, MINE
from mswp_gym.spec import GameSpec
from train import run as run_module
from train.agent import PolicyAgent, load_ppo_agent
from train.lookahead import GUESS_RISK, look_ahead, value_distribution


def test_value_distribution__is_the_brute_force_sum_over_neighbour_mines() -> None:
    rng = np.random.default_rng(0)
    for size in range(0, 6):
        risks = rng.uniform(0, 1, size)
        shown = int(rng.integers(0, 9 - size))
        expected = np.zeros(9)
        for mines in itertools.product((0, 1), repeat=size):
            weight = np.prod([r if m else 1 - r for r, m in zip(risks, mines, strict=True)])
            expected[shown + sum(mines)] += weight
        got = value_distribution(risks, shown)
        assert got.shape == (9,) and np.allclose(got, expected) and np.isclose(got.sum(), 1.0)


class _Reader:
    """Beliefs for hypothetical boards: cell 8 is sure-safe only where cell 0 shows a number."""

    def __init__(self) -> None:
        self.batches: list[np.ndarray] = []

    def __call__(self, boards: np.ndarray) -> np.ndarray:
        self.batches.append(boards.copy())
        beliefs = np.full((len(boards), 9), 0.3)
        for k, board in enumerate(boards):
            if board.ravel()[0] >= 0:
                beliefs[k, 8] = 0.0
        return beliefs


def test_look_ahead__scores_safety_times_the_best_safety_after_each_number() -> None:
    board = np.full((3, 3), HIDDEN, np.int8)
    board[1, 1] = 2
    risk = np.full(9, 0.25)
    risk[4] = np.nan
    legal = board.ravel() == HIDDEN
    reader = _Reader()
    choice = look_ahead(board, risk, legal, own_move=2, candidates=2, read_beliefs=reader)
    # own move first, then the two safest legal cells in index order (0 and 1)
    assert choice.candidates == (2, 0, 1)
    # corners 0 and 2 have 2 hidden neighbours, edge cell 1 has 4 (all at 0.25): showing 0 makes
    # them all safe; the other numbers (1-2 and 1-4, each over 1e-3) go to the network in one batch
    assert len(reader.batches) == 1 and len(reader.batches[0]) == 2 + 2 + 4
    corner_zero, edge_zero = 0.75**2, 0.75**4
    score_0 = 0.75 * (corner_zero + (1 - corner_zero) * 1.0)  # cell 8 sure once 0 shows a number
    score_2 = 0.75 * (corner_zero + (1 - corner_zero) * 0.7)
    score_1 = 0.75 * (edge_zero + (1 - edge_zero) * 0.7)
    assert choice.scores == pytest.approx((score_2, score_0, score_1))
    assert choice.move == 0


def test_look_ahead__a_candidate_without_hidden_neighbours_learns_nothing() -> None:
    board = np.full((1, 3), HIDDEN, np.int8)
    board[0, 1] = MINE
    risk = np.array([0.2, 1.0, 0.4])
    legal = np.array([True, False, True])
    reader = _Reader()
    choice = look_ahead(board, risk, legal, own_move=0, candidates=2, read_beliefs=reader)
    assert choice.candidates == (0, 2) and reader.batches == []
    # each is left with the other's safety as it stands
    assert choice.scores == pytest.approx((0.8 * 0.6, 0.6 * 0.8))
    assert choice.move == 0  # a tie goes to the earlier candidate


def test_policy_agent__lookahead_option_plays_the_look_ahead_at_guesses(tmp_path: Path) -> None:
    settings = replace(TINY_IMITATION, out=str(tmp_path)).check()
    path = run_module.train(settings)
    plain = load_ppo_agent(path)
    ahead = load_ppo_agent(path, lookahead=3)
    assert isinstance(plain, PolicyAgent) and isinstance(ahead, PolicyAgent)
    spec = GameSpec(5, 5, 3)
    board = np.full((5, 5), HIDDEN, np.int8)
    board[0, :2] = (1, 2)
    legal = (board == HIDDEN).ravel()
    for agent in plain, ahead:
        agent.reset(0, spec)
    own = plain.act(board, legal)
    risk = plain.explain().risk
    assert risk is not None and risk.ravel()[own] >= GUESS_RISK  # a guess: the look-ahead runs
    expected = look_ahead(board, risk.ravel(), legal, own, 3, plain._beliefs)
    assert ahead.act(board, legal) == expected.move
    # the beliefs are the agent's own reading of a board
    assert np.allclose(plain._beliefs(board[None])[0][legal], risk.ravel()[legal], atol=1e-6)
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match=r"lookahead must be an int >= 0 \(0: off\), got"):
            load_ppo_agent(path, lookahead=bad)
