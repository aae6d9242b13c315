"""Env speed of this tree against an older commit's ``mswp_gym``, side by side in one run.

    python benchmarks/bench_commits.py --against 204ba93
    python benchmarks/bench_commits.py --against d170521 --rounds 6 --seconds 2

``git archive COMMIT mswp_gym`` is unpacked into a temporary folder. Each round times both trees,
each loop in a fresh interpreter whose ``mswp_gym`` is that tree's, the order alternating between
rounds so that load drift on a shared machine hits both alike. Policy: a uniformly random legal
action each step (its cost counted), rules of ``Minesweeper-v0`` (Beginner 9x9/10, first click
safe). Two loops, ``--seconds`` each after a short warm-up:

* ``vector``: ``gym.make_vec(ID, num_envs=B, vectorization_mode="vector_entry_point")``, B =
  ``--batch`` (1024), the batched env's own autoreset;
* ``single``: ``gym.make(ID)``, the registered env with Gymnasium's default wrappers.

Prints each tree's median steps/s over the rounds and this tree's speed as a ratio to the older
one: the mean of the rounds' paired ratios with a 95% t-interval.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from scipy.stats import t as student_t

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eval.stats import mean_interval  # noqa: E402 - after the path insert

LOOPS: tuple[str, ...] = ("vector", "single")

CHILD = """
import sys, time
import gymnasium as gym
import numpy as np
import mswp_gym
loop, seconds, batch, env_id = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert mswp_gym.__file__.startswith(sys.argv[5]), mswp_gym.__file__
rng = np.random.default_rng(0)

def vector(budget):
    envs = gym.make_vec(env_id, num_envs=batch, vectorization_mode="vector_entry_point")
    envs.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        draw = rng.random(envs.action_masks().shape)
        draw[~envs.action_masks()] = -1.0
        envs.step(draw.argmax(axis=1))
        steps += batch
    return steps / (time.perf_counter() - start)

def single(budget):
    env = gym.make(env_id)
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
        if terminated or truncated:
            _, info = env.reset(seed=steps)
    return steps / (time.perf_counter() - start)

run = vector if loop == "vector" else single
run(min(0.5, seconds))
print(run(seconds))
"""


def steps_per_second(tree: Path, loop: str, seconds: float, batch: int, env_id: str) -> float:
    """One timed loop in a fresh interpreter that imports ``tree``'s ``mswp_gym``."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, loop, str(seconds), str(batch), env_id, str(tree)],
        capture_output=True,
        text=True,
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree), "OMP_NUM_THREADS": "1"},
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"bench_commits.py: the {loop} loop failed in {tree}: {tail}")
    return float(done.stdout.strip().splitlines()[-1])


def archive(commit: str, into: Path) -> str:
    """Unpack ``commit``'s ``mswp_gym`` into ``into``; returns its short hash."""
    resolved = subprocess.run(
        ["git", "rev-parse", "--short", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if resolved.returncode != 0:
        raise SystemExit(f"bench_commits.py: --against {commit!r} is not a commit of this repo")
    files = subprocess.run(
        ["git", "archive", commit, "mswp_gym"], capture_output=True, cwd=ROOT, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=files, check=True)
    return resolved.stdout.strip()


def positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` above 0."""

    def parse(text: str) -> float:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
        return value

    return parse


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", required=True, help="the older commit (hash, tag, HEAD~1)")
    parser.add_argument("--rounds", type=positive(int), default=5, help="rounds of both trees")
    parser.add_argument("--seconds", type=positive(float), default=2.0, help="seconds per loop")
    parser.add_argument("--batch", type=positive(int), default=1024, help="vector env boards")
    parser.add_argument("--env-id", default="Minesweeper-Beginner-v0", help="registered id")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder)
        short = archive(args.against, old)
        trees = {"this tree": ROOT, short: old}
        rates: dict[tuple[str, str], list[float]] = {}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
            for name in order:
                for loop in LOOPS:
                    rate = steps_per_second(
                        trees[name], loop, args.seconds, args.batch, args.env_id
                    )
                    rates.setdefault((name, loop), []).append(rate)
    z = float(student_t.ppf(0.975, args.rounds - 1)) if args.rounds > 1 else 0.0
    print(
        f"{args.env_id}, random legal policy, {args.rounds} rounds of {args.seconds:g} s a loop, "
        f"vector B={args.batch}"
    )
    print(f"{'loop':<8} {'this tree':>12} {short:>12}  ratio (95% t-interval over rounds)")
    for loop in LOOPS:
        new, base = rates[("this tree", loop)], rates[(short, loop)]
        ratio = mean_interval([a / b for a, b in zip(new, base, strict=True)], z)
        print(
            f"{loop:<8} {statistics.median(new):>12,.0f} {statistics.median(base):>12,.0f}  "
            f"{ratio.estimate:.2f}x [{ratio.low:.2f}, {ratio.high:.2f}]"
        )


if __name__ == "__main__":
    main()
