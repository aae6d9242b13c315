"""``mswp-bench AGENT``: the standard protocol, a citable row on fixed, named seed sets.

Every cell (Beginner, Intermediate and Expert under ``safe``, ``opening`` and ``no-guess``) is
played by the agent, ``logic:global`` and ``solver`` on the same seeds. Each agent's games of a
cell live in their own ``mswp-eval --out`` folder under ``--out``, so the baselines are played
once per cell and seed set, and a killed run resumes: the same command plays only missing games.
Recipes and checkpoints are chosen on ``validation``; published figures are on ``test``. E.g.
``mswp-bench net:runs/RUN --quick``, ``mswp-bench mypackage.agents:make_agent --set validation``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents import available, registry
from common.atomic import write_text_atomic
from common.cli import INTERRUPTED, OneLineParser, report_error
from common.provenance import git_state
from common.stats import mcnemar_exact, wilson_interval
from common.workers import connect_ray
from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.backends import BACKENDS
from eval.config import SEED_RULE, EvalConfig, game_seeds
from eval.evaluate import EvalInterrupted, EvalWorkerDied, evaluate
from eval.games import GameRecord
from eval.journal import GAMES, read_games
from eval.runner import EvalSetupError, check_agent_plays, validate
from eval.settings import Setting, build_settings
from mswp_gym import __version__

PROG = "mswp-bench"
PROTOCOL = "mswp-standard-1"
SEED_SETS: dict[str, int] = {"validation": 0, "test": 20261207}
"""Base seed of each named set (``validation`` is the seed the record chose checkpoints on)."""
PRESETS: tuple[str, ...] = ("beginner", "intermediate", "expert")
RULES: tuple[str, ...] = ("safe", "opening", "no-guess")
CELLS: tuple[str, ...] = tuple(f"{p}-{r}" for p in PRESETS for r in RULES)
BASELINES: tuple[str, ...] = ("logic:global", "solver")
DEFAULT_GAMES, QUICK_GAMES, MAX_GAMES = 2000, 100, 10_000
"""Games a cell by default, with ``--quick``, and at most (the sets are disjoint up to it)."""


@dataclass(frozen=True)
class CallableSpec(AgentSpec):
    """An agent made by a Python callable, ``module:function`` (called with no argument)."""

    def build(self) -> Any:
        module, _, name = self.make_name.partition(":")
        return getattr(importlib.import_module(module), name)()


def parse_agent(text: str) -> AgentSpec:
    """A registered agent's spec, else ``module:function`` (ValueError: neither)."""
    base = text.partition(":")[0]
    if "=" in text or base in available() or not re.fullmatch(r"[\w.]+:\w+", text):
        return parse_agent_spec(text)
    module, _, name = text.partition(":")
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError as exc:
        raise ValueError(f"agent {text!r}: cannot import {module!r} ({exc})") from None
    if not callable(found):
        raise ValueError(f"agent {text!r}: {module!r} has no callable {name!r}")
    return CallableSpec(text, text, text=text)


def cell_setting(cell: str) -> Setting:
    """The board setting of ``PRESET-RULE``."""
    preset, _, rule = cell.partition("-")
    return build_settings([preset], None, None, None, None, rule, False)[0]


def play_cell(
    spec: AgentSpec, cell: str, seed: int, games: int, folder: Path, args: argparse.Namespace
) -> list[GameRecord]:
    """The first ``games`` games of ``spec`` on ``cell``, played now only where ``folder`` lacks
    them (``mswp-eval --resume FOLDER`` finishes them too; ValueError: games of other seeds)."""
    setting = cell_setting(cell)
    key = (spec.label, setting.label)

    def stored() -> list[GameRecord]:
        found = [r for r in read_games(folder / GAMES) if (r.agent, r.setting) == key]
        return sorted((r for r in found if r.game < games), key=lambda r: r.game)

    records = stored()
    if len(records) < games:
        config = EvalConfig((spec,), (setting,), games, seed, args.workers, args.backend)
        flags = {"agents": spec.text, "preset": setting.name, "first-click": setting.first_click}
        flags |= {"games": str(games), "seed": str(seed), "out": str(folder)}
        argv: list[str] | None = [f"--{k}={v}" for k, v in flags.items()] + ["--no-plots"]
        argv = None if isinstance(spec, CallableSpec) else argv  # mswp-eval takes no callable
        evaluate(config, folder, quiet=args.quiet, plots=False, argv=argv, resume=True)
        records = stored()
    seeds = game_seeds(seed, games)
    if any(r.seed != seeds[r.game] for r in records):
        raise ValueError(f"{str(folder)!r} holds games of other seeds than base seed {seed}")
    return records


