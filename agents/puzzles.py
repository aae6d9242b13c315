"""Single-turn logic puzzles with exact answers, for training language models.

A puzzle is a seeded position of a real board (a safe first click, then the safe cells near it
revealed), drawn with :func:`mswp_gym.text.protocol.render_board`, and one question:

* ``safe-cells``: list every certainly safe cell (scored by F1; exact when the sets are equal);
* ``safest-cell``: name the safest cell (scored by its P(safe) over the best; exact at the best);
* ``mine-probability``: give a named cell's mine probability (scored by 1 - absolute error).

Answers are exact (:func:`agents.solver.probability.analyse`). Each puzzle is classified by the
weakest :class:`Deduction` that answers it: the single-clue rule, the subset (pairwise) rule of
:func:`agents.solver.deduce.deduce`, the global mine count, counting layouts (a certainty only
enumeration finds), or probabilities. ``python -m agents.puzzles --help`` writes JSONL.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from agents.solver.deduce import deduce
from agents.solver.probability import Analysis, analyse
from common.atomic import check_output_file, write_text_atomic
from common.cli import INTERRUPTED, OneLineParser, report_error
from mswp_gym.board import Board
from mswp_gym.config import GameConfig
from mswp_gym.constants import PLAYING, is_unknown
from mswp_gym.text.protocol import TextRules, render_board


class PuzzleTask(StrEnum):
    """What a puzzle asks."""

    SAFE_CELLS = "safe-cells"
    SAFEST_CELL = "safest-cell"
    MINE_PROBABILITY = "mine-probability"


class Deduction(StrEnum):
    """The weakest reasoning that answers a puzzle, weakest first."""

    SINGLE_CLUE = "single-clue"
    SUBSET = "subset"
    GLOBAL_COUNT = "global-count"
    ENUMERATION = "enumeration"
    PROBABILITY = "probability"


QUESTIONS = {
    PuzzleTask.SAFE_CELLS: "List every hidden cell that is certainly safe, as `ROW COL` pairs "
    "separated by `;` (or `none`).",
    PuzzleTask.SAFEST_CELL: "Name the hidden cell least likely to be a mine, as `ROW COL`.",
    PuzzleTask.MINE_PROBABILITY: "What is the probability that cell {cell} is a mine, assuming "
    "every layout consistent with the board is equally likely? Give a number in [0, 1].",
}
_PAIR = re.compile(r"([0-9]{1,4})\s*[ ,]\s*([0-9]{1,4})", re.ASCII)
_NUMBER = re.compile(r"([0-9]*\.?[0-9]+)(?:\s*/\s*([0-9]+))?", re.ASCII)


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position, the question and everything needed to score a reply."""

    task: PuzzleTask
    seed: int
    board: np.ndarray
    """``(rows, cols)`` int8, the visible board."""
    mines: int
    probability: np.ndarray
    """``(rows, cols)`` float64 exact P(mine) of the unknown cells, NaN on revealed ones."""
    deduction: Deduction
    cell: tuple[int, int] | None = None
    """The cell a ``mine-probability`` puzzle names."""

    @property
    def prompt(self) -> str:
        """The board and the question; the reply's answer goes in ``<answer>...</answer>``."""
        cell = "" if self.cell is None else f"{self.cell[0]} {self.cell[1]}"
        return (
            f"{render_board(self.board, self.mines, TextRules())}\n"
            f"Rows and columns are numbered from 0. {QUESTIONS[self.task].format(cell=cell)} "
            "Put the answer inside <answer>...</answer>."
        )

    @property
    def answer(self) -> str:
        """The exact answer in the requested form (one of the best cells for ``safest-cell``)."""
        if self.task == PuzzleTask.SAFE_CELLS:
            safe = np.argwhere(self.probability == 0)
            return "; ".join(f"{r} {c}" for r, c in safe) if len(safe) else "none"
        if self.task == PuzzleTask.SAFEST_CELL:
            r, c = np.unravel_index(np.nanargmin(self.probability), self.board.shape)
            return f"{r} {c}"
        assert self.cell is not None
        return f"{self.probability[self.cell]:.4f}"

    def record(self) -> dict[str, Any]:
        """A JSON-ready ``{"prompt", "answer", "metadata"}`` (:meth:`from_record` reads it)."""
        rows, cols = self.board.shape
        metadata = {
            "task": str(self.task),
            "deduction": str(self.deduction),
            "seed": self.seed,
            "rows": rows,
            "cols": cols,
            "mines": self.mines,
            "board": self.board.tolist(),
            "probability": [[None if np.isnan(p) else p for p in row] for row in self.probability],
            "cell": None if self.cell is None else list(self.cell),
        }
        return {"prompt": self.prompt, "answer": self.answer, "metadata": metadata}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Puzzle:
        """The puzzle of a :meth:`record`."""
        meta = record["metadata"]
        probability = np.array(meta["probability"], dtype=float)  # None -> NaN
        cell = None if meta["cell"] is None else (int(meta["cell"][0]), int(meta["cell"][1]))
        board = np.array(meta["board"], dtype=np.int8)
        task, deduction = PuzzleTask(meta["task"]), Deduction(meta["deduction"])
        return cls(task, int(meta["seed"]), board, int(meta["mines"]), probability, deduction, cell)


