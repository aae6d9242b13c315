"""Our solver against perfect play, on boards small enough to list every layout.

    python benchmarks/bench_optimal.py --boards 4x4x3,4x4x4,4x5x4,5x5x4 --workers 2

Each board is ``ROWSxCOLSxMINES`` under the rule ``safe`` with the first click in the corner
(0, 0), the solver's own first click under that rule. Every layout the rule allows is listed,
each equally likely, and the script prints:

- **perfect**: the win probability of perfect play after that first click. It is the solver's
  endgame search (:class:`agents.solver.endgame.ExactValues`) run over every layout without its
  limits, whose values are the game's exact ones (tested against a full game tree with flood
  fill). Exact.
- **ours**: our solver (``--player``) plays every layout once, game ``k`` seeded ``k``, and the
  share it wins. Exact for these seeds: its random tie-breaks are the only chance in it.
- **where ours falls short**: at each position where our solver guessed, its regret is the
  perfect win probability there minus that of its move (both exact). By the performance
  difference lemma, with perfect play as the reference, the regrets summed over all games and
  divided by their number equal perfect minus ours exactly; the script prints both, and the
  positions that carry most of the gap, with our move and the best ones.

Boards of up to :data:`MAX_LAYOUTS` layouts are accepted. 5x5x4 (10,626 layouts) takes about
3 minutes of two cores to play and 2 more of one core to value.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hill_swap import PlayerOptions, player_options

from agents.base import Agent, Explanation, MoveReason
from agents.episode import MoveRecord, play_episode
from agents.solver.agent import SolverAgent
from agents.solver.endgame import ExactValues
from mswp_gym.cells import neighbour_table, to_index
from mswp_gym.cli import OneLineParser
from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

MAX_LAYOUTS = 50_000
"""The most layouts a board may have (perfect play is searched over all of them at once)."""
FIRST_CLICK = 0
"""The corner (0, 0), flat: the first click of the solver under ``safe``."""
TOP_POSITIONS = 5
"""How many of the positions that carry most of the gap are printed per board."""
SHOWN_SHARE = 1e-9
"""... each only if it carries at least this share of the games (rounding is below it)."""


def parse_board(text: str) -> GameSpec:
    """``ROWSxCOLSxMINES`` as a ``safe`` game spec small enough to list every layout.

    Raises:
        ValueError: one line naming the text: not three integers, a board the rule cannot deal,
            or more than :data:`MAX_LAYOUTS` layouts.
    """
    parts = text.split("x")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        raise ValueError(f"board {text!r} is not ROWSxCOLSxMINES (e.g. 4x5x4)")
    rows, cols, mines = (int(part) for part in parts)
    if rows < 1 or cols < 1 or not 1 <= mines <= rows * cols - 2:
        raise ValueError(
            f"board {text!r}: want rows, cols >= 1 and 1 <= mines <= cells - 2 "
            f"(a safe first click and one more safe cell), got {rows}x{cols} with {mines}"
        )
    layouts = math.comb(rows * cols - 1, mines)
    if layouts > MAX_LAYOUTS:
        raise ValueError(
            f"board {text!r} has {layouts:,} layouts; at most {MAX_LAYOUTS:,} can be listed"
        )
    return GameSpec(rows=rows, cols=cols, mines=mines, first_click="safe")


def all_layouts(spec: GameSpec) -> tuple[int, ...]:
    """Every layout ``safe`` allows with the first click in the corner, as bitmasks (bit ``i``
    set where cell ``i`` holds a mine), in lexicographic order of their mine cells."""
    others = range(1, spec.rows * spec.cols)
    return tuple(sum(1 << cell for cell in mines) for mines in combinations(others, spec.mines))


def neighbour_masks(spec: GameSpec) -> list[int]:
    """The bitmask of each cell's neighbours."""
    return [sum(1 << n for n in around) for around in neighbour_table(spec.rows, spec.cols)]