def rate(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Wins, games and the Wilson 95% interval of ``records``."""
    wins = sum(r.won for r in records)
    return {"wins": wins, "games": len(records), **wilson_interval(wins, len(records)).as_dict()}


def cell_row(
    cell: str, mine: list[GameRecord], others: dict[str, list[GameRecord]]
) -> dict[str, Any]:
    """The figures of one cell: rules, first click, rate, and each baseline paired with it."""
    setting = cell_setting(cell)
    first, count = Counter(r.first_cell for r in mine).most_common(1)[0]
    row: dict[str, Any] = {"cell": cell, "board": f"{setting.rows}x{setting.cols}/{setting.mines}"}
    row |= {"first_click_rule": setting.first_click, "pairing": setting.pairing}
    row |= {"first_click": {"cell": first, "share": count / len(mine)}, "win_rate": rate(mine)}
    for label, theirs in others.items():
        test = mcnemar_exact([r.won for r in mine], [r.won for r in theirs])
        row[label] = {"win_rate": rate(theirs), "mcnemar": test.as_dict()}
    return row


def percent(figure: dict[str, Any]) -> str:
    """``83.5% [81.8, 85.0]``."""
    low, high = 100 * figure["low"], 100 * figure["high"]
    return f"{100 * figure['estimate']:.1f}% [{low:.1f}, {high:.1f}]"


def markdown(row: dict[str, Any]) -> str:
    """The row as a Markdown paragraph and table."""
    sha = f", SHA-256 `{row['sha256']}`" if row["sha256"] else ""
    lines = [
        f"`{row['agent']}`{sha}: protocol {row['protocol']}, seed set `{row['seed_set']}` (base "
        f"seed {row['base_seed']}), mswp-gym {row['package_version']} at `{row['commit']}`; a "
        f"mine ends the game; a / b: games only the agent / only the baseline won (exact McNemar)",
        "",
        "| board | rule | first click | N | win rate | logic:global | solver |",
        "| --- | --- | --- | ---: | --- | --- | --- |",
    ]
    for c in row["cells"]:
        lines.append("| " + " | ".join([c["board"], c["first_click_rule"], *cell_texts(c)]) + " |")
    return "\n".join(lines)


def cell_texts(cell: dict[str, Any]) -> list[str]:
    """A row's cell as Markdown table cells: first click, N, win rate, and per baseline its win
    rate with the games only the agent / only the baseline won and the exact McNemar p."""
    first = cell["first_click"]
    texts = [f"{first['cell']} ({first['share']:.0%})", f"{cell['win_rate']['games']:,}"]
    texts.append(percent(cell["win_rate"]))
    for b, test in ((cell[b], cell[b]["mcnemar"]) for b in BASELINES):
        pair = f"{test['a_only']} / {test['b_only']}, p {test['p_value']:.2g}"
        texts.append(f"{percent(b['win_rate'])}; {pair}")
    return texts


def plays(spec: AgentSpec, cell: str) -> bool:
    """Whether ``spec`` can play ``cell``."""
    try:
        check_agent_plays(spec, cell_setting(cell))
    except EvalSetupError:
        return False
    return True


def bench(spec: AgentSpec, args: argparse.Namespace) -> dict[str, Any]:
    """Play (or read) every cell of ``args.cells`` and return the row."""
    seed = SEED_SETS[args.set]
    specs = {s.label: s for s in (spec, *map(parse_agent_spec, BASELINES))}
    if args.cells is None:  # every cell the agent can play (a network plays its own board)
        args.cells = [c for c in CELLS if plays(spec, c)] or list(CELLS)
    validate(EvalConfig(tuple(specs.values()), tuple(map(cell_setting, args.cells))))
    path = registry.agent_file(spec.make_name)
    digest = None if path is None else hashlib.sha256(path.read_bytes()).hexdigest()
    cells, state = [], git_state()
    for cell in args.cells:
        played = {}
        for label, s in specs.items():
            tag = f"-{digest[:12]}" if s is spec and digest else ""
            folder = args.out / args.set / cell / (re.sub(r"[^\w.-]+", "_", label) + tag)
            played[label] = play_cell(s, cell, seed, args.games, folder, args)
        cells.append(cell_row(cell, played[spec.label], {b: played[b] for b in BASELINES}))
    commit = state.get("commit", "unknown")[:7] + ("-dirty" if state.get("dirty") else "")
    row = {"protocol": PROTOCOL, "agent": spec.label, "spec": spec.text, "sha256": digest}
    row |= {"package_version": __version__, "commit": commit, "seed_set": args.set}
    return row | {"base_seed": seed, "seed_rule": SEED_RULE, "games": args.games, "cells": cells}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0].split(": ", 1)[1])
    add = parser.add_argument
    add("agent", help="an agent spec mswp-eval takes, or module:function")
    add("--set", default="test", choices=tuple(SEED_SETS), help="seed set (default test)")
    add("--games", type=int, default=DEFAULT_GAMES, help=f"games a cell ({DEFAULT_GAMES})")
    add("--quick", action="store_true", help=f"{QUICK_GAMES} games a cell, for a look")
    add("--cells", help="comma-separated PRESET-RULE cells (default: all the agent plays)")
    add("--out", type=Path, default=Path("runs/bench"), help="games folders (runs/bench)")
    add("--json", type=Path, help="also write the row to this file")
    add("--workers", type=int, default=1, help="local worker processes (default 1)")
    add("--backend", default="local", choices=BACKENDS, help="local processes or ray")
    add("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 2 on bad input (nothing played or created), 130 after Ctrl-C."""
    args = build_parser().parse_args(argv)
    args.games = QUICK_GAMES if args.quick else args.games
    try:
        args.cells = args.cells and [c.strip() for c in args.cells.split(",")]
        for cell in set(args.cells or ()) - set(CELLS):
            raise ValueError(f"--cells: unknown cell {cell!r}; choose from {', '.join(CELLS)}")
        if not 1 <= args.games <= MAX_GAMES:
            raise ValueError(f"--games must be in [1, {MAX_GAMES}], got {args.games}")
        if args.workers < 1:
            raise ValueError(f"--workers must be >= 1, got {args.workers}")
        spec = parse_agent(args.agent)
        if args.backend == "ray":
            connect_ray(None)
        row = bench(spec, args)
    except (EvalInterrupted, KeyboardInterrupt, EvalWorkerDied) as exc:
        print(f"{PROG}: {exc or 'interrupted'}; the same command resumes", file=sys.stderr)
        return 1 if isinstance(exc, EvalWorkerDied) else INTERRUPTED
    except (ValueError, TypeError, FileNotFoundError, ImportError, EvalSetupError) as exc:
        return report_error(PROG, exc)
    text = json.dumps(row, indent=1)
    if args.json is not None:
        write_text_atomic(args.json, text + "\n")
    print(markdown(row) + "\n\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
