"""David Hill's move swapped in at our solver's guesses: what his decisions are worth to ours.

    python benchmarks/bench_hill_swap.py --hill ~/src/Minesweeper --preset expert \\
        --start 0 --games 1000 --seed 0 --workers 2 --out out/swap_expert

Our solver (the default player) plays games ``START..START+GAMES-1`` of ``python -m eval --seed S``
(``benchmarks/bench_hill.py`` deals the same boards to Hill's solver), first click the rule's
(``--first-click safe``, the default: the corner; ``opening``: (2, 2)). At every guess it makes
after the first click, Hill's Java solver (the settings of his bulk runs) is asked for its move in
the same position. Where his cell differs from ours, and no symmetry of the board that leaves the
position unchanged maps one onto the other, both cells are played, then our solver to the end, on
the same layouts drawn exactly from the position (:mod:`agents.solver.posterior`: every layout when
at most ``--layouts`` fit, else ``--layouts`` independent draws). A position's value is the share of
those layouts won after his cell minus the share won after ours: summed over positions, how many
more games his decisions would win, one at a time, with our solver playing on. Positions and their
values are printed by the share of safe cells open, with the standard error of each sum (positions
are independent draws given the games; the games are a random sample).

Unlike a game-by-game comparison of two players (``bench_hill.py``), this sees the value of each
differing decision without the noise of the later games, and without choices that differ only by
a symmetry (which corner to open next on a square board), which add noise and no value.

Needs a JDK and a checkout of Hill's repository (``--hill``), as ``bench_hill.py``: the driver
``benchmarks/hill/HillMove.java`` is compiled against his sources into ``OUT/classes``. Every
step keeps what it did in ``OUT`` (``positions.txt``, ``moves.txt``, ``swaps.csv``, one line per
position as it is done), so a stopped run goes on where it stopped when started again with the
same arguments.

``--player`` names the solver that plays (``solver``, the default as it stands, or
``solver:KEY=VALUE[:KEY=VALUE...]`` with :class:`~agents.solver.agent.SolverAgent`'s options,
e.g. ``solver:extended=False`` for the default before the extended 50/50 chains): it records
the guesses and plays on after both cells.
"""

from __future__ import annotations

import csv
import io
import math
import sys
import time
from argparse import Namespace
from collections.abc import Callable, Iterator, Sequence
from dataclasses import astuple, dataclass, fields
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hill import Deal, check_inputs, compile_driver, deals, run_driver

from agents.solver import analyse
from agents.solver.agent import SolverAgent, rule_first_click
from agents.solver.posterior import all_layouts, draw_layout
from agents.solver.probability import RegionCache
from eval.agent_specs import parse_agent_spec
from eval.settings import Setting, build_settings
from mswp_gym.atomic import write_text_atomic
from mswp_gym.choices import FirstClick
from mswp_gym.cli import OneLineParser, report_error
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

PROG = "bench_hill_swap.py"
Item = TypeVar("Item")
Result = TypeVar("Result")
POSITIONS = "positions.txt"
MOVES = "moves.txt"
SWAPS = "swaps.csv"
STAGES = ((0.0, 0.1, "under 10%"), (0.1, 0.9, "10-90%"), (0.9, 1.01, "90% and more"))
"""The bands of the share of safe cells open that the summary reports."""
RISK_TIE = 1e-9
"""Risks closer than this are equal."""
RISKIER_BANDS = (
    (0.0, 0.3, "his under 0.3"),
    (0.3, 0.49, "his 0.3-0.49"),
    (0.49, 0.51, "his 0.49-0.51"),
    (0.51, 1.01, "his over 0.51"),
)
"""Where his cell is riskier than ours, the bands of its risk that the summary reports."""
PLAYER = "solver"
"""``--player``'s default: the solver as it plays by default."""
PlayerOptions = tuple[tuple[str, Any], ...]
""":class:`SolverAgent` keyword arguments as sorted ``(key, value)`` pairs (empty: the default)."""


