"""The indexed engine draws exactly the conclusions of the plain CS50 loop, move for move."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
def test_indexed_engine__same_moves_and_conclusions_as_plain(
    rows: int, cols: int, mines: int
) -> None:
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


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(2, 7),
    cols=st.integers(2, 7),
    density=st.floats(0.0, 0.5),
    seed=st.integers(0, 2**32 - 1),
)
def test_engines__sound_and_equal_on_any_reveal_order(
    rows: int, cols: int, density: float, seed: int
) -> None:
    """Reveal the safe cells in random order: both engines agree and never contradict the truth."""
    rng = np.random.default_rng(seed)
    layout = rng.random((rows, cols)) < density
    counts = neighbour_counts(layout)
    plain, indexed = MinesweeperAI(rows, cols), IndexedMinesweeperAI(rows, cols)
    safe_cells = [(int(r), int(c)) for r, c in np.argwhere(~layout)]
    for index in rng.permutation(len(safe_cells)):
        cell = safe_cells[int(index)]
        plain.add_knowledge(cell, int(counts[cell]))
        indexed.add_knowledge(cell, int(counts[cell]))
        assert indexed.mines == plain.mines and indexed.safes == plain.safes
        assert all(layout[m] for m in indexed.mines)
        assert not any(layout[s] for s in indexed.safes)
