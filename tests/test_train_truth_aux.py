"""PPO with the auxiliary mine loss on the env's layouts (train.truth_aux): what it records, what
it trains, and that its runs stay seeded and resumable."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

from stable_baselines3.common.vec_env import DummyVecEnv
from tiny_training import TINY_RUN

from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv
from train import run as run_module
from train.checkpoint import load_model
from train.network import BoardTrunk, CellNet
from train.truth_aux import TruthRecorder, auxiliary_steps, find_recorder


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    """Tiny networks on a shared 2-core box: more threads only contend."""
    threads = th.get_num_threads()
    th.set_num_threads(1)
    yield
    th.set_num_threads(threads)


TINY_AUX = replace(TINY_RUN, algo="ppo", vec_env="native", aux_steps=2)


def test_truth_recorder__records_each_played_position_with_its_layout() -> None:
    venv = MinesweeperSB3VecEnv(3, rows=5, cols=5, mines=4, first_click="safe")
    recorder = TruthRecorder(venv)
    recorder.seed(0)
    obs = recorder.reset()
    played: list[np.ndarray] = []
    rng = np.random.default_rng(1)
    for _ in range(12):
        masks = np.stack(recorder.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        before = obs.copy()
        obs, _, dones, infos = recorder.step(actions)
        for board, done, info in zip(before, dones, infos, strict=True):
            if (board != HIDDEN).any():  # mines are laid once a cell is open
                played.append(board)
            if done:  # the finished game's layout agrees with what was recorded for it
                assert "layout" in info
    positions = recorder.take()
    assert len(positions) == len(played) > 0
    np.testing.assert_array_equal(positions.boards, np.stack(played))
    hidden = positions.boards == HIDDEN
    np.testing.assert_array_equal(positions.mine_masks, hidden)
    revealed_mines = (positions.mine_targets == 1) & ~hidden
    assert not revealed_mines.any()  # an open cell is never a mine
    assert (positions.mine_targets.reshape(len(positions), -1).sum(axis=1) == 4).all()
    assert len(recorder.take()) == 0  # taken: forgotten


def test_truth_recorder__survives_a_pickle_round_trip_as_the_runtime_state_needs() -> None:
    recorder = TruthRecorder(MinesweeperSB3VecEnv(2, rows=4, cols=4, mines=2))
    copy = pickle.loads(pickle.dumps(recorder))
    copy.reset()
    copy.step(np.array([0, 5]))
    assert copy.native is copy.venv.venv  # still the env it wraps, not a stale copy
    assert len(copy.take()) == 0  # the first step's boards were blank
    assert find_recorder(copy) is copy


def test_truth_recorder__refuses_an_env_without_the_native_layouts() -> None:
    dummy = DummyVecEnv([lambda: MinesweeperEnv(rows=4, cols=4, mines=2)])
    with pytest.raises(ValueError, match="vec_env = native"):
        TruthRecorder(dummy)


def test_auxiliary_steps__lower_the_mine_loss_on_the_recorded_layouts() -> None:
    venv = MinesweeperSB3VecEnv(8, rows=5, cols=5, mines=4, first_click="safe")
    recorder = TruthRecorder(venv)
    recorder.seed(2)
    recorder.reset()
    rng = np.random.default_rng(3)
    for _ in range(30):
        masks = np.stack(recorder.env_method("action_masks"))
        recorder.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    positions = recorder.take()
    th.manual_seed(0)
    net = CellNet(BoardTrunk(4, channels=4, blocks=1), th.nn.Conv2d(4, 2, 1))
    optimizer = th.optim.Adam(net.parameters(), lr=1e-2)
    first = auxiliary_steps(net, optimizer, positions, 5, 32, seed=0, timesteps=0)
    later = auxiliary_steps(net, optimizer, positions, 60, 32, seed=0, timesteps=1)
    assert first is not None and later is not None and later < first
    assert auxiliary_steps(net, optimizer, positions, 0, 32, seed=0, timesteps=2) is None


def test_settings__aux_steps_need_ppo_on_the_native_vector_env() -> None:
    with pytest.raises(ValueError, match=r"aux_steps=2 .* vec_env 'dummy'"):
        replace(TINY_AUX, vec_env="dummy").check()
    with pytest.raises(ValueError, match=r"aux_steps=2 .* algo 'imitation'"):
        replace(TINY_AUX, algo="imitation").check()
    with pytest.raises(ValueError, match="aux_steps must be >= 0, got -1"):
        replace(TINY_AUX, aux_steps=-1).check()


def _weights(run_dir: Path) -> dict[str, th.Tensor]:
    return load_model(run_dir).policy.state_dict()


def test_train__aux_run_logs_its_loss_and_differs_from_reward_alone(tmp_path: Path) -> None:
    aux = run_module.train(replace(TINY_AUX, out=str(tmp_path / "aux")))
    plain = run_module.train(replace(TINY_AUX, aux_steps=0, out=str(tmp_path / "plain")))
    log = (aux / "progress.csv").read_text().splitlines()
    column = log[0].split(",").index("train/aux_loss")
    losses = [row.split(",")[column] for row in log[1:] if row.split(",")[column]]
    assert losses and all(float(value) > 0 for value in losses)
    assert "train/aux_loss" not in (plain / "progress.csv").read_text()
    a, b = _weights(aux), _weights(plain)
    assert not all(th.equal(a[key], b[key]) for key in a)
