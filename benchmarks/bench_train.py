"""Win rate of a trained checkpoint on fixed seeds (Wilson 95%), and the run's learning curve.

    nice -n 10 .venv/bin/python benchmarks/bench_train.py \\
        --checkpoint train/checkpoints/net-beginner.zip \\
        --games 2000 --run RUN_DIR --png results/img/train_curve.png

The games are played twice: batched (the policy's deterministic action for all live games in one
network call) and one by one through ``agents.make("ppo:PATH")`` + ``agents.play_episode`` (the
path ``eval`` uses). Both use the seeds of :mod:`train.evaluate` and must agree game for game;
the script fails if they do not.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import torch as th

from common.atomic import atomic_path
from mswp_gym.spec import GameSpec
from train.checkpoint import SHIPPED_BEGINNER, load_model, resolve_checkpoint
from train.evaluate import WinRate, eval_seeds, evaluate_agent, evaluate_net, make_env
from train.policy import BoardPolicy
from train.settings import TrainSettings, saved_settings


def agent_win_rate(checkpoint: str, spec: GameSpec, games: int) -> WinRate:
    """The same games through the agent interface (``agents.make("ppo:PATH")``)."""
    import agents

    agent = agents.make(f"ppo:{checkpoint}")
    env = make_env(spec)
    start = time.perf_counter()
    wins = sum(agents.play_episode(env, agent, seed).won for seed in eval_seeds(games))
    return WinRate("ppo agent (play_episode)", wins, games, time.perf_counter() - start)


TIME_PARTS = (
    ("network (play)", "time/network_play_seconds"),
    ("network (gradients)", "time/gradients_seconds"),
    ("labels", "time/labels_seconds"),
    ("engine", "time/engine_seconds"),
    ("eval", "time/eval_seconds"),
)
WALL_PARTS = (
    ("collection", "time/collect_wall_seconds"),
    ("saving", "time/saving_seconds"),
    ("buffers", "time/buffers_seconds"),
    ("gradients", "time/gradients_seconds"),
    ("eval", "time/eval_seconds"),
    ("other", "time/other_seconds"),
)
"""A DAgger round's wall time by part (``progress.csv`` has them from runs that time them)."""


def print_time_shares(run_dir: Path) -> None:
    """Where a run's time went, summed over its DAgger rounds or PPO iterations (``progress.csv``;
    for PPO the engine is the env, labels are none)."""
    with open(run_dir / "progress.csv") as handle:
        rows = list(csv.DictReader(handle))
    totals = {name: sum(float(r.get(column) or 0.0) for r in rows) for name, column in TIME_PARTS}
    whole = sum(totals.values())
    if not whole:
        print("no per-round timings in progress.csv")
        return
    shares = ", ".join(
        f"{name} {seconds / 60:.1f} min ({seconds / whole:.0%})" for name, seconds in totals.items()
    )
    steps = max((float(r.get("time/total_timesteps") or 0.0) for r in rows), default=0.0)
    rate = f"; {steps / whole:,.0f} env steps/s" if steps else ""
    print(f"time over {len(rows)} rounds/iterations: {shares}{rate}")
    timed = [r for r in rows if r.get("time/round_wall_seconds")]
    if timed:
        wall = sum(float(r["time/round_wall_seconds"]) for r in timed)
        parts = ", ".join(
            f"{name} {seconds / 60:.1f} min ({seconds / max(wall, 1e-9):.0%})"
            for name, column in WALL_PARTS
            for seconds in [sum(float(r.get(column) or 0.0) for r in timed)]
        )
        print(f"wall time of {len(timed)} DAgger rounds, {wall / 60:.1f} min: {parts}")


def run_baselines(
    state: dict[str, object], settings: TrainSettings, games: int
) -> dict[str, float]:
    """Logic and solver win rates on the run's evaluation seeds: the run's own, or played now
    (a run started with ``--eval-baselines false`` has none)."""
    saved = state.get("baselines")
    if isinstance(saved, dict) and saved:
        return {name: float(base["win_rate"]) for name, base in saved.items()}
    spec = GameSpec(*settings.board, settings.first_click)
    rates = {}
    for name in ("logic", "solver"):
        result = evaluate_agent(name, spec, games)
        if result is not None:
            print(f"{result} (the run's evaluation seeds)")
            rates[name] = result.wins / result.games
    return rates


def curve_rows(run_dir: Path) -> list[dict[str, str]]:
    """The run's ``curve.csv`` points in order: every checkpoint's evaluation, and the final one
    only where the run went on after its last checkpoint (a run stopped by its time budget)."""
    with open(run_dir / "curve.csv") as handle:
        rows = list(csv.DictReader(handle))
    kept = [r for r in rows if r["phase"] != "final"]
    for final in (r for r in rows if r["phase"] == "final"):
        work = (int(final["env_steps"]), int(final["positions"]))
        if not kept or work > (int(kept[-1]["env_steps"]), int(kept[-1]["positions"])):
            kept.append({**final, "phase": kept[-1]["phase"] if kept else final["phase"]})
    return kept


