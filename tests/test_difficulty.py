"""mswp_gym.difficulty: 3BV and openings on hand-made boards and against a brute-force count; the
3BV in the final info of the single and the vector env."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mswp_gym import MinesweeperEnv
from mswp_gym.cells import neighbours
from mswp_gym.difficulty import bbbv, difficulty
from mswp_gym.pictures import parse_picture
from mswp_gym.vector import MinesweeperVectorEnv


@pytest.mark.parametrize(
    ("picture", "expected_bbbv", "expected_openings"),
    [
        ("...\n...\n...", 1, 1),  # no mine: one click opens everything
        ("*..\n...\n..*", 2, 2),  # two corner zeros, their borders cover every clue
        ("*.*\n.*.\n*.*", 4, 0),  # no zero: every safe cell is a click
        ("....\n**..\n....", 5, 1),  # one opening on the right, four lone clues on the left
        ("*", 0, 0),  # no safe cell at all
    ],
)
def test_difficulty__hand_made_boards(
    picture: str, expected_bbbv: int, expected_openings: int
) -> None:
    found = difficulty(parse_picture(picture).mines)
    assert (found.bbbv, found.openings) == (expected_bbbv, expected_openings)


def _brute_force(mines: np.ndarray) -> tuple[int, int]:
    """3BV and openings by a plain cell-by-cell search (the definition, written out)."""
    rows, cols = mines.shape
    count = {
        (r, c): sum(mines[n] for n in neighbours((r, c), rows, cols))
        for r in range(rows)
        for c in range(cols)
    }
    zero = {cell for cell, n in count.items() if n == 0 and not mines[cell]}
    covered: set[tuple[int, int]] = set()
    openings = 0
    seen: set[tuple[int, int]] = set()
    for start in sorted(zero):
        if start in seen:
            continue
        openings += 1
        stack = [start]
        seen.add(start)
        while stack:
            cell = stack.pop()
            covered.add(cell)
            for n in neighbours(cell, rows, cols):
                covered.add(n)
                if n in zero and n not in seen:
                    seen.add(n)
                    stack.append(n)
    lone = sum(1 for cell in count if not mines[cell] and cell not in covered)
    return openings + lone, openings


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 9),
    cols=st.integers(1, 12),
    density=st.floats(0.0, 0.6),
    seed=st.integers(0, 2**32 - 1),
)
def test_difficulty__matches_a_brute_force_count(
    rows: int, cols: int, density: float, seed: int
) -> None:
    mines = np.random.default_rng(seed).random((rows, cols)) < density
    found = difficulty(mines)
    assert (found.bbbv, found.openings) == _brute_force(mines)


def test_env__final_info_carries_the_layouts_3bv() -> None:
    env = MinesweeperEnv(preset="beginner")
    _, info = env.reset(seed=4)
    assert "bbbv" not in info
    done = False
    cell = 0
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[cell % 3]))
        cell += 1
    assert info["bbbv"] == bbbv(info["layout"]) and info["bbbv"].dtype == np.int64


@pytest.mark.parametrize("placement", ["batched", "generator"])
def test_vector_env__final_info_carries_each_ended_boards_3bv(placement: str) -> None:
    venv = MinesweeperVectorEnv(
        4, preset="beginner", autoreset_mode="SameStep", placement=placement
    )
    venv.reset(seed=1)
    ended = 0
    for _ in range(200):
        _, _, terminated, truncated, info = venv.step(np.argmax(venv.action_masks(), axis=1))
        if (terminated | truncated).any():
            final = info["final_info"]
            for i in np.flatnonzero(final["_bbbv"]):
                assert final["bbbv"][i] == bbbv(final["layout"][i])
                ended += 1
    assert ended >= 4
