"""David Hill's own games, each of his guesses valued by our solver: the games gap, taken apart.

    python benchmarks/bench_hill_path.py --hill ~/src/Minesweeper --preset expert \\
        --start 0 --games 5000 --seed 0 --workers 2 --out out/path_expert_5k

Hill's Java solver plays games ``START..START+GAMES-1`` of ``python -m eval --seed S`` (the boards
``bench_hill.py`` deals; ``--first-click safe``, the default, first click in the corner, or
``opening``, a zero at (2, 2)) with one solver kept through each
game, as in his bulk runs, and every move it makes is kept (``benchmarks/hill/HillTrace.java``).
Our solver (``--player``) plays the same boards, and at each position where Hill guessed after
the first click it is asked for its own move. Where the two differ, and no symmetry of the
position maps one cell onto the other, both cells are played, then our solver to the end, on the
same layouts drawn exactly from the position (as ``bench_hill_swap.py`` does): a position's value
is the share won after his cell minus the share won after ours.

Why on his games. By the performance difference lemma, the games Hill's solver wins more than
ours equal, in expectation, the sum over the positions *his* games pass through of what his move
is worth against ours when ours plays on: every term is there once, and nothing is left out. So
the sum over all positions (the ``all`` line) estimates the gap in games that the first line
counts on the same boards, and its parts (by the share of the board open, by the risk of his
cell against ours, by the method his solver names for the move) say where the gap lies. Where
he plays a certainly safe cell nothing is valued: our solver would play certain cells until none
is left and reach the same position. ``bench_hill_swap.py`` asks his solver at our games'
positions instead, a fresh solver each time: there the sum over all positions is only a first
approximation (a decision that our solver keeps declining recurs at its later guesses and is
counted at each), and a fresh solver need not play as the one kept through a game does: the last
line counts how often a fresh solver of his, asked at his own guess positions
(``HillMove.java``), plays the cell his solver played in the game.

Needs a JDK and a checkout of Hill's repository (``--hill``), as ``bench_hill.py``. Every step
keeps what it did in ``OUT`` (``trace.txt``: his games; ``fresh.txt``: his fresh solver's moves at
the positions of ``asked.txt``; ``ours.txt``: our games and our moves at his positions;
``swaps.csv`` and ``mirrored.txt``: the valued positions), each line as it is done, so a stopped
run goes on where it stopped when started again with the same arguments.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hill import Deal, check_inputs, compile_driver, layout_lines, run_driver
from bench_hill_swap import (
    RISK_TIE,
    STAGES,
    GuessPosition,
    OtherMove,
    PlayerOptions,
    Swap,
    SwapRun,
    add_run_arguments,
    band_lines,
    check_counts,
    in_processes,
    play_on,
    position_lines,
    read_answers,
    risk_lines,
    rule_setting,
    start_run,
    sum_line,
    value_differing,
)

from agents.base import MoveReason
from agents.solver.agent import SolverAgent
from mswp_gym.atomic import write_text_atomic
from mswp_gym.cli import OneLineParser, report_error
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

PROG = "bench_hill_path.py"
RUN = "run.txt"
LAYOUTS = "layouts.txt"
TRACE = "trace.txt"
OURS = "ours.txt"
ASKED = "asked.txt"
FRESH = "fresh.txt"
RULES = "rules.txt"
RULE_ORDER = (
    MoveReason.CERTAIN,
    MoveReason.ENDGAME,
    MoveReason.FORCED,
    MoveReason.GUESS,
    MoveReason.FALLBACK,
)
"""The rules our solver names for a move (``explain().move.reason``), in the order printed."""


@dataclass(frozen=True)
class HillStep:
    """One move of Hill's solver in one of its games."""

    cell: int  # flat, row * cols + col
    certain: bool
    safety: float  # his chance that the cell is safe
    method: str  # his move's method (PROBABILITY_ENGINE, LOCAL, ...)


