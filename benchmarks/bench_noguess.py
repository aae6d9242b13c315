"""No-guess boards: the proof by play, generation time against ms-toollib, bias, and the 3BV check.

    python benchmarks/bench_noguess.py --toollib-python PEERS_PYTHON
    python benchmarks/bench_noguess.py --parts proof --proof-boards 200 --presets beginner

Four parts, each per preset (``--parts``, default all):

- **proof**: ``--proof-boards`` games per preset through ``MinesweeperEnv(first_click="no-guess")``
  (seeds ``0..N-1`` after ``--seed``), played with :func:`play_certain`. Prints the games it could
  not finish without a guess: must be 0.
- **timing**: ``--timing-boards`` no-guess layouts per preset from the same random first clicks,
  by ``mswp_gym``'s generator and by ms-toollib's ``laymine_solvable`` (its ``(x0, y0)`` is our
  ``(row, col)``; its layouts also open at the click); median and p95 milliseconds per board,
  measured in one run, ms-toollib's in its own interpreter (a subprocess, ``--toollib-python``).
- **bias**: ``--bias-boards`` layouts per preset under ``safe``, ``opening`` and ``no-guess`` from
  the same random first clicks: mean 3BV and openings per board, with 95% intervals.
- **bbbv**: ``--bbbv-boards`` random (``safe``) layouts per preset: their 3BV from
  :mod:`mswp_gym.difficulty` against ms-toollib's ``cal_bbbv``; prints the boards that differ.

ms-toollib is not a dependency: timing and bbbv run it with the interpreter of ``--toollib-python``
or ``$MSWP_TOOLLIB_PYTHON`` (a venv with ``ms-toollib``, e.g. the peers venv of its ``setup.sh``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.solver.agent import SolverAgent, rule_first_click
from common.cli import OneLineParser, report_error
from common.stats import mean_interval
from eval.report import format_table
from mswp_gym.board import Board
from mswp_gym.cells import Cell, to_index
from mswp_gym.constants import HIDDEN
from mswp_gym.difficulty import difficulty
from mswp_gym.env import MinesweeperEnv
from mswp_gym.generators import make_generator
from mswp_gym.presets import PRESETS, Preset

PROG = "bench_noguess.py"
PARTS: tuple[str, ...] = ("proof", "timing", "bias", "bbbv")
TOOLLIB_ENV = "MSWP_TOOLLIB_PYTHON"
"""The interpreter with ms-toollib when --toollib-python is not given."""
BIAS_RULES: tuple[str, ...] = ("safe", "opening", "no-guess")

TOOLLIB_SCRIPT = """
import json, sys, time
import ms_toollib
job = json.load(sys.stdin)
if job["kind"] == "timing":
    seconds, failed = [], 0
    for row, col in job["clicks"]:
        start = time.perf_counter()
        _, solved = ms_toollib.laymine_solvable(job["rows"], job["cols"], job["mines"], row, col)
        seconds.append(time.perf_counter() - start)
        failed += not solved
    print(json.dumps({"seconds": seconds, "failed": failed}))
else:
    print(json.dumps({"bbbv": [ms_toollib.cal_bbbv(board) for board in job["boards"]]}))
