"""``explain()`` is a query: an agent makes the same moves whether or not it is asked.

The GUI and ``play_episode(on_move=...)`` call it after every move while ``python -m eval`` does
not, so a side effect there would make the watched game differ from the measured one.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

import agents
import mswp_gym  # noqa: F401  (registers the env)
from agents.episode import play_episode


@pytest.mark.parametrize("name", ["solver", "solver-noise", "logic", "local", "random", "ppo"])
def test_explain__does_not_change_the_moves(name: str) -> None:
    env = gym.make("Minesweeper-v0", rows=9, cols=9, mines=10, first_click="safe")
    for seed in range(12):
        asked = play_episode(env, agents.make(name), seed, on_move=lambda *_: None)
        alone = play_episode(env, agents.make(name), seed)
        assert [m.cell for m in asked.moves] == [m.cell for m in alone.moves], (name, seed)


def test_solver_safe_cells__does_not_change_the_moves() -> None:
    env = gym.make("Minesweeper-v0", rows=9, cols=9, mines=10, first_click="safe")
    for seed in range(12):
        agent = agents.make("solver")
        queried = []
        observation, info = env.reset(seed=seed)
        agent.reset(seed, env.get_wrapper_attr("game_spec"))
        done = False
        while not done:
            action = agent.act(observation, info["action_mask"])
            agent.safe_cells()
            queried.append(action)
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        alone = play_episode(env, agents.make("solver"), seed)
        cols = 9
        assert queried == [r * cols + c for r, c in (m.cell for m in alone.moves)], seed