@dataclass(frozen=True)
class HillPath:
    """One line of ``trace.txt``: a game as Hill's solver played it, the first click included."""

    game: int
    won: bool
    steps: tuple[HillStep, ...]

    def guesses(self) -> Iterator[tuple[str, tuple[int, ...], HillStep]]:
        """Each guess after the first click: its key ``GAME.K`` (the K-th such guess), the
        clicks that reached its position (the first click included) and the guess."""
        cells = tuple(step.cell for step in self.steps)
        k = 0
        for index, step in enumerate(self.steps):
            if index > 0 and not step.certain:
                yield f"{self.game}.{k}", cells[:index], step
                k += 1


def read_trace(text: str) -> dict[int, HillPath]:
    """The games of ``trace.txt`` by number; a last line without its newline (a kill mid-write)
    is dropped.

    Raises:
        ValueError: a complete line that is not ``game won cell:certain:safety:method,...``.
    """
    paths = {}
    complete = text[: text.rfind("\n") + 1]
    for number, line in enumerate(complete.splitlines(), 1):
        try:
            game, won, moves = line.split()
            steps = []
            for move in moves.split(","):
                cell, certain, safety, method = move.split(":")
                steps.append(HillStep(int(cell), certain == "1", float(safety), method))
            paths[int(game)] = HillPath(int(game), won == "1", tuple(steps))
        except ValueError:
            message = (
                f"{TRACE} line {number} is not 'game won cell:certain:safety:method,...': "
                f"{line[:80]!r}"
            )
            raise ValueError(message) from None
    return paths


@dataclass(frozen=True)
class OurMove:
    """Our solver's move at one of Hill's guess positions."""

    cell: int
    certain: bool


@dataclass(frozen=True)
class OurGame:
    """One line of ``ours.txt``: our solver's own game on a board, and its moves at the
    positions of Hill's guesses there (by key)."""

    game: int
    won: bool
    moves: dict[str, OurMove]


def our_line(game: OurGame) -> str:
    """``game`` as a line of ``ours.txt``: ``game won key:cell:certain,...`` (``-`` for none)."""
    moves = ",".join(
        f"{key}:{move.cell}:{int(move.certain)}" for key, move in sorted(game.moves.items())
    )
    return f"{game.game} {int(game.won)} {moves or '-'}\n"


def read_ours(text: str) -> dict[int, OurGame]:
    """The games of ``ours.txt`` by number; a last line without its newline is dropped.

    Raises:
        ValueError: a complete line that :func:`our_line` did not write.
    """
    games = {}
    complete = text[: text.rfind("\n") + 1]
    for number, line in enumerate(complete.splitlines(), 1):
        try:
            game, won, field = line.split()
            moves = {}
            for move in [] if field == "-" else field.split(","):
                key, cell, certain = move.split(":")
                moves[key] = OurMove(int(cell), certain == "1")
            games[int(game)] = OurGame(int(game), won == "1", moves)
        except ValueError:
            message = f"{OURS} line {number} is not 'game won key:cell:certain,...': {line[:80]!r}"
            raise ValueError(message) from None
    return games


def _agent_at(
    layout: np.ndarray, spec: GameSpec, seed: int, clicks: Sequence[int], player: PlayerOptions
) -> tuple[SolverAgent, int]:
    """Our solver (options ``player``) after ``clicks`` on ``layout``, and its move there, asked
    as ``bench_hill_swap.play_on`` starts it: a fresh agent reset with the game's seed."""
    env = MinesweeperEnv(layout=layout.reshape(spec.rows, spec.cols), max_steps=None)
    env.reset(seed=seed)
    for click in clicks:
        _, _, terminated, _, _ = env.step(int(click))
        if terminated:
            raise RuntimeError(f"the replay ended the game at click {click}")
    agent = SolverAgent(**dict(player))
    agent.reset(seed, spec)
    return agent, agent.act(env.visible, env.action_masks())


def our_move(
    layout: np.ndarray, spec: GameSpec, seed: int, clicks: Sequence[int], player: PlayerOptions
) -> OurMove:
    """Our solver's (options ``player``) move after ``clicks`` on ``layout``, asked as
    ``bench_hill_swap.play_on`` starts it: a fresh agent reset with the game's seed."""
    agent, cell = _agent_at(layout, spec, seed, clicks, player)
    return OurMove(cell, agent.last_move_certain)


