"""research/bench_learned_moves.py on a toy budget: its tallies, and bad input."""

from __future__ import annotations

import re

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

pytest.importorskip("sb3_contrib")


def test_bench_learned_moves__tallies_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    import torch as th

    before = th.get_num_threads()
    try:
        load_benchmark("bench_learned_moves").main(["--checkpoint", "beginner", "--games", "3"])
    finally:
        th.set_num_threads(before)
    printed = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r".*beginner.*: 9x9/10, first click safe, 3 games, [0-3] won", printed[0])
    moves = re.fullmatch(
        r"moves (\d+): a certainly safe cell existed before (\d+), missed in (\d+) .*", printed[1]
    )
    assert moves is not None
    total, safe_before, missed = (int(value) for value in moves.groups())
    assert missed <= safe_before < total  # the first move of each game is never counted
    assert re.match(r"guesses \d+ \([\d.]+ a game\), mean excess risk", printed[2])


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--checkpoint", "missing.zip"], "--checkpoint 'missing.zip': no checkpoint at"),
    ],
)
def test_bench_learned_moves__bad_input_is_one_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_learned_moves", argv, capsys)
    assert len(lines) == 1 and named in lines[0]
