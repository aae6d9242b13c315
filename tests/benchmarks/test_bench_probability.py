"""benchmarks/bench_probability.py (our probabilities against ms-toollib's): what runs without
ms-toollib (ours alone), the isolated ms-toollib call's failure path, and its bad input."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

probability = load_benchmark("bench_probability")


def test_ours_only__times_our_engine_and_leaves_ms_toollib_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    probability.main(["--ours-only", "--classes", "random-6x6,play-5x5x3", "--positions", "5"])
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line.split() for line in lines if line.startswith(("random", "play"))}
    assert set(rows) == {"random-6x6", "play-5x5x3"}
    for row in rows.values():
        # N, worst diff, >1e-9, relaxed, tlib fail, ours s, tlib s, ...
        assert row[1] == "5" and row[2] == "nan" and row[4] == "0" and row[5] == "nan"
        assert float(row[6]) >= 0 and row[7] == "nan"


def test_compare__an_isolated_call_that_fails_is_counted_and_left_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    samples = list(probability.random_positions(6, 6, 4, np.random.default_rng(0)))
    calls = []

    def failing(board, mines, isolation):  # type: ignore[no-untyped-def]
        calls.append(isolation)
        return None, float("nan")

    monkeypatch.setattr(probability, "toollib_probabilities", failing)
    isolation = probability.Isolation(memory_gb=1.0, timeout_s=1.0)
    row = probability.compare(samples, isolation=isolation)
    assert calls == [isolation] * 4
    assert row["toollib_failed"] == 4 and row["relaxed"] == 0
    assert np.isnan(row["worst"]) and np.isnan(row["theirs_total_s"])


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--classes", "random-8"], "bad class 'random-8'"),
        (["--classes", "play-0x3x1"], "bad class 'play-0x3x1'"),
        (["--positions", "0"], "--positions must be >= 1, got 0"),
        (["--isolate-toollib", "4"], "--isolate-toollib must be GB:SECONDS"),
        (["--isolate-toollib", "0:10"], "--isolate-toollib must be GB:SECONDS"),
    ],
)
def test_bad_input__one_line_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_probability", argv, capsys)
    assert words in lines[-1] and not any("Traceback" in line for line in lines)


def _dies(board: object, mines: int, memory_gb: float, out: object) -> None:
    import os

    os._exit(3)  # as a failed allocation aborts ms-toollib's process


def _hangs(board: object, mines: int, memory_gb: float, out: object) -> None:
    import time

    time.sleep(30)


@pytest.mark.parametrize("child", [_dies, _hangs])
def test_toollib_probabilities__a_child_that_dies_or_hangs_is_a_failed_call(
    child: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(probability, "_toollib_child", child)
    found, seconds = probability.toollib_probabilities(
        [[probability.TOOLLIB_HIDDEN]], 0, probability.Isolation(memory_gb=1.0, timeout_s=0.5)
    )
    assert found is None and np.isnan(seconds)