def player_options(text: str) -> PlayerOptions:
    """The :class:`SolverAgent` options of a ``--player`` spec (``solver`` or
    ``solver:KEY=VALUE[:KEY=VALUE...]``).

    Raises:
        ValueError: one line naming the spec: not the solver's, an unknown option, or a value
            the solver refuses.
    """
    try:
        spec = parse_agent_spec(text)
    except ValueError as error:
        raise ValueError(f"--player {text!r}: {error}") from None
    if spec.make_name != "solver" or spec.label != spec.text:
        raise ValueError(f"--player {text!r}: expected solver or solver:KEY=VALUE[:KEY=VALUE...]")
    allowed = sorted(
        k for k in SolverAgent.__init__.__kwdefaults__ or {} if k not in ("seed", "spec")
    )
    unknown = [key for key, _ in spec.options if key not in allowed]
    if unknown:
        raise ValueError(
            f"--player {text!r}: unknown option {unknown[0]!r}; allowed: {', '.join(allowed)}"
        )
    try:
        SolverAgent(**spec.kwargs)
    except ValueError as error:
        raise ValueError(f"--player {text!r}: {error}") from None
    return spec.options


@dataclass(frozen=True)
class GuessPosition:
    """A position where our solver guessed: the clicks that reached it and its guess."""

    key: str  # "GAME.K": the K-th guess of game GAME
    game: int
    clicks: tuple[int, ...]  # flat cells, the first click included
    ours: int


@dataclass(frozen=True)
class OtherMove:
    """Another player's move at one of our solver's guess positions: Hill's (one line of
    ``moves.txt``; ``cell`` -1 if the game had ended) or a solver variant's
    (``bench_variant_swap.py``)."""

    key: str
    cell: int
    certain: bool
    safety: float
    method: str


@dataclass(frozen=True)
class Swap:
    """One row of ``swaps.csv``: a position where Hill's cell differs, both cells played on."""

    key: str
    game: int
    open_share: float  # safe cells revealed / safe cells
    ours: int
    hill: int
    risk_ours: float
    risk_hill: float
    method: str  # Hill's move method
    layouts: int
    every_layout: bool  # True: all the layouts that fit; False: independent draws
    won_ours: int
    won_hill: int

    @property
    def value(self) -> float:
        """Games won more after Hill's cell than after ours, per game (-1..1)."""
        return (self.won_hill - self.won_ours) / self.layouts


def play_on(
    layout: np.ndarray,
    spec: GameSpec,
    seed: int,
    clicks: Sequence[int],
    cell: int | None,
    player: PlayerOptions = (),
) -> tuple[bool, list[tuple[tuple[int, ...], int]]]:
    """Replay ``clicks`` on ``layout``, click ``cell`` (if any), then let our solver (with the
    options ``player``) finish.

    Returns:
        Whether the game was won, and where our solver guessed after the replay: the clicks
        that reached each such position (the first click included) and its guess.
    """
    env = MinesweeperEnv(layout=layout.reshape(spec.rows, spec.cols), max_steps=None)
    env.reset(seed=seed)
    taken = list(clicks)
    terminated = False
    info: dict[str, object] = {}
    for click in [*clicks, *([] if cell is None else [cell])]:
        if terminated:
            raise RuntimeError(f"the replay ended the game before click {click}")
        _, _, terminated, _, info = env.step(int(click))
    if cell is not None:
        taken.append(cell)
    agent = SolverAgent(**dict(player))
    agent.reset(seed, spec)
    guesses: list[tuple[tuple[int, ...], int]] = []
    while not terminated:
        move = agent.act(env.visible, env.action_masks())
        if not agent.last_move_certain and taken:
            guesses.append((tuple(taken), move))
        taken.append(move)
        _, _, terminated, _, info = env.step(move)
    return bool(info["is_success"]), guesses


def record_positions(
    spec: GameSpec, dealt: Sequence[Deal], player: PlayerOptions = ()
) -> list[GuessPosition]:
    """Our solver's (with the options ``player``) guesses after the first click in each dealt
    game, in game order."""
    positions = []
    for deal in dealt:
        _, guesses = play_on(deal.layout, spec, deal.seed, (), None, player)
        for k, (clicks, move) in enumerate(guesses):
            positions.append(GuessPosition(f"{deal.game}.{k}", deal.game, clicks, move))
    return positions


def position_lines(
    setting: Setting,
    first: tuple[int, int],
    positions: Sequence[GuessPosition],
    dealt: dict[int, Deal],
) -> str:
    """``positions.txt`` after its header: ``key rows cols mines first_row first_col bits clicks
    ours`` a line (``HillMove.java`` reads the first eight fields and skips the ``#`` header)."""
    lines = []
    for position in positions:
        bits = "".join("1" if m else "0" for m in dealt[position.game].layout.ravel().tolist())
        clicks = ",".join(str(c) for c in position.clicks)
        lines.append(
            f"{position.key} {setting.rows} {setting.cols} {setting.mines} {first[0]} {first[1]} "
            f"{bits} {clicks} {position.ours}\n"
        )
    return "".join(lines)


