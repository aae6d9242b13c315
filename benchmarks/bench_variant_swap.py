"""A solver variant's decisions swapped in at our solver's guesses: what the variant is worth.

    python benchmarks/bench_variant_swap.py --variant extended --preset expert \\
        --start 0 --games 5000 --seed 0 --workers 2 --out out/variant_extended_expert

The same measure as ``bench_hill_swap.py``, with a variant of our own solver in Hill's place:
our solver (``--player``; here by default :data:`VARIANT_PLAYER`, the solver before the
extended chains became its default and before its endgame search was enlarged, which the
variants below are measured against) plays games
``START..START+GAMES-1`` of ``python -m eval --seed S`` (``--first-click safe``, the default,
first click in the corner; or ``opening``, at (2, 2)); at
each of its guesses after the first click the variant's rule is asked for its move in the same
position. Where the variant's cell differs, and no symmetry of the position maps one cell onto
the other, both cells are played, then the player to the end, on the same layouts drawn
exactly from the position. The sum of the values (share won after the variant's cell minus share
won after ours) is how many more games the variant's decisions win, one at a time. Compared
with a game-by-game comparison of two ``python -m eval`` runs, it sees a rule that changes one
move in a few hundred games without the noise of everything after it.

Variants (``--variant``):

- ``extended``: ``SolverAgent(extended=True)`` (now the default), the forced guess of an
  extended 50/50 chain (:mod:`agents.solver.extended`) where the player finds no forced pair and
  does not search the endgame; of the chain's cells that carry no extra risk, the one the
  look-ahead scores best.
- ``extended-first``: the same chains, but the cell that comes first in the default's order of
  candidates (the lowest risk, then the fewest unknown neighbours).
- ``bigend``: a 10x larger endgame search (:data:`BIG_ENDGAME`) where the player's own search
  does not decide (too many layouts or cells, or out of nodes) and the larger one does; it was
  measured with ``--player solver:endgame_layouts=200:endgame_nodes=20000:endgame_cells=40``, the
  default solver of its day.
- ``endgame:LAYOUTS:NODES:CELLS``: the same with the limits given (``bigend`` is
  ``endgame:2000:200000:60``): how much of a larger search's gain smaller limits keep.
- ``rollout:CANDIDATES:LAYOUTS:MARGIN[:FROM]``: one step of policy improvement where the player's
  look-ahead guesses: its cell and its next candidates, each played on by the player over the
  same layouts drawn from the position, the best of them if it leads by the margin
  (:mod:`rollout_choice`). Its draws are not the valuation's.

``positions.txt`` has ``bench_hill_swap.py``'s format and header, so a folder's positions can
be copied from one of its runs on the same games. Every step keeps what it did in ``OUT``
(``positions.txt``, ``moves.txt``, ``swaps.csv``, ``mirrored.txt``), so a stopped run goes on
where it stopped when started again with the same arguments.
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hill_swap import (
    MOVES,
    SWAPS,
    GuessPosition,
    OtherMove,
    PlayerOptions,
    Swap,
    add_run_arguments,
    band_lines,
    by_risk,
    check_counts,
    in_processes,
    load_positions,
    rule_setting,
    start_run,
    sum_line,
    value_differing,
)
from rollout_choice import ROLLOUT_VARIANT, parse_rollout, rollout_move

from agents.solver import analyse
from agents.solver.agent import SolverAgent
from agents.solver.endgame import endgame_move
from agents.solver.extended import extended_guess
from agents.solver.guess import forced_guess, guess_order
from agents.solver.probability import Analysis, RegionCache
from agents.solver.unavoidable import unavoidable_guess
from mswp_gym.atomic import write_text_atomic
from mswp_gym.cli import OneLineParser, report_error
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

PROG = "bench_variant_swap.py"
OLD_ENDGAME = (200, 20_000, 40)
"""The endgame search's limits (layouts, search nodes, undecided cells) before they were raised
to the present defaults: those of the players the variants below were measured against."""
VARIANT_PLAYER = (
    f"solver:extended=False:endgame_layouts={OLD_ENDGAME[0]}:endgame_nodes={OLD_ENDGAME[1]}"
    f":endgame_cells={OLD_ENDGAME[2]}"
)
"""``--player``'s default here: the solver without the extended chains, which the variants
add to it, with the endgame search of its day (:data:`OLD_ENDGAME`)."""

Endgame = tuple[int, int, int]
"""An endgame search's limits: layouts, search nodes, undecided cells."""


def player_endgame(player: PlayerOptions) -> Endgame:
    """The endgame limits of the player with the options ``player``, as the solver built with
    them holds them (its defaults for those it does not set)."""
    agent = SolverAgent(**dict(player))
    return agent.endgame_layouts, agent.endgame_nodes, agent.endgame_cells