@dataclass(frozen=True)
class PuzzleScore:
    """How good a reply is: ``reward`` in ``[0, 1]``, ``exact``, and the task's own measure
    (``f1``; the ``gap`` in P(safe) to the best cell; the absolute ``error``)."""

    reward: float
    exact: bool
    measure: float


def score(puzzle: Puzzle, reply: str) -> PuzzleScore:
    """Score a reply (its last ``<answer>`` block, else all of it); an unreadable one scores 0."""
    text = (
        reply.rpartition("<answer>")[2].partition("</answer>")[0] if "<answer>" in reply else reply
    )
    rows, cols = puzzle.board.shape
    p = puzzle.probability
    if puzzle.task == PuzzleTask.MINE_PROBABILITY:
        found = _NUMBER.search(text[:200])
        assert puzzle.cell is not None
        if found is None or (found.group(2) is not None and int(found.group(2)) == 0):
            return PuzzleScore(0.0, False, 1.0)
        value = float(found.group(1)) / (int(found.group(2)) if found.group(2) else 1)
        error = min(1.0, abs(value - float(p[puzzle.cell])))
        return PuzzleScore(1.0 - error, error < 5e-3, error)
    cells = {(int(r), int(c)) for r, c in _PAIR.findall(text[:20_000])}
    cells = {(r, c) for r, c in cells if r < rows and c < cols and not np.isnan(p[r, c])}
    if puzzle.task == PuzzleTask.SAFE_CELLS:
        truth = {(int(r), int(c)) for r, c in np.argwhere(p == 0)}
        hits = len(cells & truth)
        f1 = 1.0 if not cells and not truth else 2 * hits / (len(cells) + len(truth))
        return PuzzleScore(f1, cells == truth, f1)
    if len(cells) != 1:
        return PuzzleScore(0.0, False, 1.0)
    best = 1.0 - float(np.nanmin(p))
    chosen = 1.0 - float(p[next(iter(cells))])
    return PuzzleScore(chosen / best if best > 0 else 1.0, chosen >= best - 1e-12, best - chosen)


def _needed(analysis: Analysis, cells: set[int], any_one: bool) -> Deduction:
    """The weakest rule set that settles all of ``cells`` (``any_one``: at least one)."""
    position = analysis.position
    single, pair = deduce(position.constraints, pairwise=False), deduce(position.constraints)
    rest = set(position.unknown) - pair.safe - pair.mines
    left = position.mines_left - len(pair.mines)
    counted = pair.safe | pair.mines | (rest if left in (0, len(rest)) else set())
    for level, settled in (
        (Deduction.SINGLE_CLUE, single.safe | single.mines),
        (Deduction.SUBSET, pair.safe | pair.mines),
        (Deduction.GLOBAL_COUNT, counted),
    ):
        if (cells & settled) if any_one else cells <= settled:
            return level
    return Deduction.ENUMERATION


