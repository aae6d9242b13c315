"""The ``mswp-play`` command line, checked before any window opens."""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents import registry
from agents.logic.guessing import GUESS_POLICIES
from common.atomic import check_output_file
from common.cli import OneLineParser
from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.gui.app import DEFAULT_SPEED, HEAT_MODES
from eval.gui.choices import BoardSetup, preset_setup
from mswp_gym.cells import parse_cell
from mswp_gym.choices import FirstClick
from mswp_gym.config import resolve_mine_count
from mswp_gym.presets import PRESETS

DEFAULT_AGENT = "logic:global"


def agent_help() -> str:
    """The help of ``--agent``: every registered agent (see :mod:`agents.registry`)."""
    return "agent spec, one of: " + "; ".join(registry.help_lines())


@dataclass(frozen=True)
class PlayOptions:
    """Everything the command line sets."""

    board: BoardSetup
    """Board size, mine count and first-click rule."""
    agent: str
    """The agent spec that plays "AI Move" and autoplay (see :func:`agent_help`)."""
    seed: int
    """Seed of the first game (drawn from fresh entropy when not given)."""
    autoplay: bool = False
    """Start with autoplay on."""
    speed: float = DEFAULT_SPEED
    """Autoplay moves per second (0: as fast as the window draws)."""
    knowledge: bool = False
    """Start with the proven safe/mines overlay on."""
    heat: str = "off"
    """Start with this heat map: ``off``, ``solver`` or ``agent``."""
    headless: bool = False
    """No display: play (autoplay) to the end, save the screenshot, exit."""
    screenshot: Path | None = None
    """PNG of the final window."""
    moves: int | None = None
    """Autoplay stops after this many agent moves (for mid-game screenshots)."""
    hover: tuple[int, int] | None = None
    """Start with the mouse over this cell ``(row, col)`` (shows its P(mine) in screenshots)."""


AS_GIVEN = ("speed", "knowledge", "heat", "headless", "screenshot", "moves")
"""The :class:`PlayOptions` fields that take their flag's value unchanged."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``mswp-play``."""
    parser = OneLineParser(
        prog="mswp-play",
        description="Play Minesweeper in a window and watch any agent think. Left click reveals, "
        "right click flags; space: AI move, a: autoplay, r: new game, k: known safe/mines, "
        "h: heat map, s: screenshot, q: quit.",
    )
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), default=None, help="standard board (default beginner)"
    )
    parser.add_argument("--rows", type=int, default=None, help="custom board height")
    parser.add_argument("--cols", type=int, default=None, help="custom board width")
    parser.add_argument(
        "--mines", type=int, default=None, help="mine count (default: the Beginner density)"
    )
    parser.add_argument(
        "--first-click", choices=FirstClick.drawn(), default="safe", help="first-click rule"
    )
    parser.add_argument("--agent", default=None, help=agent_help() + f" (default {DEFAULT_AGENT})")
    parser.add_argument(
        "--guess",
        default=None,
        help=f"guess policy of the logic agent: {', '.join(GUESS_POLICIES)} "
        "(same as --agent logic:POLICY)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the first game (game k uses seed+k)"
    )
    parser.add_argument("--autoplay", action="store_true", help="start with autoplay on")
    parser.add_argument(
        "--speed", type=float, default=DEFAULT_SPEED, help="autoplay moves per second (0 = max)"
    )
    parser.add_argument(
        "--knowledge", action="store_true", help="start with the known safe/mines overlay on"
    )
    parser.add_argument(
        "--heat",
        nargs="?",
        const="solver",
        default="off",
        choices=HEAT_MODES,
        help="start with a heat map: solver (exact P(mine), the default for a bare "
        "--heat) or agent (the agent's own risk map)",
    )
    parser.add_argument(
        "--moves",
        type=int,
        default=None,
        help="autoplay stops after this many agent moves (turns autoplay on)",
    )
    parser.add_argument(
        "--hover",
        default=None,
        metavar="ROW,COL",
        help="put the mouse over this cell (screenshots of the P(mine) tooltip)",
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help="no display: autoplay to the end (or --moves) and exit",
    )
    parser.add_argument(
        "--screenshot",
        type=Path,
        default=None,
        help="save the final window as this PNG (the name must end in .png)",
    )
    return parser


def board_from_args(args: argparse.Namespace) -> BoardSetup:
    """The board the arguments ask for: a preset, or a custom size (missing sides from Beginner).

    Raises:
        ValueError: a preset together with a custom size.
    """
    custom = args.rows is not None or args.cols is not None
    if args.preset is not None and custom:
        raise ValueError(f"give --preset or --rows/--cols, not both (got --preset {args.preset})")
    if not custom:
        board = preset_setup(args.preset or "beginner", args.first_click)
        if args.mines is not None:
            return BoardSetup(board.rows, board.cols, args.mines, args.first_click)
        return board
    beginner = PRESETS["beginner"]
    rows = args.rows if args.rows is not None else beginner.rows
    cols = args.cols if args.cols is not None else beginner.cols
    mines = resolve_mine_count(rows, cols, args.mines, None)  # None: the env's default density
    return BoardSetup(rows, cols, mines, args.first_click)


def agent_from_args(args: argparse.Namespace) -> AgentSpec:
    """The agent spec from ``--agent`` and ``--guess``.

    Raises:
        ValueError: a bad spec, or ``--guess`` with an agent other than ``logic``.
    """
    if args.guess is None:
        return parse_agent_spec(args.agent or DEFAULT_AGENT)
    if args.guess not in GUESS_POLICIES:
        allowed = ", ".join(GUESS_POLICIES)
        raise ValueError(f"--guess {args.guess!r} is not a guess policy; choose one of {allowed}")
    spec = parse_agent_spec(args.agent or "logic")
    if spec.make_name != "logic" or spec.options:
        raise ValueError(
            f"--guess {args.guess!r} applies to the plain 'logic' agent, not {args.agent!r}"
        )
    return parse_agent_spec(f"logic:{args.guess}")


def parse_options(argv: list[str] | None = None) -> PlayOptions:
    """Parse the command line (argparse exits with status 2 on malformed flags).

    Raises:
        ValueError: inconsistent flags (see :func:`board_from_args`, :func:`agent_from_args`).
    """
    args = build_parser().parse_args(argv)
    if not 0 <= args.speed < math.inf:  # NaN fails every comparison
        raise ValueError(f"--speed must be a finite number >= 0 (0 = max), got {args.speed}")
    if args.moves is not None and args.moves < 0:
        raise ValueError(f"--moves must be >= 0, got {args.moves}")
    if args.seed is not None and args.seed < 0:
        raise ValueError(f"--seed must be an integer >= 0, got {args.seed}")
    if args.screenshot is not None:
        check_output_file(args.screenshot, "--screenshot", (".png",))
    hover = parse_cell(args.hover, "--hover") if args.hover is not None else None
    seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**31))
    # --moves only means something to autoplay, and a headless run has no one to press "a".
    autoplay = args.autoplay or args.headless or args.moves is not None
    as_given = {name: getattr(args, name) for name in AS_GIVEN}
    board, agent = board_from_args(args), agent_from_args(args).text
    return PlayOptions(board, agent, seed, autoplay, hover=hover, **as_given)
