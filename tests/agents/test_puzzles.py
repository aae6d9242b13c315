"""Logic puzzles: exact answers (against brute force), deduction classes, scoring, export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_grading import brute_force_p_mine

from agents.puzzles import Deduction, Puzzle, PuzzleTask, _needed, make_puzzle, score, to_dataset
from agents.solver.deduce import deduce
from agents.solver.probability import analyse
from mswp_gym.config import GameConfig
from mswp_gym.text.protocol import parse_board

SMALL = GameConfig(5, 5, 5)


@pytest.mark.parametrize("task", list(PuzzleTask))
def test_make_puzzle__answers_are_exact_against_brute_force(task: PuzzleTask) -> None:
    for seed in range(40):
        puzzle = make_puzzle(task, seed, SMALL)
        np.testing.assert_array_equal(parse_board(puzzle.prompt), puzzle.board)
        p = brute_force_p_mine(puzzle.board, 5).reshape(5, 5)
        np.testing.assert_allclose(puzzle.probability, p, atol=1e-12)
        assert score(puzzle, f"<answer>{puzzle.answer}</answer>").exact
        if task == PuzzleTask.SAFE_CELLS:
            assert puzzle.answer == "; ".join(f"{r} {c}" for r, c in np.argwhere(p == 0))
        elif task == PuzzleTask.SAFEST_CELL:
            r, c = map(int, puzzle.answer.split())
            assert p[r, c] == np.nanmin(p)
        else:
            assert puzzle.cell is not None
            assert float(puzzle.answer) == pytest.approx(p[puzzle.cell], abs=5e-5)


def test_make_puzzle__same_seed_same_puzzle() -> None:
    config = GameConfig(preset="intermediate")
    a, b = (make_puzzle("safe-cells", 11, config) for _ in range(2))
    assert a.prompt == b.prompt and a.answer == b.answer
    assert make_puzzle("safe-cells", 12, config).prompt != a.prompt


@pytest.mark.parametrize(
    "level",
    [Deduction.SINGLE_CLUE, Deduction.SUBSET, Deduction.GLOBAL_COUNT, Deduction.ENUMERATION],
)
def test_make_puzzle__the_deduction_class_is_the_weakest_that_solves_it(level: Deduction) -> None:
    config = GameConfig(preset="beginner")
    for seed in range(5):
        puzzle = make_puzzle("safe-cells", seed, config, deduction=level)
        assert puzzle.deduction == level
        analysis = analyse(puzzle.board, puzzle.mines)
        single = deduce(analysis.position.constraints, pairwise=False).safe
        pair = deduce(analysis.position.constraints).safe
        assert (single == analysis.safe) == (level == Deduction.SINGLE_CLUE)
        assert (pair == analysis.safe) == (level in (Deduction.SINGLE_CLUE, Deduction.SUBSET))


def test_make_puzzle__refuses_a_class_it_cannot_find() -> None:
    with pytest.raises(ValueError, match="no safe-cells puzzle needing probability in 3"):
        make_puzzle("safe-cells", 0, SMALL, deduction="probability", tries=3)


def test_score__grades_each_task_by_its_measure() -> None:
    config = GameConfig(preset="beginner")
    safe = make_puzzle("safe-cells", 1, config, deduction="subset")
    cells = safe.answer.split("; ")
    half = score(safe, "; ".join(cells[: len(cells) // 2]))
    assert not half.exact and 0 < half.reward < 1 and half.measure == half.reward
    assert score(safe, "<answer>" + "; ".join(reversed(cells)) + "</answer>").exact
    assert score(safe, "none").reward == 0.0
    best = make_puzzle("safest-cell", 2, config, deduction="probability")
    worst = np.unravel_index(np.nanargmax(best.probability), best.board.shape)
    graded = score(best, f"{worst[0]} {worst[1]}")
    assert not graded.exact and graded.measure > 0 and graded.reward < 1
    (r1, c1), (r2, c2) = np.argwhere(~np.isnan(best.probability))[:2]
    assert score(best, f"{r1} {c1}; {r2} {c2}").reward == 0.0  # one cell, not two
    named = make_puzzle("mine-probability", 3, config, deduction="probability")
    assert puzzle_error(named, "1/3") == pytest.approx(abs(named.probability[named.cell] - 1 / 3))
    for reply in ("no idea", "1/0", "x" * 1_000_000, "\u0660\u066b\u0665"):
        assert score(named, reply).reward == 0.0


def puzzle_error(puzzle: Puzzle, reply: str) -> float:
    return score(puzzle, reply).measure


def test_puzzle__record_round_trips_through_json() -> None:
    for task in PuzzleTask:
        puzzle = make_puzzle(task, 4, GameConfig(preset="beginner"))
        record = json.loads(json.dumps(puzzle.record()))
        assert set(record) == {"prompt", "answer", "metadata"}
        again = Puzzle.from_record(record)
        assert (again.prompt, again.answer, again.deduction) == (
            puzzle.prompt,
            puzzle.answer,
            puzzle.deduction,
        )


def test_to_dataset__holds_the_records() -> None:
    pytest.importorskip("datasets")
    puzzles = [make_puzzle("safest-cell", s, SMALL) for s in range(3)]
    dataset = to_dataset(puzzles)
    assert dataset.column_names == ["prompt", "answer", "metadata"] and len(dataset) == 3
    assert dataset[1]["answer"] == puzzles[1].answer


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agents.puzzles", *args], capture_output=True, text=True, check=False
    )


def test_puzzles_cli__writes_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "p.jsonl"
    done = _cli(
        "--task", "mine-probability", "--count", "5", "--preset", "intermediate", "--out", str(out)
    )
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["metadata"]["rows"] == 16


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", "0"], "--count must be >= 1, got 0"),
        (["--out", "x.txt"], "--out 'x.txt' must end in .jsonl"),
        (["--preset", "huge"], "unknown preset"),
        (["--density", "2"], "density must be a number in [0, 1)"),
        (["--task", "guess"], "argument --task: invalid choice"),
    ],
)
def test_puzzles_cli__bad_input_is_one_line_and_creates_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    target = tmp_path / "new" / "p.jsonl"
    done = _cli("--count", "2", "--out", str(target), *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert message in done.stderr and not (tmp_path / "new").exists()


@pytest.mark.parametrize(
    ("picture", "mines", "level"),
    [
        # 1 * 1 #: the left 1 mines (0,1); the right 1 then clears (0,3).
        ("1#1#", 1, Deduction.SINGLE_CLUE),
        # 1 2 1 1 over a hidden row: {a,b} = 1 inside {a,b,c} = 2 mines c (the subset rule).
        ("1211\n####", 2, Deduction.SUBSET),
        # the 1 mines (0,1); only the mine count clears the far cells.
        ("1###", 1, Deduction.GLOBAL_COUNT),
        # the 1's mine is one of its two cells; with one mine in all, the far cell is safe.
        ("#1##", 1, Deduction.ENUMERATION),
    ],
)
def test_needed__classes_hand_made_positions(picture: str, mines: int, level: Deduction) -> None:
    board = parse_board(
        "\n".join(f"{r} | " + " ".join(line) for r, line in enumerate(picture.split()))
    )
    analysis = analyse(board, mines)
    assert analysis.safe
    assert _needed(analysis, set(analysis.safe), any_one=False) == level
