"""The exact-beliefs wrapper: brute-force probabilities in info, observation planes, bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from agents.beliefs import INFO_KEY, ExactBeliefs
from agents.solver import SolverAgent
from mswp_gym import HIDDEN, MinesweeperEnv
from mswp_gym.constants import is_unknown
from mswp_gym.encoding import N_CHANNELS, board_from_observation
from tests.positions import layouts

LAYOUT = """
. . * . .
. . . . .
* . . . *
. . . . .
. * . . .
"""


def test_exact_beliefs__info_equals_brute_force_on_a_fixed_board() -> None:
    env = ExactBeliefs(MinesweeperEnv(layout=LAYOUT))
    _, info = env.reset(seed=0)
    assert np.allclose(info[INFO_KEY], 4 / 25)  # before the first click: the density
    board, _, _, _, info = env.step(4 * 5 + 4)  # bottom right: opens a region
    board = np.asarray(board)
    found = layouts(board, 4)
    expected = np.zeros(25)
    for mines in found:
        expected[list(mines)] += 1 / len(found)
    probability = info[INFO_KEY]
    assert probability.dtype == np.float32 and probability.shape == (5, 5)
    assert np.allclose(probability.ravel(), expected, atol=1e-6)
    assert (probability[board != HIDDEN] == 0).all()


@pytest.mark.parametrize("preset", ["beginner", "intermediate"])
def test_exact_beliefs__hidden_probabilities_sum_to_the_mines_left(preset: str) -> None:
    env = ExactBeliefs(gym.make(f"Minesweeper-{preset.capitalize()}-v0"))
    spec = env.get_wrapper_attr("game_spec")
    agent = SolverAgent()
    observation, info = env.reset(seed=3)
    agent.reset(3, spec)
    done = False
    while not done:
        board = board_from_observation(observation)
        assert info[INFO_KEY][is_unknown(board)].sum() == pytest.approx(spec.mines, rel=1e-5)
        action = agent.act(board, info["action_mask"])
        observation, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated


@pytest.mark.parametrize("obs_mode", ["channels", "dict"])
def test_exact_beliefs__observe_adds_the_probabilities_to_the_observation(obs_mode: str) -> None:
    env = ExactBeliefs(gym.make("Minesweeper-v0", obs_mode=obs_mode), observe=True)
    observation, info = env.reset(seed=1)
    observation, _, _, _, info = env.step(40)
    assert env.observation_space.contains(observation)
    plane = observation[INFO_KEY] if obs_mode == "dict" else observation[N_CHANNELS]
    assert np.array_equal(plane, info[INFO_KEY])


def test_exact_beliefs__same_seed_same_probabilities() -> None:
    runs = []
    for _ in range(2):
        env = ExactBeliefs(gym.make("Minesweeper-v0"))
        env.reset(seed=7)
        runs.append(env.step(0)[4][INFO_KEY])
    assert np.array_equal(*runs)


def test_exact_beliefs__bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="obs_mode 'channels' or 'dict'"):
        ExactBeliefs(gym.make("Minesweeper-v0"), observe=True)
    with pytest.raises(ValueError, match="clue_noise='optimistic'"):
        ExactBeliefs(gym.make("Minesweeper-v0", clue_noise="optimistic"))
