"""The batched ``MinesweeperVectorEnv`` in the peers harness's ``bench_envs.py`` (batched rows).

The harness times a ``Batched`` factory ``(rows, cols, mines, B, K, seed) -> (init, chunk)``:
``chunk`` advances all B boards by K steps (a uniformly random legal action per board, auto-reset)
and returns the episodes finished. Here a chunk is K calls of ``env.step`` on a
``MinesweeperVectorEnv(autoreset_mode=SAME_STEP)``, the select-based auto-reset of the JAX rows,
with actions from ``bench_vector.random_valid_actions`` (the policy's cost counts, as for every
row). Rules: first click safe, flood fill; ``mswp-gym-vector-any`` lays the mines at reset instead
(the first click may be a mine), as jumanji does. No batched reset-only figure (JAX-only in the
harness); ``bench_vector.py`` prints fresh boards/s.

    # PEERS_DIR: a checkout of the peers harness; PEERS_PY: the python of its venv
    bash "$PEERS_DIR/setup.sh" && "$PEERS_PY" -m pip install gymnasium
    cd "$PEERS_DIR" && nice -n 10 "$PEERS_PY" bench_envs.py --no-single \\
        --only jumanji,mswp-gym-vector --plugin "$OLDPWD/benchmarks/peers_env_plugin.py" \\
        --out peers_vector.json

Run as a script (same venv) it times jumanji's batched row and ours in alternating short
segments, so that load drift on a shared machine hits both sides alike:

    PEERS_DIR=... nice -n 10 "$PEERS_PY" benchmarks/peers_env_plugin.py --rounds 10 --segment 2
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import numpy as np
from bench_vector import random_valid_actions
from benchkit import repeat_for

from common.atomic import write_text_atomic
from mswp_gym.vector import MinesweeperVectorEnv

PEERS_DIR = os.environ.get("PEERS_DIR", "")
"""The peers harness checkout, from the environment (interleaved mode only)."""

if "bench_envs" in globals():
    # Loaded by the harness (``--plugin``), which injects its own module first.
    bench_envs = globals()["bench_envs"]
else:
    # Run as a script with the peers venv: ``python peers_env_plugin.py`` (interleaved mode).
    if not (Path(PEERS_DIR) / "bench_envs.py").is_file():
        print(
            f"peers_env_plugin.py: PEERS_DIR={PEERS_DIR!r} holds no bench_envs.py; "
            "set it to a checkout of the peers harness",
            file=sys.stderr,
        )
        sys.exit(2)
    sys.path.insert(0, PEERS_DIR)
    import bench_envs  # type: ignore[no-redef]


class _Count(int):
    """An episode count the harness can ``block_until_ready()`` like a JAX scalar."""

    def block_until_ready(self) -> _Count:
        return self


def _vector_batched(
    rows: int, cols: int, mines: int, batch: int, k_steps: int, seed: int, first_click: str = "safe"
) -> tuple[Any, Any]:
    def init() -> tuple[MinesweeperVectorEnv, np.random.Generator]:
        env = MinesweeperVectorEnv(
            batch, rows, cols, mines, autoreset_mode="SameStep", first_click=first_click
        )
        env.reset(seed=seed)
        return env, np.random.default_rng(seed)

    def chunk(carry: tuple[MinesweeperVectorEnv, np.random.Generator]) -> tuple[Any, _Count]:
        env, rng = carry
        finished = 0
        for _ in range(k_steps):
            _, _, terminated, truncated, _ = env.step(random_valid_actions(env.action_masks(), rng))
            finished += int(np.count_nonzero(terminated | truncated))
        return carry, _Count(finished)

    return init, chunk


BATCHED = {
    "mswp-gym-vector": bench_envs.Batched(
        _vector_batched,
        lambda r, c, m: (r, c, m),
        "mswp-gym",
        note="numpy MinesweeperVectorEnv, SAME_STEP autoreset, first click safe, flood fill",
    ),
    "mswp-gym-vector-any": bench_envs.Batched(
        functools.partial(_vector_batched, first_click="any"),
        lambda r, c, m: (r, c, m),
        "mswp-gym",
        note="as mswp-gym-vector, but mines laid at reset (first click may hit one), like jumanji",
    ),
}


def _stepper(factory: Any, rows: int, cols: int, mines: int, *sizes: int) -> Callable[[], None]:
    """One timed chunk of ``factory``'s batched row per call (``sizes``: B, K and the seed); the
    first, compiling chunk runs here."""
    init, chunk = factory(rows, cols, mines, *sizes)[:2]
    carry = [init()]

    def advance() -> None:
        carry[0], done = chunk(carry[0])
        done.block_until_ready()

    advance()
    return advance


def interleaved(
    configs: list[str], batch: int, k_steps: int, rounds: int, segment: float, seed: int
) -> dict[str, Any]:
    """Jumanji's batched row and ours, alternating short segments, so load drift hits both.

    Each round times ``segment`` seconds of jumanji then of ours (the order flips every round),
    a chunk at a time as ``bench_envs.run_batched`` times one. Returns pooled steps/s per side,
    the per-round ratios and their median.
    """
    out: dict[str, Any] = {}
    for config in configs:
        rows, cols, mines = bench_envs.CONFIGS[config]
        sides = {
            name: _stepper(factory, rows, cols, mines, batch, k_steps, seed)
            for name, factory in (
                ("jumanji", bench_envs._jumanji_batched),
                ("mswp-gym-vector", _vector_batched),
            )
        }
        totals = {name: [0, 0.0] for name in sides}
        ratios = []
        for r in range(rounds):
            rates = {}
            for name in list(sides) if r % 2 == 0 else list(reversed(sides)):
                calls, elapsed = repeat_for(segment, sides[name])
                totals[name][0] += calls * batch * k_steps
                totals[name][1] += elapsed
                rates[name] = calls * batch * k_steps / elapsed
            ratios.append(rates["mswp-gym-vector"] / rates["jumanji"])
        pooled = {name: steps / wall for name, (steps, wall) in totals.items()}
        out[config] = {
            "board": f"{rows}x{cols}/{mines}",
            "steps_per_s": pooled,
            "pooled_ratio": pooled["mswp-gym-vector"] / pooled["jumanji"],
            "round_ratios": ratios,
            "median_round_ratio": float(np.median(ratios)),
        }
        print(
            f"{config:9s} {rows}x{cols}/{mines}: jumanji {pooled['jumanji']:>9,.0f} steps/s, "
            f"mswp-gym-vector {pooled['mswp-gym-vector']:>10,.0f} steps/s, pooled ratio "
            f"{out[config]['pooled_ratio']:.1f}x, per-round ratios min/median/max "
            f"{min(ratios):.1f}/{np.median(ratios):.1f}/{max(ratios):.1f} ({rounds} rounds of "
            f"{segment:g} s each side)",
            flush=True,
        )
    return out


if __name__ == "__main__":
    import argparse
    import json

    parser = argparse.ArgumentParser(description="jumanji vs ours, interleaved (peers venv)")
    parser.add_argument("--configs", default="beginner,expert")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--k-steps", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--segment", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    configs = [c for c in args.configs.split(",") if c]
    result = interleaved(configs, args.batch, args.k_steps, args.rounds, args.segment, args.seed)
    if args.out:
        write_text_atomic(args.out, json.dumps(result, indent=2))
