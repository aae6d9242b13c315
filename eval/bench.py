"""``mswp-bench AGENT``: the standard protocol, a citable row on fixed, named seed sets.

Every cell (Beginner, Intermediate and Expert under ``safe``, ``opening`` and ``no-guess``) is
played by the agent, ``logic:global`` and ``solver`` on the same seeds. Each agent's games of a
cell live in their own ``mswp-eval --out`` folder under ``--out``, so the baselines are played
once per cell and seed set, and a killed run resumes: the same command plays only missing games.

Example::

    mswp-bench net:expert --quick                  # 100 games a cell on the test seeds
    mswp-bench rl:beginner --cells beginner-safe,beginner-opening --json row.json
    mswp-bench mypackage.agents:make_agent --set validation

Recipes and checkpoints are chosen on ``validation``; published figures are on ``test``.
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

from eval.agent_specs import PATH_AGENTS, AgentSpec, parse_agent_spec
from eval.backends import BACKENDS, connect_ray
from eval.config import SEED_RULE, EvalConfig, game_seeds
from eval.evaluate import EvalInterrupted, EvalWorkerDied, evaluate
from eval.games import GameRecord
from eval.journal import GAMES, read_games
from eval.report import git_state
from eval.runner import EvalSetupError, check_agent_plays, validate
from eval.settings import Setting, build_settings
from eval.stats import mcnemar_exact, wilson_interval
from mswp_gym import __version__
from mswp_gym.atomic import write_text_atomic
from mswp_gym.cli import INTERRUPTED, OneLineParser, report_error

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
        """A fresh agent: ``module.function()``."""
        module, _, name = self.make_name.partition(":")
        return getattr(importlib.import_module(module), name)()


def parse_agent(text: str) -> AgentSpec:
    """A registered agent's spec, else ``module:function``.

    Raises:
        ValueError: neither (the registry's message) or a callable that cannot be imported.
    """
    import agents

    base = text.partition(":")[0]
    if "=" in text or base in agents.available() or not re.fullmatch(r"[\w.]+:\w+", text):
        return parse_agent_spec(text)
    module, _, name = text.partition(":")
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError as exc:
        raise ValueError(f"agent {text!r}: cannot import {module!r} ({exc})") from None
    if not callable(found):
        raise ValueError(f"agent {text!r}: {module!r} has no callable {name!r}")
    return CallableSpec(text, text, text=text)


def agent_file(spec: AgentSpec) -> Path | None:
    """The checkpoint file a ``net:``/``rl:``/``ppo:``/``sb3:`` agent loads, else None."""
    family, _, path = spec.make_name.partition(":")
    if family not in PATH_AGENTS:
        return None
    if family == "sb3":
        return Path(path)
    from train.checkpoint import resolve_checkpoint

    return resolve_checkpoint(spec.make_name)


def sha256(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git_commit() -> str:
    """The checkout's short commit (``-dirty`` with uncommitted changes), or ``unknown``."""
    state = git_state()
    if not state:
        return "unknown"
    return state["commit"][:7] + ("-dirty" if state["dirty"] else "")


def cell_setting(cell: str) -> Setting:
    """The board setting of ``PRESET-RULE``."""
    preset, _, rule = cell.partition("-")
    return build_settings([preset], None, None, None, None, rule, False)[0]


def play_cell(
    spec: AgentSpec, cell: str, seed: int, games: int, folder: Path, args: argparse.Namespace
) -> list[GameRecord]:
    """The first ``games`` games of ``spec`` on ``cell``, played now only where ``folder`` lacks
    them (``mswp-eval --resume FOLDER`` finishes them too, for registered agents).

    Raises:
        ValueError: the folder holds games of other seeds.
    """
    setting = cell_setting(cell)

    def stored() -> list[GameRecord]:
        return sorted(
            (
                r
                for r in read_games(folder / GAMES)
                if (r.agent, r.setting) == (spec.label, setting.label) and r.game < games
            ),
            key=lambda r: r.game,
        )

    records = stored()
    if len(records) < games:
        config = EvalConfig((spec,), (setting,), games, seed, args.workers, args.backend)
        argv = None
        if not isinstance(spec, CallableSpec):
            argv = [f"--agents={spec.text}", f"--preset={setting.name}", "--no-plots"]
            argv += [f"--first-click={setting.first_click}", f"--games={games}"]
            argv += [f"--seed={seed}", f"--out={folder}"]
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
    row: dict[str, Any] = {
        "cell": cell,
        "board": f"{setting.rows}x{setting.cols}/{setting.mines}",
        "first_click_rule": setting.first_click,
        "pairing": setting.pairing,
        "first_click": {"cell": first, "share": count / len(mine)},
        "win_rate": rate(mine),
    }
    for label, theirs in others.items():
        test = mcnemar_exact([r.won for r in mine], [r.won for r in theirs])
        row[label] = {"win_rate": rate(theirs), "mcnemar": test.as_dict()}
    return row


def percent(figure: dict[str, Any]) -> str:
    """``83.5% [81.8, 85.0]``."""
    return (
        f"{100 * figure['estimate']:.1f}% [{100 * figure['low']:.1f}, {100 * figure['high']:.1f}]"
    )


def markdown(row: dict[str, Any]) -> str:
    """The row as a Markdown paragraph and table."""
    sha = f", SHA-256 `{row['sha256']}`" if row["sha256"] else ""
    lines = [
        f"`{row['agent']}`{sha}: protocol {row['protocol']}, seed set `{row['seed_set']}` (base "
        f"seed {row['base_seed']}), mswp-gym {row['package_version']} at `{row['commit']}`; a "
        f"mine ends the game; a / b: games only the agent / only the baseline won (exact McNemar)",
        "",
        "| board | rule | first click | N | win rate | " + " | ".join(BASELINES) + " |",
        "| --- | --- | --- | ---: | --- | " + " | ".join("---" for _ in BASELINES) + " |",
    ]
    for c in row["cells"]:
        first = f"{c['first_click']['cell']} ({100 * c['first_click']['share']:.0f}%)"
        paired = [
            f"{percent(c[b]['win_rate'])}; {c[b]['mcnemar']['a_only']} / "
            f"{c[b]['mcnemar']['b_only']}, p {c[b]['mcnemar']['p_value']:.2g}"
            for b in BASELINES
        ]
        lines.append(
            f"| {c['board']} | {c['first_click_rule']} | {first} | {c['win_rate']['games']:,} | "
            f"{percent(c['win_rate'])} | " + " | ".join(paired) + " |"
        )
    return "\n".join(lines)


def plays(spec: AgentSpec, cell: str) -> bool:
    """Whether ``spec`` can play ``cell`` (a board-specific network plays its own board only)."""
    try:
        check_agent_plays(spec, cell_setting(cell))
    except EvalSetupError:
        return False
    return True


def bench(spec: AgentSpec, args: argparse.Namespace) -> dict[str, Any]:
    """Play (or read) every cell of ``args.cells`` and return the row."""
    seed = SEED_SETS[args.set]
    specs = {s.label: s for s in (spec, *map(parse_agent_spec, BASELINES))}
    if args.cells is None:  # every cell the agent can play
        args.cells = [c for c in CELLS if plays(spec, c)] or list(CELLS)
    validate(EvalConfig(tuple(specs.values()), tuple(map(cell_setting, args.cells))))
    path = agent_file(spec)
    digest = None if path is None else sha256(path)
    cells = []
    for cell in args.cells:
        played = {}
        for label, s in specs.items():
            slug = re.sub(r"[^\w.-]+", "_", label) + (
                f"-{digest[:12]}" if s is spec and digest else ""
            )
            played[label] = play_cell(
                s, cell, seed, args.games, args.out / args.set / cell / slug, args
            )
        cells.append(cell_row(cell, played[spec.label], {b: played[b] for b in BASELINES}))
    return {
        "protocol": PROTOCOL,
        "agent": spec.label,
        "spec": spec.text,
        "sha256": digest,
        "package_version": __version__,
        "commit": git_commit(),
        "seed_set": args.set,
        "base_seed": seed,
        "seed_rule": SEED_RULE,
        "games": args.games,
        "cells": cells,
    }


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = OneLineParser(prog=PROG, description=__doc__.splitlines()[0].split(": ", 1)[1])
    parser.add_argument("agent", help="an agent spec mswp-eval takes, or module:function")
    parser.add_argument("--set", default="test", choices=tuple(SEED_SETS), help="seed set (test)")
    parser.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help=f"games a cell ({DEFAULT_GAMES})"
    )
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} games a cell, a look")
    parser.add_argument(
        "--cells", help="comma-separated PRESET-RULE cells (default: every one the agent plays)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("runs/bench"), help="games folders (runs/bench)"
    )
    parser.add_argument("--json", type=Path, help="also write the row to this file")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (1)")
    parser.add_argument("--backend", default="local", choices=BACKENDS, help="local or ray")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; 2 on bad input (nothing played or created), 130 after Ctrl-C."""
    args = build_parser().parse_args(argv)
    args.games = QUICK_GAMES if args.quick else args.games
    try:
        if args.cells is not None:
            args.cells = [c.strip() for c in args.cells.split(",")]
        for cell in args.cells or ():
            if cell not in CELLS:
                raise ValueError(f"--cells: unknown cell {cell!r}; choose from {', '.join(CELLS)}")
        if not 1 <= args.games <= MAX_GAMES:
            raise ValueError(f"--games must be in [1, {MAX_GAMES}], got {args.games}")
        if args.workers < 1:
            raise ValueError(f"--workers must be >= 1, got {args.workers}")
        spec = parse_agent(args.agent)
        if args.backend == "ray":
            connect_ray(None)
        row = bench(spec, args)
    except (EvalInterrupted, KeyboardInterrupt) as exc:
        print(f"{PROG}: {exc or 'interrupted'}; the same command resumes", file=sys.stderr)
        return INTERRUPTED
    except EvalWorkerDied as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, FileNotFoundError, ImportError, EvalSetupError) as exc:
        return report_error(PROG, exc)
    text = json.dumps(row, indent=1)
    if args.json is not None:
        write_text_atomic(args.json, text + "\n")
    print(markdown(row) + "\n\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
