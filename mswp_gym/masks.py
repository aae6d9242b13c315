"""The one legal-action mask behind ``env.action_masks()``, ``info["action_mask"]`` and agents.

:func:`action_mask` is the rule; :func:`batch_action_mask` applies it to a batch of boards, and
:func:`update_action_mask` and :func:`clear_action_mask` to the cells one move changed.
"""

from __future__ import annotations

import numpy as np

from mswp_gym.constants import FLAGGED, HIDDEN


def action_mask(visible: np.ndarray, flag_actions: bool = False) -> np.ndarray:
    """Which actions are legal on the visible board ``visible``.

    Reveal action ``row * cols + col`` is legal on a hidden, unflagged cell. With flag actions on,
    action ``rows * cols + row * cols + col`` toggles the flag of a hidden cell (flagged or not).
    On a live game at least one action is legal: some safe cell is still hidden.

    Returns int8 ``(rows*cols,)`` (``(2*rows*cols,)`` with flag actions), 1 = legal.
    """
    return batch_action_mask(visible.ravel(), flag_actions)


def batch_action_mask(visible: np.ndarray, flag_actions: bool = False) -> np.ndarray:
    """:func:`action_mask` for a batch (the vector env's): row ``i`` is board ``i``'s mask.

    ``visible`` is ``(B, rows*cols)`` (or one flat board, ``(rows*cols,)``)."""
    reveal: np.ndarray = (visible == HIDDEN).view(np.int8)
    if not flag_actions:
        return reveal
    flag = reveal | (visible == FLAGGED).view(np.int8)
    return np.concatenate((reveal, flag), axis=-1)


def update_action_mask(
    mask: np.ndarray, visible: np.ndarray, index: int, flag_actions: bool = False
) -> None:
    """Bring ``mask`` (an :func:`action_mask` result) up to date after cell ``index`` changed.

    Afterwards ``mask`` equals ``action_mask(visible, flag_actions)`` if it did before."""
    code = visible.item(index)
    mask[index] = code == HIDDEN
    if flag_actions:
        mask[visible.size + index] = code in (HIDDEN, FLAGGED)


def clear_action_mask(
    mask: np.ndarray, opened: np.ndarray, cells: int, flag_actions: bool = False
) -> None:
    """Bring ``mask`` up to date after the cells ``opened`` were revealed with clues.

    Their reveal (and flag) entries become 0; ``cells`` is ``rows * cols``."""
    mask[opened] = 0
    if flag_actions:
        mask[opened + cells] = 0