def _undecided(
    board: np.ndarray, legal: np.ndarray, spec: GameSpec, endgame: Endgame
) -> tuple[Analysis, list[int]] | None:
    """The analysis and the guess order (:func:`agents.solver.guess.guess_order`) of a guess
    position of the player where its endgame search (limits ``endgame``) does not decide and it
    finds no forced pair; else None."""
    analysis = analyse(board, spec.mines)
    if endgame_move(analysis, board, spec.mines, legal, *endgame) is not None:
        return None
    order, _ = guess_order(analysis, board, legal)
    if unavoidable_guess(analysis, board, order, spec.mines, RegionCache()) is not None:
        return None
    return analysis, order


def extended_move(
    board: np.ndarray, legal: np.ndarray, spec: GameSpec, endgame: Endgame
) -> int | None:
    """The cell ``SolverAgent(extended=True)`` guesses at ``board`` (a guess position of the
    player, whose endgame search has the limits ``endgame``) where the player's rules would not
    have decided already (no forced pair, no endgame search), else None."""
    undecided = _undecided(board, legal, spec, endgame)
    if undecided is None:
        return None
    analysis, order = undecided
    forced = forced_guess(analysis, board, order, spec.mines, legal, 1, RegionCache(), True)
    return None if forced is None else forced.cell


def extended_first_move(
    board: np.ndarray, legal: np.ndarray, spec: GameSpec, endgame: Endgame
) -> int | None:
    """As :func:`extended_move`, but the chain's cell is the first in the player's order (the
    lowest risk, then the fewest unknown neighbours) instead of the look-ahead's choice."""
    undecided = _undecided(board, legal, spec, endgame)
    if undecided is None:
        return None
    analysis, order = undecided
    return extended_guess(analysis, board, order, spec.mines, RegionCache())


BIG_ENDGAME = (2000, 200_000, 60)
"""``bigend``'s endgame search: layouts, search nodes and undecided cells, 10x, 10x and 1.5x the
old default's (:data:`OLD_ENDGAME`; ``solver:endgame_layouts=2000:endgame_nodes=200000:
endgame_cells=60``)."""


def larger_endgame_move(
    board: np.ndarray,
    legal: np.ndarray,
    spec: GameSpec,
    endgame: Endgame,
    search: Endgame = BIG_ENDGAME,
) -> int | None:
    """The cell of the larger endgame search (limits ``search``, by default :data:`BIG_ENDGAME`)
    where the player's own search (limits ``endgame``) does not decide and the larger one does,
    else None: the only positions where ``SolverAgent`` with the limits ``search`` plays
    otherwise than the player."""
    analysis = analyse(board, spec.mines)
    if endgame_move(analysis, board, spec.mines, legal, *endgame) is not None:
        return None
    big = endgame_move(analysis, board, spec.mines, legal, *search)
    return None if big is None else big[0]


VariantRule = Callable[[np.ndarray, np.ndarray, GameSpec, Endgame], int | None]
"""A variant's rule: its cell at a guess position of the player (whose endgame search has the
limits given), or None where it plays as the player does."""

VARIANTS: dict[str, VariantRule] = {
    "extended": extended_move,
    "extended-first": extended_first_move,
    "bigend": larger_endgame_move,
}
"""The named variants' rules."""

ENDGAME_VARIANT = "endgame:LAYOUTS:NODES:CELLS"
"""The form of a variant that is an endgame search with the limits given (``bigend`` is
``endgame:2000:200000:60``)."""


def variant_rule(variant: str) -> VariantRule:
    """The rule of ``variant``: a name of :data:`VARIANTS`, or :data:`ENDGAME_VARIANT` (a
    ``rollout`` variant has its own, :func:`rollout_choice.rollout_move`).

    Raises:
        ValueError: none of these, or limits that are not integers >= 1 (one line, naming it).
    """
    if variant in VARIANTS:
        return VARIANTS[variant]
    kind, _, limits = variant.partition(":")
    parts = limits.split(":")
    if kind == "endgame" and len(parts) == 3:
        if all(part.isdigit() and int(part) >= 1 for part in parts):
            search = (int(parts[0]), int(parts[1]), int(parts[2]))
            return functools.partial(larger_endgame_move, search=search)
        raise ValueError(
            f"--variant {variant!r}: the endgame limits must be integers >= 1 ({ENDGAME_VARIANT})"
        )
    raise ValueError(
        f"--variant must be one of {', '.join(VARIANTS)}, {ENDGAME_VARIANT} or "
        f"{ROLLOUT_VARIANT}, got {variant!r}"
    )


