"""``python -m eval`` / ``mswp-eval``: play agents on the same seeded boards and compare them.

Example::

    mswp-eval --agents random,local,logic,logic:global,solver --preset beginner \\
        --games 500 --seed 0 --out out/beginner
    mswp-eval --agents local,logic,logic:global --rows 30 --cols 30 --mines 300 \\
        --first-click any --score-mode --games 100
    mswp-eval --agents logic,solver --preset expert --density 0.1,0.15,0.2 --out out/sweep
    mswp-eval --resume out/sweep      # finish an evaluation that was killed or interrupted

Bad input is one line on stderr and exit status 2, before any game is played. With ``--out``,
games are appended to ``games.csv`` as they finish (see :mod:`eval.journal`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from agents import registry
from common.atomic import check_output_folder, first_missing
from common.cli import INTERRUPTED, OneLineParser, report_error
from common.workers import connect_ray, default_workers
from eval.agent_specs import parse_agent_list
from eval.backends import BACKENDS
from eval.config import DEFAULT_SEED, EvalConfig
from eval.evaluate import EvalInterrupted, EvalWorkerDied, evaluate
from eval.journal import Manifest
from eval.llm import add_arguments as add_llm_arguments
from eval.llm import with_endpoint
from eval.pairing import DEFAULT_PAIRING, PAIRINGS
from eval.report import BY_CHOICES, command_line
from eval.runner import EvalSetupError, validate
from eval.settings import build_settings, parse_float_list
from mswp_gym.choices import FirstClick

PROG = "mswp-eval"
DEFAULT_AGENTS = "random,local,logic"
DEFAULT_CLI_GAMES = 100


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also documents every flag in ``--help``)."""
    parser = OneLineParser(
        prog=PROG,
        description="Play Minesweeper agents on the same seeded boards and compare them "
        "(win rate with Wilson 95% intervals, exact paired McNemar tests, tables, JSON, CSV, "
        "plots).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="agent specs:\n  "
        + "\n  ".join(registry.help_lines())
        + "\n  NAME:KEY=VALUE[:KEY=VALUE]: keyword arguments of any agent"
        + "\n  LABEL=SPEC: a short name for the tables, e.g. mine=net:/long/path.zip",
    )
    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        help=f"comma-separated agent specs (default {DEFAULT_AGENTS})",
    )
    board = parser.add_argument_group("boards")
    board.add_argument(
        "--preset",
        help="comma-separated presets: beginner, intermediate, expert (default beginner)",
    )
    board.add_argument("--rows", type=int, help="custom board rows (with --cols)")
    board.add_argument("--cols", type=int, help="custom board columns (with --rows)")
    board.add_argument("--mines", type=int, help="mine count (overrides the preset's)")
    board.add_argument(
        "--density", help="mine density, or a comma-separated list to sweep, e.g. 0.1,0.15,0.2"
    )
    board.add_argument(
        "--first-click",
        default="safe",
        choices=FirstClick.drawn(),
        help="first-click rule (default safe)",
    )
    board.add_argument(
        "--pairing",
        default=DEFAULT_PAIRING,
        choices=PAIRINGS,
        help="board (default): every agent meets the same layout for a seed, whatever its first "
        "click (same distribution as the env's rule); seed: the env's own generator",
    )
    board.add_argument(
        "--score-mode",
        action="store_true",
        help="CS520 scoring: mines do not end the game; score = mines identified safely / mines",
    )
    play = parser.add_argument_group("games")
    play.add_argument(
        "--games",
        type=int,
        default=DEFAULT_CLI_GAMES,
        help=f"games per agent and setting (default {DEFAULT_CLI_GAMES})",
    )
    play.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"base seed (default {DEFAULT_SEED})"
    )
    play.add_argument(
        "--compare",
        nargs=2,
        action="append",
        metavar=("A", "B"),
        help="compare agents A and B (repeatable; default: every pair)",
    )
    play.add_argument(
        "--calibration",
        action="store_true",
        help="instead: each risk map's MAE and Brier score against the exact probabilities, in "
        "one process (with --out: calibration.json)",
    )
    run = parser.add_argument_group("execution")
    run.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local worker processes (default: one per CPU core)",
    )
    run.add_argument(
        "--backend",
        default="local",
        choices=BACKENDS,
        help="local processes or a Ray cluster (default local)",
    )
    run.add_argument(
        "--ray-address", default=None, help="Ray address, e.g. auto (default: start a local Ray)"
    )
    add_llm_arguments(parser)
    output = parser.add_argument_group("output")
    output.add_argument("--out", type=Path, help="write results.json, games.csv and PNG plots here")
    output.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    output.add_argument(
        "--by",
        choices=BY_CHOICES,
        help="also split each agent's win rate by 3BV band (the quartiles of each setting's "
        "boards): a table with Wilson intervals, results.json and win_rate_by_3bv.png",
    )
    output.add_argument("--quiet", action="store_true", help="no progress bar")
    output.add_argument(
        "--resume",
        type=Path,
        metavar="DIR",
        help="finish an interrupted evaluation written with --out DIR (same command, only the "
        "missing games are played; --quiet, --workers and --no-plots may be given too)",
    )
    return parser


