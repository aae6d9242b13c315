"""One encoder for every observation form.

``board``    the visible board itself: ``(rows, cols)`` int8 codes (clues ``0..8``, ``HIDDEN``...).
``channels`` one-hot planes ``(C, rows, cols)`` float32 for CNNs, planes in :data:`CHANNEL_CODES`
             order: clue 0..8, hidden, flagged, exploded, revealed without clue.
``dict``     ``{"board", "revealed", "action_mask"}`` (the PettingZoo convention); ``revealed`` is
             ``(rows, cols)`` int8, 1 where the cell's content is known (not hidden, not flagged).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from mswp_gym.choices import ObsMode, parse_choice
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MAX_CODE, MIN_CODE, NO_CLUE, is_revealed

OBS_MODES: tuple[str, ...] = tuple(m.value for m in ObsMode)
CHANNEL_CODES = np.array([*range(9), HIDDEN, FLAGGED, EXPLODED, NO_CLUE], dtype=np.int8)
N_CHANNELS = len(CHANNEL_CODES)
_CODES_3D = CHANNEL_CODES[:, None, None]


def observation_space(obs_mode: str, rows: int, cols: int, n_actions: int) -> spaces.Space[Any]:
    """The Gymnasium space of ``obs_mode`` observations on a ``rows x cols`` board.

    Raises:
        ValueError: an unknown ``obs_mode``, naming it and the allowed ones.
    """
    parse_choice(ObsMode, obs_mode, "obs_mode")
    board = spaces.Box(MIN_CODE, MAX_CODE, shape=(rows, cols), dtype=np.int8)
    if obs_mode == "board":
        return board
    if obs_mode == "channels":
        return spaces.Box(0.0, 1.0, shape=(N_CHANNELS, rows, cols), dtype=np.float32)
    return spaces.Dict(
        {
            "board": board,
            "revealed": spaces.Box(0, 1, shape=(rows, cols), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
        }
    )


def encode(obs_mode: str, visible: np.ndarray, mask: np.ndarray) -> Any:
    """The ``obs_mode`` observation of ``visible`` (copied: later moves never change it), of one
    board ``(rows, cols)`` or of a batch ``(B, rows, cols)``."""
    if obs_mode == "board":
        return visible.copy()
    if obs_mode == "channels":
        planes: np.ndarray = (visible[:, None] if visible.ndim == 3 else visible[None]) == _CODES_3D
        return planes.astype(np.float32)
    return {
        "board": visible.copy(),
        "revealed": is_revealed(visible).view(np.int8),
        "action_mask": mask.copy(),
    }


def board_from_observation(observation: Any) -> np.ndarray:
    """The ``(rows, cols)`` int8 visible board behind an observation of any form.

    Raises:
        ValueError: if ``observation`` is none of the forms above.
    """
    if isinstance(observation, dict):
        if "board" not in observation:
            raise ValueError(
                f"a dict observation needs a 'board' key, got keys {sorted(observation)}"
            )
        return np.asarray(observation["board"], dtype=np.int8)
    array = np.asarray(observation)
    if array.ndim == 2:
        return array.astype(np.int8, copy=False)
    if array.ndim == 3 and array.shape[0] == N_CHANNELS:
        codes: np.ndarray = CHANNEL_CODES[np.argmax(array, axis=0)]
        return codes
    raise ValueError(
        f"cannot read a board from an observation of shape {array.shape}; expected (rows, cols), "
        f"({N_CHANNELS}, rows, cols) or a dict with 'board'"
    )
