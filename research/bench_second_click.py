"""Which second click after a first click that shows a number: the solver's own choice against
fixed cells, each followed by the solver's play to the end of the game, on the same layouts.

    .venv/bin/python research/bench_second_click.py --preset expert --clue 1 --games 4000 \\
        --workers 2

Rule ``safe``, the solver's first click in the corner ``(0, 0)``. When that corner shows a number
the position is the same in every such game (one clue, every other cell hidden), so its best
second click is a fixed cell that an opening book could hold. Game ``i`` draws its layout from
``numpy.random.default_rng([seed, clue, i])`` with the ``safe`` generator, again and again until
the corner shows ``--clue`` (so every layout on which it does is equally likely). Every candidate
plays the same games: the solver (seeded with the game index) makes the first click, then the
candidate's second click is revealed, then the solver plays on. ``solver`` is the solver's own
second click. Each candidate's win rate has its Wilson 95% interval and an exact McNemar test
against ``solver`` on the same games. Each candidate's line is printed as soon as its games are
played.
"""

from __future__ import annotations

import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.solver import SolverAgent
from common.cli import OneLineParser
from common.stats import mcnemar_exact, wilson_interval
from mswp_gym.board import Board
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import Outcome
from mswp_gym.generators import make_generator
from mswp_gym.presets import preset
from mswp_gym.spec import GameSpec

FIRST_CLICK = (0, 0)
SOLVER = "solver"
"""The candidate that leaves the second click to the solver."""


@dataclass(frozen=True)
class Game:
    """One game to play: the board, the corner's clue, the game index and the second click
    (``None``: the solver's own)."""

    spec: GameSpec
    clue: int
    seed: int
    index: int
    second: tuple[int, int] | None


@dataclass(frozen=True)
class Played:
    """How one game went: won or not, and the second click that was made."""

    won: bool
    second: tuple[int, int]


def layout_showing(spec: GameSpec, clue: int, seed: int, index: int) -> np.ndarray:
    """Game ``index``'s ``(rows, cols)`` bool layout: ``safe`` around the corner, drawn again until
    the corner shows ``clue``."""
    rng = np.random.default_rng([seed, clue, index])
    generator = make_generator("safe")
    while True:
        layout = generator.layout(spec.rows, spec.cols, spec.mines, rng, FIRST_CLICK)
        if int(layout[:2, :2].sum()) == clue:
            return layout


def play(game: Game) -> Played:
    """Play ``game`` to its end: the solver's first click, the second click, then the solver."""
    spec = game.spec
    board = Board(layout_showing(spec, game.clue, game.seed, game.index))
    agent = SolverAgent(seed=game.index)
    agent.reset(seed=game.index, spec=spec)
    first = divmod(int(agent.act(board.visible, ~board.revealed.ravel())), spec.cols)
    if first != FIRST_CLICK:
        raise RuntimeError(f"the solver's first click under 'safe' is {first}, not {FIRST_CLICK}")
    board.reveal(*first)
    own = divmod(int(agent.act(board.visible, ~board.revealed.ravel())), spec.cols)
    second = own if game.second is None else game.second
    board.reveal(*second)
    while board.outcome == Outcome.PLAYING:
        board.reveal(*divmod(int(agent.act(board.visible, ~board.revealed.ravel())), spec.cols))
    return Played(board.outcome == Outcome.WON, second)


def parse_cells(text: str, spec: GameSpec) -> list[tuple[int, int]]:
    """``"0,29;15,29"`` -> ``[(0, 29), (15, 29)]``: cells on the board other than the first click.

    Raises:
        ValueError: naming the bad cell and what is allowed.
    """
    cells = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        try:
            row, col = (int(v) for v in item.split(","))
        except ValueError:
            raise ValueError(f"bad cell {item!r}: want ROW,COL, e.g. 0,29") from None
        if not (0 <= row < spec.rows and 0 <= col < spec.cols):
            raise ValueError(
                f"cell {item!r} is off the {spec.rows}x{spec.cols} board: "
                f"rows 0..{spec.rows - 1}, cols 0..{spec.cols - 1}"
            )
        if (row, col) == FIRST_CLICK:
            raise ValueError(f"cell {item!r} is the first click; choose another cell")
        cells.append((row, col))
    return cells


def default_cells(spec: GameSpec) -> str:
    """The far corners and the cells two steps from the first click."""
    last_row, last_col = spec.rows - 1, spec.cols - 1
    return f"0,{last_col};{last_row},{last_col};0,2;2,0;1,2;2,2"


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="expert", help="the board (first click safe)")
    parser.add_argument("--clue", type=int, default=1, help="the number the corner shows")
    parser.add_argument(
        "--cells",
        default=None,
        help="second clicks ROW,COL;...: default the far corners and "
        "the cells two steps from the corner",
    )
    parser.add_argument("--games", type=int, default=2000, help="games per candidate")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--seed", type=int, default=0, help="the layouts' seed")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "games", "workers")
    parser.require_at_least(args, 0, "seed")
    try:
        board = preset(args.preset)
    except ValueError as error:
        parser.error(str(error))
    spec = GameSpec(board.rows, board.cols, board.mines, "safe")
    around = len(neighbour_table(spec.rows, spec.cols)[0])
    if not 1 <= args.clue <= min(around, spec.mines):
        parser.error(
            f"--clue must be in [1, {min(around, spec.mines)}] (a number the corner can show "
            f"that needs a guess next), got {args.clue}"
        )
    try:
        cells = parse_cells(args.cells or default_cells(spec), spec)
    except ValueError as error:
        parser.error(f"--cells: {error}")
    candidates: list[tuple[int, int] | None] = [None, *cells]
    print(
        f"{spec.rows}x{spec.cols}/{spec.mines}, rule safe, first click {FIRST_CLICK} showing "
        f"{args.clue}; {args.games} games per candidate (seed {args.seed}), then the solver plays"
    )
    base: list[bool] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for second in candidates:
            games = [Game(spec, args.clue, args.seed, index, second) for index in range(args.games)]
            played = list(pool.map(play, games, chunksize=16))
            won = [result.won for result in played]
            if second is None:
                base = won
                own = Counter(result.second for result in played)
                print(
                    "the solver's own second click: "
                    + ", ".join(f"{cell} in {count} games" for cell, count in own.most_common())
                )
                header = f"{'second click':<14} {'won':>6} {'win %':>7} {'95% (Wilson)':>16}"
                print(f"{header}  against solver: won only by solver / by it, exact McNemar p")
            print(result_row(second, won, base), flush=True)


def result_row(second: tuple[int, int] | None, won: list[bool], base: list[bool]) -> str:
    """One candidate's line: wins, win rate and interval, and (for a fixed cell) its exact
    McNemar test against the solver's own second click ``base`` on the same games."""
    rate = wilson_interval(sum(won), len(won))
    name = SOLVER if second is None else f"{second}"
    row = (
        f"{name:<14} {sum(won):>6} {100 * rate.estimate:>6.2f}% "
        f"[{100 * rate.low:5.2f}, {100 * rate.high:5.2f}]"
    )
    if second is not None:
        test = mcnemar_exact(base, won)
        row += f"  {test.a_only} / {test.b_only}, p = {test.p_value:.2g}"
    return row


if __name__ == "__main__":
    main()
