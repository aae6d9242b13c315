"""Stable-Baselines3 ``VecEnv`` over the batched :class:`~mswp_gym.vector.MinesweeperVectorEnv`.

E.g. ``MaskablePPO("MlpPolicy", MinesweeperSB3VecEnv(num_envs=64, rows=9, cols=9, mines=10))``.
SB3 conventions: float32 rewards, ``dones = terminated | truncated``, a finished board reset within
the step; ``infos`` holds ``"TimeLimit.truncated"`` per board and, for a board whose episode just
ended, its final info and ``"terminal_observation"`` (live boards' info: :attr:`last_info`).
``env_method("action_masks")`` returns the rows of one batched mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import (
    VecEnv,
    VecEnvIndices,
    VecEnvObs,
    VecEnvStepReturn,
)

from mswp_gym.inputs import check_seed
from mswp_gym.vector.vector_env import MinesweeperVectorEnv

PER_BOARD_METHODS: tuple[str, ...] = ("action_masks",)
"""Methods ``env_method`` answers per board (their batched result is split into rows)."""


class MinesweeperSB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` of B Minesweeper boards stepped together.

    Either ``venv``, a :class:`MinesweeperVectorEnv` with ``autoreset_mode=SAME_STEP``, or
    ``num_envs`` and that env's keyword arguments (``autoreset_mode`` is always ``SAME_STEP``).

    Raises:
        ValueError: for a ``venv`` that does not reset in the same step, or both ``venv`` and
            keyword arguments.
    """

    def __init__(
        self,
        num_envs: int | None = None,
        *,
        venv: MinesweeperVectorEnv | None = None,
        **env_kwargs: Any,
    ) -> None:
        if venv is None:
            if "autoreset_mode" in env_kwargs:
                raise ValueError(
                    "the SB3 adapter always resets in the same step; drop autoreset_mode"
                )
            venv = MinesweeperVectorEnv(
                1 if num_envs is None else num_envs,
                autoreset_mode=AutoresetMode.SAME_STEP,
                **env_kwargs,
            )
        else:
            if env_kwargs or (num_envs is not None and num_envs != venv.num_envs):
                raise ValueError(
                    f"give venv or num_envs with env arguments, not both (got num_envs={num_envs}, "
                    f"arguments {sorted(env_kwargs)})"
                )
            if venv.autoreset_mode != AutoresetMode.SAME_STEP:
                raise ValueError(
                    "SB3 needs same-step autoreset; "
                    f"the venv has autoreset_mode={venv.autoreset_mode}"
                )
        self.venv = venv
        self.last_info: dict[str, Any] = {}
        """The batched env's last info dict (Gymnasium's vector layout: arrays, ``_key`` masks)."""
        self._actions: np.ndarray | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    @classmethod
    def from_id(cls, env_id: str, num_envs: int, **kwargs: Any) -> MinesweeperSB3VecEnv:
        """Build from a registered id (``"Minesweeper-Expert-v0"``) with ``gymnasium.make_vec``."""
        venv = gym.make_vec(
            env_id,
            num_envs=num_envs,
            vectorization_mode="vector_entry_point",
            autoreset_mode=AutoresetMode.SAME_STEP,
            **kwargs,
        )
        if not isinstance(venv, MinesweeperVectorEnv):
            raise TypeError(
                f"{env_id!r} did not build a MinesweeperVectorEnv, got {type(venv).__name__}"
            )
        return cls(venv=venv)

    # ------------------------------------------------------------ VecEnv API
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """SB3's ``seed``: board ``i`` gets ``seed + i`` at the next ``reset`` (None: a random
        seed), each checked by :func:`mswp_gym.inputs.check_seed`.

        Raises:
            TypeError / ValueError: a bad seed, named.
        """
        seeds = super().seed(check_seed(seed))
        for i, board_seed in enumerate(seeds):
            check_seed(board_seed, f"seed + {i} (board {i}'s seed)")
        return seeds

    def reset(self) -> VecEnvObs:
        """Reset every board, using the seeds/options set by ``seed()``/``set_options()`` once."""
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        options = self._options[0] if self._options and self._options[0] else None
        obs: VecEnvObs
        obs, info = self.venv.reset(seed=seeds, options=options)
        self.last_info = info
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Remember the actions; :meth:`step_wait` applies them."""
        self._actions = np.asarray(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Step every board; see the module docstring for the info list."""
        if self._actions is None:
            raise RuntimeError("step_wait() called without step_async()")
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        self._actions = None
        self.last_info = info
        dones = terminated | truncated
        timeouts = truncated & ~terminated
        infos: list[dict[str, Any]] = [{"TimeLimit.truncated": False} for _ in range(self.num_envs)]
        finished = np.flatnonzero(dones)
        if finished.size:
            final_obs = info["final_obs"]
            final_info = info["final_info"]
            keys = [k for k in final_info if not k.startswith("_")]
            for i in finished:
                board_info = infos[i]
                for key in keys:
                    if final_info[f"_{key}"][i]:
                        value = final_info[key][i]
                        board_info[key] = value.item() if np.ndim(value) == 0 else value
                board_info["TimeLimit.truncated"] = bool(timeouts[i])
                board_info["terminal_observation"] = final_obs[i]
                self.reset_infos[i] = {}
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The batched env's attribute, once per requested board (all boards share it)."""
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the batched env (shared by every board: ``indices`` must be all)."""
        chosen = list(self._get_indices(indices))
        if len(chosen) != self.num_envs:
            raise ValueError(
                f"attribute {attr_name!r} is shared by all {self.num_envs} boards; cannot set it "
                f"for indices {chosen}"
            )
        setattr(self.venv, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call a per-board method (``action_masks``): one result per requested board.

        Raises:
            AttributeError: for a method that has no per-board meaning here.
        """
        if method_name not in PER_BOARD_METHODS:
            raise AttributeError(
                f"env_method({method_name!r}) is not supported by the batched Minesweeper VecEnv; "
                f"per-board methods: {', '.join(PER_BOARD_METHODS)}"
            )
        batched = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        chosen = self._get_indices(indices)
        if indices is None:
            return list(batched)
        return [batched[i] for i in chosen]

    def env_is_wrapped(
        self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None
    ) -> list[bool]:
        """No board is a wrapped single env."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        """One RGB frame per board (needs ``render_mode="rgb_array"``)."""
        frames = self.venv.render()
        if frames is None or self.render_mode != "rgb_array":
            return [None for _ in range(self.num_envs)]
        return list(frames)

    def _get_indices(self, indices: VecEnvIndices) -> Iterable[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, (int, np.integer)):
            return [int(indices)]
        return indices
