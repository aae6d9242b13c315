"""No agent ever proves a mine safe or a safe cell a mine, checked against the true layout.

Every explanation an agent gives during a game is kept and compared, after the game, with
``info["layout"]``. 2000 Beginner games in all, plus score-mode games on bigger boards.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import agents
from agents import MoveRecord, play_episode
from mswp_gym import MinesweeperEnv

SOUNDNESS_AGENTS = [
    ("local", {}),
    ("logic", {}),
    ("logic", {"guess": "sentence-max"}),
    ("logic", {"guess": "global"}),
]
BEGINNER_GAMES_PER_AGENT = 500


def unsound_claims(env: gym.Env, agent: Any, seed: int) -> list[str]:
    """Play one game and list every claim the agent made that the layout contradicts."""
    claims: list[tuple[MoveRecord, agents.Explanation]] = []

    def keep(
        record: MoveRecord, _agent: Any, explanation: agents.Explanation, _board: np.ndarray
    ) -> None:
        claims.append((record, explanation))

    result = play_episode(env, agent, seed, on_move=keep)
    layout = result.layout
    assert layout is not None
    problems = []
    for step, (record, explanation) in enumerate(claims):
        wrong_safe = {cell for cell in explanation.safe if layout[cell]}
        wrong_mines = {cell for cell in explanation.mines if not layout[cell]}
        if wrong_safe or wrong_mines:
            problems.append(f"seed {seed} step {step}: safe {wrong_safe} mines {wrong_mines}")
        if record.certain and layout[record.cell]:
            problems.append(f"seed {seed} step {step}: certain move {record.cell} is a mine")
    return problems


@pytest.mark.parametrize(("name", "kwargs"), SOUNDNESS_AGENTS)
def test_soundness__beginner_games(name: str, kwargs: dict) -> None:
    env = gym.make("Minesweeper-Beginner-v0")
    problems = []
    for seed in range(BEGINNER_GAMES_PER_AGENT):
        problems += unsound_claims(env, agents.make(name, **kwargs), seed)
    assert problems == []


@pytest.mark.parametrize(("name", "kwargs"), SOUNDNESS_AGENTS)
def test_soundness__score_mode_on_dense_boards(name: str, kwargs: dict) -> None:
    env = MinesweeperEnv(16, 16, 60, score_mode=True, first_click="any")
    problems = []
    for seed in range(15):
        problems += unsound_claims(env, agents.make(name, **kwargs), seed)
    assert problems == []


def test_soundness__check_catches_a_lying_agent() -> None:
    class Liar(agents.RandomAgent):
        def explain(self) -> agents.Explanation:
            rows, cols = self.spec.rows, self.spec.cols  # type: ignore[union-attr]
            return agents.Explanation.of(
                ((r, c) for r in range(rows) for c in range(cols)), certain=True
            )

    problems = unsound_claims(gym.make("Minesweeper-Beginner-v0"), Liar(), seed=0)
    assert problems
