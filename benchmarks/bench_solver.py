"""Win rate and speed of the solver agent on seeded boards (Wilson 95% intervals).

Each game ``i`` of a board draws its layout from ``np.random.SeedSequence([seed, i])`` with the
``mswp_gym.generators`` generator of the rule, placed around the agent's own first click (the
agent is asked for its first move on the all-hidden board before the layout exists, as in the env).
Every agent therefore replays the same seeds; agents with the same first click replay the same
boards. Games run in parallel over ``--workers`` processes.

Examples::

    .venv/bin/python benchmarks/bench_solver.py --games 1000 --workers 2
    .venv/bin/python benchmarks/bench_solver.py --boards expert --rules safe --games 10000 \
        --depth 1 --workers 2 --json runs/solver_expert.json
    .venv/bin/python benchmarks/bench_solver.py --boards 16x16/40 --agent solver:depth=0
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from common.atomic import write_text_atomic
from common.cli import OneLineParser, report_error
from common.stats import wilson_bounds
from eval.agent_specs import parse_agent_spec
from mswp_gym.board import Board
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig
from mswp_gym.constants import HIDDEN, Outcome
from mswp_gym.generators import make_generator
from mswp_gym.presets import PRESETS
from mswp_gym.spec import GameSpec
from mswp_gym.spec import parse_board as board_spec

DEFAULT_SEED = 20261123
PROG = "bench_solver.py"


@dataclass(frozen=True)
class GameResult:
    """One game's outcome and costs."""

    won: bool
    progress: float
    """Fraction of the safe cells revealed at the end."""
    seconds: float
    """Wall time of the whole game (agent and board)."""
    agent_seconds: float
    """Time spent inside ``agent.act``."""
    moves: int
    """``act`` calls."""
    losing_move: str = ""
    """In a lost game, how the agent chose the fatal move (``explain().move.reason``: guess,
    forced, endgame, ...), when the agent explains itself; else empty."""


def parse_board(text: str) -> tuple[int, int, int]:
    """A preset name or ``ROWSxCOLS/MINES`` (:func:`mswp_gym.spec.parse_board`); ValueError
    naming both forms otherwise."""
    try:
        board = PRESETS[text] if text in PRESETS else board_spec(text)
    except ValueError as error:
        raise ValueError(f"{error}, or one of {', '.join(PRESETS)}") from None
    return board.rows, board.cols, board.mines


def parse_agent(text: str) -> tuple[str, dict[str, Any]]:
    """An agent spec as ``python -m eval`` reads one (:func:`eval.agent_specs.parse_agent_spec`):
    ``name`` or ``name:KEY=VALUE[:KEY=VALUE...]``, values parsed as bool, int, float or text;
    ValueError if malformed."""
    spec = parse_agent_spec(text)
    return spec.make_name, spec.kwargs


def build_agent(name: str, kwargs: dict[str, Any]) -> Any:
    """The agent called ``name`` (the solver directly; others through ``agents.make``)."""
    if name == "solver":
        from agents.solver import SolverAgent

        return SolverAgent(**kwargs)
    import agents

    return agents.make(name, **kwargs)


def play_game(
    agent: Any, rows: int, cols: int, mines: int, rule: str, seed: int, index: int
) -> GameResult:
    """Play game ``index`` of the seeded series to its end (first click included)."""
    start = time.perf_counter()
    agent.reset(seed=index, spec=GameSpec(rows=rows, cols=cols, mines=mines, first_click=rule))
    board: Board | None = None
    visible, mask = np.full((rows, cols), HIDDEN, dtype=np.int8), np.ones(rows * cols, dtype=bool)
    spent, moves = 0.0, 0
    while board is None or board.outcome == Outcome.PLAYING:
        tic = time.perf_counter()
        cell = divmod(int(agent.act(visible, mask)), cols)
        spent += time.perf_counter() - tic
        moves += 1
        if board is None:  # the layout is laid around the first click
            layout_rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
            board = Board(make_generator(rule).layout(rows, cols, mines, layout_rng, cell))
        board.reveal(*cell)
        visible, mask = board.visible, ~board.revealed.ravel()
    won = board.outcome == Outcome.WON
    move = agent.explain().move if not won and hasattr(agent, "explain") else None
    return GameResult(
        won=won,
        progress=board.safe_revealed / board.safe_total,
        seconds=time.perf_counter() - start,
        agent_seconds=spent,
        moves=moves,
        losing_move="" if move is None else str(move.reason),
    )


def _run_chunk(
    job: tuple[str, dict[str, Any], int, int, int, str, int, list[int]],
) -> list[GameResult]:
    name, kwargs, rows, cols, mines, rule, seed, indices = job
    agent = build_agent(name, kwargs)
    return [play_game(agent, rows, cols, mines, rule, seed, i) for i in indices]