def check_variant(variant: str) -> None:
    """Raises ValueError (one line, naming it) unless ``variant`` names a variant."""
    if parse_rollout(variant) is None:
        variant_rule(variant)


@dataclass(frozen=True)
class MoveTask:
    """What one worker needs to ask a variant for its move at one position."""

    variant: str
    spec: GameSpec
    layout: np.ndarray
    seed: int
    position: GuessPosition
    endgame: Endgame  # the player's endgame limits (:func:`player_endgame`)
    player: PlayerOptions = ()  # the player's options (the rollout variant plays on with it)


def variant_answer(task: MoveTask) -> OtherMove:
    """The variant's move at ``task.position`` (``cell`` -1 where it plays as the default)."""
    env = MinesweeperEnv(layout=task.layout.reshape(task.spec.rows, task.spec.cols), max_steps=None)
    env.reset(seed=task.seed)
    for click in task.position.clicks:
        env.step(click)
    board, legal = env.visible, env.action_masks()
    rollout = parse_rollout(task.variant)
    if rollout is None:
        cell = variant_rule(task.variant)(board, legal, task.spec, task.endgame)
    else:
        cell = rollout_move(board, legal, task.spec, task.seed, task.position, task.player, rollout)
    return OtherMove(task.position.key, -1 if cell is None else cell, False, 0.0, task.variant)


def answer_line(move: OtherMove) -> str:
    """One line of ``moves.txt``: ``key cell``."""
    return f"{move.key} {move.cell}\n"


def read_moves(text: str, variant: str) -> dict[str, OtherMove]:
    """The moves of ``moves.txt``; a last line without its newline (a kill mid-write) is
    dropped."""
    moves = {}
    for line in text[: text.rfind("\n") + 1].splitlines():
        key, cell = line.split()
        moves[key] = OtherMove(key, int(cell), False, 0.0, variant)
    return moves


def summary(
    variant: str, positions: int, moves: int, differ: int, swaps: list[Swap], mirrored: int
) -> str:
    """The printed result."""
    player = f"{variant}'s moves"
    riskier, equal, safer = ([s.value for s in group] for group in by_risk(swaps))
    return "\n".join(
        [
            f"{positions} guesses of our solver after the first click; {variant} asked at "
            f"{moves}; its cell differs at {differ}, of which {mirrored} by a symmetry of the "
            f"position only",
            f"the other {len(swaps)} positions, by the share of safe cells open:",
            *band_lines(swaps, player),
            "by the risk of its cell against ours:",
            sum_line("its riskier", riskier, player),
            sum_line("equal risk", equal, player),
            sum_line("its safer", safer, player),
        ]
    )


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant",
        required=True,
        help=f"one of {', '.join(VARIANTS)}, {ENDGAME_VARIANT} or {ROLLOUT_VARIANT}",
    )
    add_run_arguments(parser)
    parser.set_defaults(player=VARIANT_PLAYER)
    args = parser.parse_args(argv)
    try:
        check_variant(args.variant)
        check_counts(args)
        run = start_run(args, *rule_setting(args.preset, args.first_click))
    except (ValueError, OSError) as error:
        sys.exit(report_error(PROG, error))
    started = time.perf_counter()
    positions = load_positions(run, PROG)
    moves_path = args.out / MOVES
    moves = read_moves(moves_path.read_text(), args.variant) if moves_path.is_file() else {}
    if moves_path.is_file():
        write_text_atomic(moves_path, "".join(answer_line(m) for m in moves.values()))
    endgame = player_endgame(run.player)
    asks = [
        MoveTask(
            args.variant,
            run.spec,
            run.dealt[p.game].layout,
            run.dealt[p.game].seed,
            p,
            endgame,
            run.player,
        )
        for p in positions
        if p.key not in moves
    ]
    print(f"{len(asks)} positions to ask the variant ({len(moves)} done before)", flush=True)
    with moves_path.open("a") as out:
        for move in answers(asks, args.workers):
            out.write(answer_line(move))
            out.flush()
            moves[move.key] = move
    done, mirror_keys = value_differing(run, positions, moves)
    differ = sum(moves[p.key].cell not in (-1, p.ours) for p in positions)
    print(summary(args.variant, len(positions), len(moves), differ, done, len(mirror_keys)))
    print(f"this sitting {time.perf_counter() - started:.0f} s; wrote {args.out / SWAPS}")


def answers(asks: list[MoveTask], workers: int) -> Iterator[OtherMove]:
    """Each ask's :func:`variant_answer`, over ``workers`` processes, as they finish."""
    return in_processes(variant_answer, asks, workers, chunksize=4)


if __name__ == "__main__":
    main()
