"""benchmarks/bench_mine_count.py: the error figures on hand-made beliefs, a toy run, bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from mswp_gym.constants import HIDDEN
from train.dataset import PositionSet, no_moves

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_mine_count.py"


def _two_positions() -> PositionSet:
    boards = np.array([[[HIDDEN, HIDDEN, 1], [HIDDEN, 1, 1]], [[HIDDEN, HIDDEN, 1], [1, 1, 1]]])
    hidden = boards == HIDDEN
    # position 0 needs a guess (no hidden cell is certainly safe), position 1 does not
    table = np.array([[[0.5, 0.25, 0], [0.25, 0, 0]], [[1.0, 0.0, 0], [0, 0, 0]]])
    exact = np.where(hidden, table, 0.0)
    return PositionSet(
        boards.astype(np.int8),
        exact.astype(np.float32),
        hidden,
        np.zeros((2, 2, 3), np.float32),
        np.zeros((2, 2, 3), bool),
        no_moves(2),
    )


def test_stage_errors__exact_beliefs_have_no_error_and_shifted_ones_count_it() -> None:
    bench = load_benchmark("bench_mine_count")
    positions = _two_positions()
    hidden = positions.mine_masks
    exact = positions.mine_targets.astype(np.float64)
    everything = np.ones(2, bool)
    # scores: the network plays cell (0, 1) in position 0 (P 0.25, the lowest) and (0, 1) in 1
    scores = np.where(hidden, 0.0, -1.0).reshape(2, -1)
    scores[:, 1] = 1.0
    perfect = bench.stage_errors(positions, exact, scores, everything)
    assert perfect.positions == 2 and perfect.cell_error == 0.0 and perfect.count_error == 0.0
    assert perfect.guesses == 1 and perfect.guess_risk == 0.0
    shifted = bench.stage_errors(positions, np.clip(exact + 0.1, 0, 1), scores, everything)
    # position 0: three hidden cells, each 0.1 too high; position 1: two, one of them at 1.0
    assert shifted.count_error == pytest.approx((0.3 + 0.1) / 2)
    assert shifted.cell_error == pytest.approx(0.4 / 5)
    # undecided cells: the three of position 0 (0.5, 0.25, 0.25), none in position 1
    assert shifted.undecided_error == pytest.approx(0.3 / 2)
    assert perfect.undecided_error == 0.0
    assert perfect.safest_risk == 0.0 and perfect.same_cell == 1.0
    scores[0, 0] = 2.0  # now the network plays the 0.5 cell of the guess position
    risky = bench.stage_errors(positions, exact, scores, everything)
    assert risky.guess_risk == pytest.approx(25.0)
    assert risky.safest_risk == 0.0 and risky.same_cell == 0.0  # its mine head knows better
    # beliefs that rate the 0.5 cell safest: the safest-cell risk follows the mine head
    wrong = exact.copy()
    wrong[0, 0, 0] = 0.01
    misled = bench.stage_errors(positions, wrong, scores, everything)
    assert misled.safest_risk == pytest.approx(25.0) and misled.same_cell == 1.0


def test_bench_mine_count__a_row_per_stage_and_the_same_seed_gives_the_same_rows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_mine_count")
    argv = ["--board", "beginner", "--games", "3", "--checkpoints", "beginner"]
    rows = bench.run(argv)
    printed = capsys.readouterr().out
    assert rows and {name for name, _, _ in rows} == {"beginner"}
    for _, label, errors in rows:
        assert label in printed and errors.positions > 0
        assert 0.0 <= errors.cell_error <= 1.0 and errors.count_error >= 0.0
        assert errors.guesses == 0 or errors.guess_risk >= 0.0
    assert [repr(row) for row in bench.run(argv)] == [repr(row) for row in rows]


@pytest.mark.parametrize(
    "argv",
    [
        ["--board", "huge"],
        ["--games", "0"],
        ["--checkpoints", "missing.zip"],
        ["--checkpoints", ","],
    ],
)
def test_bench_mine_count__bad_input_is_one_line_and_exit_2(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "bench_mine_count.py: error:" in done.stderr