def run_series(
    agent: str,
    rows: int,
    cols: int,
    mines: int,
    rule: str,
    games: int,
    seed: int,
    workers: int,
    start: int = 0,
) -> dict[str, Any]:
    """Play ``games`` seeded games (indices ``start..start+games-1``) and summarise them."""
    name, kwargs = parse_agent(agent)
    indices = list(range(start, start + games))
    chunk = max(1, min(50, games // (4 * max(workers, 1)) or 1))
    jobs = [
        (name, kwargs, rows, cols, mines, rule, seed, indices[i : i + chunk])
        for i in range(0, games, chunk)
    ]
    tic = time.perf_counter()
    if workers > 1:
        with get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_run_chunk, jobs)
    else:
        parts = [_run_chunk(job) for job in jobs]
    wall = time.perf_counter() - tic
    results = [r for part in parts for r in part]
    wins = sum(r.won for r in results)
    low, high = wilson_bounds(wins, len(results))
    moves = sum(r.moves for r in results)
    return {
        "agent": agent,
        "board": f"{rows}x{cols}/{mines}",
        "rule": rule,
        "games": len(results),
        "wins": wins,
        "win_rate": wins / len(results),
        "wilson95": [low, high],
        "ms_per_game": 1000 * float(np.mean([r.seconds for r in results])),
        "agent_ms_per_game": 1000 * float(np.mean([r.agent_seconds for r in results])),
        "agent_ms_per_move": 1000 * sum(r.agent_seconds for r in results) / max(moves, 1),
        "progress": float(np.mean([r.progress for r in results])),
        "wall_s": wall,
        "seed": seed,
        "first_game": start,
        "won": "".join("1" if r.won else "0" for r in results),
        "losses": loss_breakdown(results),
    }


LOSS_STAGES = (0.1, 0.5, 0.9)
"""Bounds of the loss stages: the share of the safe cells revealed when the game was lost."""


def loss_breakdown(results: list[GameResult]) -> dict[str, dict[str, int]]:
    """Lost games counted by how the fatal move was chosen (``by_move``: reason -> count) and by
    how far the game had got (``by_stage``: ``"<10%"``, ... -> count)."""
    lost = [result for result in results if not result.won]
    top = f">={round(100 * LOSS_STAGES[-1])}%"
    stages = (
        next((f"<{round(100 * b)}%" for b in LOSS_STAGES if r.progress < b), top) for r in lost
    )
    by_move = Counter(result.losing_move or "?" for result in lost)
    return {"by_move": dict(by_move), "by_stage": dict(Counter(stages))}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = OneLineParser(
        prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--boards", default=",".join(PRESETS), help="comma list of presets or ROWSxCOLS/MINES"
    )
    parser.add_argument("--rules", default="safe,opening", help="comma list of first-click rules")
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        help="agent spec as python -m eval takes one, e.g. solver, solver:depth=0, "
        "solver:endgame_layouts=2000:endgame_nodes=200000, logic (repeatable; default solver)",
    )
    parser.add_argument("--games", type=int, default=200, help="games per (agent, board, rule)")
    parser.add_argument("--start", type=int, default=0, help="index of the first game")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--json", default="", help="write the results to this file")
    parser.add_argument(
        "--losses", action="store_true", help="also the losses by fatal move and by stage"
    )
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "games", "workers")
    parser.require_at_least(args, 0, "start")
    agents_ = args.agent or ["solver"]
    rules = parser.entries(args.rules, FirstClick.drawn(), "first-click rule")
    try:
        boards = [parse_board(name) for name in filter(None, args.boards.split(","))]
        for rule in rules:
            for rows, cols, mines in boards:  # an impossible board: the env's own one line
                GameConfig(rows=rows, cols=cols, mines=mines, first_click=rule)
        for agent in agents_:
            try:  # a bad option fails here, in one line, not in a worker
                build_agent(*parse_agent(agent))
            except (ValueError, TypeError) as error:
                raise ValueError(f"--agent {agent!r}: {error}") from None
    except ValueError as error:
        sys.exit(report_error(PROG, error))
    rows_out = []
    for agent, (rows, cols, mines), rule in itertools.product(agents_, boards, rules):
        summary = run_series(
            agent, rows, cols, mines, rule, args.games, args.seed, args.workers, args.start
        )
        rows_out.append(summary)
        low, high = summary["wilson95"]
        print(
            f"{agent:<22} {summary['board']:<10} {rule:<8} N={summary['games']:<6} "
            f"win {100 * summary['win_rate']:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  "
            f"{summary['agent_ms_per_game']:7.1f} ms/game (agent)  "
            f"{summary['agent_ms_per_move']:6.2f} ms/move  progress {summary['progress']:.3f}  "
            f"wall {summary['wall_s']:.0f}s",
            flush=True,
        )
        if args.losses:
            losses = summary["losses"]
            print(
                f"    losses by move {losses['by_move']}  by stage {losses['by_stage']}", flush=True
            )
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        write_text_atomic(
            args.json, json.dumps({"argv": sys.argv[1:], "results": rows_out}, indent=1)
        )


if __name__ == "__main__":
    main()