def read_positions(text: str) -> list[GuessPosition]:
    """The positions of ``positions.txt``."""
    positions = []
    for line in text.splitlines():
        key, *_, clicks, ours = line.split()
        positions.append(
            GuessPosition(
                key, int(key.split(".")[0]), tuple(int(c) for c in clicks.split(",")), int(ours)
            )
        )
    return positions


def read_answers(text: str) -> dict[str, OtherMove]:
    """Hill's moves in ``moves.txt``; a last line without its newline (a kill mid-write) is
    dropped.

    Raises:
        ValueError: a complete line that is not ``key cell certain safety method``.
    """
    answers = {}
    complete = text[: text.rfind("\n") + 1]
    for number, line in enumerate(complete.splitlines(), 1):
        field = line.split()
        try:
            key, cell, certain, safety, method = field
            answers[key] = OtherMove(key, int(cell), certain == "1", float(safety), method)
        except ValueError:
            message = f"{MOVES} line {number} is not 'key cell certain safety method': {line!r}"
            raise ValueError(message) from None
    return answers


def mirror_equivalent(board: np.ndarray, a: int, b: int) -> bool:
    """Whether a symmetry of the board that leaves the visible position unchanged maps cell ``a``
    onto cell ``b`` (then the two moves are worth the same)."""
    rows, cols = board.shape
    index = np.arange(rows * cols).reshape(rows, cols)
    flips: list[Callable[[np.ndarray], np.ndarray]] = [
        lambda x: x[::-1, :],
        lambda x: x[:, ::-1],
        lambda x: x[::-1, ::-1],
    ]
    views = (
        [*flips, lambda x: x.T, *[lambda x, f=f: f(x.T) for f in flips]] if rows == cols else flips
    )
    return any(
        np.array_equal(view(board), board) and int(view(index).ravel()[b]) == a for view in views
    )


@dataclass(frozen=True)
class SwapTask:
    """What one worker needs to value one position."""

    spec: GameSpec
    deal: Deal
    position: GuessPosition
    other: OtherMove
    layouts: int
    seed: int
    player: PlayerOptions = ()  # our solver's options


def value_swap(task: SwapTask) -> Swap | None:
    """Both cells of a differing position played on over the same posterior layouts; None if
    the two cells are mirror images under a symmetry of the position. Where the analysis is
    approximate (no exact posterior), the game's own layout is the only one."""
    spec, deal, position = task.spec, task.deal, task.position
    env = MinesweeperEnv(layout=deal.layout, max_steps=None)
    env.reset(seed=deal.seed)
    for click in position.clicks:
        env.step(click)
    board = env.visible
    if mirror_equivalent(board, position.ours, task.other.cell):
        return None
    analysis = analyse(board, spec.mines)
    cache = RegionCache()
    if analysis.approximate:
        # no exact posterior to draw from (the relaxation fired): the game's own layout alone
        drawn: list[np.ndarray] | None = [deal.layout.ravel()]
        every = False
    else:
        drawn = all_layouts(analysis, spec.mines, cache, task.layouts)
        every = drawn is not None
    if drawn is None:
        rng = np.random.default_rng([task.seed, position.game, int(position.key.split(".")[1])])
        drawn = [draw_layout(analysis, spec.mines, rng, cache) for _ in range(task.layouts)]
    won_ours = won_hill = 0
    for layout in drawn:
        ours_won, _ = play_on(layout, spec, deal.seed, position.clicks, position.ours, task.player)
        other_won, _ = play_on(
            layout, spec, deal.seed, position.clicks, task.other.cell, task.player
        )
        won_ours += ours_won
        won_hill += other_won
    safe_cells = spec.rows * spec.cols - spec.mines
    open_cells = int((board >= 0).sum())
    return Swap(
        position.key,
        position.game,
        open_cells / safe_cells,
        position.ours,
        task.other.cell,
        float(analysis.probability[position.ours]),
        float(analysis.probability[task.other.cell]),
        task.other.method,
        len(drawn),
        every,
        won_ours,
        won_hill,
    )


SWAP_FIELDS = [f.name for f in fields(Swap)]