@dataclass(frozen=True)
class RuleTask:
    """What one worker needs to ask which rule chose our move at one of Hill's positions."""

    spec: GameSpec
    deal: Deal
    position: GuessPosition
    player: PlayerOptions


def our_rule(task: RuleTask) -> tuple[str, MoveReason]:
    """The position's key and the rule by which our solver chose its move there (one of
    :data:`RULE_ORDER`: ``explain().move.reason``)."""
    agent, _ = _agent_at(
        task.deal.layout, task.spec, task.deal.seed, task.position.clicks, task.player
    )
    move = agent.explain().move
    assert move is not None  # the solver has just moved
    return task.position.key, move.reason


def read_rules(text: str) -> dict[str, MoveReason]:
    """The rules of ``rules.txt`` (``key rule`` a line) by key; a last line without its newline
    (a kill mid-write) is dropped.

    Raises:
        ValueError: a complete line that is not ``key rule`` with a rule of :data:`RULE_ORDER`.
    """
    rules = {}
    for number, line in enumerate(text[: text.rfind("\n") + 1].splitlines(), 1):
        key, _, rule = line.partition(" ")
        if not key or rule not in RULE_ORDER:
            raise ValueError(f"{RULES} line {number} is not 'key rule': {line[:80]!r}")
        rules[key] = MoveReason(rule)
    return rules


def rules_at(
    run: SwapRun, positions: Sequence[GuessPosition], swaps: Sequence[Swap]
) -> dict[str, MoveReason]:
    """Our solver's rule at each valued position, read from ``rules.txt`` and asked where
    missing (appended a line each as it is done)."""
    path = run.out / RULES
    rules = read_rules(path.read_text()) if path.is_file() else {}
    write_text_atomic(path, "".join(f"{key} {rule}\n" for key, rule in rules.items()))
    by_key = {p.key: p for p in positions}
    tasks = [
        RuleTask(run.spec, run.dealt[s.game], by_key[s.key], run.player)
        for s in swaps
        if s.key not in rules
    ]
    print(f"{len(tasks)} positions to ask our rule at ({len(rules)} done before)", flush=True)
    with path.open("a") as lines:
        for key, rule in in_processes(our_rule, tasks, run.workers, chunksize=8):
            lines.write(f"{key} {rule}\n")
            lines.flush()
            rules[key] = rule
    return rules


def rule_lines(swaps: Sequence[Swap], rules: dict[str, MoveReason]) -> Iterator[str]:
    """The sums by the rule that chose our move, over all positions and over the late ones
    (the last of ``STAGES``)."""
    low, high, late = STAGES[-1]
    for title, band in (("all positions", (0.0, 1.01)), (f"{late} open", (low, high))):
        yield f"by the rule that chose our move (--by-rule), {title}:"
        for rule in RULE_ORDER:
            values = [
                s.value for s in swaps if rules[s.key] == rule and band[0] <= s.open_share < band[1]
            ]
            if values:
                yield sum_line(f"ours {rule}", values)


@dataclass(frozen=True)
class GameTask:
    """What one worker needs for one board: our game on it and our moves at Hill's guesses."""

    spec: GameSpec
    deal: Deal
    positions: tuple[tuple[str, tuple[int, ...]], ...]  # (key, clicks) of Hill's guesses
    player: PlayerOptions


def our_game(task: GameTask) -> OurGame:
    """Our solver's game on the task's board, and its move at each of Hill's positions."""
    won, _ = play_on(task.deal.layout, task.spec, task.deal.seed, (), None, task.player)
    moves = {
        key: our_move(task.deal.layout, task.spec, task.deal.seed, clicks, task.player)
        for key, clicks in task.positions
    }
    return OurGame(task.deal.game, won, moves)


