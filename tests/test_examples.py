"""The recipes in examples/ run, each with a tiny budget (skipped only without its library)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

RECIPES = {
    "cleanrl_masked_ppo.py": (
        "torch",
        [
            "--total-timesteps",
            "256",
            "--num-envs",
            "16",
            "--num-steps",
            "16",
            "--update-epochs",
            "1",
        ],
    ),
    "torchrl_masked_ppo.py": (
        "torchrl",
        ["--frames", "200", "--frames-per-batch", "100", "--epochs", "1"],
    ),
    "rl_zoo3_ppo_mask.py": (
        "rl_zoo3",
        [
            "--env",
            "Minesweeper-v0",
            "-n",
            "512",
            "--num-threads",
            "1",
            "--eval-freq",
            "256",
            "--eval-episodes",
            "2",
            "--hyperparams",
            "n_envs:2",
            "n_steps:64",
            "batch_size:64",
        ],
    ),
    "tianshou_masked_dqn.py": ("tianshou", ["--steps", "512"]),
    "trl_grpo.py": (
        "trl",
        [
            *("--model", "tiny", "--task", "game", "--rows", "5", "--cols", "5", "--mines", "3"),
            *("--count", "4", "--max-steps", "1", "--num-generations", "2", "--cpu"),
            *("--max-completion-length", "8", "--out", "grpo"),
        ],
    ),
    "rllib_action_mask.py": ("ray.rllib.algorithms.ppo", ["--iterations", "1"]),
}


def _importable(module: str) -> bool:
    """Whether ``module`` imports (in a child process: a partly installed library may fail late)."""
    if importlib.util.find_spec(module.split(".")[0]) is None:
        return False
    probe = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, check=False
    )
    return probe.returncode == 0


def _run(name: str, args: list[str], tmp_path: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's code
    if name.startswith("rl_zoo3"):
        args = [*args, "-f", str(tmp_path / "logs")]
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, f"{name} failed:\n{out.stdout[-3000:]}\n{out.stderr[-5000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_example__runs_with_a_tiny_budget(name: str, tmp_path: Path) -> None:
    library, args = RECIPES[name]
    if not _importable(library):
        pytest.skip(f"{library} is not installed (see docs/libraries.md)")
    summary = _run(name, args, tmp_path)
    assert summary["steps"] > 0 and summary["seconds"] > 0
    assert summary.get("invalid_actions", 0) == 0  # masked policies never pick a masked action


def test_examples__every_recipe_is_smoke_tested() -> None:
    assert {p.name for p in EXAMPLES.glob("*.py")} == set(RECIPES)