def swap_row(swap: Swap) -> str:
    """``swap`` as one CSV line."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(astuple(swap))
    return buffer.getvalue()


def read_swaps(text: str) -> tuple[list[Swap], str]:
    """The rows of ``swaps.csv`` and its text without a torn last line (a kill mid-write)."""
    complete = text[: text.rfind("\n") + 1]
    rows = list(csv.DictReader(io.StringIO(complete)))
    swaps = [
        Swap(
            r["key"],
            int(r["game"]),
            float(r["open_share"]),
            int(r["ours"]),
            int(r["hill"]),
            float(r["risk_ours"]),
            float(r["risk_hill"]),
            r["method"],
            int(r["layouts"]),
            r["every_layout"] == "True",
            int(r["won_ours"]),
            int(r["won_hill"]),
        )
        for r in rows
    ]
    return swaps, complete


def sum_line(label: str, values: Sequence[float], player: str = "Hill's moves") -> str:
    """``values``' count, sum, the sum's standard error and a normal 95% interval (the games
    ``player`` wins more)."""
    total = sum(values)
    spread = float(np.std(values, ddof=1)) * math.sqrt(len(values)) if len(values) > 1 else 0.0
    return (
        f"  {label:>13}: {len(values):5d} positions, {player} win {total:+.2f} games more "
        f"(SE {spread:.2f}; 95% [{total - 1.96 * spread:+.2f}, {total + 1.96 * spread:+.2f}])"
    )


def first_in_game(swaps: Sequence[Swap]) -> list[Swap]:
    """Each game's first valued position (the lowest ``K`` of its keys ``GAME.K``), where the
    other player's play first leaves ours.

    The sum over every position counts a decision that recurs at later guesses of one game (a
    50/50 that our player keeps declining, so the other player would take it at each of them)
    once per guess, though the other player would take it once; the sum over the first
    positions counts it once, and leaves out the other player's later decisions in the game."""
    first: dict[int, Swap] = {}
    for swap in swaps:
        known = first.get(swap.game)
        if known is None or int(swap.key.split(".")[1]) < int(known.key.split(".")[1]):
            first[swap.game] = swap
    return [first[game] for game in sorted(first)]


def band_lines(swaps: Sequence[Swap], player: str = "Hill's moves") -> Iterator[str]:
    """Per band of the open share, then over all: positions, the sum of their values, its
    standard error and a normal 95% interval; then the same over each game's first position
    (:func:`first_in_game`)."""
    for low, high, label in (*STAGES, (0.0, 1.01, "all")):
        yield sum_line(label, [s.value for s in swaps if low <= s.open_share < high], player)
    yield sum_line("first in game", [s.value for s in first_in_game(swaps)], player)


def by_risk(swaps: Sequence[Swap]) -> tuple[list[Swap], list[Swap], list[Swap]]:
    """The swaps where the other cell is riskier than ours, as risky (within :data:`RISK_TIE`)
    and safer."""
    riskier = [s for s in swaps if s.risk_hill > s.risk_ours + RISK_TIE]
    equal = [s for s in swaps if abs(s.risk_hill - s.risk_ours) <= RISK_TIE]
    safer = [s for s in swaps if s.risk_hill < s.risk_ours - RISK_TIE]
    return riskier, equal, safer


def risk_lines(swaps: Sequence[Swap]) -> Iterator[str]:
    """The same sums by the risk of his cell against ours (equal within 1e-9), and where his is
    riskier, by his cell's risk and by the method his solver names for the move; with the median
    risks there."""
    riskier, equal, safer = by_risk(swaps)
    for label, group in (("his riskier", riskier), ("equal risk", equal), ("his safer", safer)):
        yield sum_line(label, [s.value for s in group])
    for low, high, label in RISKIER_BANDS:
        yield sum_line(label, [s.value for s in riskier if low <= s.risk_hill < high])
    methods = sorted({s.method for s in riskier})
    for method in methods:
        yield sum_line(f"his {method}", [s.value for s in riskier if s.method == method])
    if riskier:
        ours = float(np.median([s.risk_ours for s in riskier]))
        his = float(np.median([s.risk_hill for s in riskier]))
        yield f"  where his is riskier, median risk: ours {ours:.3f}, his {his:.3f}"


