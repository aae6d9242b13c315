"""What every entry point takes as an action and as a seed: one rule and one message for each.

The single env, the vector env and the SB3 adapter all check actions and seeds here. An action is
an integer of the action space (a Python or NumPy integer, or an integer array for a batch; never
a bool). A seed is None or a non-negative integer below ``2**64`` (never a bool).
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any, TypeGuard

import numpy as np

MAX_SEED = 2**64 - 1
"""The largest seed (seeds are integers in ``[0, 2**64)``)."""

ACTION_KINDS = "an int or NumPy integer; bools are not actions"


def is_integer(value: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``value`` is a Python or NumPy integer; a bool (Python's or NumPy's) is not."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_seed(seed: object, name: str = "seed") -> int | None:
    """``seed`` as a Python int (None stays None), by the rule of the module docstring.

    ``name`` is what the message calls it (``seed``, ``seed of board 3``).

    Raises:
        TypeError: not an integer (a bool, a float, a string), naming ``name`` and the value.
        ValueError: negative, or ``2**64`` or more.
    """
    if seed is None:
        return None
    if not is_integer(seed):
        raise TypeError(f"{name} must be None or an integer in [0, 2**64), got {seed!r}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{name} must be None or an integer in [0, 2**64), got {seed}")
    return int(seed)


def check_action(action: Any, n_actions: int, shape: tuple[int, int]) -> int:
    """The index of one action of ``Discrete(n_actions)`` on a board of ``shape``.

    Raises:
        ValueError: not an integer (a bool included), or outside the action space; one line
            naming the value and what is allowed.
    """
    value = action.reshape(-1)[0] if isinstance(action, np.ndarray) and action.size == 1 else action
    index = None
    if not isinstance(value, (bool, np.bool_)):
        with contextlib.suppress(TypeError):
            index = operator.index(value)
    if index is None:
        raise ValueError(
            f"action {value!r} is not an integer in Discrete({n_actions}) ({ACTION_KINDS})"
        )
    _check_range(index, n_actions, shape, "")
    return index


def check_actions(
    actions: object, num_envs: int, n_actions: int, shape: tuple[int, int]
) -> np.ndarray:
    """One action per board as an int64 ``(num_envs,)`` array, by :func:`check_action`'s rule.

    Raises:
        ValueError: the wrong number of actions, or an entry :func:`check_action` refuses (the
            message names the first such entry and its board).
    """
    if isinstance(actions, (list, tuple)) and any(isinstance(a, (bool, np.bool_)) for a in actions):
        actions = np.asarray(actions, dtype=object)  # NumPy would read [True, 1] as integers
    acts = np.asarray(actions)
    if acts.shape != (num_envs,) and acts.size == num_envs:
        acts = acts.reshape(-1)
    if acts.shape != (num_envs,):
        raise ValueError(
            f"actions must be {num_envs} integers in Discrete({n_actions}), got a {acts.dtype} "
            f"array of shape {acts.shape}"
        )
    if not np.issubdtype(acts.dtype, np.integer):  # bool and float arrays included
        i = 0
        if acts.dtype.kind == "f":  # name the first entry that is not even integral
            i = int(np.argmax(~np.isfinite(acts) | (acts != np.round(acts))))
        value = acts[i] if acts.dtype == object else acts[i].item()
        raise ValueError(
            f"action {value!r} of board {i} is not an integer in Discrete({n_actions}) "
            f"({ACTION_KINDS}; got a {acts.dtype} array)"
        )
    bad = (acts < 0) | (acts >= n_actions)
    if bad.any():
        i = int(np.argmax(bad))
        # The value as given: a cast first would wrap (uint64 2**63 reads as a negative).
        _check_range(acts[i].item(), n_actions, shape, f" of board {i}")
    return acts.astype(np.int64, copy=False)


def _check_range(index: int, n_actions: int, shape: tuple[int, int], where: str) -> None:
    if not 0 <= index < n_actions:
        raise ValueError(
            f"action {index}{where} is outside the action space Discrete({n_actions}) of a "
            f"{shape[0]}x{shape[1]} board"
        )
