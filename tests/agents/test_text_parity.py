"""Parity: the logic agent and the solver win the same games through text as through arrays."""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import mswp_gym  # noqa: F401 - registers the envs
from agents.episode import play_episode
from agents.text_play import play_text_episode
from mswp_gym.text.env import TextMinesweeperEnv
from mswp_gym.text.protocol import TextRules

SEEDS = range(500)


@pytest.mark.parametrize(("name", "options"), [("logic", {"guess": "global"}), ("solver", {})])
def test_text_play__wins_the_same_games_as_through_arrays(
    name: str, options: dict[str, str]
) -> None:
    array_env = gym.make("Minesweeper-Beginner-v0")
    text_env = TextMinesweeperEnv(preset="beginner", rules=TextRules(allow_flags=False))
    agent = agents.make(name, **options)
    through_arrays = [play_episode(array_env, agent, seed).won for seed in SEEDS]
    games = [play_text_episode(text_env, agent, seed) for seed in SEEDS]
    assert [game.won for game in games] == through_arrays
    assert sum(game.invalid for game in games) == 0
    assert 0 < sum(through_arrays) < len(SEEDS)  # both wins and losses were compared
