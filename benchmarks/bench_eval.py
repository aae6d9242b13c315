"""Throughput of the evaluation runner: games per second by worker count, same figures for each.

    python benchmarks/bench_eval.py --agents logic,solver --preset intermediate --games 200

Prints, per worker count, the wall time of the games and games per second, and checks that every
record (timings aside) is the same whatever the worker count.
"""

from __future__ import annotations

import argparse
from argparse import RawTextHelpFormatter

from eval.agent_specs import parse_agent_list
from eval.config import EvalConfig
from eval.runner import run
from eval.settings import build_settings


def main(argv: list[str] | None = None) -> None:
    """Time the same evaluation at each worker count."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=RawTextHelpFormatter)
    parser.add_argument("--agents", default="logic,solver", help="agent specs (logic,solver)")
    parser.add_argument("--preset", default="intermediate", help="preset (default intermediate)")
    parser.add_argument("--games", type=int, default=200, help="games per agent (default 200)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="counts to time")
    args = parser.parse_args(argv)
    settings = tuple(build_settings([args.preset], None, None, None, None, "safe", False))
    agents = tuple(parse_agent_list(args.agents))
    baseline = None
    total = len(agents) * args.games
    print(f"{args.agents} on {settings[0].label}, {args.games} games each ({total} games)")
    for workers in args.workers:
        result = run(EvalConfig(agents, settings, args.games, workers=workers))
        rows = [r.without_timing() for r in result.records]
        baseline = rows if baseline is None else baseline
        same = "reference" if rows is baseline else "same" if rows == baseline else "DIFFERENT"
        print(
            f"workers={workers}: {result.seconds:.2f} s, "
            f"{total / result.seconds:.1f} games/s ({same} records)"
        )


if __name__ == "__main__":
    main()
