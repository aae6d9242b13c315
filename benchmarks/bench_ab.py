"""Step speed of two checkouts of this repo, side by side: no regression beyond noise?

Each measurement runs in a fresh interpreter that imports ``mswp_gym`` from one checkout, plays
a uniformly random legal policy (the policy's cost included, as in the peers harness) and counts
**CPU** seconds of that process (``time.process_time``), which a busy shared machine disturbs
far less than wall time. The two checkouts alternate, round after round; per loop and board the
script prints both medians and after/before: the mean of the rounds' paired ratios with a 95%
t-interval. ``--against COMMIT`` unpacks that commit's ``mswp_gym``
(``git archive``) into a temporary folder and uses it as ``--before``.

    python benchmarks/bench_ab.py --against 204ba93 --rounds 10    # this tree against a commit
    python benchmarks/bench_ab.py --before ../before --after . --rounds 6    # two checkouts

Loops: ``single`` (``gym.make("Minesweeper-v0", ...)``, one env) and ``vector``
(``MinesweeperVectorEnv``, B boards, ``SAME_STEP`` autoreset), each on Beginner 9x9/10 and
Expert 16x30/99, first click safe.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from scipy.stats import t as student_t

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common.cli import OneLineParser  # noqa: E402 - after the path insert
from common.stats import mean_interval  # noqa: E402

BOARDS = {"beginner": (9, 9, 10), "expert": (16, 30, 99)}

SINGLE = """
import sys, time
sys.path.insert(0, {root!r})
import gymnasium as gym, numpy as np
import mswp_gym  # noqa: F401
env = gym.make("Minesweeper-v0", rows={rows}, cols={cols}, mines={mines})
rng = np.random.default_rng(0)
obs, info = env.reset(seed=0)
start = time.process_time()
for _ in range({steps}):
    legal = np.flatnonzero(info["action_mask"])
    obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
    if terminated or truncated:
        obs, info = env.reset()
print({steps} / (time.process_time() - start))
"""

VECTOR = """
import sys, time
sys.path.insert(0, {root!r})
import numpy as np
from gymnasium.vector import AutoresetMode
from mswp_gym.vector import MinesweeperVectorEnv
env = MinesweeperVectorEnv({batch}, rows={rows}, cols={cols}, mines={mines},
                           autoreset_mode=AutoresetMode.SAME_STEP)
env.reset(seed=0)
rng = np.random.default_rng(0)

def actions():
    mask = env.action_masks()
    keys = rng.random(mask.shape)
    return np.where(mask, keys, -1.0).argmax(axis=1)

for _ in range(20):
    env.step(actions())
start = time.process_time()
for _ in range({steps}):
    env.step(actions())
print({steps} * {batch} / (time.process_time() - start))
"""


def measure(root: Path, loop: str, board: str, steps: int, batch: int) -> float:
    """Steps per CPU second of one loop in a fresh interpreter importing from ``root``."""
    rows, cols, mines = BOARDS[board]
    template = SINGLE if loop == "single" else VECTOR
    code = template.format(
        root=str(root.resolve()), rows=rows, cols=cols, mines=mines, steps=steps, batch=batch
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    return float(out.stdout.strip().splitlines()[-1])


def archive(commit: str, into: Path) -> Path | None:
    """``commit``'s ``mswp_gym`` unpacked into ``into`` (which then imports as a checkout), or None
    if ``commit`` is not a commit of this repo."""
    files = subprocess.run(
        ["git", "archive", f"{commit}^{{commit}}", "mswp_gym"], capture_output=True, cwd=ROOT
    )
    if files.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=files.stdout, check=True)
    return into


def compare(before: Path, after: Path, args: argparse.Namespace) -> None:
    """Alternate the two sides ``args.rounds`` times per loop and board; print the table."""
    z = float(student_t.ppf(0.975, args.rounds - 1)) if args.rounds > 1 else 0.0
    for loop, steps in (("single", args.single_steps), ("vector", args.vector_steps)):
        for board in BOARDS:
            rates: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                for side, root in (("before", before), ("after", after)):
                    rates[side].append(measure(root, loop, board, steps, args.batch))
            old, new = (statistics.median(rates[s]) for s in ("before", "after"))
            ratio = mean_interval([a / b for b, a in zip(*rates.values(), strict=True)], z)
            print(
                f"{loop:6} {board:8} before {old:>11,.0f}  after {new:>11,.0f} steps/cpu-s  "
                f"after/before {ratio.estimate:.2f} [{ratio.low:.2f}, {ratio.high:.2f}] "
                f"({args.rounds} rounds)",
                flush=True,
            )


def main() -> None:
    parser = OneLineParser(prog="bench_ab.py", description=__doc__.splitlines()[0])
    sides = parser.add_mutually_exclusive_group(required=True)
    sides.add_argument("--before", type=Path, help="a checkout of the repo")
    sides.add_argument("--against", help="a commit of this repo, unpacked as --before")
    parser.add_argument("--after", type=Path, default=Path("."), help="a checkout of the repo")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--single-steps", type=int, default=40_000)
    parser.add_argument("--vector-steps", type=int, default=150)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    parser.require_at_least(args, 1, "rounds", "single_steps", "vector_steps", "batch")
    with tempfile.TemporaryDirectory() as folder:
        before = archive(args.against, Path(folder)) if args.against else args.before
        if before is None:
            parser.error(f"--against {args.against!r} is not a commit of this repo")
        for root in (before, args.after):
            if not (root / "mswp_gym" / "__init__.py").is_file():
                parser.error(f"--before/--after {str(root)!r} is not a checkout of this repo")
        if args.against:
            print(f"before: {args.against} (git archive); after: {args.after.resolve()}")
        compare(before, args.after, args)


if __name__ == "__main__":
    main()
