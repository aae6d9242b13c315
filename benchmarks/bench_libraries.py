"""Steps/s of the env under each RL library, in one run: the README's "Use with..." table.

SB3 rows are measured here (MaskablePPO, MlpPolicy, Beginner, 8 boards, one torch thread unless
stated): raw VecEnv steps/s with random legal actions, then training steps/s (collect + update)
on ``DummyVecEnv`` x8 and the batched ``MinesweeperSB3VecEnv`` x8, once more with torch's default
threads. The other rows run each recipe of ``examples/`` (a fixed budget) in a child process and
read the JSON summary it prints last (its timing of its training loop, set-up excluded), under
the first interpreter given that imports its library (RLlib and Tianshou pin packages this venv
must not change)::

    nice -n 10 .venv/bin/python benchmarks/bench_libraries.py --python OTHER_VENV/bin/python

Figures are comparable only within one run, on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch

import mswp_gym

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_THREADS = torch.get_num_threads()

RECIPES: dict[str, tuple[str, str, str, str]] = {
    # example file: (row label, vector env, module to import, arguments)
    "cleanrl_masked_ppo.py": (
        "CleanRL-style masked PPO",
        "MinesweeperVectorEnv x64 (SAME_STEP)",
        "torch",
        "--total-timesteps 16384",
    ),
    "rl_zoo3_ppo_mask.py": (
        "rl_zoo3 + MaskablePPO (ppo_mask)",
        "SB3 DummyVecEnv x8",
        "rl_zoo3",
        "--env Minesweeper-v0 -n 20480 --num-threads 1 --eval-freq -1",
    ),
    "torchrl_masked_ppo.py": (
        "TorchRL masked PPO",
        "single env, Collector",
        "torchrl",
        "--frames 8000",
    ),
    "tianshou_masked_dqn.py": (
        "Tianshou 2 DQN (obs mask)",
        "Tianshou DummyVectorEnv x8",
        "tianshou",
        "--steps 10000",
    ),
    "rllib_action_mask.py": (
        "RLlib PPO (ActionMaskingTorchRLModule)",
        "RLlib EnvRunner, 1 env",
        "ray.rllib.algorithms.ppo",
        "--iterations 5",
    ),
}


def random_legal_steps(venv: Any, steps: int) -> float:
    """Env steps/s of random legal actions through an SB3 VecEnv (masks via action_masks)."""
    rng = np.random.default_rng(0)
    venv.reset()
    n = venv.num_envs
    start = time.perf_counter()
    for _ in range(steps // n):
        masks = mswp_gym.action_masks(venv)
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    return (steps // n) * n / (time.perf_counter() - start)


def maskable_ppo_steps(venv: Any, steps: int, threads: int) -> float:
    """MaskablePPO (MlpPolicy) env steps/s, rollout collection and updates included."""
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(threads)
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=4, seed=0)
    start = time.perf_counter()
    model.learn(steps)
    seconds = time.perf_counter() - start
    torch.set_num_threads(1)
    return model.num_timesteps / seconds


def sb3_rows(raw_steps: int, ppo_steps: int) -> list[tuple[str, str, float]]:
    """The SB3 measurements (label, vector env, steps/s)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

    venvs: dict[str, Callable[[], Any]] = {
        "DummyVecEnv x8": lambda: DummyVecEnv([lambda: gym.make("Minesweeper-v0")] * 8),
        "MinesweeperSB3VecEnv x8": lambda: MinesweeperSB3VecEnv(8, rows=9, cols=9, mines=10),
    }
    torch.set_num_threads(1)
    raw, ppo = "SB3 VecEnv, random legal actions", "sb3-contrib MaskablePPO, 1 torch thread"
    rows = [(raw, name, random_legal_steps(make(), raw_steps)) for name, make in venvs.items()]
    rows += [(ppo, name, maskable_ppo_steps(make(), ppo_steps, 1)) for name, make in venvs.items()]
    threads = f"sb3-contrib MaskablePPO, {DEFAULT_THREADS} torch threads (default)"
    native = "MinesweeperSB3VecEnv x8"
    rows.append((threads, native, maskable_ppo_steps(venvs[native](), ppo_steps, DEFAULT_THREADS)))
    return rows


def imports(python: str, module: str) -> bool:
    """Whether ``python`` can import ``module``."""
    probe = subprocess.run([python, "-c", f"import {module}"], capture_output=True, check=False)
    return probe.returncode == 0


def run_recipe(python: str, example: str, args: list[str]) -> dict:
    """Run one example; its last printed line is its JSON summary."""
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["-f", str(Path(tmp) / "logs")] if example.startswith("rl_zoo3") else []
        out = subprocess.run(
            [python, str(ROOT / "examples" / example), *args, *extra],
            cwd=tmp,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            check=False,
        )
    if out.returncode != 0:
        raise RuntimeError(f"{example} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Measure everything and print the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--python", action="append", default=[], help="a python for recipes this one cannot import"
    )
    parser.add_argument("--raw-steps", type=int, default=40_000)
    parser.add_argument("--ppo-steps", type=int, default=8_192)
    args = parser.parse_args()
    pythons = [sys.executable, *args.python]
    rows = [
        (label, venv, f"{sps:,.0f}")
        for label, venv, sps in sb3_rows(args.raw_steps, args.ppo_steps)
    ]
    for example, (label, venv, module, recipe_args) in RECIPES.items():
        python = next((p for p in pythons if imports(p, module)), None)
        if python is None:
            rows.append((label, venv, f"not measured: {module} not importable"))
            continue
        summary = run_recipe(python, example, recipe_args.split())
        rows.append((label, venv, f"{summary['steps_per_s']:,.0f} ({summary['steps']} steps)"))
        print(f"# {example} via {python}: {json.dumps(summary)}", flush=True)
    print("| library | vector env | env steps/s |")
    print("| --- | --- | ---: |")
    for label, venv, figure in rows:
        print(f"| {label} | {venv} | {figure} |")


if __name__ == "__main__":
    main()
