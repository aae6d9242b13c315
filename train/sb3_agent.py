"""Any Stable-Baselines3 PPO or sb3-contrib MaskablePPO zip as an agent: ``sb3:PATH``.

A model trained on a Minesweeper env with any policy and observation form plays beside the
built-in agents: the agent rebuilds the observation the model was trained on
(:func:`mswp_gym.encoding.encode`); the board size must match. A plain PPO model gets the mask
applied to its action distribution at play time, so it never plays a no-op.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium.spaces import Dict
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.base_class import BaseAlgorithm

from agents.base import Explanation, SeededAgent
from mswp_gym.encoding import OBS_MODES, board_from_observation, encode, observation_space
from mswp_gym.masks import action_mask as legal_actions
from mswp_gym.spec import GameSpec
from train.checkpoint import read_model


def observation_mode(model: BaseAlgorithm) -> tuple[str, int, int]:
    """``(obs_mode, rows, cols)`` of the Minesweeper observation space ``model`` was trained on.

    Raises:
        ValueError: the model's spaces are not a Minesweeper env's (names both spaces).
    """
    space, actions = model.observation_space, model.action_space
    n = int(getattr(actions, "n", 0))
    for mode in OBS_MODES:
        board_space = space["board"] if mode == "dict" and isinstance(space, Dict) else space
        shape = board_space.shape
        if shape is None or len(shape) < 2:
            continue
        rows, cols = int(shape[-2]), int(shape[-1])
        if observation_space(mode, rows, cols, n) == space:
            return mode, rows, cols
    raise ValueError(
        f"the model's observation space {space} with actions {actions} is not a Minesweeper "
        f"env's (obs_mode board, channels or dict with Discrete(rows*cols) actions)"
    )


class SB3Agent(SeededAgent):
    """Plays a loaded SB3 ``PPO`` or sb3-contrib ``MaskablePPO`` model.

    ``deterministic``: the most probable legal action, else a sample among legal ones.

    Raises:
        ValueError: the model's spaces are not a Minesweeper env's.
    """

    name = "sb3"
    move_kind = "network move"

    def __init__(
        self,
        model: BaseAlgorithm,
        seed: int | None = None,
        deterministic: bool = True,
        source: str = "model",
    ) -> None:
        super().__init__(seed)
        self.model = model
        self.obs_mode, self.rows, self.cols = observation_mode(model)
        self.n_actions = int(model.action_space.n)  # type: ignore[attr-defined]  # Discrete, checked on load
        self.flag_actions = self.n_actions == 2 * self.rows * self.cols
        self.maskable = isinstance(model.policy, MaskableActorCriticPolicy)
        self.deterministic = bool(deterministic)
        self.source = source

    def reset(self, seed: int | None = None, spec: GameSpec | None = None) -> None:
        """Start a new game.

        Raises:
            ValueError: ``spec`` is a board size the model was not trained for (names both).
        """
        if spec is not None and (spec.rows, spec.cols) != (self.rows, self.cols):
            raise ValueError(
                f"model {self.source} was trained on {self.rows}x{self.cols} boards; it cannot "
                f"play {spec.rows}x{spec.cols}"
            )
        super().reset(seed, spec)

    def act(self, observation: Any, action_mask: np.ndarray) -> int:
        """The model's choice among the legal actions of ``action_mask`` (never a masked one).

        Raises:
            ValueError: a board of another size, or no legal action.
        """
        board = board_from_observation(observation)
        if board.shape != (self.rows, self.cols):
            raise ValueError(
                f"model {self.source} plays {self.rows}x{self.cols} boards, got an observation "
                f"of shape {board.shape}"
            )
        legal = np.zeros(self.n_actions, dtype=bool)
        given = np.asarray(action_mask).ravel().astype(bool)[: self.n_actions]
        legal[: given.size] = given
        if not legal.any():
            raise ValueError(f"no legal action in a mask of shape {np.shape(action_mask)}")
        obs = encode(self.obs_mode, board, legal_actions(board, self.flag_actions))
        policy = self.model.policy
        with th.no_grad():  # SB3 types the policy as BasePolicy; its subclasses have the method
            obs_tensor, _ = policy.obs_to_tensor(obs)
            if self.maskable:
                dist = policy.get_distribution(obs_tensor, action_masks=legal[None])  # type: ignore[operator]  # see above
            else:
                dist = policy.get_distribution(obs_tensor)  # type: ignore[operator]  # see above
            logits = dist.distribution.logits[0].double().numpy()
        logits = np.where(legal, logits, -np.inf)
        if self.deterministic:
            return int(np.argmax(logits))
        weights = np.exp(logits - logits.max())
        return int(self.rng.choice(self.n_actions, p=weights / weights.sum()))

    def explain(self) -> Explanation:
        """A learned policy proves nothing: no safe or mine cells, no risk map, never certain."""
        return Explanation()


def load_sb3_agent(path: str | Path | None = None, **kwargs: Any) -> SB3Agent:
    """``agents.make("sb3:PATH")``: an :class:`SB3Agent` for the model at ``path``.

    ``path``: a (Maskable)PPO ``.zip`` or a run folder; ``kwargs``: ``seed``, ``deterministic``,
    ``torch_threads`` (default 1; None leaves torch's setting alone).

    Raises:
        ValueError: no path, an unreadable model, or spaces that are not a Minesweeper env's.
        FileNotFoundError: nothing at ``path``.
        TypeError: an unknown keyword argument.
    """
    unknown = set(kwargs) - {"seed", "deterministic", "torch_threads"}
    if unknown:
        raise TypeError(
            f"load_sb3_agent got unknown arguments {sorted(unknown)}; "
            f"accepted: seed, deterministic, torch_threads"
        )
    if path is None:
        raise ValueError("the sb3 agent needs a model: sb3:PATH (a PPO or MaskablePPO .zip)")
    threads = kwargs.pop("torch_threads", 1)
    if threads is not None:
        th.set_num_threads(int(threads))
    return SB3Agent(read_model(path), source=str(path), **kwargs)