def summary(
    positions: Sequence[GuessPosition],
    answers: dict[str, OtherMove],
    swaps: Sequence[Swap],
    mirrored: int,
    games: int,
) -> str:
    """The printed result (``mirrored``: differing positions whose cells are mirror images)."""
    differ = [p for p in positions if p.key in answers and answers[p.key].cell not in (-1, p.ours)]
    certain = sum(answers[p.key].certain for p in positions if p.key in answers)
    lines = [
        f"{len(positions)} guesses of our solver after the first click in {games} games; Hill "
        f"answered {sum(p.key in answers for p in positions)} ({certain} with a certainly safe "
        f"cell); his cell differs at {len(differ)}, of which {mirrored} by a symmetry of the "
        f"position only",
        f"the other {len(swaps)} positions ({sum(s.every_layout for s in swaps)} over every layout "
        f"that fits, the rest over draws), by the share of safe cells open:",
        *band_lines(swaps),
        "by the risk of his cell against ours (then, where his is riskier, by his cell's risk and"
        " by his move's method):",
        *risk_lines(swaps),
    ]
    return "\n".join(lines)


@dataclass(frozen=True)
class SwapRun:
    """One run of a swap benchmark: its games, its rule set and its folder."""

    setting: Setting
    spec: GameSpec
    first: tuple[int, int]  # the rule's first click
    dealt: dict[int, Deal]  # games START..START+GAMES-1 by number
    header: str  # the first line of positions.txt, naming the run
    out: Path
    layouts: int
    seed: int
    workers: int
    player: PlayerOptions = ()  # our solver's options (``--player``)


SWAP_RULES = (FirstClick.SAFE, FirstClick.OPENING)
"""The first-click rules the swap benchmarks play (under ``any`` the first click can lose)."""


