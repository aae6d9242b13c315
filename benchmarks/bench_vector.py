"""Throughput of the batched vector env, where its time goes, and SB3 VecEnvs side by side.

Policy: each step every board draws uniformly among its legal actions (the env's own mask), the
policy's cost included, as in the peers harness's ``bench_envs.py``. Boards reset in the same step
(``autoreset_mode=SAME_STEP``, the select-based pattern of the JAX peers' batched rows), so every
call advances all B boards by one real step. Rules: ``Minesweeper-v0`` (first click safe, flood
fill), Beginner 9x9/10 and Expert 16x30/99.

    python benchmarks/bench_vector.py                          # B=1024, both boards, breakdown
    python benchmarks/bench_vector.py --batch 4096 --budget 3 --boards expert
    python benchmarks/bench_vector.py --sb3                     # + SB3 VecEnv comparison
    python benchmarks/bench_vector.py --sb3 --train             # + MaskablePPO fps

Figures vary by +-20-30% on a shared machine: compare numbers from one run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import time
from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import numpy as np
from benchkit import repeat_for

import mswp_gym.vector.batch_board as batch_board_module
import mswp_gym.vector.vector_env as vector_module
from common.atomic import write_text_atomic
from common.cli import OneLineParser
from mswp_gym.presets import PRESETS
from mswp_gym.vector import MinesweeperVectorEnv

SB3_BATCHES = (8, 64, 256)
"""B of the SB3 comparison (ours and ``DummyVecEnv``); ``SubprocVecEnv`` runs 8 processes."""
TRAIN_BATCH = 64
"""B of the MaskablePPO timing."""
PARTS: dict[str, list[tuple[Any, str]]] = {
    "placement": [
        (vector_module, "stream_keys"),
        (vector_module, "place_mines"),
        (batch_board_module, "batch_neighbour_counts"),
    ],
    "flood fill": [(batch_board_module, "flood_bigint"), (batch_board_module, "flood_dense")],
    "masks": [(vector_module, "batch_action_mask")],
    "encoding": [(vector_module, "encode")],
    "info": [(MinesweeperVectorEnv, "_info")],
}
"""Part of a step -> the functions whose time is charged to it (patched in for the breakdown)."""


def random_valid_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (``(B, n)`` bool).

    Two rounds of rejection sampling settle almost every board; the few left (boards with
    nearly every cell open) get an exact draw by rank among their legal actions.
    """
    boards, n = mask.shape
    actions = np.asarray(rng.integers(0, n, size=boards))
    flat = mask.reshape(-1)
    bad = ~flat[np.arange(0, boards * n, n) + actions]
    if bad.any():
        idx = np.flatnonzero(bad)
        actions[idx] = rng.integers(0, n, idx.size)
        still = ~mask[idx, actions[idx]]
        if still.any():
            idx = idx[still]
            ranks = np.cumsum(mask[idx], axis=1)
            legal = ranks[:, -1]
            pick = (rng.random(idx.size) * legal).astype(np.int64)
            actions[idx] = np.where(legal > 0, np.argmax(ranks > pick[:, None], axis=1), 0)
    return actions


@contextlib.contextmanager
def charged(totals: dict[str, float]) -> Iterator[None]:
    """Patch the functions of :data:`PARTS` to add their wall time to ``totals[part]``."""

    def timed(fn: Callable[..., Any], part: str) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                totals[part] += time.perf_counter() - start

        return wrapper

    with contextlib.ExitStack() as patches:
        for part, targets in PARTS.items():
            totals.setdefault(part, 0.0)
            for owner, name in targets:
                wrapper = timed(getattr(owner, name), part)
                patches.enter_context(mock.patch.object(owner, name, wrapper))
        yield


def run_vector(
    board: str, batch: int, budget: float, warmup: float, seed: int, obs_mode: str, breakdown: bool
) -> dict[str, Any]:
    """Steps/s of B boards of the preset ``board`` under the random valid policy; optionally the
    time per part."""
    env = MinesweeperVectorEnv(batch, preset=board, autoreset_mode="SameStep", obs_mode=obs_mode)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    repeat_for(warmup, lambda: env.step(random_valid_actions(env.action_masks(), rng)))
    totals: dict[str, float] = {"policy": 0.0, "episodes": 0.0}

    def call() -> None:
        start = time.perf_counter()
        actions = random_valid_actions(env.action_masks(), rng)
        totals["policy"] += time.perf_counter() - start
        _, _, terminated, truncated, _ = env.step(actions)
        totals["episodes"] += int(np.count_nonzero(terminated | truncated))

    with charged(totals) if breakdown else contextlib.nullcontext():
        calls, elapsed = repeat_for(budget, call)
    steps, episodes = calls * batch, totals.pop("episodes")
    out: dict[str, Any] = {
        "steps_per_s": steps / elapsed,
        "episodes_per_s": episodes / elapsed,
        "mean_ep_len": steps / episodes if episodes else None,
        "ms_per_call": 1000 * elapsed / calls,
        "calls": calls,
    }
    if breakdown:
        parts = {k: 1000 * v / calls for k, v in totals.items()}
        parts["other (step logic)"] = out["ms_per_call"] - sum(parts.values())
        out["ms_per_call_by_part"] = parts
    return out


def run_resets(board: str, batch: int, budget: float, seed: int) -> float:
    """Boards/s of fresh games: reset, then the first (placing) click of every board."""
    env = MinesweeperVectorEnv(batch, preset=board, first_click="safe")
    env.reset(seed=seed)
    clicks = np.random.default_rng(seed).integers(
        0, PRESETS[board].rows * PRESETS[board].cols, batch
    )
    calls, elapsed = repeat_for(budget, lambda: (env.reset(), env.step(clicks)))
    return calls * batch / elapsed