def play_ours(run: SwapRun, paths: dict[int, HillPath]) -> dict[int, OurGame]:
    """Our games and moves on every board of the run, read from ``ours.txt`` and played where
    missing (appended a line each as it is done)."""
    path = run.out / OURS
    ours = read_ours(path.read_text()) if path.is_file() else {}
    write_text_atomic(path, "".join(our_line(ours[game]) for game in sorted(ours)))
    tasks = [
        GameTask(
            run.spec,
            run.dealt[game],
            tuple((key, clicks) for key, clicks, _ in paths[game].guesses()),
            run.player,
        )
        for game in sorted(run.dealt)
        if game not in ours
    ]
    print(f"{len(tasks)} games for our solver ({len(ours)} done before)", flush=True)
    with path.open("a") as lines:
        for game in in_processes(our_game, tasks, run.workers, chunksize=4):
            lines.write(our_line(game))
            lines.flush()
            ours[game.game] = game
    return ours


def positions_and_moves(
    paths: dict[int, HillPath], ours: dict[int, OurGame]
) -> tuple[list[GuessPosition], dict[str, OtherMove]]:
    """Hill's guess positions with our move as ``ours``, and his moves there by key."""
    positions = []
    his = {}
    for game in sorted(paths):
        for key, clicks, step in paths[game].guesses():
            positions.append(GuessPosition(key, game, clicks, ours[game].moves[key].cell))
            his[key] = OtherMove(key, step.cell, step.certain, step.safety, step.method)
    return positions, his


def games_line(paths: dict[int, HillPath], ours: dict[int, OurGame]) -> str:
    """The gap in games on the same boards, paired."""
    games = sorted(paths)
    hill = sum(paths[g].won for g in games)
    mine = sum(ours[g].won for g in games)
    only_his = sum(paths[g].won and not ours[g].won for g in games)
    only_ours = sum(ours[g].won and not paths[g].won for g in games)
    return (
        f"{len(games)} games: Hill's solver won {hill}, ours {mine} on the same boards "
        f"(Hill {hill - mine:+d}; won only by his {only_his}, only by ours {only_ours})"
    )


def summary(
    paths: dict[int, HillPath],
    ours: dict[int, OurGame],
    positions: Sequence[GuessPosition],
    his: dict[str, OtherMove],
    swaps: Sequence[Swap],
    mirrored: int,
) -> str:
    """The printed result (``mirrored``: differing positions whose cells are mirror images)."""
    differ = [p for p in positions if his[p.key].cell != p.ours]
    certain = sum(ours[p.game].moves[p.key].certain for p in differ)
    methods = sorted({s.method for s in swaps})
    lines = [
        games_line(paths, ours),
        f"{len(positions)} guesses of Hill's solver after the first click; our solver's move "
        f"differs at {len(differ)} ({certain} where ours is certainly safe), of which {mirrored} "
        f"by a symmetry of the position only",
        f"the other {len(swaps)} positions ({sum(s.every_layout for s in swaps)} over every layout "
        f"that fits, the rest over draws), by the share of safe cells open (the 'all' sum "
        f"estimates the gap in games above):",
        *band_lines(swaps),
        "by the risk of his cell against ours (then, where his is riskier, by his cell's risk and"
        " by his move's method):",
        *risk_lines(swaps),
        "by his move's method, all positions:",
        *(sum_line(f"his {m}", [s.value for s in swaps if s.method == m]) for m in methods),
    ]
    return "\n".join(lines)


def drive(run: SwapRun, main_class: str, source: Path, target: Path, done: str) -> None:
    """Run the driver ``main_class`` from ``OUT/classes`` on ``source``, appending to ``target``.

    Raises:
        RuntimeError: it stopped; the message says that ``done`` (what it had written) is kept
            in ``target`` and that the same command goes on.
    """
    failed = run_driver(
        run.out / "classes",
        main_class,
        [str(source), str(target)],
        [],
        kept=f"{done} are kept in {target}",
    )
    if failed:
        raise RuntimeError(failed)


