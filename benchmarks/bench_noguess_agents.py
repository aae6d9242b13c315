"""The payoff table on no-guess boards: every agent's win rate per preset, with Wilson intervals.

    python benchmarks/bench_noguess_agents.py --games 1000 --out out/noguess
    python benchmarks/bench_noguess_agents.py --presets beginner --games 50 --workers 2

On no-guess boards no game needs a guess, so every loss is reasoning an agent lacks: the table
shows how much of it each agent captures. Per preset it runs ``python -m eval`` with
``--first-click no-guess --by 3bv`` (same seeds for every agent; each game's board is built
around the agent's own first click) on :data:`AGENTS` and the shipped :func:`networks`, writes
each preset's eval outputs under ``--out/<preset>``, then prints win rate [95% Wilson] per agent
and preset. The solver must win every game (it plays only certain moves until none is left, and
on these boards one always is): the script exits 1 if it does not.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common.cli import OneLineParser
from eval.bench import percent
from eval.cli import main as eval_main
from eval.report import format_table
from mswp_gym.presets import PRESETS

AGENTS = ("random", "local", "logic", "logic:sentence-max", "logic:global", "solver")
"""The rule-based agents, in table order."""


def networks(preset: str) -> list[str]:
    """The shipped networks played on ``preset``: its board network, the generalist, and on
    Beginner the one learned from reward alone."""
    shipped = [f"net:{preset}", "net:generalist"]
    return [*shipped, "rl:beginner"] if preset == "beginner" else shipped


def run(argv: list[str] | None = None) -> int:
    """Evaluate every agent on every preset, print the payoff table; the exit status."""
    parser = OneLineParser(prog="bench_noguess_agents.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--games", type=int, default=1000, help="games per agent and preset")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="eval worker processes")
    parser.add_argument("--out", type=Path, default=None, help="eval outputs per preset here")
    parser.add_argument("--no-networks", action="store_true", help="rule-based agents only")
    args = parser.parse_args(argv)
    presets = parser.entries(args.presets, PRESETS, "preset")
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="noguess_"))
    rows, solver_lost = [], []
    for name in presets:
        agents = [*AGENTS, *([] if args.no_networks else networks(name))]
        eval_argv = ["--agents", ",".join(agents), "--preset", name, "--first-click", "no-guess"]
        eval_argv += ["--games", str(args.games), "--seed", str(args.seed), "--by", "3bv"]
        eval_argv += ["--out", str(out / name), "--quiet"]
        if args.workers is not None:
            eval_argv += ["--workers", str(args.workers)]
        status = eval_main(eval_argv)
        if status != 0:
            return status
        summaries = json.loads((out / name / "results.json").read_text())["summaries"]
        for s in summaries:
            rows.append([name, s["agent"], str(s["games"]), percent(s["win_rate"])])
            if s["agent"] == "solver" and s["wins"] != s["games"]:
                solver_lost.append(f"{name}: {s['games'] - s['wins']} of {s['games']}")
    print("\n== payoff table: no-guess boards ==")
    print(format_table(["preset", "agent", "games", "win rate [95% Wilson]"], rows))
    print(f"\neval outputs (games.csv, results.json, plots) under {out}")
    if solver_lost:
        print(f"the solver lost games it must win: {'; '.join(solver_lost)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(run())
