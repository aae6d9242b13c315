"""benchmarks/bench_memory_format.py on a toy budget: a row per board and use, bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench_memory_format.py"
TOY = ["--channels", "4", "--blocks", "1", "--batch", "4", "--repeats", "1", "--work", "100"]


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=300
    )


def test_bench_memory_format__a_row_per_board_and_use() -> None:
    done = _run("--boards", "5x5/3,4x6/2", *TOY, "--global-pool")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith(("5x5", "4x6"))]
    assert len(rows) == 6  # two boards x (1 view, 8 views, train step)
    for row in rows:
        default, last, ratio, difference = row[-4:]
        assert float(default) > 0 and float(last) > 0 and ratio.endswith("x")
        assert float(difference) < 1e-4  # the two layouts agree to float rounding


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--boards", "16x30x99"], "16x30x99"),
        (["--repeats", "0"], "--repeats=0"),
        (["--blocks", "0", "--global-pool"], "--blocks=0"),
    ],
)
def test_bench_memory_format__bad_input_is_one_line_and_exit_2(argv: list[str], named: str) -> None:
    done = _run(*argv)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "bench_memory_format.py: error:" in done.stderr
    assert named in done.stderr
