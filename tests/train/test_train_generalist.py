"""Tests of one network for many boards (``--boards``) and of the shipped checkpoint names."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_BOARD, tweak

import agents
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train import run as run_module
from train.agent import load_ppo_agent
from train.checkpoint import (
    SHIPPED_DIR,
    load_model,
    read_state,
    resolve_checkpoint,
    shipped_checkpoint,
)
from train.dataset import PositionSet, no_moves
from train.generalist import BoardWindow, parse_boards, split_games
from train.network import BoardTrunk, CellNet
from train.settings import TrainSettings

MIX = tweak(
    TINY_BOARD,
    algo="imitation",
    imitation__games_per_round=8,
    imitation__gradient_steps=4,
    imitation__batch_size=8,
    imitation__rounds=1,
    eval_games=4,
    imitation__boards="5x5/3,4x7/5",
)


@pytest.fixture(scope="module")
def generalist_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_module.train(replace(MIX, out=str(tmp_path_factory.mktemp("mix"))).check())


def test_parse_boards__reads_a_mix_and_names_bad_entries() -> None:
    specs = parse_boards("9x9/10, 16x30/99", "safe")
    assert [(s.rows, s.cols, s.mines) for s in specs] == [(9, 9, 10), (16, 30, 99)]
    for text, needle in (
        ("9x9", "'9x9'"),
        ("9x9/81", "1..80"),
        ("9x9/10,9x9/10", "twice"),
        ("3x3/1", None),
        ("0x5/1", "'0x5/1'"),
        ("200x200/10", "cells"),
    ):
        if needle is None:
            with pytest.raises(ValueError, match="opening"):
                parse_boards(text, "opening")
            continue
        with pytest.raises(ValueError, match=needle):
            parse_boards(text, "safe")
    with pytest.raises(ValueError, match=r"1\.\.24 under first_click='no-guess'"):
        parse_boards("9x9/25", "no-guess")  # the env's own limit


def test_settings__boards_need_imitation_or_the_bandit() -> None:
    with pytest.raises(ValueError, match="needs algo imitation or bandit"):
        tweak(MIX, algo="imitation+ppo").check()
    from train.arguments import settings_from_args

    with pytest.raises(ValueError, match=r"belongs to \[imitation\], which algo ppo does not read"):
        settings_from_args(["--algo", "ppo", "--imitation.boards", "9x9/10,16x16/40"])


def test_settings__boards_need_a_game_each_round() -> None:
    boards = len(MIX.boards.split(","))
    with pytest.raises(
        ValueError, match=rf"imitation.games_per_round must be >= the {boards} boards .* got 1"
    ):
        tweak(MIX, imitation__games_per_round=1).check()
    assert tweak(MIX, imitation__games_per_round=boards).check().imitation.games_per_round == boards


def test_split_games__shares_evenly() -> None:
    assert split_games(10, 3) == [4, 3, 3]
    assert sum(split_games(7, 7)) == 7


def test_board_window__keeps_the_newest_rounds_holding_the_limit() -> None:
    window = BoardWindow(GameSpec(5, 5, 3), [], [])
    for index in range(4):
        window.add(f"f{index}", PositionSet.empty(5, 5) if index == 0 else _positions(10), 15)
    assert window.files == ["f2", "f3"]
    assert len(window.positions()) == 20


def _positions(count: int) -> PositionSet:
    shape = (count, 5, 5)
    return PositionSet(
        np.full(shape, -1, np.int8),
        np.zeros(shape, np.float32),
        np.ones(shape, bool),
        np.zeros(shape, np.float32),
        np.ones(shape, bool),
        no_moves(count),
    )


def test_network__mine_count_per_call_matches_the_stored_one_and_changes_the_output() -> None:
    th.manual_seed(0)
    net = CellNet(BoardTrunk(3, 4, 1), th.nn.Conv2d(4, 2, 1)).eval()
    boards = th.full((2, 5, 5), -1.0)
    with th.no_grad():
        stored, same, per_board = net(boards), net(boards, 3), net(boards, th.tensor([3.0, 9.0]))
    assert th.equal(stored, same)
    assert th.equal(per_board[0], stored[0]) and not th.equal(per_board[1], stored[1])


def test_generalist__run_collects_every_board_and_ships_an_any_board_network(
    generalist_run: Path,
) -> None:
    state = read_state(generalist_run)
    assert sorted(state.positions_files) == ["positions-0001-4x7x5.npz", "positions-0001-5x5x3.npz"]
    agent = load_ppo_agent(str(generalist_run))
    assert agent.any_board
    for rows, cols, mines in ((6, 7, 5), (3, 12, 4), (5, 5, 3)):
        env = MinesweeperEnv(rows, cols, mines)
        record = agents.play_episode(env, agent, seed=3)
        assert record.outcome != 0 and 1 <= record.steps <= rows * cols


def test_generalist__resume_continues_with_both_boards(generalist_run: Path) -> None:
    resumed = run_module.train(tweak(MIX, resume=str(generalist_run), imitation__rounds=2).check())
    state = read_state(resumed)
    assert state.iteration == 2
    assert len(state.positions_files) == 4


def test_agent__refuses_what_it_cannot_play(generalist_run: Path) -> None:
    one_board = load_ppo_agent("beginner") if (SHIPPED_DIR / "net-beginner.zip").is_file() else None
    if one_board is not None:
        with pytest.raises(ValueError, match="generalist"):
            one_board.reset(0, GameSpec(16, 16, 40))
    generalist = load_ppo_agent(str(generalist_run))
    with pytest.raises(ValueError, match="score mode"):
        generalist.reset(0, GameSpec(9, 9, 10, score_mode=True))
    with pytest.raises(ValueError, match="score mode"):
        generalist.reset(0, GameSpec(9, 9, 10, clue_reveal_prob=0.5))


def test_eval_command__names_the_checkpoint_every_board_and_the_rules() -> None:
    line = run_module.eval_command(replace(MIX, first_click="opening"), Path("r/model.zip"))
    assert line.count("python -m eval --agents net:r/model.zip,logic,logic:global,solver") == 2
    assert "--rows 4 --cols 7 --mines 5 --first-click opening --games 2000" in line
    preset_line = run_module.eval_command(TrainSettings(preset="expert"), Path("m.zip"))
    assert "--preset expert --first-click safe" in preset_line


def test_resolve_device__auto_falls_back_to_cpu_and_cuda_needs_a_gpu() -> None:
    if th.cuda.is_available():
        assert run_module.resolve_device("auto") == "cuda"
        return
    assert run_module.resolve_device("auto") == "cpu"
    with pytest.raises(ValueError, match="no CUDA GPU"):
        run_module.resolve_device("cuda")
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        replace(MIX, device="tpu").check()


@pytest.mark.parametrize(
    "config",
    sorted((Path(__file__).parents[2] / "train" / "configs").glob("*.toml")),
    ids=lambda path: path.stem,
)
def test_configs__every_recipe_is_valid(config: Path) -> None:
    from train.arguments import settings_from_args

    settings = settings_from_args(["--config", str(config)])
    assert settings.check() == settings
    if settings.init:  # a shipped name: the checkpoint ships with the package
        assert resolve_checkpoint(settings.init).is_file(), settings.init


def test_agent__uses_one_torch_thread_unless_told_otherwise(generalist_run: Path) -> None:
    before = th.get_num_threads()
    try:
        th.set_num_threads(2)
        load_ppo_agent(str(generalist_run), torch_threads=None)
        assert th.get_num_threads() == 2
        load_ppo_agent(str(generalist_run))
        assert th.get_num_threads() == 1
    finally:
        th.set_num_threads(before)


def test_shipped_names__beginner_rl_is_the_reward_alone_ppo_network() -> None:
    if not (SHIPPED_DIR / "rl-beginner.zip").is_file():
        pytest.skip("no shipped beginner-rl checkpoint in this checkout")
    model = load_model(shipped_checkpoint("beginner-rl"))
    trunk = model.policy_kwargs["features_extractor_kwargs"]
    assert (trunk["channels"], trunk["blocks"]) == (64, 4)
    assert (model.gamma, model.n_envs, model.n_steps) == (0.0, 512, 32)  # the GPU recipe's
    agent = agents.make("ppo:beginner-rl")
    result = agents.play_episode(MinesweeperEnv(9, 9, 10), agent, 0)
    assert result.steps >= 1
