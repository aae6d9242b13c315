"""Agents under the CS520 report's uncertain clues: win rate and CS520 score against p and density.

Every game is played in score mode (stepping on a mine does not end it) with ``first_click="any"``,
as in the report. Per setting and agent it prints:

* score: mines found safely / mines (the report's metric), mean with a normal 95% interval;
* win: the fraction of games with no mine stepped on, with a Wilson 95% interval.

Three sweeps (``--sweep``): ``p`` (reveal probability 0.25..1 for each noise model, fixed board),
``density`` (p = 1, each noise model, several mine counts) and ``report`` (30x30 with 300 mines).
Results go to a JSON file; ``--plot`` draws the p and density sweeps into one PNG.

    nice -n 10 .venv/bin/python benchmarks/bench_noise.py --games 20 --solver-games 8 \\
        --json results/img/noise.json --plot results/img/noise.png
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import agents
from common.atomic import atomic_path, write_text_atomic
from common.stats import mean_interval, wilson_interval
from mswp_gym import MinesweeperEnv

NOISES = ("exact", "optimistic", "cautious")
AGENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "local": ("local", {}),
    "logic": ("logic", {"guess": "global"}),
    "solver": ("solver-noise", {}),
}
"""Label -> (registry name, kwargs)."""


@dataclass(frozen=True)
class Setting:
    """One board and clue model."""

    sweep: str
    rows: int
    cols: int
    mines: int
    noise: str
    prob: float


SWEEPS: dict[str, list[Setting]] = {
    "p": [Setting("p", 16, 16, 40, n, p) for n in NOISES for p in (0.25, 0.5, 0.75, 1.0)],
    "density": [Setting("density", 16, 16, m, n, 1.0) for n in NOISES for m in (26, 51, 77)],
    "report": [
        *(Setting("report", 30, 30, 300, n, 1.0) for n in NOISES),
        Setting("report", 30, 30, 300, "exact", 0.5),
    ],
}
"""The settings of each sweep."""


def moves(setting: Setting, label: str, seed: int) -> Iterator[tuple[Any, dict[str, Any]]]:
    """One seeded game of ``setting`` by the agent ``label``: after each move, the agent and the
    env's info."""
    env = MinesweeperEnv(
        setting.rows,
        setting.cols,
        setting.mines,
        first_click="any",
        score_mode=True,
        clue_noise=setting.noise,
        clue_reveal_prob=setting.prob,
    )
    name, kwargs = AGENTS[label]
    agent = agents.make(name, seed=seed, **kwargs)
    obs, info = env.reset(seed=seed)
    agent.reset(seed, env.game_spec)
    done = False
    while not done:
        obs, _r, terminated, truncated, info = env.step(agent.act(obs, env.action_masks()))
        done = terminated or truncated
        yield agent, info


def play(job: tuple[Setting, str, int]) -> tuple[Setting, str, int, float, bool, float]:
    """One seeded game: ``(setting, agent, seed, score, won, seconds)`` (set-up included)."""
    setting, label, seed = job
    start = time.perf_counter()
    *_, (_agent, info) = moves(setting, label, seed)
    won = bool(info["mines_exploded"] == 0)
    return (
        setting,
        label,
        seed,
        info["mines_found"] / setting.mines,
        won,
        time.perf_counter() - start,
    )


def soundness(games: int, solver_games: int) -> None:
    """Count games in which an agent ever claimed a wrong safe cell or mine (9x9/12, score mode).

    After every move ``explain().safe`` and ``.mines`` are checked against the layout the env
    reveals at the end; seeds 1000.. (disjoint from the unit tests' seeds).
    """
    for noise in NOISES:
        for prob in (1.0, 0.5):
            for label in AGENTS:
                n = solver_games if label == "solver" else games
                wrong = moves_seen = 0
                for seed in range(1000, 1000 + n):
                    setting = Setting("soundness", 9, 9, 12, noise, prob)
                    game = [(agent.explain(), info) for agent, info in moves(setting, label, seed)]
                    layout = game[-1][1]["layout"]
                    moves_seen += len(game)
                    wrong += any(
                        any(layout[c] for c in seen.safe) or not all(layout[c] for c in seen.mines)
                        for seen, _ in game
                    )
                print(
                    f"soundness {noise:10} p={prob:4.2f} {label:7} games {n:4d} "
                    f"moves {moves_seen:6d} games with a wrong claim {wrong}",
                    flush=True,
                )


