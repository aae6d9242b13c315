"""David Hill's Java solver on the boards of ``python -m eval``, for a game-by-game comparison.

    python research/bench_hill.py --hill ~/src/Minesweeper --preset expert --first-click safe \\
        --games 20000 --seed 0 --out out/hill_expert_safe_20k
    python -m eval.compare_runs out/solver_expert_safe_20k out/hill_expert_safe_20k

Hill's solver (https://github.com/DavidNHill/Minesweeper, Java) is the strongest published
Expert player: 41.09% of 10^7 games with a safe first click in the corner, 54.3% with a zero
start at (3, 3). This plays it on exactly the layouts that ``python -m eval --seed S`` deals to
an agent whose first click is ``--first-cell`` (default: the solver's, the corner under ``safe``
and ``(2, 2)`` under ``opening``), with the settings of his bulk runs (``SMALL_ANALYSIS``, no
flags), one game after another on one thread. It writes an eval folder (``games.csv`` with the
agent ``hill``, and ``run.json``), so ``python -m eval.compare_runs`` pairs it with any eval run
of the same board, rule and seed: win rates with Wilson 95% intervals and exact McNemar tests.
``--hill-option KEY=VALUE`` (repeatable) changes one of his settings, to take his solver apart
(``longterm=false``, ``tiebreak=false``, ``method=SAFETY_PROGRESS``, ...: :data:`HILL_OPTIONS`),
and ``--label`` names such a variant in ``games.csv``; ``--java-option`` passes an option to
``java`` (a system property that a patched copy of his sources reads, say).

Needs a JDK (``javac`` and ``java`` on the PATH) and a checkout of Hill's repository, given by
``--hill``. That repository states no licence, so none of its code is copied here:
``research/hill/*.java`` are this project's (a game model on a fixed layout, this driver and
its line formats), compiled against his sources into ``OUT/classes``. Each game is appended to
``OUT/hill.txt`` as it ends, so a stopped run goes on where it stopped when started again with
the same arguments; ``games.csv`` is written (atomically) when every game is played.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.solver.agent import rule_first_click
from common.atomic import write_text_atomic
from common.cli import OneLineParser, report_error
from common.stats import wilson_bounds
from eval.config import game_seeds
from eval.games import GameRecord, layout_hash
from eval.journal import GAMES, Manifest, csv_text
from eval.settings import Setting, build_settings
from mswp_gym.cells import Cell, parse_cell, to_index
from mswp_gym.env import MinesweeperEnv
from mswp_gym.generators import Generator
from mswp_gym.spec import GameSpec

PROG = "bench_hill.py"
AGENT = "hill"
"""The default agent label of Hill's solver in the folder's ``games.csv`` (``--label`` sets
another, for a variant)."""
HILL_OPTIONS: dict[str, str] = {
    "analysis": "NO_BRUTE_FORCE|TINY_ANALYSIS|SMALL_ANALYSIS|LARGE_ANALYSIS|VERY_LARGE_ANALYSIS"
    "|MAX_ANALYSIS",
    "tiebreak": "true|false",
    "domination": "true|false",
    "fiftyfifty": "true|false",
    "early5050": "true|false",
    "longterm": "true|false",
    "method": "SAFETY_PROGRESS|SECONDARY_SAFETY_PROGRESS|RECURSIVE_SAFETY",
    "cutoff": r"0(\.\d+)?|1(\.0+)?",
    "progress": r"\d+(\.\d+)?",
    "weights": r"\d+,\d+",
}
"""``hill/HillRun.java``'s options (each changes one of his settings) and the values allowed, as
regular expressions."""
DRIVER = Path(__file__).resolve().parent / "hill"
"""This project's Java sources: the fixed-layout game model and the driver."""
HILL_SOURCES = ("MineSweeperSolver/src", "MinesweeperGameState/src", "Asynchronous/src")
"""The folders of Hill's repository the solver compiles from."""
LAYOUTS = "layouts.txt"
OPTIONS = "options.txt"
RESULTS = "hill.txt"


@dataclass(frozen=True)
class Deal:
    """One game's board, as ``python -m eval`` deals it to an agent that clicks ``first``."""

    game: int
    seed: int
    first: Cell
    layout: np.ndarray  # (rows, cols) bool, True where a mine lies


@dataclass(frozen=True)
class HillGame:
    """One line of ``hill.txt``: how Hill's solver played a game."""

    game: int
    won: bool
    moves: int
    guesses: int
    safe_revealed: int
    safe_cells: int
    seconds: float


@dataclass
class RecordingGenerator:
    """Deals as ``inner`` does and keeps the last layout dealt (the env shows it to no one)."""

    inner: Generator
    last: np.ndarray | None = None

    @property
    def name(self) -> str:
        """The rule's name (``inner``'s)."""
        return self.inner.name

    @property
    def needs_first_click(self) -> bool:
        """Whether ``inner`` deals at the first click."""
        return self.inner.needs_first_click

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        """``inner``'s layout, kept in :attr:`last`."""
        dealt = self.inner.layout(rows, cols, mines, rng, first_click)
        self.last = dealt.copy()
        return dealt


