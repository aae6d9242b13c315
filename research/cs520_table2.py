"""Reproduce the CS520 report's Table 2 and print our figures beside the published ones.

The report does not say how many games each of its averages is over, so no interval can be put
on its figures; ours carry a 95% interval.

Score mode on a 30x30 board with 300 mines, first click ``any`` (the report's agent opens with a
random guess): mines identified safely, mean over N games with a 95% interval, for the local-rules
baseline, the logic agent and the logic agent using the total mine count.

    python research/cs520_table2.py --games 200 --workers 2 --out out/cs520
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from common.workers import default_workers
from eval.agent_specs import AgentSpec, parse_agent_list, parse_agent_spec
from eval.config import EvalConfig
from eval.evaluate import evaluate
from eval.report import command_line, format_table
from eval.settings import Setting

ROWS = COLS = 30
MINES = 300
FIRST_CLICK = "any"


@dataclass(frozen=True)
class PublishedRow:
    """One row of the report's Table 2 and the agent spec that plays it here."""

    description: str
    spec: str
    mines_found: float
    """The report's average number of mines identified safely, out of :data:`MINES`."""


TABLE_2: tuple[PublishedRow, ...] = (
    PublishedRow("local rules baseline", "local", 225.6),
    PublishedRow("logic agent (CS50 inference)", "logic", 239.5),
    PublishedRow("logic agent + total mine count", "logic:global", 267.0),
)


def table2_setting() -> Setting:
    """30x30, 300 mines, first click may be a mine, score mode."""
    return Setting(ROWS, COLS, MINES, FIRST_CLICK, score_mode=True, name="cs520")


def table2_config(
    games: int, seed: int = 0, workers: int = 1, extra_agents: tuple[AgentSpec, ...] = ()
) -> EvalConfig:
    """The evaluation that reproduces Table 2 (``games`` games per agent).

    Args:
        games: games per agent.
        seed: base seed.
        workers: local worker processes.
        extra_agents: reference agents played beside the table's (e.g. the exact solver).
    """
    return EvalConfig(
        agents=tuple(parse_agent_spec(row.spec) for row in TABLE_2) + extra_agents,
        settings=(table2_setting(),),
        games=games,
        seed=seed,
        workers=workers,
        extra={
            "first_click": FIRST_CLICK,
            "score_mode": True,
            "reproduces": "CS520 report, Table 2",
        },
    )


def main(argv: list[str] | None = None) -> None:
    """Run the reproduction and print the comparison table."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per agent (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    parser.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: CPU cores)"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="also write results.json, games.csv, plots"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--reference",
        default="",
        help="extra agent specs to play beside the table, comma-separated (e.g. solver:0)",
    )
    args = parser.parse_args(argv)
    workers = default_workers() if args.workers is None else args.workers
    extra = tuple(parse_agent_list(args.reference)) if args.reference else ()
    config = table2_config(args.games, args.seed, workers, extra)
    config.extra["command_line"] = command_line(None, argv)
    evaluation = evaluate(config, args.out, quiet=args.quiet, plots=args.out is not None)
    by_agent = {s.agent: s for s in evaluation.summary.agents}
    rows = []
    for row in TABLE_2:
        ours = by_agent[row.spec]
        assert ours.mines_found is not None
        found = ours.mines_found
        inside = "yes" if found.low <= row.mines_found <= found.high else "no"
        rows.append(
            [
                row.description,
                row.spec,
                f"{row.mines_found:.1f}",
                f"{found.estimate:.1f} [{found.low:.1f}, {found.high:.1f}]",
                f"{found.estimate - row.mines_found:+.1f}",
                inside,
                f"{100 * ours.win_rate.estimate:.1f}%",
            ]
        )
    for spec in extra:
        ours = by_agent[spec.label]
        assert ours.mines_found is not None
        found = ours.mines_found
        rows.append(
            [
                "reference (not in the report)",
                spec.label,
                "-",
                f"{found.estimate:.1f} [{found.low:.1f}, {found.high:.1f}]",
                "",
                "",
                f"{100 * ours.win_rate.estimate:.1f}%",
            ]
        )
    header = [
        "agent",
        "spec",
        "report",
        f"ours (N={args.games}) [95% CI]",
        "ours - report",
        "report in CI",
        "no mine hit",
    ]
    print(
        f"CS520 Table 2: mines identified safely out of {MINES}, 30x30, first click any, "
        f"score mode, seed {args.seed}"
    )
    print(format_table(header, rows))
    print()
    print(evaluation.report)


if __name__ == "__main__":
    main()