def main() -> None:
    """Run the sweeps and print one line per setting and agent."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="per setting: local and logic")
    parser.add_argument("--solver-games", type=int, default=8, help="per setting: the solver")
    parser.add_argument("--report-games", type=int, default=6, help="per agent on 30x30")
    parser.add_argument("--sweep", nargs="+", choices=list(SWEEPS), default=list(SWEEPS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--plot", default=None, help="draw the p and density sweeps into this PNG")
    parser.add_argument(
        "--soundness", action="store_true", help="instead: games with a wrong claim (9x9/12)"
    )
    args = parser.parse_args()
    if args.soundness:
        soundness(args.games, args.solver_games)
        return
    jobs = []
    for setting in (setting for sweep in args.sweep for setting in SWEEPS[sweep]):
        for label in AGENTS:
            n = args.solver_games if label == "solver" else args.games
            n = args.report_games if setting.sweep == "report" else n
            jobs += [(setting, label, seed) for seed in range(n)]
    results: dict[tuple[Setting, str], list[tuple[float, bool, float]]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for setting, label, _seed, game_score, won, seconds in pool.map(play, jobs, chunksize=1):
            results.setdefault((setting, label), []).append((game_score, won, seconds))
    rows = []
    print(
        f"{'sweep':8} {'board':10} {'noise':10} {'p':>5} {'agent':7} {'N':>3} "
        f"{'score [95% CI]':>22} {'win [Wilson 95%]':>24} {'s/game':>7}"
    )
    for (setting, label), games in results.items():
        score = mean_interval([g[0] for g in games])
        win = wilson_interval(sum(g[1] for g in games), len(games))
        seconds = sum(g[2] for g in games) / len(games)
        board = f"{setting.rows}x{setting.cols}/{setting.mines}"
        print(
            f"{setting.sweep:8} {board:10} {setting.noise:10} {setting.prob:5.2f} {label:7} "
            f"{len(games):3d} {score.estimate:6.3f} [{score.low:5.3f},{score.high:5.3f}] "
            f"{win.estimate:6.3f} [{win.low:5.3f},{win.high:5.3f}] {seconds:7.2f}"
        )
        rows.append(
            {
                **asdict(setting),
                "agent": label,
                "games": len(games),
                "score": score.as_dict(),
                "win": win.as_dict(),
                "seconds_per_game": seconds,
            }
        )
    if args.json:
        write_text_atomic(args.json, json.dumps(rows, indent=1))
    if args.plot:
        plot(rows, args.plot)


def plot(rows: list[dict[str, Any]], path: str) -> None:
    """Score against p and against density, one panel per noise model and sweep."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(13, 7), sharey=True)
    for row_i, (sweep, key, xlabel) in enumerate(
        (("p", "prob", "clue reveal probability p"), ("density", "mines", "mine density"))
    ):
        for col_i, noise in enumerate(NOISES):
            ax = axes[row_i][col_i]
            for label in AGENTS:
                points = sorted(
                    (r[key] / (r["rows"] * r["cols"]) if key == "mines" else r[key], r["score"])
                    for r in rows
                    if r["sweep"] == sweep and r["noise"] == noise and r["agent"] == label
                )
                if not points:
                    continue
                xs = [x for x, _ in points]
                ys = [s["estimate"] for _, s in points]
                err = [
                    [max(s["estimate"] - s["low"], 0) for _, s in points],
                    [max(s["high"] - s["estimate"], 0) for _, s in points],
                ]
                ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
            ax.set_title(f"{noise} clues ({'16x16, 40 mines' if sweep == 'p' else '16x16, p = 1'})")
            ax.set_xlabel(xlabel)
            ax.grid(alpha=0.3)
            if col_i == 0:
                ax.set_ylabel("CS520 score (mines found safely / mines)")
    for ax in axes.ravel():
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
            break
    fig.suptitle("Agents under uncertain clues (score mode, first click 'any'; 95% intervals)")
    fig.tight_layout()
    with atomic_path(path) as temporary:
        fig.savefig(temporary, dpi=90)


if __name__ == "__main__":
    main()
