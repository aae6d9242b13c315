"""RL Baselines3 Zoo with sb3-contrib's MaskablePPO (``--algo ppo_mask``) on Minesweeper.

rl_zoo3 knows no ``ppo_mask``; this launcher adds it, makes the zoo's periodic evaluation
mask-aware (``MaskableEvalCallback`` instead of ``EvalCallback``), registers the env ids and
hands over to the zoo's own ``train`` with the command line, so every zoo flag works (the last
line printed is a JSON summary; its steps/s count the zoo's set-up and evaluations too)::

    python examples/rl_zoo3_ppo_mask.py --env Minesweeper-v0 -n 100000 --num-threads 1

The hyperparameters come from ``examples/ppo_mask.yml`` unless ``--conf-file`` is given.
Dependencies: ``pip install rl_zoo3`` (see docs/libraries.md for why it is not a CI extra).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import rl_zoo3.exp_manager
import rl_zoo3.train
from rl_zoo3.utils import ALGOS
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

import mswp_gym  # noqa: F401 - registers the ids

HYPERPARAMS = Path(__file__).with_name("ppo_mask.yml")


def main(argv: list[str] | None = None) -> None:
    """Run ``rl_zoo3.train`` with ``--algo ppo_mask`` and our hyperparameter file by default."""
    args = list(sys.argv[1:] if argv is None else argv)
    ALGOS["ppo_mask"] = MaskablePPO
    rl_zoo3.exp_manager.EvalCallback = MaskableEvalCallback  # the zoo's evaluation, with masks
    if "--algo" not in args:
        args = ["--algo", "ppo_mask", *args]
    if "--conf-file" not in args and "-conf" not in args:
        args += ["--conf-file", str(HYPERPARAMS)]
    if "--gym-packages" not in args:
        args += ["--gym-packages", "mswp_gym"]
    sys.argv = [sys.argv[0], *args]
    start = time.perf_counter()
    rl_zoo3.train.train()
    seconds = time.perf_counter() - start
    steps = int(float(args[args.index("-n") + 1])) if "-n" in args else None
    print(
        json.dumps(
            {
                "library": "rl_zoo3",
                "steps": steps,
                "seconds": round(seconds, 2),
                "steps_per_s": round(steps / seconds, 1) if steps else None,
            }
        )
    )


if __name__ == "__main__":
    main()
