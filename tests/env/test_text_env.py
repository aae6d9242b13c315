"""The text env: the array env's game spoken in text, invalid replies change nothing."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mswp_gym  # noqa: F401 - registers the envs
from agents.grading import ExactGrader
from mswp_gym.config import GameConfig
from mswp_gym.rewards import RewardConfig
from mswp_gym.text.env import TextMinesweeperEnv
from mswp_gym.text.protocol import Move, MoveKind, TextRules, format_move, parse_board

RULES = ("any", "safe", "opening", "no-guess")


def test_text_env__passes_gymnasiums_env_checker() -> None:
    check_env(
        gym.make("Minesweeper-Text-v0", rows=5, cols=6, mines=4).unwrapped, skip_render_check=True
    )
    check_env(TextMinesweeperEnv(reward_mode="graded", grader=ExactGrader()))


@pytest.mark.parametrize("first_click", RULES)
def test_text_env__same_seed_same_game_as_the_array_env(first_click: str) -> None:
    game = {"rows": 8, "cols": 10, "mines": 12, "first_click": first_click}
    text = gym.make("Minesweeper-Text-v0", reward_mode="per_reveal", **game)
    array = gym.make("Minesweeper-v0", rewards=RewardConfig.per_reveal(), flag_actions=True, **game)
    rng = np.random.default_rng(7)
    for seed in range(4):
        prompt, tinfo = text.reset(seed=seed)
        obs, ainfo = array.reset(seed=seed)
        assert prompt.startswith("You are playing Minesweeper on a 8x10 board with 12")
        done = False
        while not done:
            np.testing.assert_array_equal(tinfo["observation"], obs)
            np.testing.assert_array_equal(parse_board(prompt), obs)
            np.testing.assert_array_equal(tinfo["action_mask"], ainfo["action_mask"])
            action = int(rng.choice(np.flatnonzero(ainfo["action_mask"][:80])))
            move = Move(MoveKind.REVEAL, action // 10, action % 10)
            prompt, treward, tdone, _, tinfo = text.step(format_move(move, TextRules()))
            obs, areward, done, _, ainfo = array.step(action)
            assert tinfo["move"] == move and tinfo["invalid_reason"] is None
            assert (treward, tdone, tinfo["outcome"]) == (areward, done, ainfo["outcome"])
        np.testing.assert_array_equal(tinfo["layout"], ainfo["layout"])


def test_text_env__takes_every_game_argument_through_game_config() -> None:
    env = TextMinesweeperEnv(rows=6, cols=7, density=0.2, first_click="no-guess", max_steps=50)
    config = env.config
    assert (config.rows, config.cols, config.mines, config.first_click) == (6, 7, 8, "no-guess")
    assert (config.max_steps, config.flag_actions, config.obs_mode) == (50, True, "board")
    layout = "*..\n...\n..*"
    fixed = gym.make("Minesweeper-Text-v0", layout=layout, rules=TextRules(allow_flags=False))
    text, _ = fixed.reset(seed=0)
    assert "3x3 board with 2 hidden mines" in text and "flag ROW COL" not in text
    _, reward, done, _, info = fixed.step("reveal 0 0")
    assert (reward, done, bool(info["is_success"])) == (-1.0, True, False)
    configured = TextMinesweeperEnv(config=GameConfig(preset="expert"))
    assert (configured.config.rows, configured.config.cols, configured.config.mines) == (16, 30, 99)
    with pytest.raises(ValueError, match="unknown first_click rule 'sometimes'"):
        TextMinesweeperEnv(first_click="sometimes")


def test_text_env__refuses_options_it_sets_and_graded_modes_without_a_grader() -> None:
    for name, value in (("obs_mode", "channels"), ("flag_actions", True), ("rewards", {})):
        with pytest.raises(TypeError, match=f"sets {name} itself"):
            TextMinesweeperEnv(**{name: value})
    for mode in ("graded", "certain_only"):
        with pytest.raises(ValueError, match="needs a grader: pass grader="):
            gym.make("Minesweeper-Text-v0", reward_mode=mode)
    with pytest.raises(ValueError, match="unknown reward_mode 'dense'; choose one of outcome"):
        TextMinesweeperEnv(reward_mode="dense")
    with pytest.raises(ValueError, match="grading needs exact clues"):
        TextMinesweeperEnv(clue_noise="cautious", grader=ExactGrader())


@pytest.mark.parametrize(
    "reply",
    [
        "hello",
        "reveal 4 4",
        "reveal 9 9",
        "flag 4 4",
        "reveal ٣ ٤",
        '{"action": "揭开", "row": 3, "col": 4}',
        "x" * 1_000_000,
        "(4, 4)",
    ],
)
def test_text_env__an_invalid_reply_changes_nothing_and_counts(reply: str) -> None:
    env = TextMinesweeperEnv(first_click="opening", rules=TextRules(max_invalid=2))
    env.reset(seed=3)
    _, _, _, _, before = env.step("reveal 4 4")  # opens (4, 4) and its neighbours
    state = env._array.visible.copy()
    text, reward, done, truncated, info = env.step(reply)
    assert text.startswith("Invalid reply (1 of 2): ") and len(text.splitlines()[0]) < 200
    assert env.observation_space.contains(text)  # printable ASCII, whatever the reply
    assert (reward, done, truncated, info["invalid_replies"]) == (-0.0, False, False, 1)
    assert info["move"] is None and info["invalid_reason"]
    np.testing.assert_array_equal(env._array.visible, state)
    np.testing.assert_array_equal(info["observation"], state)
    np.testing.assert_array_equal(info["action_mask"], before["action_mask"])
    assert info["steps"] == before["steps"]
    text, reward, done, _, info = env.step(reply)
    assert (reward, done, int(info["outcome"]), info["is_success"]) == (-1.0, True, 2, False)
    assert "you lose" in text
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("reveal 1 1")


def test_text_env__one_based_rules_number_the_board_and_moves_from_one() -> None:
    env = TextMinesweeperEnv(rows=4, cols=4, mines=2, rules=TextRules(one_based=True))
    text, _ = env.reset(seed=0)
    assert "Rows are numbered 1-4" in text and "1 | # # # #" in text
    assert env.step("reveal 0 1")[4]["invalid_reason"].startswith("cell (0, 1) is off the board")
    _, _, _, _, info = env.step("reveal 1 1")
    assert info["move"] == Move(MoveKind.REVEAL, 0, 0)


@pytest.mark.parametrize("mode", ["graded", "certain_only"])
def test_text_env__graded_rewards_follow_the_exact_grades(mode: str) -> None:
    env = gym.make(
        "Minesweeper-Text-v0", rows=6, cols=6, mines=7, reward_mode=mode, grader=ExactGrader()
    )
    rng = np.random.default_rng(0)
    lucky_guesses = 0
    for seed in range(30):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"][:36])))
            _, reward, done, _, info = env.step(f"reveal {action // 6} {action % 6}")
            hit = done and not info["is_success"]
            assert 0.0 <= info["p_mine"] <= 1.0 and 0.0 < info["best_p_safe"] <= 1.0
            if hit:
                assert reward == -1.0 and not info["certain"]
            elif info["certain"]:
                assert reward == 1.0 and info["p_mine"] == 0.0
            elif mode == "certain_only":
                assert reward == -1.0  # a mistake, even though the cell was safe
                lucky_guesses += 1
            else:
                assert reward == pytest.approx((1 - info["p_mine"]) / info["best_p_safe"])
                lucky_guesses += 1
    assert lucky_guesses > 10


def test_text_env__pickles_mid_game_and_plays_on_identically() -> None:
    import pickle

    env = TextMinesweeperEnv(reward_mode="graded", grader=ExactGrader(), first_click="opening")
    env.reset(seed=5)
    env.step("reveal 4 4")
    copy = pickle.loads(pickle.dumps(env))
    for reply in ("reveal 0 0", "nonsense", "reveal 8 8", "flag 3 3"):
        if env._done:
            break
        a, b = env.step(reply), copy.step(reply)
        assert a[:4] == b[:4] and a[4].get("p_mine") == b[4].get("p_mine")
