"""Rewards, info, flags, score mode and truncation on fixed layouts."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym import FLAGGED, HIDDEN, MinesweeperEnv, Outcome, RewardConfig
from mswp_gym.constants import EXPLODED
from mswp_gym.encoding import N_CHANNELS, board_from_observation

LAYOUT = """
. . . . .
. . . . .
. . . * .
. . . . .
* . . . .
"""


def fixed_env(**kwargs: object) -> MinesweeperEnv:
    return MinesweeperEnv(layout=LAYOUT, **kwargs)  # type: ignore[arg-type]


def test_env__fixed_layout_sets_size_and_mines() -> None:
    env = fixed_env()
    assert (env.rows, env.cols, env.mines, env.game_spec.first_click) == (5, 5, 2, "fixed")


def test_env__rewards_follow_the_config() -> None:
    rewards = RewardConfig(win=10, loss=-10, progress=1, guess=-2, invalid=-5, first_move=0.5)
    env = fixed_env(rewards=rewards)
    env.reset(seed=0)
    assert env.step(24)[1] == 0.5  # first move opens the bottom-right corner region
    assert env.step(24)[1] == -5  # already revealed: invalid no-op
    assert env.step(4)[1] == -2  # (0, 4) has no revealed neighbour: a blind guess
    _obs, reward, terminated, _tr, info = env.step(20)  # the mine at (4, 0)
    assert (reward, terminated, info["outcome"]) == (-10, True, Outcome.LOST)
    assert info["invalid_actions"] == 1
    env.reset(seed=0)
    env.step(24)
    _obs, reward, terminated, _tr, info = env.step(14)  # (2, 4) touches revealed cells
    assert (reward, terminated) == (1, False)


def test_env__per_reveal_rewards_pay_blind_and_informed_reveals_alike() -> None:
    rewards = RewardConfig.per_reveal()
    env = fixed_env(rewards=rewards)
    env.reset(seed=0)
    assert env.step(24)[1] == rewards.first_move == 0.0
    assert env.step(4)[1] == 0.3  # (0, 4) has no revealed neighbour: a blind guess, still paid
    _obs, reward, terminated, _tr, _info = env.step(20)  # the mine at (4, 0)
    assert (reward, terminated) == (-1.0, True)
    env.reset(seed=0)
    env.step(24)
    assert env.step(14)[1] == 0.3  # (2, 4) touches revealed cells
    _obs, reward, terminated, _tr, _info = env.step(4)  # the last safe cell
    assert (reward, terminated) == (1.0, True)


def test_env__win_reward_and_end_info() -> None:
    env = fixed_env()
    _obs, info = env.reset(seed=0)
    for action in (0, 24, 14, 4):
        _obs, reward, terminated, _tr, info = env.step(action)
        if terminated:
            break
    assert terminated and info["outcome"] == Outcome.WON and info["is_success"]
    assert reward == RewardConfig().win
    assert info["cells_revealed"] == 23
    assert np.array_equal(info["layout"], env.unwrapped._board.mines)


def test_env__layout_only_in_info_at_the_end() -> None:
    env = MinesweeperEnv()
    _obs, info = env.reset(seed=1)
    assert "layout" not in info
    _obs, _r, terminated, _tr, info = env.step(40)
    assert ("layout" in info) == terminated


def test_env__step_after_end_is_a_clear_error() -> None:
    env = fixed_env()
    env.reset(seed=0)
    env.step(13)  # the mine at (2, 3)
    with pytest.raises(RuntimeError, match="no episode in progress"):
        env.step(0)


def test_env__safe_first_click_never_loses() -> None:
    env = MinesweeperEnv(4, 4, 15)
    for seed in range(50):
        env.reset(seed=seed)
        _obs, _r, terminated, _tr, info = env.step(seed % 16)
        assert info["outcome"] == Outcome.WON and terminated


def test_env__opening_first_click_opens_a_zero() -> None:
    env = MinesweeperEnv(9, 9, 30, first_click="opening")
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        obs, *_ = env.step(40)
        assert obs[4, 4] == 0


def test_env__flag_actions_toggle_and_count() -> None:
    env = fixed_env(flag_actions=True)
    obs, info = env.reset(seed=0)
    assert env.action_space.n == 50
    obs, reward, _t, _tr, info = env.step(25 + 13)
    assert obs[2, 3] == FLAGGED and info["mines_left"] == 1 and reward == 0.0
    assert info["action_mask"][13] == 0 and info["action_mask"][25 + 13] == 1
    obs, *_rest, info = env.step(25 + 13)
    assert obs[2, 3] == HIDDEN and info["mines_left"] == 2


def test_env__flags_before_first_click_survive_placement() -> None:
    env = MinesweeperEnv(flag_actions=True)
    env.reset(seed=0)
    env.step(81 + 80)  # flag (8, 8) before any reveal
    obs, *_ = env.step(0)
    assert obs[8, 8] in (FLAGGED, 0)  # a cascade may open a wrong flag; otherwise it stays


def test_env__score_mode_goes_on_and_counts_mines() -> None:
    env = fixed_env(score_mode=True)
    env.reset(seed=0)
    obs, reward, terminated, _tr, info = env.step(13)
    assert obs[2, 3] == EXPLODED and not terminated and reward == RewardConfig().loss
    assert (info["mines_exploded"], info["mines_found"]) == (1, 1)
    for action in (0, 24, 14, 4):
        obs, reward, terminated, _tr, info = env.step(action)
        if terminated:
            break
    assert terminated and info["outcome"] == Outcome.CLEARED
    assert info["mines_found"] == 1


def test_env__max_steps_truncates() -> None:
    env = MinesweeperEnv(9, 9, 10, max_steps=1)
    env.reset(seed=0)
    _obs, _r, terminated, truncated, _info = env.step(0)
    assert truncated != terminated or terminated


@pytest.mark.parametrize("obs_mode", ["board", "channels", "dict"])
def test_env__every_observation_form_decodes_to_the_board(obs_mode: str) -> None:
    env = MinesweeperEnv(obs_mode=obs_mode)
    obs, _ = env.reset(seed=4)
    obs, *_ = env.step(40)
    board = board_from_observation(obs)
    assert np.array_equal(board, env.visible)
    if obs_mode == "channels":
        assert obs.shape == (N_CHANNELS, 9, 9) and obs.dtype == np.float32
        assert np.all(obs.sum(axis=0) == 1)
    if obs_mode == "dict":
        assert np.array_equal(obs["revealed"], (board >= 0).astype(np.int8))
        assert np.array_equal(obs["action_mask"], (board == HIDDEN).ravel().astype(np.int8))


def test_env__observation_is_a_copy() -> None:
    env = MinesweeperEnv()
    obs, _ = env.reset(seed=0)
    env.step(40)
    assert np.all(obs == HIDDEN)


def test_env__density_sets_the_mine_count() -> None:
    assert MinesweeperEnv(16, 16, density=0.15625).mines == 40
    assert MinesweeperEnv(20, 20).mines == round(400 * 10 / 81)


def test_env__big_boards_work() -> None:
    env = MinesweeperEnv(300, 300, 1)
    env.reset(seed=0)
    _obs, reward, terminated, _tr, info = env.step(0)
    assert terminated and info["outcome"] == Outcome.WON and reward == 1.0
    tiny = MinesweeperEnv(1, 1, 0)
    tiny.reset(seed=0)
    assert tiny.step(0)[2]


@pytest.mark.parametrize("first_click", ["safe", "opening"])
def test_env__revealing_a_flag_first_does_not_spend_the_first_click(first_click: str) -> None:
    # Flag cell 40, "reveal" it (a no-op), then the first real reveal: the rule must protect it.
    env = MinesweeperEnv(9, 9, 30, first_click=first_click, flag_actions=True)
    lost = 0
    for seed in range(500):
        env.reset(seed=seed)
        env.step(81 + 40)
        _obs, _r, _t, _tr, info = env.step(40)
        assert info["invalid_actions"] == 1
        _obs, _r, _t, _tr, info = env.step(0)
        lost += info["outcome"] == Outcome.LOST
        assert env.visible[4, 4] != HIDDEN  # the flag survives the placement (or a flood opened it)
    assert lost == 0