def make_puzzle(
    task: PuzzleTask | str,
    seed: int,
    config: GameConfig,
    deduction: Deduction | str | None = None,
    tries: int = 200,
) -> Puzzle:
    """The puzzle of ``seed`` on ``config``'s board (rows, cols, mines), optionally of one
    ``deduction`` class (positions are drawn from the seed until one fits). A position: a
    random safe first click, then the safe cells among a random number of the cells nearest it
    (by distance plus noise), revealed.

    Raises:
        ValueError: no position of that class within ``tries`` draws.
    """
    task = PuzzleTask(task)
    wanted = None if deduction is None else Deduction(deduction)
    rng = np.random.default_rng(seed)
    rows, cols = config.rows, config.cols
    for _ in range(tries):
        click = (int(rng.integers(rows)), int(rng.integers(cols)))
        board = Board(config.generator.layout(rows, cols, config.mines, rng, click), rng=rng)
        board.reveal(*click)
        # Clear the safe cells nearest the click (ragged by noise): a game played well so far.
        r, c = np.indices((rows, cols))
        near = np.maximum(abs(r - click[0]), abs(c - click[1])) + 2 * rng.random((rows, cols))
        for index in np.argsort(near, axis=None)[: int(rng.integers(0, rows * cols // 3 + 1))]:
            if not board.mines.flat[index] and not board.revealed.flat[index]:
                board.reveal(*divmod(int(index), cols))
        if board.outcome != PLAYING:
            continue
        visible = board.visible.copy()
        analysis = analyse(visible, config.mines)
        if analysis.approximate:  # a region too large to count: the answers must be exact
            continue
        flat = analysis.probability
        probability = np.where(is_unknown(visible), flat.reshape(rows, cols), np.nan)
        cell = None
        if task == PuzzleTask.MINE_PROBABILITY:
            choices = sorted(analysis.frontier) or np.flatnonzero(is_unknown(visible)).tolist()
            index = int(rng.choice(choices))
            cell = divmod(index, cols)
            found = (
                _needed(analysis, {index}, False)
                if flat[index] in (0.0, 1.0)
                else Deduction.PROBABILITY
            )
        elif analysis.safe:  # safest-cell: one proof settles it; safe-cells: all of them
            found = _needed(analysis, set(analysis.safe), task == PuzzleTask.SAFEST_CELL)
        elif task == PuzzleTask.SAFEST_CELL:
            found = Deduction.PROBABILITY
        else:
            continue  # no safe cell to list
        if wanted is None or found == wanted:
            return Puzzle(task, seed, visible, config.mines, probability, found, cell)
    needing = "" if wanted is None else f" needing {wanted}"
    raise ValueError(f"no {task} puzzle{needing} in {tries} positions from seed {seed}")


def to_dataset(puzzles: list[Puzzle]) -> Any:
    """A Hugging Face ``datasets.Dataset`` of the puzzles' records (needs ``datasets``).

    Raises:
        ImportError: ``datasets`` is not installed (``pip install datasets``).
    """
    try:
        import datasets
    except ImportError as err:
        raise ImportError("to_dataset needs the datasets package: pip install datasets") from err
    rows = [{**r, "metadata": json.dumps(r["metadata"])} for r in map(Puzzle.record, puzzles)]
    return datasets.Dataset.from_list(rows)


def main(argv: list[str] | None = None) -> None:
    """``python -m agents.puzzles --task safe-cells --count 1000 --out puzzles.jsonl``."""
    parser = OneLineParser(prog="agents.puzzles", description="Write seeded puzzles as JSONL.")
    parser.add_argument("--task", choices=list(PuzzleTask), default=PuzzleTask.SAFE_CELLS)
    parser.add_argument("--deduction", choices=list(Deduction), default=None)
    parser.add_argument("--count", type=int, default=100, help="puzzles (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first puzzle")
    parser.add_argument("--preset", default="beginner", help="board (default beginner)")
    parser.add_argument("--rows", type=int, help="board rows (default the preset's)")
    parser.add_argument("--cols", type=int, help="board columns (default the preset's)")
    parser.add_argument("--density", type=float, help="mines per cell, instead of the preset's")
    parser.add_argument("--out", required=True, help="the .jsonl file to write")
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "count")
    try:
        config = GameConfig(args.rows, args.cols, preset=args.preset, density=args.density)
        puzzles = [
            make_puzzle(args.task, args.seed + i, config, args.deduction) for i in range(args.count)
        ]
        out = check_output_file(args.out, "--out", (".jsonl",))
    except (ValueError, TypeError) as err:
        parser.error(str(err))
    except KeyboardInterrupt:
        report_error(parser.prog, "interrupted: nothing written")
        sys.exit(INTERRUPTED)
    write_text_atomic(out, "".join(json.dumps(p.record()) + "\n" for p in puzzles))
    print(f"wrote {len(puzzles)} {args.task} puzzles to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
