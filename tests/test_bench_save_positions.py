"""benchmarks/bench_save_positions.py: both ways of writing a data set timed, loaded back equal;
its bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from train.dataset import PositionSet


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "0"], "--games must be an integer >= 1, got 0"),
        (["--repeats", "-1"], "--repeats must be an integer >= 1, got -1"),
        (["--board", "9x9"], "--board: "),
    ],
)
def test_bench_save_positions__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (line,) = bad_input_lines("bench_save_positions", argv, capsys)
    assert line.startswith(f"bench_save_positions.py: error: {message}")


def test_bench_save_positions__times_both_ways_and_they_load_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_save_positions")
    bench.main(["--board", "5x5/3", "--games", "3", "--repeats", "2", "--collector", "fresh"])
    lines = capsys.readouterr().out.splitlines()
    assert "positions of 3 games on 5x5/3 (collector fresh" in lines[0]
    assert lines[0].endswith("2 writes each way")
    assert lines[1].lstrip().startswith("save_positions: median ")
    assert lines[2].lstrip().startswith("numpy.savez_compressed: median ")
    assert lines[3].startswith("numpy.savez_compressed takes ")


def test_time_saves__refuses_a_file_that_does_not_load_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bench = load_benchmark("bench_save_positions")
    positions = PositionSet.empty(3, 3)
    real = bench.numpy_savez

    def dropping_boards(path: Path, kept: PositionSet) -> None:
        real(path, PositionSet(np.ones((0, 3, 2), np.int8), *list(vars(kept).values())[1:]))

    monkeypatch.setattr(bench, "numpy_savez", dropping_boards)
    with pytest.raises(RuntimeError, match=r"^boards did not load back as written$"):
        bench.time_saves(positions, 1, tmp_path)
