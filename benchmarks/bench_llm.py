"""Games per minute of an ``llm:`` agent against a fake OpenAI-compatible endpoint, by requests
in flight, and the check that every record (timings aside) is the same at each.

    python benchmarks/bench_llm.py --games 64 --in-flight 1 16 --delay 0.1

The endpoint (``tests/chat_server.py``, on 127.0.0.1 in this process) answers the solver's move
for the board after ``--delay`` seconds, standing in for a served model's latency; no reply is
cached, so every move is a request.
"""

from __future__ import annotations

import argparse
import sys
import time
from argparse import RawTextHelpFormatter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the fake server
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's packages
from chat_server import chat_server, solver_policy

from eval.agent_specs import parse_agent_spec
from eval.config import EvalConfig
from eval.runner import run
from eval.settings import build_settings


def main(argv: list[str] | None = None) -> None:
    """Time the same evaluation at each number in flight."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=RawTextHelpFormatter)
    parser.add_argument("--preset", default="beginner", help="preset (default beginner)")
    parser.add_argument("--games", type=int, default=64, help="games (default 64)")
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 16], help="counts to time")
    parser.add_argument("--delay", type=float, default=0.1, help="seconds per reply (0.1)")
    args = parser.parse_args(argv)
    settings = tuple(build_settings([args.preset], None, None, None, None, "safe", False))
    baseline = None
    print(
        f"llm agent (fake endpoint answering the solver's moves after {args.delay:g} s) on "
        f"{settings[0].label}, {args.games} games, no cache"
    )
    with chat_server(solver_policy(), delay=args.delay) as server:
        spec = parse_agent_spec("llm:fake")
        options = {"url": server.url, "cache": "none", "backoff": 0}
        spec = replace(spec, options=tuple(sorted(options.items())))
        for in_flight in args.in_flight:
            asked = server.requests
            config = EvalConfig((spec,), settings, args.games, workers=1, llm_in_flight=in_flight)
            start = time.perf_counter()
            result = run(config, skip_validation=True)
            seconds = time.perf_counter() - start
            rows = [r.without_timing() for r in result.records]
            baseline = rows if baseline is None else baseline
            same = "reference" if rows is baseline else "same" if rows == baseline else "DIFFERENT"
            wins = sum(r.won for r in result.records)
            print(
                f"in flight {in_flight:>3}: {args.games / seconds * 60:8.1f} games/min, "
                f"{(server.requests - asked) / seconds:7.1f} requests/s, {seconds:6.2f} s, "
                f"{wins}/{args.games} won ({same} records)"
            )


if __name__ == "__main__":
    main()