def deals(setting: Setting, first: Cell, seed: int, games: int) -> list[Deal]:
    """The layouts of games ``0..games-1`` of ``python -m eval --seed seed`` on ``setting``, for
    an agent whose first click is ``first``: the eval's env, its generator wrapped to keep what
    it deals."""
    config = setting.game_config()
    recorder = RecordingGenerator(config.generator)
    env = MinesweeperEnv(config=replace(config, generator=recorder))
    action = to_index(first, setting.cols)
    dealt: list[Deal] = []
    for game, game_seed in enumerate(game_seeds(seed, games)):
        recorder.last = None
        env.reset(seed=game_seed)
        env.step(action)
        if recorder.last is None:
            raise RuntimeError(f"the env dealt no layout at the first click of game {game}")
        dealt.append(Deal(game, game_seed, first, recorder.last))
    return dealt


def layout_lines(setting: Setting, dealt: Sequence[Deal]) -> str:
    """``hill/HillRun.java``'s input: ``game rows cols mines first_row first_col bits`` a line."""
    lines = []
    for deal in dealt:
        bits = "".join("1" if mine else "0" for mine in deal.layout.ravel().tolist())
        row, col = deal.first
        lines.append(
            f"{deal.game} {setting.rows} {setting.cols} {setting.mines} {row} {col} {bits}\n"
        )
    return "".join(lines)


def read_results(text: str) -> dict[int, HillGame]:
    """The games of ``hill.txt`` by index; a torn last line (a kill mid-write) is ignored.

    Raises:
        ValueError: a line other than the last that is not a result (the message names it).
    """
    games: dict[int, HillGame] = {}
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        try:
            game = HillGame(
                int(fields[0]),
                fields[1] == "1",
                int(fields[2]),
                int(fields[3]),
                int(fields[4]),
                int(fields[5]),
                float(fields[6]),
            )
        except (IndexError, ValueError):
            if number == len(lines):
                break
            raise ValueError(f"line {number} of {RESULTS} is not a result: {line!r}") from None
        games[game.game] = game
    return games


def game_record(setting: Setting, deal: Deal, played: HillGame, label: str = AGENT) -> GameRecord:
    """Hill's game as an eval record (its certain moves are the moves that were not guesses)."""
    return GameRecord(
        setting=setting.label,
        agent=label,
        game=deal.game,
        seed=deal.seed,
        outcome="WON" if played.won else "LOST",
        won=played.won,
        moves=played.moves,
        certain_moves=played.moves - played.guesses,
        guesses=played.guesses,
        cells_revealed=played.safe_revealed / played.safe_cells,
        mines=setting.mines,
        mines_exploded=0 if played.won else 1,
        mines_found=0,
        first_cell=f"{deal.first[0]}:{deal.first[1]}",
        board_hash=layout_hash(deal.layout),
        wall_time=played.seconds,
        agent_time=played.seconds,
    )


def compile_driver(hill: Path, classes: Path) -> None:
    """Compile Hill's solver and ``research/hill/*.java`` into ``classes``, unless a build
    newer than every driver source is there already.

    Raises:
        RuntimeError: javac failed (its last lines in the message).
    """
    built = classes / "hillrun" / "HillRun.class"
    newest = max(path.stat().st_mtime for path in DRIVER.glob("*.java"))
    if built.is_file() and built.stat().st_mtime >= newest:
        return
    sources = [str(p) for folder in HILL_SOURCES for p in sorted((hill / folder).rglob("*.java"))]
    sources += [str(p) for p in sorted(DRIVER.glob("*.java"))]
    building = classes.with_name(classes.name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    done = subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(building), *sources],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"javac failed on Hill's sources and benchmarks/hill: {tail}")
    shutil.rmtree(classes, ignore_errors=True)
    building.rename(classes)


def run_driver(
    classes: Path,
    main_class: str,
    arguments: Sequence[str],
    java_options: Sequence[str],
    kept: str,
) -> str | None:
    """Run ``hillrun.<main_class>`` from ``classes`` on one thread (its messages go to the
    terminal).

    Returns:
        None if it ended well, else the one-line message to report, which ends with ``kept``
        (what it finished and where it is kept) and says that the same command goes on.
    """
    done = subprocess.run(
        [
            "java",
            "-XX:ActiveProcessorCount=1",
            *java_options,
            "-cp",
            str(classes),
            f"hillrun.{main_class}",
            *arguments,
        ],
        check=False,
    )
    if done.returncode == 0:
        return None
    return (
        f"java stopped with status {done.returncode} (its message is above); {kept}: run the "
        f"same command again to go on"
    )


def check_hill_option(option: str) -> str:
    """``option`` if it is ``KEY=VALUE`` with a key and a value :data:`HILL_OPTIONS` allows.

    Raises:
        ValueError: naming the option and what is allowed.
    """
    key, equals, value = option.partition("=")
    if not equals or key not in HILL_OPTIONS:
        raise ValueError(
            f"--hill-option {option!r} is not KEY=VALUE with KEY one of {', '.join(HILL_OPTIONS)}"
        )
    if re.fullmatch(HILL_OPTIONS[key], value) is None:
        raise ValueError(f"--hill-option {key}={value!r}: the value must match {HILL_OPTIONS[key]}")
    return option


