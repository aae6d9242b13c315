"""What several benchmark scripts share: the options of a per-preset script and a timed loop.

Importing it puts this checkout first on ``sys.path``: a script that imports it (before the
project's packages, as isort orders them) measures this checkout, whatever is installed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common.cli import OneLineParser
from mswp_gym.presets import PRESETS


def preset_options(
    script: str,
    doc: str,
    argv: list[str] | None,
    count: str = "games",
    default: int = 50,
    presets: str = ",".join(PRESETS),
) -> tuple[argparse.Namespace, list[str]]:
    """The options of ``script`` (its path; ``doc``'s first paragraph is its help): ``--COUNT``
    per preset (at least 1), ``--presets`` and ``--seed``; and the presets named. Bad input is one
    line on stderr, exit status 2."""
    parser = OneLineParser(prog=Path(script).name, description=doc.split("\n\n")[0])
    parser.add_argument(f"--{count}", type=int, default=default, help=f"per preset ({default})")
    parser.add_argument("--presets", default=presets, help=f"comma-separated ({presets})")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first one (0)")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, count)
    return args, parser.entries(args.presets, PRESETS, "preset")


def repeat_for(seconds: float, step: Callable[[], object]) -> tuple[int, float]:
    """Call ``step`` until ``seconds`` of wall time have passed (at least once); returns the
    calls and the seconds they took."""
    calls, start = 0, time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, elapsed