def trace_hill(run: SwapRun, hill: Path) -> dict[int, HillPath]:
    """Hill's games on the run's boards, read from ``trace.txt`` after his driver has played
    those missing.

    Raises:
        RuntimeError: the driver stopped (the message says what is kept and how to go on).
        ValueError: a bad line in ``trace.txt``.
    """
    compile_driver(hill.resolve(), run.out / "classes")
    layouts = run.out / LAYOUTS
    write_text_atomic(layouts, layout_lines(run.setting, [run.dealt[g] for g in sorted(run.dealt)]))
    trace = run.out / TRACE
    drive(run, "HillTrace", layouts, trace, "the games it played")
    paths = read_trace(trace.read_text())
    missing = sorted(set(run.dealt) - set(paths))
    if missing:
        raise RuntimeError(f"{trace} lacks game {missing[0]} after the driver ended")
    return {game: paths[game] for game in sorted(run.dealt)}


def ask_afresh(run: SwapRun, paths: dict[int, HillPath]) -> dict[str, OtherMove]:
    """Hill's moves at his own guess positions asked of a fresh solver each time
    (``HillMove.java``, as ``bench_hill_swap.py`` asks them), by key.

    Raises:
        RuntimeError: the driver stopped (the message says what is kept and how to go on).
        ValueError: a bad line in ``fresh.txt``.
    """
    positions = [
        GuessPosition(key, game, clicks, step.cell)
        for game in sorted(paths)
        for key, clicks, step in paths[game].guesses()
    ]
    asked = run.out / ASKED
    write_text_atomic(
        asked, run.header + position_lines(run.setting, run.first, positions, run.dealt)
    )
    fresh = run.out / FRESH
    drive(run, "HillMove", asked, fresh, "the moves it found")
    return read_answers(fresh.read_text())


def fresh_line(paths: dict[int, HillPath], fresh: dict[str, OtherMove]) -> str:
    """How often a fresh solver of Hill's plays the move his solver played in the game."""
    same = tie = other = 0
    for game in sorted(paths):
        for key, _, step in paths[game].guesses():
            asked = fresh[key]
            if asked.cell == step.cell:
                same += 1
            elif abs(asked.safety - step.safety) <= RISK_TIE:
                tie += 1
            else:
                other += 1
    return (
        f"asked afresh at his guess positions (as bench_hill_swap.py asks him), his solver plays "
        f"the cell it played in the game at {same}, another as safe at {tie}, one of another "
        f"safety at {other}"
    )


def check_folder(run: SwapRun) -> None:
    """Name the run in ``OUT/run.txt``, or check that it names this run.

    Raises:
        ValueError: the folder holds another run.
    """
    path = run.out / RUN
    if not path.is_file():
        write_text_atomic(path, run.header)
    elif path.read_text() != run.header:
        held = path.read_text().strip()
        raise ValueError(f"{run.out} holds another run ({held!r}): use a new --out")


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--hill", type=Path, required=True, help="a checkout of Hill's repository")
    add_run_arguments(parser)
    parser.add_argument(
        "--by-rule",
        action="store_true",
        help="also split the valued positions by the rule that chose our move (endgame search, "
        "forced pair, look-ahead, ...), asking our solver again at each (kept in rules.txt)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        check_counts(args)
        setting, spec, first = rule_setting(args.preset, args.first_click)
        check_inputs(args.hill, setting, first)
        run = start_run(args, setting, spec, first)
        check_folder(run)
        paths = trace_hill(run, args.hill)
        fresh = ask_afresh(run, paths)
        ours = play_ours(run, paths)
    except (ValueError, RuntimeError) as error:
        sys.exit(report_error(PROG, error))
    positions, his = positions_and_moves(paths, ours)
    swaps, mirrored = value_differing(run, positions, his)
    print(summary(paths, ours, positions, his, swaps, len(mirrored)))
    print(fresh_line(paths, fresh))
    if args.by_rule:
        try:
            rules = rules_at(run, positions, swaps)
        except ValueError as error:
            sys.exit(report_error(PROG, error))
        print("\n".join(rule_lines(swaps, rules)))
    print(f"this sitting {time.perf_counter() - started:.0f} s; wrote {args.out}")


if __name__ == "__main__":
    main()