@dataclass(frozen=True)
class Guess:
    """A position where our solver guessed, and its move."""

    board: bytes
    """The visible board's int8 codes, row by row."""
    cell: int
    reason: MoveReason


@dataclass(frozen=True)
class Game:
    """One layout to play: its index (which seeds the game) and mines."""

    spec: GameSpec
    index: int
    layout: int
    player: PlayerOptions


def play(game: Game) -> tuple[bool, list[Guess]]:
    """Our solver's game on one layout (:func:`agents.episode.play_episode`): whether it won,
    and its guesses after the first click."""
    spec = game.spec
    mines = np.array([game.layout >> cell & 1 for cell in range(spec.cells)], dtype=bool)
    env = MinesweeperEnv(layout=mines.reshape(spec.rows, spec.cols), max_steps=None)
    before = [np.full((spec.rows, spec.cols), HIDDEN, dtype=np.int8)]
    guesses: list[Guess] = []

    def on_move(
        record: MoveRecord, agent: Agent, explanation: Explanation, after: np.ndarray
    ) -> None:
        cell = to_index(record.cell, spec.cols)
        reason = None if explanation.move is None else explanation.move.reason
        if reason == MoveReason.FIRST_CLICK and cell != FIRST_CLICK:
            raise RuntimeError(f"the solver's first click is {record.cell}, not the corner")
        if reason is not None and reason not in (MoveReason.CERTAIN, MoveReason.FIRST_CLICK):
            guesses.append(Guess(before[0].tobytes(), cell, reason))
        before[0] = after

    result = play_episode(env, SolverAgent(**dict(game.player)), game.index, on_move=on_move)
    return result.won, guesses


def fitting(layouts: Sequence[int], board: np.ndarray, around: list[int]) -> tuple[int, ...]:
    """The layouts that fit a visible board: no mine on a revealed cell, every clue's count."""
    shown = [(cell, code) for cell, code in enumerate(board.ravel().tolist()) if code != HIDDEN]
    return tuple(
        layout
        for layout in layouts
        if all(not layout >> c & 1 and (layout & around[c]).bit_count() == v for c, v in shown)
    )


@dataclass(frozen=True)
class Regret:
    """What our move at one position cost against perfect play."""

    layouts: int
    ours: float
    """The win probability of our move, then perfect play."""
    best: tuple[tuple[int, float], ...]
    """The best moves (cell, win probability), best first."""

    @property
    def value(self) -> float:
        """The regret: the best move's win probability minus ours (0 when ours is a best one)."""
        return self.best[0][1] - self.ours


def regret_at(
    board: np.ndarray, cell: int, layouts: Sequence[int], around: list[int], values: ExactValues
) -> Regret:
    """Our move ``cell`` at ``board`` against every move there, all by perfect play after."""
    fits = fitting(layouts, board, around)
    risky = [
        c
        for c, code in enumerate(board.ravel().tolist())
        if code == HIDDEN and not all(layout >> c & 1 for layout in fits)
    ]
    wins = {c: values.after_reveal(fits, c) for c in risky}
    best = sorted(wins.items(), key=lambda pair: (-pair[1], pair[0]))[:3]
    ours = wins[cell] if cell in wins else values.after_reveal(fits, cell)
    return Regret(len(fits), ours, tuple(best))


def board_lines(board: np.ndarray) -> list[str]:
    """The board as text rows: ``.`` hidden, digits for clues."""
    return [" ".join("." if v == HIDDEN else str(v) for v in row) for row in board.tolist()]


@dataclass(frozen=True)
class Measurement:
    """One board: perfect play, our games, and what each of our guesses cost."""

    spec: GameSpec
    layouts: int
    perfect: float
    """The win probability of perfect play after the first click (exact)."""
    wins: int
    """Our games won, of ``layouts`` (one per layout)."""
    met: Counter[Guess]
    """Each position where we guessed, and in how many games."""
    regrets: dict[Guess, Regret]

    @property
    def ours(self) -> float:
        """Our win rate over every layout (exact for the seeds)."""
        return self.wins / self.layouts

    def share(self, guess: Guess) -> float:
        """The games this guess lost against perfect play, as a share of all games."""
        return self.met[guess] * self.regrets[guess].value / self.layouts