RESUME_FLAGS = ("--resume", "--quiet", "--workers", "--no-plots", "--llm-in-flight", "--llm-url")
"""The flags a ``--resume`` may be given with (they change no figure)."""


def resume_argv(argv: Sequence[str]) -> tuple[Path, list[str]]:
    """The folder and the saved arguments of ``--resume DIR``, with ``--quiet``/``--workers``/
    ``--no-plots`` of ``argv`` applied.

    Raises:
        ValueError: another flag given with ``--resume``, or the folder is no resumable run.
    """
    args = build_parser().parse_args(argv)
    for token in argv:
        name = token.split("=", 1)[0]
        if name.startswith("--") and name not in RESUME_FLAGS:
            raise ValueError(
                f"{name} cannot be used with --resume: the evaluation keeps its "
                f"saved command (allowed: {', '.join(RESUME_FLAGS[1:])})"
            )
    folder = args.resume
    manifest = Manifest.read(folder)
    if manifest.argv is None:
        raise ValueError(
            f"{str(folder)!r} was not written by the mswp-eval command line; it cannot be resumed"
        )
    extra, skip = [], False
    for token in argv:  # everything but --resume DIR / --resume=DIR
        if skip or token.startswith("--resume="):
            skip = False
            continue
        if token == "--resume":
            skip = True
            continue
        extra.append(token)
    return folder, [*manifest.argv, *extra]


def config_from_args(args: argparse.Namespace, argv: Sequence[str] | None = None) -> EvalConfig:
    """Turn parsed arguments into a validated-shape :class:`EvalConfig` (no agent built yet).

    Raises:
        ValueError: any bad value, named.
    """
    if args.compare:
        for a, b in args.compare:
            if a == b:
                raise ValueError(
                    f"--compare {a} {b} compares an agent with itself; give two different agents"
                )
    given = {"--by": args.by, "--workers": args.workers, "--backend ray": args.backend == "ray"}
    given |= {"--ray-address": args.ray_address, "--compare": args.compare}
    ignored = [flag for flag, value in given.items() if value]
    if args.calibration and ignored:
        raise ValueError(
            f"--calibration plays in one local process and takes no {ignored[0]} (it takes the "
            f"agents, boards, --games, --seed and --out)"
        )
    if args.ray_address is not None and args.backend != "ray":
        raise ValueError(
            f"--ray-address {args.ray_address!r} needs --backend ray (the backend "
            f"is {args.backend!r})"
        )
    agents = with_endpoint(parse_agent_list(args.agents), args)
    presets = None if args.preset is None else [p.strip() for p in args.preset.split(",")]
    densities = parse_float_list(args.density, "--density") if args.density else None
    settings = build_settings(
        presets,
        args.rows,
        args.cols,
        args.mines,
        densities,
        args.first_click,
        args.score_mode,
        args.pairing,
    )
    workers = default_workers() if args.workers is None else args.workers
    return EvalConfig(
        agents=tuple(agents),
        settings=tuple(settings),
        games=args.games,
        seed=args.seed,
        workers=workers,
        backend=args.backend,
        llm_in_flight=args.llm_in_flight,
        ray_address=args.ray_address,
        compare=tuple((a, b) for a, b in args.compare or ()),
        extra={
            "command_line": command_line(PROG if argv is not None else None, argv),
            "first_click": args.first_click,
            "score_mode": args.score_mode,
            "pairing": args.pairing,
        },
    )


def _discard(folder: Path | None) -> None:
    """Remove the folder this run created (None: it created none)."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for bad input, before any game is played; 130
    after Ctrl-C, keeping the games played)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    made: Path | None = None  # the folder this run creates, removed if it ends with no game
    try:
        args = parser.parse_args(argv)
        resuming = args.resume is not None  # the saved arguments parsed below lack --resume
        if resuming:
            folder, argv = resume_argv(argv)
            args = parser.parse_args(argv)
            args.out = folder
        config = config_from_args(args, argv)
        if args.out is not None:
            check_output_folder(args.out, create=False)
        validate(config)
        if args.calibration:
            from eval.calibration import write_calibration

            print(write_calibration(config, args.out))
            return 0
        if args.backend == "ray":
            connect_ray(config.ray_address)
        made = None if args.out is None else first_missing(args.out)
        evaluation = evaluate(
            config,
            args.out,
            quiet=args.quiet,
            plots=not args.no_plots,
            skip_validation=True,
            argv=argv,
            resume=resuming,
            by=args.by,
        )
    except (EvalInterrupted, EvalWorkerDied) as exc:
        if made is not None and exc.played == 0:
            shutil.rmtree(made, ignore_errors=True)
            exc = type(exc)(0, exc.total, None)
        print(f"{PROG}: {exc}", file=sys.stderr)
        return INTERRUPTED if isinstance(exc, EvalInterrupted) else 1
    except KeyboardInterrupt:
        _discard(made)
        print(f"{PROG}: interrupted before any game was played", file=sys.stderr)
        return INTERRUPTED
    except (ValueError, TypeError, FileNotFoundError, ImportError, EvalSetupError) as exc:
        _discard(made)
        return report_error(PROG, exc)
    try:
        print(evaluation.report)
        if evaluation.files:
            print("\nwrote " + ", ".join(str(path) for path in evaluation.files))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: the files are written, stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