def check_inputs(hill: Path, setting: Setting, first: Cell) -> None:
    """Refuse what would fail deep inside: no JDK, no Hill checkout, a cell off the board.

    Raises:
        ValueError: naming the bad value and what is allowed.
    """
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            raise ValueError(f"{tool} is not on the PATH: this benchmark needs a JDK")
    missing = [folder for folder in HILL_SOURCES if not (hill / folder).is_dir()]
    if missing:
        raise ValueError(
            f"--hill {str(hill)!r} is not a checkout of github.com/DavidNHill/Minesweeper "
            f"(no {missing[0]})"
        )
    row, col = first
    if not (0 <= row < setting.rows and 0 <= col < setting.cols):
        raise ValueError(
            f"--first-cell {row},{col} is off the {setting.rows}x{setting.cols} board "
            f"(rows 0..{setting.rows - 1}, cols 0..{setting.cols - 1})"
        )


def main(argv: list[str] | None = None) -> None:
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--hill", type=Path, required=True, help="a checkout of Hill's repository")
    parser.add_argument("--preset", default="expert", help="beginner, intermediate or expert")
    parser.add_argument("--first-click", default="safe", choices=("safe", "opening"))
    parser.add_argument("--first-cell", default=None, help="ROW,COL (default: the solver's)")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0, help="python -m eval's --seed")
    parser.add_argument("--out", type=Path, required=True, help="the eval-style folder to write")
    parser.add_argument(
        "--hill-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"change one of his settings (repeatable): {', '.join(HILL_OPTIONS)}",
    )
    parser.add_argument("--label", default=AGENT, help="the agent's label in games.csv")
    parser.add_argument(
        "--java-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="passed to java before the class (e.g. -Dname=value for a patched copy of his code)",
    )
    args = parser.parse_args(argv)
    try:
        if args.games < 1:
            raise ValueError(f"--games must be an integer >= 1, got {args.games}")
        options = [check_hill_option(option) for option in args.hill_option]
        (setting,) = build_settings(
            [args.preset], None, None, None, None, args.first_click, score_mode=False
        )
        spec = GameSpec(setting.rows, setting.cols, setting.mines, args.first_click)
        first = (
            rule_first_click(spec)
            if args.first_cell is None
            else parse_cell(args.first_cell, "--first-cell")
        )
        check_inputs(args.hill, setting, first)
        args.out.mkdir(parents=True, exist_ok=True)
        compile_driver(args.hill.resolve(), args.out / "classes")
    except (ValueError, RuntimeError) as error:
        sys.exit(report_error(PROG, error))
    dealt = deals(setting, first, args.seed, args.games)
    layouts = layout_lines(setting, dealt)
    layouts_path = args.out / LAYOUTS
    options_text = "".join(f"{option}\n" for option in [*options, *args.java_option])
    options_path = args.out / OPTIONS
    if options_path.is_file() and options_path.read_text() != options_text:
        message = f"{args.out} holds games of other --hill-option values: use a new --out"
        sys.exit(report_error(PROG, message))
    write_text_atomic(options_path, options_text)
    if not layouts_path.is_file() or layouts_path.read_text() != layouts:
        if (args.out / RESULTS).is_file():
            sys.exit(
                report_error(PROG, f"{args.out} holds games of other layouts: use a new --out")
            )
        write_text_atomic(layouts_path, layouts)
    print(
        f"Hill's solver on {setting.label}, first click {first}, games 0-{args.games - 1} of "
        f"python -m eval --seed {args.seed}",
        flush=True,
    )
    started = time.perf_counter()
    failed = run_driver(
        args.out / "classes",
        "HillRun",
        [str(layouts_path), str(args.out / RESULTS), *options],
        args.java_option,
        kept=f"the games it finished are kept in {args.out / RESULTS}",
    )
    if failed:
        sys.exit(report_error(PROG, failed))
    try:
        played = read_results((args.out / RESULTS).read_text())
    except ValueError as error:
        sys.exit(report_error(PROG, error))
    missing = [deal.game for deal in dealt if deal.game not in played]
    if missing:
        sys.exit(report_error(PROG, f"{len(missing)} games were not played (first: {missing[0]})"))
    records = [game_record(setting, deal, played[deal.game], args.label) for deal in dealt]
    write_text_atomic(args.out / GAMES, csv_text(records))
    Manifest(argv=None, games=len(records), complete=True).write(args.out)
    wins = sum(record.won for record in records)
    low, high = wilson_bounds(wins, len(records))
    per_game = 1e3 * sum(record.agent_time for record in records) / len(records)
    print(
        f"{args.label}: {wins}/{len(records)} won, {wins / len(records):.2%} "
        f"[{low:.2%}, {high:.2%}] (Wilson 95%), {per_game:.1f} ms a game; this sitting "
        f"{time.perf_counter() - started:.0f} s; wrote {args.out / GAMES}"
    )


if __name__ == "__main__":
    main()
