"""Win rate, cells revealed, safe-move share and time per move of every agent on the classic boards.

Two rule sets:

* ``env``: the ``Minesweeper-v0`` family: first click safe (``--first-click``), a zero opens its
  neighbours (flood fill). Boards: Beginner 9x9/10, Intermediate 16x16/40, Expert 16x30/99, and
  8x8/10.
* ``cs50``: the CS50 AI project's own game, as its runner plays it: 8x8 with 10 mines placed
  before the first click (so the first click may be a mine), and a click reveals one cell only
  (no flood fill). This is the rule set of the CS280 report's figures.

Games use seeds ``0..games-1`` for every agent, so agents meet the same boards. A "certain" move is
one the agent had proven safe; the first click of a safe-first-click game counts as a guess.

    python benchmarks/bench_agents.py --games 1000 --workers 2
    python benchmarks/bench_agents.py --games 50 --boards beginner --agents logic local
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import agents
from agents import play_episode
from common.atomic import write_text_atomic
from common.stats import wilson_bounds
from mswp_gym import MinesweeperEnv
from mswp_gym.cells import neighbour_counts, to_cell
from mswp_gym.constants import HIDDEN
from mswp_gym.masks import action_mask
from mswp_gym.spec import GameSpec

Z_95 = 1.959963984540054

BOARDS: dict[str, tuple[int, int, int, str]] = {
    "beginner": (9, 9, 10, "env"),
    "intermediate": (16, 16, 40, "env"),
    "expert": (16, 30, 99, "env"),
    "8x8": (8, 8, 10, "env"),
    "cs50-8x8": (8, 8, 10, "cs50"),
}
"""name -> (rows, cols, mines, rule set)."""

AGENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "random": ("random", {}),
    "local": ("local", {}),
    "logic": ("logic", {"guess": "random"}),
    "logic-sentence-max": ("logic", {"guess": "sentence-max"}),
    "logic-global": ("logic", {"guess": "global"}),
    "solver": ("solver", {}),
}
"""label -> (registry name, kwargs)."""

DEFAULT_AGENTS = ["random", "local", "logic", "logic-sentence-max", "logic-global"]


@dataclass(frozen=True)
class GameStats:
    """The figures of one game."""

    won: bool
    revealed: float
    steps: int
    certain: int
    agent_seconds: float


def cs50_rules_game(agent: Any, rows: int, cols: int, mines: int, seed: int) -> GameStats:
    """One game under the CS50 runner's rules: mines placed up front, one cell per click."""
    rng = np.random.default_rng(seed)
    flat_layout = np.zeros(rows * cols, dtype=bool)
    flat_layout[rng.choice(rows * cols, size=mines, replace=False)] = True
    layout = flat_layout.reshape(rows, cols)
    counts = neighbour_counts(layout)
    visible = np.full((rows, cols), HIDDEN, dtype=np.int8)
    agent.reset(seed, GameSpec(rows, cols, mines, first_click="any"))
    steps = certain = 0
    agent_seconds = 0.0
    safe_total = rows * cols - mines
    revealed = 0
    while True:
        tick = time.perf_counter()
        cell = to_cell(agent.act(visible, action_mask(visible)), cols)
        certain += agent.explain().certain
        agent_seconds += time.perf_counter() - tick
        steps += 1
        if layout[cell]:
            return GameStats(False, revealed / safe_total, steps, certain, agent_seconds)
        visible[cell] = counts[cell]
        revealed += 1
        if revealed == safe_total:
            return GameStats(True, 1.0, steps, certain, agent_seconds)


def run_chunk(job: tuple[str, str, str, list[int]]) -> list[GameStats]:
    """Play the given seeds of one (agent, board) pair; runs in a worker process."""
    label, board, first_click, seeds = job
    name, kwargs = AGENTS[label]
    rows, cols, mines, rules = BOARDS[board]
    agent = agents.make(name, **kwargs)
    out = []
    if rules == "cs50":
        for seed in seeds:
            out.append(cs50_rules_game(agent, rows, cols, mines, seed))
        return out
    env = MinesweeperEnv(rows, cols, mines, first_click=first_click)
    for seed in seeds:
        result = play_episode(env, agent, seed)
        out.append(
            GameStats(
                result.won,
                result.cells_revealed,
                result.steps,
                result.certain_moves,
                result.agent_time,
            )
        )
    return out


def summarise(label: str, board: str, games: list[GameStats]) -> dict[str, Any]:
    """Aggregate figures of one (agent, board) pair."""
    n = len(games)
    wins = sum(g.won for g in games)
    low, high = wilson_bounds(wins, n)
    revealed = np.array([g.revealed for g in games])
    steps = sum(g.steps for g in games)
    certain = sum(g.certain for g in games)
    return {
        "agent": label,
        "board": board,
        "games": n,
        "wins": wins,
        "win_rate": wins / n,
        "win_low": low,
        "win_high": high,
        "revealed_mean": float(revealed.mean()),
        "revealed_half_width": float(Z_95 * revealed.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0,
        "moves": steps,
        "certain_share": certain / steps if steps else 0.0,
        "ms_per_move": 1000 * sum(g.agent_seconds for g in games) / steps if steps else 0.0,
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    """Markdown table of the summaries."""
    print(
        "| board | agent | games | win rate [Wilson 95%] | safe cells revealed (mean ± 95%) "
        "| certain moves | ms / move |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['board']} | {r['agent']} | {r['games']} | {100 * r['win_rate']:.1f}% "
            f"[{100 * r['win_low']:.1f}, {100 * r['win_high']:.1f}] "
            f"| {100 * r['revealed_mean']:.1f}% ± {100 * r['revealed_half_width']:.1f} "
            f"| {100 * r['certain_share']:.1f}% of {r['moves']} | {r['ms_per_move']:.3f} |"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="games per agent and board")
    parser.add_argument("--workers", type=int, default=2, help="processes (1 = no pool)")
    parser.add_argument("--boards", nargs="+", choices=sorted(BOARDS), default=list(BOARDS))
    parser.add_argument("--agents", nargs="+", choices=sorted(AGENTS), default=DEFAULT_AGENTS)
    parser.add_argument("--first-click", default="safe", help="first-click rule of the env boards")
    parser.add_argument("--chunk", type=int, default=100, help="seeds per worker task")
    parser.add_argument("--json", help="also write the summaries to this file")
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.chunk < 1:
        parser.error("--games, --workers and --chunk must be positive")

    jobs = []
    for board in args.boards:
        for label in args.agents:
            for start in range(0, args.games, args.chunk):
                seeds = list(range(start, min(start + args.chunk, args.games)))
                jobs.append((label, board, args.first_click, seeds))
    start_time = time.perf_counter()
    if args.workers == 1:
        results = [run_chunk(job) for job in jobs]
    else:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(run_chunk, jobs, chunksize=1)
    grouped: dict[tuple[str, str], list[GameStats]] = {}
    for job, stats in zip(jobs, results, strict=True):
        grouped.setdefault((job[1], job[0]), []).extend(stats)
    summaries = [summarise(label, board, games) for (board, label), games in grouped.items()]
    print(
        f"{args.games} games per row, seeds 0..{args.games - 1}; env boards first click "
        f"{args.first_click!r}; {time.perf_counter() - start_time:.0f} s "
        f"with {args.workers} workers"
    )
    print_table(summaries)
    if args.json:
        write_text_atomic(
            args.json, json.dumps({"args": vars(args), "summaries": summaries}, indent=2)
        )


if __name__ == "__main__":
    main()
