"""The indexed engine draws exactly the conclusions of the plain CS50 loop, move for move."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import mswp_gym  # noqa: F401  (registers the env ids)
from agents import IndexedMinesweeperAI, LogicAgent, MinesweeperAI, play_episode
from mswp_gym.cells import neighbour_counts


def cs50_runner_game(ai_class: type, rows: int, cols: int, mines: int, seed: int) -> list[tuple]:
    """Play the CS50 runner's way (one cell per move, no flood fill); record each step's state."""
    rng = np.random.default_rng(seed)
    flat_layout = np.zeros(rows * cols, dtype=bool)
    flat_layout[rng.choice(rows * cols, size=mines, replace=False)] = True
    layout = flat_layout.reshape(rows, cols)
    counts = neighbour_counts(layout)
    ai = ai_class(rows, cols, rng=np.random.default_rng(seed + 1))
    trace: list[tuple] = []
    while True:
        move = ai.make_safe_move() or ai.make_random_move()
        if move is None or layout[move]:
            trace.append(("end", move))
            return trace
        ai.add_knowledge(move, int(counts[move]))
        trace.append((move, frozenset(ai.mines), frozenset(ai.safes)))


@pytest.mark.parametrize(("rows", "cols", "mines"), [(8, 8, 8), (9, 9, 10), (6, 10, 15)])
def test_indexed_engine__same_moves_and_conclusions_as_plain(rows: int, cols: int, mines: int) -> None:
    for seed in range(40):
        plain = cs50_runner_game(MinesweeperAI, rows, cols, mines, seed)
        indexed = cs50_runner_game(IndexedMinesweeperAI, rows, cols, mines, seed)
        assert indexed == plain, f"seed {seed}"


@pytest.mark.parametrize("guess", ["random", "sentence-max", "global"])
def test_logic_agent__indexed_and_plain_engines_play_the_same_game(guess: str) -> None:
    env = gym.make("Minesweeper-Beginner-v0")
    for seed in range(25):
        plain = play_episode(env, LogicAgent(guess=guess, engine="plain"), seed)
        indexed = play_episode(env, LogicAgent(guess=guess, engine="indexed"), seed)
        assert indexed.moves == plain.moves, f"seed {seed}"
        assert indexed.outcome == plain.outcome
