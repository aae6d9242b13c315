"""Each inlined fast path against its reference, on many seeded random games of several sizes.

``MinesweeperEnv`` keeps its action mask up to date cell by cell (with the rule of
:func:`mswp_gym.masks.update_action_mask` inlined for the common move) and decides "informed or
blind" from the mask without flags (``_has_revealed_neighbour`` otherwise): both must match what
the observation says. ``Board.reveal`` against every flood-fill method is in
``test_board_properties.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym import MinesweeperEnv, RewardConfig, action_mask
from mswp_gym.cells import SMALL_BOARD_CELLS, neighbour_table
from mswp_gym.constants import is_revealed

REWARDS = RewardConfig(
    win=1.0, loss=-1.0, progress=0.25, guess=-0.125, invalid=-0.5, flag=0.0, first_move=0.0625
)
"""Distinct values, so a reward names the kind of step."""

SIZES = [(3, 3, 1), (9, 9, 10), (16, 30, 99), (65, 65, 300)]
"""Tiny, Beginner, Expert and one board above SMALL_BOARD_CELLS (no neighbour table)."""

OPTIONS = [
    {},
    {"flag_actions": True},
    {"score_mode": True},
    {"flag_actions": True, "score_mode": True},
    {"clue_reveal_prob": 0.7},
    {"first_click": "any"},
]


def random_action(info: dict, rng: np.random.Generator, n_actions: int) -> int:
    """Mostly a legal action; now and then any action, so no-ops are played too."""
    if rng.random() < 0.1:
        return int(rng.integers(n_actions))
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


def test_sizes__include_a_board_without_neighbour_tables() -> None:
    assert max(rows * cols for rows, cols, _ in SIZES) > SMALL_BOARD_CELLS


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize(("rows", "cols", "mines"), SIZES)
def test_env_mask__equals_action_mask_of_the_observation(
    rows: int, cols: int, mines: int, options: dict
) -> None:
    env = MinesweeperEnv(rows, cols, mines, rewards=REWARDS, **options)
    flags = env.flag_actions
    rng = np.random.default_rng(rows * cols)
    games = 4 if rows * cols > SMALL_BOARD_CELLS else 25
    for seed in range(games):
        obs, info = env.reset(seed=seed)
        done = False
        while True:
            expected = action_mask(obs, flags)
            assert np.array_equal(info["action_mask"], expected)
            assert np.array_equal(env.action_masks(), expected.astype(bool))
            if done:
                break
            obs, _, terminated, truncated, info = env.step(
                random_action(info, rng, env.action_space.n)
            )
            done = terminated or truncated


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize(("rows", "cols", "mines"), SIZES)
def test_env_reward__progress_exactly_when_a_neighbour_was_revealed(
    rows: int, cols: int, mines: int, options: dict
) -> None:
    env = MinesweeperEnv(rows, cols, mines, rewards=REWARDS, max_steps=None, **options)
    cells = rows * cols
    around = neighbour_table(rows, cols)
    rng = np.random.default_rng(cells + 1)
    games = 4 if cells > SMALL_BOARD_CELLS else 25
    for seed in range(games):
        obs, info = env.reset(seed=seed)
        reveals = 0
        done = False
        while not done:
            action = random_action(info, rng, env.action_space.n)
            legal = bool(info["action_mask"][action])
            informed = bool(is_revealed(obs).ravel()[list(around[action % cells])].any())
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            if action >= cells or not legal:
                continue
            reveals += 1
            if reward in (REWARDS.win, REWARDS.loss) or reveals == 1:
                continue
            assert reward == (REWARDS.progress if informed else REWARDS.guess)
