"""The bandit algorithm learns from the reward alone: each position labels only its played cell,
by that move's outcome, and no game is played on past a mine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch as th
from tiny_training import TINY_IMITATION, tweak

from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train import run as run_module
from train.arguments import settings_from_args
from train.dataset import load_positions
from train.network import BoardTrunk, CellNet
from train.rollout import RolloutConfig, collect_positions, labellers
from train.state import read_state

SPEC = GameSpec(5, 5, 3)


def _net() -> CellNet:
    th.manual_seed(0)
    return CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()


def test_reward_labels__one_cell_per_position_and_a_mine_ends_the_game() -> None:
    config = RolloutConfig(labels="reward", rescue=0.0, epsilon=0.0)
    positions, stats = collect_positions(_net(), SPEC, 20, np.random.default_rng(0), config)
    assert len(positions) == stats["positions"] > 20
    labelled = positions.mine_masks.reshape(len(positions), -1)
    assert (labelled.sum(axis=1) == 1).all()
    played = labelled.argmax(axis=1)
    rows = np.arange(len(positions))
    assert (positions.boards.reshape(len(positions), -1)[rows, played] == HIDDEN).all()
    # Every lost game ends on its one position labelled 1 (a mine): none is played on.
    hits = positions.mine_targets.reshape(len(positions), -1)[rows, played]
    assert set(np.unique(hits)) <= {0.0, 1.0}
    assert hits.sum() == 20 - stats["wins"] > 0
    # The opening label is observed only on a safe played cell, after its clue shows.
    opened = positions.open_masks.reshape(len(positions), -1)
    assert np.array_equal(opened, labelled & (hits == 0.0)[:, None])


def test_reward_labels__refuse_a_rescue_that_plays_on_by_the_layout() -> None:
    with pytest.raises(ValueError, match="reward labels need rescue 0"):
        labellers(SPEC, np.random.default_rng(0), RolloutConfig(labels="reward", rescue=0.8))


def test_bandit_run__trains_resumes_and_records_reward_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rounds = {"bandit__rounds": 1, "bandit__gradient_steps": 2, "bandit__batch_size": 16}
    settings = tweak(
        TINY_IMITATION,
        algo="bandit",
        bandit__games_per_round=8,
        eval_games=4,
        out=str(tmp_path),
        **rounds,
    )
    run_dir = run_module.train(settings)
    assert "__bandit__" in run_dir.name
    out = capsys.readouterr().out
    assert "] bandit eval: " in out and "imitation eval" not in out
    run_module.train(tweak(settings, bandit__rounds=2, resume=str(run_dir)))
    state = read_state(run_dir)
    assert state.iteration == 2
    positions, meta = load_positions(run_dir / state.positions_files[-1])
    assert meta["labels"] == "reward"
    assert (positions.mine_masks.reshape(len(positions), -1).sum(axis=1) == 1).all()


def test_bandit_settings__no_move_labels() -> None:
    with pytest.raises(ValueError, match=r"imitation.move_weight=1.0 belongs to \[imitation\]"):
        settings_from_args(["--algo", "bandit", "--imitation.move-weight", "1"])
