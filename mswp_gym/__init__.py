"""mswp-gym: Minesweeper as a Gymnasium environment.

``import mswp_gym`` registers ``Minesweeper-v0`` (9x9, 10 mines, first click safe) and the
presets ``Minesweeper-Beginner-v0`` (9x9/10), ``Minesweeper-Intermediate-v0`` (16x16/40) and
``Minesweeper-Expert-v0`` (16 rows x 30 cols/99). Each id passes only ``preset=<name>``, the
default board: every env argument works through ``gym.make`` and overrides it (``rows``/``cols``
or a ``layout`` replace the preset's board, ``mines`` or ``density`` its mine count).
``Minesweeper-Text-v0`` is the same game in text for language models (:mod:`mswp_gym.text`).
:func:`action_masks` reads the legal actions of any of them, wrapped or vectorised.
"""

from __future__ import annotations

import gymnasium

from mswp_gym.board import Board
from mswp_gym.choices import ClueNoise, FirstClick, ObsMode
from mswp_gym.config import GameConfig
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE, Outcome
from mswp_gym.encoding import board_from_observation
from mswp_gym.env import MinesweeperEnv
from mswp_gym.generators import MAX_CELLS
from mswp_gym.mask_access import action_masks
from mswp_gym.masks import action_mask
from mswp_gym.presets import PRESETS, Preset, preset
from mswp_gym.rewards import RewardConfig
from mswp_gym.spec import GameSpec

__all__ = [
    "EXPLODED",
    "FLAGGED",
    "HIDDEN",
    "MAX_CELLS",
    "MINE",
    "NO_CLUE",
    "PRESETS",
    "Board",
    "ClueNoise",
    "FirstClick",
    "GameConfig",
    "GameSpec",
    "MinesweeperEnv",
    "ObsMode",
    "Outcome",
    "Preset",
    "RewardConfig",
    "action_mask",
    "action_masks",
    "board_from_observation",
    "preset",
]

__version__ = "0.1.0"

_ENTRY_POINT = "mswp_gym.env:make_env"


def _register() -> None:
    ids = {"Minesweeper-v0": PRESETS["beginner"]}
    ids.update({f"Minesweeper-{p.name.capitalize()}-v0": p for p in PRESETS.values()})
    for env_id, board in ids.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=_ENTRY_POINT,
            kwargs={"preset": board.name},
            vector_entry_point="mswp_gym.vector:MinesweeperVectorEnv",
        )
    if "Minesweeper-Text-v0" not in gymnasium.registry:
        gymnasium.register(
            id="Minesweeper-Text-v0",
            entry_point="mswp_gym.text.env:TextMinesweeperEnv",
            kwargs={"preset": "beginner"},
        )


_register()