def make_sb3_venv(kind: str, batch: int) -> Any:
    """Beginner as ``ours`` (the batched adapter), ``dummy`` or ``subproc`` (SB3, B single envs)."""
    if kind == "ours":
        from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

        return MinesweeperSB3VecEnv(batch, preset="beginner")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from mswp_gym.env import MinesweeperEnv

    makers = [lambda: MinesweeperEnv(preset="beginner")] * batch
    return DummyVecEnv(makers) if kind == "dummy" else SubprocVecEnv(makers, start_method="fork")


def run_sb3(kind: str, batch: int, budget: float, seed: int) -> dict[str, Any]:
    """Steps/s through SB3's VecEnv API (masks via ``get_action_masks``, then ``step``)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    venv = make_sb3_venv(kind, batch)
    venv.seed(seed)
    venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(5):
        venv.step(random_valid_actions(get_action_masks(venv), rng))
    calls, elapsed = repeat_for(
        budget, lambda: venv.step(random_valid_actions(get_action_masks(venv), rng))
    )
    venv.close()
    return {"steps_per_s": calls * batch / elapsed, "calls": calls}


def run_train(kind: str, batch: int, timesteps: int, seed: int) -> dict[str, Any]:
    """MaskablePPO (MlpPolicy, 1 epoch) wall time for ``timesteps`` steps on ``kind``."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    venv = make_sb3_venv(kind, batch)
    n_steps = max(8, 2048 // batch)
    model = MaskablePPO(
        "MlpPolicy", venv, n_steps=n_steps, batch_size=256, n_epochs=1, seed=seed, verbose=0
    )
    model.learn(batch * model.n_steps)  # warm-up: first rollout + update
    start = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    elapsed = time.perf_counter() - start
    venv.close()
    return {"fps": timesteps / elapsed, "wall_s": elapsed, "timesteps": timesteps}


def main(argv: list[str] | None = None) -> None:
    """Parse the flags, run the measurements, print a table and write JSON."""
    parser = OneLineParser(
        prog="bench_vector.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--boards", default="beginner,expert", help="comma list of presets")
    parser.add_argument("--batch", type=int, default=1024, help="boards per vector env (B)")
    parser.add_argument("--budget", type=float, default=5.0, help="measured seconds per cell")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-breakdown", action="store_true", help="skip the per-part timing run")
    parser.add_argument("--obs-mode", default="board", help="board, channels or dict")
    parser.add_argument("--sb3", action="store_true", help="also compare SB3 VecEnvs")
    parser.add_argument("--train", action="store_true", help="also time MaskablePPO (B=64)")
    parser.add_argument("--train-steps", type=int, default=16384, help="MaskablePPO steps")
    parser.add_argument("--out", default="", help="write the results as JSON here")
    args = parser.parse_args(argv)
    meta = {"python": platform.python_version(), "numpy": np.__version__}
    meta |= {"platform": platform.platform(), "cpu_count": os.cpu_count(), **vars(args)}
    meta |= {"autoreset_mode": "SameStep", "first_click": "safe"}
    results: dict[str, Any] = {"meta": meta, "vector": {}, "sb3": {}, "train": {}}
    for name in parser.entries(args.boards, PRESETS, "preset"):
        board = PRESETS[name]
        print(f"[vector] {name} {board.rows}x{board.cols}/{board.mines} B={args.batch}", flush=True)
        row = run_vector(
            name, args.batch, args.budget, args.warmup, args.seed, args.obs_mode, False
        )
        row["resets_per_s"] = run_resets(name, args.batch, 1.0, args.seed)
        print(
            f"  {row['steps_per_s']:>12,.0f} steps/s  {row['episodes_per_s']:>10,.0f} episodes/s  "
            f"ep_len {row['mean_ep_len']:.2f}  {row['ms_per_call']:.2f} ms/call  "
            f"fresh boards {row['resets_per_s']:,.0f}/s",
            flush=True,
        )
        if not args.no_breakdown:
            timed = run_vector(name, args.batch, args.budget, 0.2, args.seed, args.obs_mode, True)
            row["breakdown_steps_per_s"] = timed["steps_per_s"]
            parts = row["ms_per_call_by_part"] = timed["ms_per_call_by_part"]
            print(
                f"  ms per call by part (timed run, {timed['steps_per_s']:,.0f} steps/s with "
                "timers): " + ", ".join(f"{k} {v:.3f}" for k, v in parts.items()),
                flush=True,
            )
        results["vector"][name] = row
    cells = [(kind, b) for kind in ("ours", "dummy") for b in SB3_BATCHES] + [("subproc", 8)]
    for kind, batch in cells if args.sb3 else []:
        print(f"[sb3] {kind} B={batch} beginner ...", flush=True)
        row = run_sb3(kind, batch, min(args.budget, 3.0), args.seed)
        results["sb3"][f"{kind}-B{batch}"] = row
        print(f"  {row['steps_per_s']:>12,.0f} steps/s", flush=True)
    for kind in ("ours", "dummy") if args.train else ():
        print(
            f"[train] MaskablePPO {kind} B={TRAIN_BATCH} {args.train_steps} steps ...", flush=True
        )
        row = run_train(kind, TRAIN_BATCH, args.train_steps, args.seed)
        results["train"][f"{kind}-B{TRAIN_BATCH}"] = row
        print(f"  {row['fps']:>10,.0f} steps/s ({row['wall_s']:.1f} s)", flush=True)
    if args.out:
        write_text_atomic(args.out, json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