def add_run_arguments(parser: OneLineParser) -> None:
    """The arguments both swap benchmarks take (this one and ``bench_variant_swap.py``)."""
    parser.add_argument("--preset", default="expert", help="beginner, intermediate or expert")
    parser.add_argument(
        "--first-click",
        default=FirstClick.SAFE.value,
        choices=[rule.value for rule in SWAP_RULES],
        help="the rule: safe (first click in the corner) or opening (a zero at (2, 2))",
    )
    parser.add_argument("--start", type=int, default=0, help="the first game (of python -m eval)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="python -m eval's --seed")
    parser.add_argument("--layouts", type=int, default=24, help="layouts per position")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--out", type=Path, required=True, help="the folder to write")
    parser.add_argument(
        "--player",
        default=PLAYER,
        help="our solver: solver (the default) or solver:KEY=VALUE[:KEY=VALUE...], "
        "e.g. solver:extended=False",
    )


def check_counts(args: Namespace) -> None:
    """Raises ValueError (one line naming the flag) for a count below its least value."""
    for name, least in (("--games", 1), ("--start", 0), ("--layouts", 1), ("--workers", 1)):
        value = getattr(args, name[2:])
        if value < least:
            raise ValueError(f"{name} must be an integer >= {least}, got {value}")


def rule_setting(
    preset: str, rule: FirstClick | str = FirstClick.SAFE
) -> tuple[Setting, GameSpec, tuple[int, int]]:
    """``preset``'s setting under the first-click ``rule`` (one of :data:`SWAP_RULES`), its spec
    and the rule's first click (our solver's: the corner under ``safe``, ``(2, 2)`` under
    ``opening``).

    Raises:
        ValueError: an unknown preset.
    """
    rule = FirstClick(rule)
    (setting,) = build_settings([preset], None, None, None, None, rule, score_mode=False)
    spec = GameSpec(setting.rows, setting.cols, setting.mines, rule)
    return setting, spec, rule_first_click(spec)


def start_run(args: Namespace, setting: Setting, spec: GameSpec, first: tuple[int, int]) -> SwapRun:
    """The run the arguments name: its games dealt, its folder made. ``positions.txt``'s header
    names the player's options (``player extended=False``) when it has any.

    Raises:
        ValueError: a ``--player`` that :func:`player_options` refuses.
    """
    player = player_options(args.player)
    args.out.mkdir(parents=True, exist_ok=True)
    last = args.start + args.games - 1
    options = ":".join(f"{key}={value}" for key, value in player)
    named = f" player {options}" if options else ""
    return SwapRun(
        setting,
        spec,
        first,
        {d.game: d for d in deals(setting, first, args.seed, last + 1)[args.start :]},
        f"# {setting.label} seed {args.seed} games {args.start}-{last} layouts {args.layouts}"
        f"{named}\n",
        args.out,
        args.layouts,
        args.seed,
        args.workers,
        player,
    )


def load_positions(run: SwapRun, prog: str) -> list[GuessPosition]:
    """Our solver's guesses in the run's games: read from ``positions.txt``, else recorded and
    written there. Exits with a one-line error if the folder holds another run."""
    path = run.out / POSITIONS
    if path.is_file():
        text = path.read_text()
        if not text.startswith(run.header):
            message = f"{run.out} holds another run ({text.splitlines()[0]!r}): use a new --out"
            sys.exit(report_error(prog, message))
        return read_positions(text[len(run.header) :])
    started = time.perf_counter()
    positions = record_positions(run.spec, list(run.dealt.values()), run.player)
    lines = position_lines(run.setting, run.first, positions, run.dealt)
    write_text_atomic(path, run.header + lines)
    print(f"recorded {len(positions)} guesses in {time.perf_counter() - started:.0f} s", flush=True)
    return positions


def value_differing(
    run: SwapRun, positions: Sequence[GuessPosition], others: dict[str, OtherMove]
) -> tuple[list[Swap], set[str]]:
    """Value every position where the other move differs from ours (and was not valued before),
    keeping each as it is done in ``swaps.csv`` or ``mirrored.txt``.

    Returns:
        All the valued swaps (earlier sittings' too), by key, and the mirrored positions' keys.
    """
    swaps_path = run.out / SWAPS
    done: list[Swap] = []
    if swaps_path.is_file():
        done, complete = read_swaps(swaps_path.read_text())
        write_text_atomic(swaps_path, complete)
    else:
        write_text_atomic(swaps_path, ",".join(SWAP_FIELDS) + "\n")
    mirror_keys = read_mirrored(run.out)
    seen = {s.key for s in done} | mirror_keys
    tasks = [
        SwapTask(run.spec, run.dealt[p.game], p, others[p.key], run.layouts, run.seed, run.player)
        for p in positions
        if p.key in others and others[p.key].cell not in (-1, p.ours) and p.key not in seen
    ]
    print(f"{len(tasks)} positions to value ({len(done)} done before)", flush=True)
    with swaps_path.open("a") as rows, (run.out / "mirrored.txt").open("a") as mirrored:
        for task, swap in value_all(tasks, run.workers):
            if swap is None:
                mirrored.write(task.position.key + "\n")
                mirrored.flush()
                mirror_keys.add(task.position.key)
            else:
                rows.write(swap_row(swap))
                rows.flush()
                done.append(swap)
    return sorted(done, key=lambda s: s.key), mirror_keys


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--hill", type=Path, required=True, help="a checkout of Hill's repository")
    add_run_arguments(parser)
    args = parser.parse_args(argv)
    try:
        check_counts(args)
        setting, spec, first = rule_setting(args.preset, args.first_click)
        check_inputs(args.hill, setting, first)
        run = start_run(args, setting, spec, first)
        compile_driver(args.hill.resolve(), args.out / "classes")
    except (ValueError, RuntimeError) as error:
        sys.exit(report_error(PROG, error))
    started = time.perf_counter()
    positions = load_positions(run, PROG)
    positions_path = args.out / POSITIONS
    failed = run_driver(
        args.out / "classes",
        "HillMove",
        [str(positions_path), str(args.out / MOVES)],
        [],
        kept=f"the moves it found are kept in {args.out / MOVES}",
    )
    if failed:
        sys.exit(report_error(PROG, failed))
    try:
        answers = read_answers((args.out / MOVES).read_text())
    except ValueError as error:
        sys.exit(report_error(PROG, error))
    done, mirror_keys = value_differing(run, positions, answers)
    print(summary(positions, answers, done, len(mirror_keys), args.games))
    print(f"this sitting {time.perf_counter() - started:.0f} s; wrote {args.out / SWAPS}")


def read_mirrored(out: Path) -> set[str]:
    """The keys in ``OUT/mirrored.txt`` (positions whose two cells are mirror images), without a
    torn last line."""
    path = out / "mirrored.txt"
    if not path.is_file():
        return set()
    text = path.read_text()
    return set(text[: text.rfind("\n") + 1].split())


def _value_one(task: SwapTask) -> tuple[SwapTask, Swap | None]:
    return task, value_swap(task)


def value_all(tasks: list[SwapTask], workers: int) -> Iterator[tuple[SwapTask, Swap | None]]:
    """Each task with its :func:`value_swap`, over ``workers`` processes, as they finish."""
    return in_processes(_value_one, tasks, workers)


def in_processes(
    function: Callable[[Item], Result], items: list[Item], workers: int, chunksize: int = 1
) -> Iterator[Result]:
    """``function`` of each item, over ``workers`` spawned processes (1: inline), in the order
    they finish."""
    if workers == 1:
        yield from map(function, items)
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(function, items, chunksize=chunksize)


if __name__ == "__main__":
    main()
