"""The CS520 report's uncertain-clue models in the env."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mswp_gym import NO_CLUE, MinesweeperEnv
from mswp_gym.cells import neighbours


def play_all_safe(env: MinesweeperEnv, seed: int) -> tuple[np.ndarray, dict]:
    """Reveal every safe cell (reading the layout from a throwaway copy of the game)."""
    twin = MinesweeperEnv(env.rows, env.cols, env.mines, first_click="any")
    twin.reset(seed=seed)
    layout = twin.unwrapped._board.mines
    env.reset(seed=seed)
    obs, info = None, {}
    terminated = False
    for index in np.flatnonzero(~layout.ravel()):
        if env.action_masks()[index]:
            obs, _r, terminated, _tr, info = env.step(int(index))
        if terminated:
            break
    assert terminated
    return obs, {"layout": layout, **info}


@pytest.mark.parametrize("noise", ["exact", "optimistic", "cautious"])
def test_clues__noise_bounds_hold(noise: str) -> None:
    for seed in range(20):
        env = MinesweeperEnv(8, 8, 12, first_click="any", clue_noise=noise)
        obs, info = play_all_safe(env, seed)
        layout = info["layout"]
        for r, c in zip(*np.nonzero(~layout), strict=True):
            around = neighbours((int(r), int(c)), 8, 8)
            true = sum(layout[n] for n in around)
            shown = obs[r, c]
            if noise == "exact":
                assert shown == true
            elif noise == "optimistic":
                assert 0 <= shown <= true
            else:
                assert true <= shown <= len(around)


def test_clues__noise_really_varies() -> None:
    env = MinesweeperEnv(8, 8, 12, first_click="any", clue_noise="cautious")
    obs, _info = play_all_safe(env, 3)
    exact = MinesweeperEnv(8, 8, 12, first_click="any")
    exact_obs, _ = play_all_safe(exact, 3)
    assert (obs != exact_obs).any()


def test_clues__reveal_prob_hides_some_clues_and_no_flood_fill() -> None:
    env = MinesweeperEnv(9, 9, 10, clue_reveal_prob=0.5)
    shown = hidden = 0
    for seed in range(30):
        env.reset(seed=seed)
        obs, *_ = env.step(40)
        assert (obs != -1).sum() == 1  # exactly one cell opened: no cascade
        shown += int(obs[4, 4] >= 0)
        hidden += int(obs[4, 4] == NO_CLUE)
    assert shown > 3 and hidden > 3


def test_clues__same_seed_same_clues() -> None:
    a = MinesweeperEnv(clue_noise="optimistic", clue_reveal_prob=0.7)
    b = MinesweeperEnv(clue_noise="optimistic", clue_reveal_prob=0.7)
    a.reset(seed=9)
    b.reset(seed=9)
    for action in (40, 0, 80, 8, 72):
        assert np.array_equal(a.step(action)[0], b.step(action)[0])


def test_clues__checkers_pass_and_spec_tells_agents() -> None:
    env = MinesweeperEnv(clue_reveal_prob=0.5, clue_noise="cautious")
    check_env(env, skip_render_check=True)
    assert (env.game_spec.clue_reveal_prob, env.game_spec.clue_noise) == (0.5, "cautious")
    assert not env.game_spec.exact_clues


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"clue_reveal_prob": 1.5}, "clue_reveal_prob must be a number in \\[0, 1\\], got 1.5"),
        ({"clue_noise": "loud"}, "unknown clue_noise 'loud'"),
    ],
)
def test_clues__bad_options_are_named(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MinesweeperEnv(**kwargs)
