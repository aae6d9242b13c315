"""One way to the action mask of any env: single, wrapped, Gymnasium vector or native vector.

Wrappers hide the env's ``action_masks`` method and each vector env reaches it differently;
:func:`action_masks` hides those differences. The masks all come from
:func:`mswp_gym.masks.action_mask`.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorEnv

METHOD = "action_masks"
"""The method name every mask-aware library reads (sb3-contrib's contract)."""


def action_masks(env: Any) -> np.ndarray:
    """The legal actions of ``env`` now, as a fresh bool array (``True`` = legal).

    A single env, bare or wrapped (the outermost wrapper that defines ``action_masks`` answers):
    shape ``(n,)``, ``n`` the size of the single action space. A Gymnasium vector env (any
    autoreset mode, the native :class:`~mswp_gym.vector.MinesweeperVectorEnv` too, wrapped or
    not) or an SB3 ``VecEnv``: shape ``(num_envs, n)``, row ``i`` for sub-env ``i``.

    Raises:
        TypeError: ``env`` is none of the above, or nothing in it has an ``action_masks`` method.
    """
    if isinstance(env, VectorEnv):
        return _vector_masks(env)
    if isinstance(env, gym.Env):
        try:
            method = env.get_wrapper_attr(METHOD)
        except AttributeError:
            raise TypeError(
                f"{env} has no {METHOD}() method in its wrapper stack; is it a Minesweeper env?"
            ) from None
        return np.array(method(), dtype=bool)
    if hasattr(env, "env_method") and hasattr(env, "num_envs"):  # an SB3 VecEnv, duck-typed
        return _stack(env.env_method(METHOD), env)
    raise TypeError(
        f"action_masks() needs a Gymnasium env, a Gymnasium vector env or an SB3 VecEnv, "
        f"got {type(env).__name__}"
    )


def _vector_masks(env: VectorEnv) -> np.ndarray:
    base = env.unwrapped
    batched = getattr(base, METHOD, None)
    if callable(batched):  # the native vector env answers for every board at once
        return np.array(batched(), dtype=bool)
    call = getattr(base, "call", None)
    if not callable(call):
        raise TypeError(f"{type(base).__name__} has neither {METHOD}() nor call()")
    try:
        rows = call(METHOD)
    except AttributeError:
        raise TypeError(f"the sub-envs of {env} have no {METHOD}() method") from None
    return _stack(rows, env)


def _stack(rows: Any, env: Any) -> np.ndarray:
    masks = np.array([np.asarray(row, dtype=bool) for row in rows], dtype=bool)
    if masks.ndim != 2 or masks.shape[0] != env.num_envs:
        raise TypeError(
            f"expected one 1-D mask per sub-env ({env.num_envs}), got shape {masks.shape}"
        )
    return masks