"""
"""Run by the ms-toollib interpreter: one job from stdin, its figures as JSON on stdout."""


def play_certain(env: MinesweeperEnv, seed: int) -> bool:
    """Play one game with the solver's certain moves only: True if every safe cell was revealed.

    The first move is the solver's first click under the env's rule; every later move reveals
    cells the solver's exact analysis proves safe. A position with no such cell ends the game
    (a guess would be needed): False.
    """
    spec = env.game_spec
    agent = SolverAgent(spec=spec)
    agent.reset(seed, spec)
    board, _ = env.reset(seed=seed)
    board, _, done, _, info = env.step(to_index(rule_first_click(spec), spec.cols))
    while not done:
        cells = agent.safe_cells(board)
        if not cells:
            return False
        for cell in cells:
            if board[cell] == HIDDEN and not done:
                board, _, done, _, info = env.step(to_index(cell, spec.cols))
    return bool(info["is_success"])


def random_clicks(rows: int, cols: int, count: int, seed: int) -> list[Cell]:
    """``count`` first clicks drawn uniformly over the board (seeded)."""
    cells = np.random.default_rng(seed).integers(rows * cols, size=count)
    return [(int(c) // cols, int(c) % cols) for c in cells]


def layouts(rule: str, board: Preset, count: int, seed: int) -> Iterator[np.ndarray]:
    """``count`` layouts of ``board`` under ``rule``: layout ``i`` is drawn with the seed
    ``[seed, i]`` around the ``i``-th first click of :func:`random_clicks` (as :func:`timing`'s)."""
    generator = make_generator(rule)
    for i, click in enumerate(random_clicks(board.rows, board.cols, count, seed)):
        yield generator.layout(
            board.rows, board.cols, board.mines, np.random.default_rng([seed, i]), click
        )


def run_toollib(python: str, job: dict[str, Any]) -> dict[str, Any]:
    """Run one :data:`TOOLLIB_SCRIPT` job in ``python``; one that cannot run it (no such
    interpreter, no ms-toollib) ends the program: one line, exit status 2."""
    try:
        command = [python, "-c", TOOLLIB_SCRIPT]
        done = subprocess.run(command, input=json.dumps(job), capture_output=True, text=True)
    except OSError as error:
        sys.exit(report_error(PROG, f"--toollib-python {python!r} cannot be run: {error}"))
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        sys.exit(report_error(PROG, f"--toollib-python {python!r} failed: {last}"))
    return dict(json.loads(done.stdout))


def _ms(seconds: Sequence[float]) -> tuple[str, str]:
    values = np.asarray(seconds) * 1000
    return f"{np.median(values):.3f}", f"{np.percentile(values, 95):.3f}"


def proof(presets: Sequence[str], boards: int, seed: int) -> str:
    """The proof part's table: games not finished with certain moves only, per preset."""
    rows = []
    for name in presets:
        env = MinesweeperEnv(preset=name, first_click="no-guess")
        failed = [s for s in range(seed, seed + boards) if not play_certain(env, s)]
        rows.append([name, str(boards), str(len(failed)), " ".join(map(str, failed[:10]))])
    return format_table(["preset", "games", "needed a guess", "first such seeds"], rows)


def timing(presets: Sequence[str], boards: int, seed: int, python: str) -> str:
    """The timing part's table: ms per no-guess board, ours and ms-toollib's, in one run."""
    generator = make_generator("no-guess")
    rows = []
    for name in presets:
        board = PRESETS[name]
        clicks = random_clicks(board.rows, board.cols, boards, seed)
        ours = []
        for i, click in enumerate(clicks):
            rng = np.random.default_rng([seed, i])
            start = time.perf_counter()
            generator.layout(board.rows, board.cols, board.mines, rng, click)
            ours.append(time.perf_counter() - start)
        job = {"kind": "timing", "rows": board.rows, "cols": board.cols, "mines": board.mines}
        theirs = run_toollib(python, job | {"clicks": clicks})
        ratio = np.median(ours) / np.median(theirs["seconds"])
        cells = [*_ms(ours), *_ms(theirs["seconds"]), f"{ratio:.2f}", str(theirs["failed"])]
        rows.append([name, str(boards), *cells])
    header = ["preset", "boards", "ours median", "ours p95", "toollib median", "toollib p95"]
    return format_table([*header, "median ratio", "toollib failed"], rows)


def bias(presets: Sequence[str], boards: int, seed: int) -> str:
    """The bias part's table: mean 3BV and openings per board under each rule."""
    rows = []
    for name in presets:
        for rule in BIAS_RULES:
            found = [difficulty(m) for m in layouts(rule, PRESETS[name], boards, seed)]
            means = [
                mean_interval([getattr(f, key) for f in found]) for key in ("bbbv", "openings")
            ]
            cells = [f"{m.estimate:.2f} [{m.low:.2f}, {m.high:.2f}]" for m in means]
            rows.append([name, rule, str(boards), *cells])
    return format_table(["preset", "rule", "boards", "mean 3BV [95%]", "openings [95%]"], rows)


def bbbv_check(presets: Sequence[str], boards: int, seed: int, python: str) -> str:
    """The bbbv part's table: boards whose 3BV differs from ms-toollib's ``cal_bbbv``."""
    rows = []
    for name in presets:
        mines = list(layouts("safe", PRESETS[name], boards, seed))
        pictures = [np.where(m, -1, Board(m).counts).tolist() for m in mines]
        theirs = run_toollib(python, {"kind": "bbbv", "boards": pictures})["bbbv"]
        ours = [difficulty(m).bbbv for m in mines]
        differ = sum(a != b for a, b in zip(ours, theirs, strict=True))
        rows.append([name, str(boards), str(differ), f"{np.mean(ours):.2f}"])
    return format_table(["preset", "boards", "3BV differs", "mean 3BV"], rows)


def main(argv: list[str] | None = None) -> None:
    """Run the chosen parts and print their tables; bad input is one line, exit status 2."""
    parser = OneLineParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default=",".join(PARTS), help=f"of {', '.join(PARTS)}")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--proof-boards", type=int, default=10_000, help="games per preset")
    parser.add_argument("--timing-boards", type=int, default=200, help="layouts per preset")
    parser.add_argument("--bias-boards", type=int, default=2000, help="layouts per preset and rule")
    parser.add_argument("--bbbv-boards", type=int, default=1000, help="layouts per preset")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--toollib-python",
        default=os.environ.get(TOOLLIB_ENV),
        help=f"interpreter with ms-toollib (default: ${TOOLLIB_ENV})",
    )
    args = parser.parse_args(argv)
    parts = parser.entries(args.parts, PARTS, "part")
    presets = parser.entries(args.presets, PRESETS, "preset")
    parser.require_at_least(args, 1, "proof_boards", "timing_boards", "bias_boards", "bbbv_boards")
    parser.require_at_least(args, 0, "seed")
    seed, python = args.seed, args.toollib_python
    if {"timing", "bbbv"} & set(parts) and not python:
        parser.error(
            f"the timing and bbbv parts run ms-toollib: give --toollib-python or set {TOOLLIB_ENV}"
        )
    for part in parts:
        if part == "proof":
            table = proof(presets, args.proof_boards, seed)
        elif part == "timing":
            table = timing(presets, args.timing_boards, seed, python)
        elif part == "bias":
            table = bias(presets, args.bias_boards, seed)
        else:
            table = bbbv_check(presets, args.bbbv_boards, seed, python)
        print(f"== {part} ==\n{table}\n", flush=True)


if __name__ == "__main__":
    main()
