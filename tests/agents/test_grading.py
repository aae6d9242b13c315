"""Exact grades against brute force: every layout consistent with what the player sees."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from agents.grading import ExactGrader
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import is_clue, is_unknown
from mswp_gym.text.env import TextMinesweeperEnv


def brute_force_p_mine(board: np.ndarray, mines: int) -> np.ndarray:
    """``(rows*cols,)`` P(mine) of each unknown cell over every consistent layout (else NaN)."""
    rows, cols = board.shape
    flat = board.ravel()
    unknown = np.flatnonzero(is_unknown(flat))
    table = neighbour_table(rows, cols)
    clues = [(int(i), int(flat[i])) for i in np.flatnonzero(is_clue(flat))]
    counts = np.zeros(rows * cols)
    total = 0
    for chosen in itertools.combinations(unknown.tolist(), mines):
        layout = set(chosen)
        if all(sum(n in layout for n in table[i]) == v for i, v in clues):
            counts[list(chosen)] += 1
            total += 1
    p = np.full(rows * cols, np.nan)
    p[unknown] = counts[unknown] / total
    return p


@pytest.mark.parametrize(("rows", "cols", "mines"), [(4, 4, 3), (4, 5, 5), (5, 5, 4), (3, 6, 4)])
def test_exact_grader__matches_brute_force_on_positions_of_real_games(
    rows: int, cols: int, mines: int
) -> None:
    rng = np.random.default_rng(rows * cols + mines)
    grader = ExactGrader()
    env = TextMinesweeperEnv(rows=rows, cols=cols, mines=mines, first_click="any")
    checked = guesses = 0
    for seed in range(15):
        _, info = env.reset(seed=seed)
        grader.reset()
        done = False
        while not done:
            board = info["observation"]
            p = brute_force_p_mine(board, mines)
            unknown = np.flatnonzero(is_unknown(board.ravel()))
            best = 1 - np.nanmin(p[unknown])
            for index in unknown:
                grade = grader.grade(board, mines, int(index) // cols, int(index) % cols)
                assert grade.p_mine == pytest.approx(p[index], abs=1e-12)
                assert grade.safe == (p[index] == 0) and grade.mine == (p[index] == 1)
                assert grade.best_p_safe == pytest.approx(best, abs=1e-12)
                guesses += 0 < p[index] < 1
                checked += 1
            action = int(rng.choice(np.flatnonzero(info["action_mask"][: rows * cols])))
            _, _, done, _, info = env.step(f"reveal {action // cols} {action % cols}")
    assert checked > 300 and guesses > 50
