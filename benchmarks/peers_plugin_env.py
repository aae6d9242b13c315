"""Plugs ``Minesweeper-v0`` into ``../shared/peers/bench_envs.py`` (single-env rows).

The peers venv needs gymnasium (``/tmp/peers-venv/bin/pip install gymnasium``); this repo is put
on ``sys.path`` so nothing is installed from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gymnasium as gym

import mswp_gym  # noqa: F401  (registers the ids)

# ``bench_envs`` is injected into this module by the harness before it runs.
bench_envs = globals()["bench_envs"]

ADAPTERS = {
    "mswp-gym": bench_envs.gymnasium_adapter(
        lambda rows, cols, mines: gym.make("Minesweeper-v0", rows=rows, cols=cols, mines=mines),
        mask_fn=lambda obs, info: info["action_mask"],
        to_env_action=lambda a, cols: a,
        package="mswp-gym",
    ),
}