def plot_curve(
    run_dir: Path, png: Path, target: float | None = None, machine: str = "shared 2-core CPU"
) -> None:
    """Win rate against wall minutes (on ``machine``) and against training data, with 95% bands.

    The second axis is labelled positions for a DAgger run, moves played (its env steps) for a
    bandit run and env steps for a PPO run.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = curve_rows(run_dir)
    state = json.loads((run_dir / "state.json").read_text())
    settings = saved_settings(state["settings"])
    ppo = bool(rows) and all(r["phase"] == "ppo" for r in rows)
    minutes = [float(r["wall_seconds"]) / 60 for r in rows]
    if ppo:
        data = [float(r["env_steps"]) / 1e6 for r in rows]
        data_label, learner = "env steps (millions)", "learned (PPO, reward only)"
    elif settings.algo == "bandit":
        data = [float(r["positions"]) / 1e6 for r in rows]
        data_label, learner = "moves played (millions)", "learned (bandit, reward only)"
    else:
        data = [float(r["positions"]) / 1000 for r in rows]
        data_label, learner = "labelled positions seen (thousands)", "learned (DAgger)"
    rate, low, high = ([float(r[key]) for r in rows] for key in ("win_rate", "low95", "high95"))
    games = int(rows[0]["games"]) if rows else 0
    baselines = run_baselines(state, settings, games) if games else {}
    figure, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for axis, x, label in (
        (axes[0], minutes, f"wall time (minutes, {machine})"),
        (axes[1], data, data_label),
    ):
        axis.plot(x, rate, marker="o", ms=3, label=learner)
        axis.fill_between(x, low, high, alpha=0.25)
        for name, style in (("solver", "--"), ("logic", ":")):
            if name in baselines:
                line = f"{name} ({baselines[name]:.1%}, same seeds)"
                axis.axhline(baselines[name], ls=style, color="grey", label=line)
        if target is not None:
            axis.axhline(target, color="red", lw=0.8, label=f"goal {target:.1%}")
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel(f"win rate ({games or '?'} fixed-seed games per point, 95% band)")
    axes[0].legend(loc="lower right", fontsize=8)
    spec = GameSpec(*settings.board, settings.first_click)
    figure.suptitle(f"{state['name']}: {spec.board}, first click {settings.first_click}")
    figure.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(png) as temporary:
        figure.savefig(temporary, dpi=110)
    print(f"curve written to {png}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--checkpoint",
        default=str(SHIPPED_BEGINNER),
        help="a checkpoint, run folder or shipped name",
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--agent-games", type=int, help="through the agent interface (--games)")
    parser.add_argument("--baselines", action="store_true", help="also logic and solver")
    parser.add_argument("--run", type=Path, default=None, help="run folder for the curve")
    parser.add_argument("--png", type=Path, help="where to write the curve (RUN/curve.png)")
    parser.add_argument("--target", type=float, default=None, help="a goal line on the curve")
    parser.add_argument(
        "--machine", default="shared 2-core CPU", help="where the run trained (the curve's axis)"
    )
    args = parser.parse_args()
    th.set_num_threads(1)
    args.checkpoint = str(resolve_checkpoint(args.checkpoint))
    model = load_model(args.checkpoint)
    policy = model.policy
    assert isinstance(policy, BoardPolicy)
    spec = GameSpec(*policy.board, "safe")
    print(
        f"checkpoint {args.checkpoint}: {spec.board}, first click safe, seeds "
        f"{eval_seeds(1)[0]}..+{args.games - 1}"
    )
    batched = evaluate_net(
        policy.cell_net(), spec, args.games, policy.opening_weight, "ppo (batched)"
    )
    print(batched)
    agent_games = args.games if args.agent_games is None else args.agent_games
    if agent_games:
        one_by_one = agent_win_rate(args.checkpoint, spec, agent_games)
        print(one_by_one)
        if agent_games == args.games and one_by_one.wins != batched.wins:
            raise SystemExit("batched and agent evaluations disagree")
    if args.baselines:
        for name in ("logic", "solver"):
            result = evaluate_agent(name, spec, args.games)
            print(result if result is not None else f"{name}: not importable")
    if args.run is not None:
        print_time_shares(args.run)
        png = args.run / "curve.png" if args.png is None else args.png
        plot_curve(args.run, png, args.target, args.machine)


if __name__ == "__main__":
    main()
