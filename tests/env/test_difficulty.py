"""mswp_gym.difficulty: 3BV and openings on hand-made boards and against a brute-force count; the
envs' final info carries the layout (also at a step limit), and no 3BV is computed during play."""

from __future__ import annotations

import gymnasium as gym
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


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (np.array([[0, 2], [0, 0]]), "only 0/1 or False/True, got 2 at \\(0, 1\\)"),
        (np.array([[0.5]]), "got 0.5 at \\(0, 0\\)"),
        (np.zeros(4, dtype=bool), "non-empty 2-D array, got shape \\(4,\\)"),
        (np.zeros((0, 3), dtype=bool), "non-empty 2-D array, got shape \\(0, 3\\)"),
    ],
)
def test_difficulty__refuses_what_is_not_a_layout(layout: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        difficulty(layout)


def _refuse(_: object) -> None:
    raise AssertionError("3BV computed during play")


def test_env__final_info_carries_the_layout_not_its_3bv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mswp_gym.difficulty.difficulty", _refuse)
    env = MinesweeperEnv(preset="beginner")
    _, info = env.reset(seed=4)
    done = False
    cell = 0
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[cell % 3]))
        cell += 1
    assert info["layout"].shape == (9, 9) and "bbbv" not in info
    monkeypatch.undo()
    assert bbbv(info["layout"]) == _brute_force(info["layout"])[0]


@pytest.mark.parametrize("placement", ["batched", "generator"])
def test_vector_env__final_info_carries_each_ended_boards_layout_not_its_3bv(
    placement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("mswp_gym.difficulty.difficulty", _refuse)
    venv = MinesweeperVectorEnv(
        4, preset="beginner", autoreset_mode="SameStep", placement=placement
    )
    venv.reset(seed=1)
    ended = 0
    for _ in range(200):
        _, _, terminated, truncated, info = venv.step(np.argmax(venv.action_masks(), axis=1))
        if (terminated | truncated).any():
            final = info["final_info"]
            assert "bbbv" not in final and "_bbbv" not in final
            for i in np.flatnonzero(final["_layout"]):
                assert final["layout"][i].sum() == 10
                ended += 1
    assert ended >= 4


@pytest.mark.parametrize(
    ("mode", "limit"),
    [("vector_entry_point", {"max_episode_steps": 3}), ("sync", {"max_steps": 3})],
)
def test_make_vec__a_step_limit_end_carries_the_layout_in_every_mode(
    mode: str, limit: dict[str, int]
) -> None:
    envs = gym.make_vec("Minesweeper-Beginner-v0", num_envs=2, vectorization_mode=mode, **limit)
    envs.reset(seed=0)
    for _ in range(3):  # reveal cell 0, then two no-ops: the limit ends both games
        _, _, terminated, truncated, info = envs.step(np.zeros(2, dtype=np.int64))
    assert truncated.all() and not terminated.any()
    assert info["_layout"].all() and info["layout"].sum(axis=(1, 2)).tolist() == [10, 10]
    assert "bbbv" not in info


def test_make_vec__a_time_limit_outside_the_env_ends_without_the_layout() -> None:
    envs = gym.make_vec(
        "Minesweeper-Beginner-v0", num_envs=2, vectorization_mode="sync", max_episode_steps=3
    )
    envs.reset(seed=0)
    for _ in range(3):
        _, _, terminated, truncated, info = envs.step(np.zeros(2, dtype=np.int64))
    assert truncated.all() and not terminated.any()
    assert "layout" not in info  # as documented: TimeLimit ends the game outside the env