def measure(spec: GameSpec, player: PlayerOptions, workers: int) -> Measurement:
    """Play every layout of ``spec`` with our solver (``workers`` processes; 1 plays here), then
    value perfect play and each of our guesses exactly."""
    layouts = all_layouts(spec)
    around = neighbour_masks(spec)
    games = [Game(spec, k, layout, player) for k, layout in enumerate(layouts)]
    if workers == 1:
        played = [play(game) for game in games]
    else:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play, games, chunksize=64))
    values = ExactValues(around)
    met: Counter[Guess] = Counter(guess for _, guesses in played for guess in guesses)
    shape = (spec.rows, spec.cols)
    regrets = {
        guess: regret_at(
            np.frombuffer(guess.board, dtype=np.int8).reshape(shape),
            guess.cell,
            layouts,
            around,
            values,
        )
        for guess in met
    }
    return Measurement(
        spec=spec,
        layouts=len(layouts),
        perfect=values.after_reveal(layouts, FIRST_CLICK),
        wins=sum(won for won, _ in played),
        met=met,
        regrets=regrets,
    )


def report_lines(result: Measurement) -> list[str]:
    """The board's block of the report."""
    spec = result.spec
    gap = result.perfect - result.ours
    gap = 0.0 if abs(gap) < SHOWN_SHARE else gap  # -0.000 is rounding
    lines = [
        f"{spec.rows}x{spec.cols}/{spec.mines}, rule safe, first click (0, 0): "
        f"{result.layouts:,} layouts, each played once (game k seeded k)",
        f"  perfect play after the first click: {100 * result.perfect:.3f}% (exact)",
        f"  ours: {100 * result.ours:.3f}% ({result.wins:,} wins)",
        f"  gap: {100 * gap:.3f} points; our regrets at our guesses "
        f"sum to {100 * sum(map(result.share, result.met)):.3f} points (the two must be equal)",
    ]
    by_reason: Counter[MoveReason] = Counter()
    for guess in result.met:
        by_reason[guess.reason] += result.share(guess)
    positions = Counter(guess.reason for guess in result.met)
    lines.append(
        "  by the rule that chose our move: "
        + ", ".join(
            f"{reason.value} {100 * part:.3f} points ({positions[reason]} positions)"
            for reason, part in sorted(by_reason.items(), key=lambda item: -item[1])
        )
    )
    for guess in sorted(result.met, key=result.share, reverse=True)[:TOP_POSITIONS]:
        if result.share(guess) < SHOWN_SHARE:
            break
        regret = result.regrets[guess]
        best = ", ".join(f"{divmod(c, spec.cols)} {100 * win:.2f}%" for c, win in regret.best)
        lines.append(
            f"  {100 * result.share(guess):.3f} points at a position met in "
            f"{result.met[guess]:,} games ({regret.layouts:,} layouts): ours "
            f"{divmod(guess.cell, spec.cols)} ({guess.reason.value}) wins "
            f"{100 * regret.ours:.2f}%, the best {best}"
        )
        board = np.frombuffer(guess.board, dtype=np.int8).reshape(spec.rows, spec.cols)
        lines.extend(f"      {line}" for line in board_lines(board))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--boards", default="4x4x3,4x4x4,4x5x4", help="ROWSxCOLSxMINES, comma-separated"
    )
    parser.add_argument(
        "--player", default="solver", help="our solver: solver or solver:KEY=VALUE[:...]"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes that play the games")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "workers")
    try:
        specs = [parse_board(text) for text in args.boards.split(",")]
        player = player_options(args.player)
    except ValueError as error:
        parser.error(str(error))
    for spec in specs:
        print("\n".join(report_lines(measure(spec, player, args.workers))), flush=True)


if __name__ == "__main__":
    main()
