"""The main job in one command (``make demo``): watch an agent play, then compare every agent.

``python -m eval.demo`` (seeded, about a minute on 2 cores):

1. prints two Beginner games played by the strongest available agent, board by board at the end;
2. compares every available agent on the same Beginner boards (table, exact paired tests,
   ``out/demo/results.json``, ``games.csv``, ``win_rate.png``, ``knowledge.png``);
3. sweeps the mine density on 9x9 boards (``out/demo/sweep/win_rate_vs_density.png``).

Agents that cannot be built here (the shipped network without ``[train]``) are skipped with a
note; without ``[eval]`` (matplotlib) everything but the plots is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from common.workers import default_workers
from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.config import EvalConfig, game_seeds
from eval.evaluate import evaluate
from eval.report import command_line
from eval.runner import EvalSetupError, check_agent_plays
from eval.settings import Setting, build_settings
from eval.summary import AgentSummary

CANDIDATES: tuple[str, ...] = (
    "random",
    "local",
    "logic",
    "logic:sentence-max",
    "logic:global",
    "solver",
    "net",
)
"""Every agent the demo tries, weakest first (``net`` is the shipped Beginner network)."""
SHOWCASE_PREFERENCE: tuple[str, ...] = ("solver", "logic:global", "logic")
"""The agent whose games are printed: the first of these that is available."""
SWEEP_AGENTS: tuple[str, ...] = ("local", "logic", "logic:global", "solver")
SWEEP_DENSITIES: tuple[float, ...] = (0.08, 0.12, 0.16, 0.20, 0.24)
DEFAULT_GAMES = 1000
DEFAULT_SWEEP_GAMES = 200
DEFAULT_OUT = Path("out/demo")
SHOWN_GAMES = 2


def available_agents(
    candidates: Sequence[str], setting: Setting
) -> tuple[list[AgentSpec], list[str]]:
    """The candidates that build and play ``setting``, and a note for each one skipped."""
    usable: list[AgentSpec] = []
    notes: list[str] = []
    for text in candidates:
        spec = parse_agent_spec(text)
        try:
            check_agent_plays(spec, setting)
        except EvalSetupError as exc:
            notes.append(f"skipped {text}: {exc.__cause__ or exc}")
            continue
        usable.append(spec)
    return usable, notes


def show_games(agent: AgentSpec, setting: Setting, seeds: Sequence[int]) -> str:
    """The final board of each seeded game of ``agent``, with how it went."""
    from agents import play_episode
    from mswp_gym.render.text import render_ansi

    env = setting.make_env()
    player = agent.build()
    blocks = []
    for seed in seeds:
        result = play_episode(env, player, seed)
        board = env.unwrapped.visible
        guesses = result.steps - result.certain_moves
        last = result.moves[-1].cell if result.moves else None
        blocks.append(
            f"{agent.label}, seed {seed}: {result.outcome.name} after {result.steps} moves "
            f"({result.certain_moves} proven safe, {guesses} guesses), "
            f"{100 * result.cells_revealed:.0f}% of safe cells revealed, last move {last}\n"
            + render_ansi(board, result.layout)
        )
    env.close()
    return "\n".join(blocks)


def build_parser() -> argparse.ArgumentParser:
    """The demo's few options."""
    parser = argparse.ArgumentParser(
        prog="python -m eval.demo", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"Beginner games per agent (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--sweep-games",
        type=int,
        default=DEFAULT_SWEEP_GAMES,
        help="games per agent and density in the sweep; 0 skips it "
        f"(default {DEFAULT_SWEEP_GAMES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: CPU cores)"
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the demo; returns the exit status."""
    args = build_parser().parse_args(argv)
    workers = default_workers() if args.workers is None else args.workers
    beginner = build_settings(["beginner"], None, None, None, None, "safe", False)[0]
    agents, notes = available_agents(CANDIDATES, beginner)
    print(f"mswp-gym demo: {', '.join(a.label for a in agents)} on {beginner.label}")
    for note in notes:
        print(f"  note: {note}")
    if not agents:
        print("no agent could be built", file=sys.stderr)
        return 1
    labels = [a.label for a in agents]
    shown = next((a for name in SHOWCASE_PREFERENCE for a in agents if a.label == name), agents[-1])
    print(
        f"\n-- {SHOWN_GAMES} games played by {shown.label} "
        "(# hidden, * mine, X exploded, . empty) --\n"
    )
    print(show_games(shown, beginner, game_seeds(args.seed, SHOWN_GAMES)))

    print(f"-- every agent on the same {args.games} Beginner boards (seed {args.seed}) --\n")
    extra = {
        "command_line": command_line("python -m eval.demo" if argv is not None else None, argv),
        "first_click": "safe",
        "score_mode": False,
        "pairing": "board",
    }
    config = EvalConfig(
        agents=tuple(agents),
        settings=(beginner,),
        compare=tuple(pairwise(labels)),
        games=args.games,
        seed=args.seed,
        workers=workers,
        extra=dict(extra),
    )
    evaluation = evaluate(config, args.out, quiet=args.quiet, skip_validation=True)
    print(evaluation.report)
    print("\nwrote " + ", ".join(str(p) for p in evaluation.files))

    if args.sweep_games > 0:
        sweep_agents = [a for a in agents if a.label in SWEEP_AGENTS]
        settings = build_settings(None, 9, 9, None, list(SWEEP_DENSITIES), "safe", False)
        print(
            f"\n-- density sweep on 9x9: {', '.join(a.label for a in sweep_agents)}, "
            f"{args.sweep_games} games per point --\n"
        )
        sweep = EvalConfig(
            agents=tuple(sweep_agents),
            settings=tuple(settings),
            games=args.sweep_games,
            seed=args.seed,
            workers=workers,
            compare=(),
            extra=dict(extra),
        )
        swept = evaluate(sweep, args.out / "sweep", quiet=args.quiet)
        print(sweep_table(swept.summary.agents, settings, [a.label for a in sweep_agents]))
        print("\nwrote " + ", ".join(str(p) for p in swept.files))
    print(f"\nagents compared: {', '.join(labels)}")
    return 0


def sweep_table(
    summaries: Sequence[AgentSummary], settings: Sequence[Setting], agents: Sequence[str]
) -> str:
    """Win rate per density (rows) and agent (columns)."""
    from eval.report import format_table

    by_key = {(s.setting, s.agent): s for s in summaries}
    rows = []
    for setting in settings:
        row = [f"{setting.mines} mines ({setting.density:.3f})"]
        for agent in agents:
            rate = by_key[(setting.label, agent)].win_rate
            row.append(f"{100 * rate.estimate:.0f}% [{100 * rate.low:.0f}, {100 * rate.high:.0f}]")
        rows.append(row)
    return format_table(["9x9 density", *agents], rows)


if __name__ == "__main__":
    sys.exit(main())
