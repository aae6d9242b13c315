"""Exact beliefs as a Gymnasium wrapper: every position's true mine probabilities in ``info``.

``ExactBeliefs(env)`` adds ``info["mine_probabilities"]`` after every ``reset`` and ``step``: a
``(rows, cols)`` float32 array of each hidden or flagged cell's exact mine probability given the
visible clues and the mine count (:func:`agents.solver.analyse`), 0 on revealed safe cells and 1
on visible mines. With ``observe=True`` the array is also part of the observation (a last plane
of ``channels``, a ``"mine_probabilities"`` key of ``dict``). The wrapper reads only what a player
sees; before the first click the probabilities are the plain density.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.solver.probability import RegionCache, analyse
from mswp_gym.encoding import board_from_observation
from mswp_gym.spec import GameSpec

INFO_KEY = "mine_probabilities"


def exact_beliefs(board: np.ndarray, mines: int, cache: RegionCache | None = None) -> np.ndarray:
    """``(rows, cols)`` float32 exact P(mine) of a visible board: 0 on revealed safe cells, 1 on
    visible mines (see the module docstring); ``cache`` is reused between positions of a game."""
    probability = analyse(board, mines, cache).probability.reshape(board.shape)
    beliefs: np.ndarray = np.nan_to_num(probability, nan=0.0).astype(np.float32)
    return beliefs


class ExactBeliefs(gym.Wrapper[Any, Any, Any, Any]):
    """Adds the exact mine probabilities of the position to ``info`` (and the observation).

    ``env`` needs exact clues; ``observe`` needs ``obs_mode`` ``channels`` or ``dict``.

    Raises:
        ValueError: noisy clues (the exact engine assumes true clues), or ``observe`` with a
            ``board`` observation.
    """

    def __init__(self, env: gym.Env[Any, Any], observe: bool = False) -> None:
        super().__init__(env)
        spec: GameSpec = env.get_wrapper_attr("game_spec")
        if spec.clue_noise != "exact":
            raise ValueError(
                f"exact beliefs need exact clues; the env has clue_noise='{spec.clue_noise}'"
            )
        self.observe = observe
        self.cache = RegionCache()
        self.probabilities = np.zeros((spec.rows, spec.cols), np.float32)
        """The current position's probabilities (also ``info["mine_probabilities"]``)."""
        if not observe:
            return
        plane = spaces.Box(0.0, 1.0, shape=(spec.rows, spec.cols), dtype=np.float32)
        space = env.observation_space
        if isinstance(space, spaces.Dict):
            self.observation_space = spaces.Dict({**space.spaces, INFO_KEY: plane})
        elif isinstance(space, spaces.Box) and len(space.shape) == 3:
            channels = space.shape[0] + 1
            self.observation_space = spaces.Box(
                0.0, 1.0, shape=(channels, spec.rows, spec.cols), dtype=np.float32
            )
        else:
            raise ValueError(
                "observe=True needs obs_mode 'channels' or 'dict'; the env's observations are "
                f"{space}"
            )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Reset the env and a fresh region cache; ``info`` gains the probabilities."""
        self.cache = RegionCache()
        observation, info = self.env.reset(seed=seed, options=options)
        return self._annotate(observation, info)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Step the env; ``info`` (and with ``observe`` the observation) gains the probabilities."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        observation, info = self._annotate(observation, info)
        return observation, reward, terminated, truncated, info

    def _annotate(self, observation: Any, info: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        spec: GameSpec = self.env.get_wrapper_attr("game_spec")
        board = board_from_observation(observation)
        self.probabilities = exact_beliefs(board, spec.mines, self.cache)
        info = {**info, INFO_KEY: self.probabilities.copy()}
        if not self.observe:
            return observation, info
        if isinstance(observation, dict):
            return {**observation, INFO_KEY: self.probabilities.copy()}, info
        return np.concatenate([observation, self.probabilities[None]]), info
