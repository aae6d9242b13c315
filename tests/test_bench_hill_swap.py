"""benchmarks/bench_hill_swap.py's Python side: the positions it records, the swaps it values, its
files and its bad input (the Java side needs a JDK and Hill's sources, which CI has not)."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from agents.solver.agent import rule_first_click
from eval.settings import build_settings
from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec


def _beginner() -> tuple[ModuleType, Any, GameSpec, list[Any]]:
    bench = load_benchmark("bench_hill_swap")
    (setting,) = build_settings(["beginner"], None, None, None, None, "safe", False)
    spec = GameSpec(9, 9, 10, "safe")
    dealt = bench.deals(setting, rule_first_click(spec), 0, 30)
    return bench, setting, spec, dealt


def _board_after(deal: Any, clicks: tuple[int, ...]) -> np.ndarray:
    env = MinesweeperEnv(layout=deal.layout, max_steps=None)
    env.reset(seed=deal.seed)
    for click in clicks:
        _, _, terminated, _, _ = env.step(click)
        assert not terminated
    return env.visible


def test_record_positions__our_guesses_after_the_first_click_replay_to_live_positions() -> None:
    bench, _, spec, dealt = _beginner()
    positions = bench.record_positions(spec, dealt)
    assert positions and len({p.key for p in positions}) == len(positions)
    for position in positions:
        game, k = position.key.split(".")
        assert int(game) == position.game and int(k) >= 0
        assert position.clicks[0] == 0  # the corner, the rule's first click
        board = _board_after(dealt[position.game], position.clicks)
        assert board.ravel()[position.ours] == HIDDEN


def test_position_lines__read_back_as_written() -> None:
    bench, setting, spec, dealt = _beginner()
    positions = bench.record_positions(spec, dealt[:10])
    text = bench.position_lines(setting, (0, 0), positions, {d.game: d for d in dealt})
    first = text.splitlines()[0].split()
    assert first[:6] == [positions[0].key, "9", "9", "10", "0", "0"] and len(first[6]) == 81
    assert bench.read_positions(text) == positions


def test_mirror_equivalent__only_cells_a_symmetry_of_the_position_swaps() -> None:
    bench = load_benchmark("bench_hill_swap")
    board = np.full((9, 9), HIDDEN, dtype=np.int8)
    board[0, 0] = 1  # the corner click showed a number: the transpose keeps the position
    assert bench.mirror_equivalent(board, 8, 72)  # (0, 8) and (8, 0)
    assert not bench.mirror_equivalent(board, 8, 80)
    board[0, 1] = 2  # no longer symmetric
    assert not bench.mirror_equivalent(board, 8, 72)
    wide = np.full((4, 6), HIDDEN, dtype=np.int8)
    assert bench.mirror_equivalent(wide, 0, 23)  # a half turn
    assert not bench.mirror_equivalent(wide, 0, 3)  # no transpose on a non-square board


def test_value_swap__both_cells_over_the_same_layouts(monkeypatch: pytest.MonkeyPatch) -> None:
    bench, _, spec, dealt = _beginner()
    positions = [p for p in bench.record_positions(spec, dealt) if len(p.clicks) > 1]
    position = positions[0]
    board = _board_after(dealt[position.game], position.clicks)
    other = next(c for c in np.flatnonzero(board.ravel() == HIDDEN).tolist() if c != position.ours)
    answer = bench.OtherMove(position.key, other, False, 0.5, "PROBABILITY_ENGINE")
    task = bench.SwapTask(spec, dealt[position.game], position, answer, 8, 0)
    swap = bench.value_swap(task)
    assert swap is not None and (swap.ours, swap.hill) == (position.ours, other)
    assert 1 <= swap.layouts <= 8 and 0 <= swap.won_ours <= swap.layouts
    assert 0 <= swap.won_hill <= swap.layouts and 0 < swap.open_share < 1
    assert bench.value_swap(task) == swap  # seeded: the same layouts, the same games
    real = bench.analyse(board, spec.mines)
    relaxed = dataclasses.replace(real, approximate=True)
    monkeypatch.setattr(bench, "analyse", lambda *_: relaxed)
    alone = bench.value_swap(task)
    assert alone is not None and alone.layouts == 1 and not alone.every_layout


def test_read_answers__a_torn_last_line_is_dropped_a_bad_middle_one_refused() -> None:
    bench = load_benchmark("bench_hill_swap")
    answers = bench.read_answers("3.0 72 0 0.88 PROBABILITY_ENGINE\n4.1 -1 0 0 ENDED\n5.0 1")
    assert sorted(answers) == ["3.0", "4.1"]
    assert answers["3.0"] == bench.OtherMove("3.0", 72, False, 0.88, "PROBABILITY_ENGINE")
    with pytest.raises(ValueError, match=r"moves\.txt line 2 is not 'key cell certain safety"):
        bench.read_answers("3.0 72 0 0.88 GUESS\n4.1 x\n5.0 1 0 0.5 GUESS\n")


def test_read_swaps__rows_round_trip_and_a_torn_last_row_is_dropped() -> None:
    bench = load_benchmark("bench_hill_swap")
    swap = bench.Swap("7.2", 7, 0.5, 10, 11, 0.25, 0.5, "GUESS", 24, False, 9, 12)
    header = ",".join(bench.SWAP_FIELDS) + "\n"
    text = header + bench.swap_row(swap) + "8.0,8,0.1"
    swaps, complete = bench.read_swaps(text)
    assert swaps == [swap] and complete == header + bench.swap_row(swap)
    assert swap.value == pytest.approx(3 / 24)


def test_band_lines__sums_and_standard_errors_by_open_share() -> None:
    bench = load_benchmark("bench_hill_swap")
    swaps = [
        bench.Swap("0.0", 0, 0.05, 1, 2, 0.1, 0.1, "GUESS", 4, True, 1, 2),
        bench.Swap("1.0", 1, 0.06, 1, 2, 0.1, 0.1, "GUESS", 4, True, 2, 2),
        bench.Swap("2.0", 2, 0.95, 1, 2, 0.1, 0.1, "GUESS", 2, True, 1, 0),
    ]
    lines = list(bench.band_lines(swaps))
    assert lines[0].endswith(
        "under 10%:     2 positions, Hill's moves win +0.25 games more (SE 0.25; "
        "95% [-0.24, +0.74])"
    )
    assert "10-90%:     0 positions" in lines[1]
    assert "90% and more:     1 positions, Hill's moves win -0.50 games more (SE 0.00;" in lines[2]
    assert "all:     3 positions, Hill's moves win -0.25 games more" in lines[3]


def test_risk_lines__sums_by_the_risk_of_his_cell() -> None:
    bench = load_benchmark("bench_hill_swap")
    swaps = [
        bench.Swap("0.0", 0, 0.5, 1, 2, 0.1, 0.5, "GUESS", 4, True, 1, 3),
        bench.Swap("1.0", 1, 0.5, 1, 2, 0.1, 0.2, "GUESS", 4, True, 2, 2),
        bench.Swap("2.0", 2, 0.5, 1, 2, 0.2, 0.2, "GUESS", 2, True, 1, 0),
        bench.Swap("3.0", 3, 0.5, 1, 2, 0.3, 0.2, "GUESS", 2, True, 0, 0),
    ]
    lines = list(bench.risk_lines(swaps))
    assert "his riskier:     2 positions, Hill's moves win +0.50 games more" in lines[0]
    assert "equal risk:     1 positions, Hill's moves win -0.50 games more" in lines[1]
    assert "his safer:     1 positions, Hill's moves win +0.00 games more" in lines[2]
    assert "his under 0.3:     1 positions, Hill's moves win +0.00" in lines[3]
    assert "his 0.49-0.51:     1 positions, Hill's moves win +0.50" in lines[5]
    assert "his GUESS:     2 positions, Hill's moves win +0.50" in lines[7]
    assert lines[-1] == "  where his is riskier, median risk: ours 0.100, his 0.350"


def test_bench_hill_swap__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--hill", str(tmp_path), "--out", str(tmp_path / "s")]
    for flag, value, least in (
        ("--games", "0", 1),
        ("--start", "-1", 0),
        ("--layouts", "0", 1),
        ("--workers", "0", 1),
    ):
        (line,) = bad_input_lines("bench_hill_swap", [*base, flag, value], capsys)
        assert (
            line == f"bench_hill_swap.py: error: {flag} must be an integer >= {least}, got {value}"
        )
    (line,) = bad_input_lines("bench_hill_swap", base, capsys)
    assert "this benchmark needs a JDK" in line or "is not a checkout of" in line


def _without_jdk_checks(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """bench_hill_swap with no JDK check and no javac run (``java`` is the test's to replace)."""
    bench = load_benchmark("bench_hill_swap")
    monkeypatch.setattr(bench, "check_inputs", lambda *_: None)
    monkeypatch.setattr(bench, "compile_driver", lambda *_: None)
    return bench


def test_bench_hill_swap__runs_resumes_and_refuses_another_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = _without_jdk_checks(monkeypatch)

    def java(command: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        # Hill agrees with every guess but the first, where he plays the mirror image of ours
        # (the first position of game 0 is the corner's number alone: transpose-symmetric)
        text = Path(command[-2]).read_text()
        assert text.startswith("# beginner")  # the header, which HillMove.java skips
        positions = text.splitlines()[1:]
        lines = []
        for number, line in enumerate(positions):
            field = line.split()
            ours = int(field[-1])
            cell = (ours % 9) * 9 + ours // 9 if number == 0 else ours
            lines.append(f"{field[0]} {cell} 0 0.5 GUESS\n")
        Path(command[-1]).write_text("".join(lines))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(subprocess, "run", java)
    out = tmp_path / "s"
    argv = ["--hill", str(tmp_path), "--preset", "beginner", "--games", "3", "--out", str(out)]
    bench.main(argv)
    printed = capsys.readouterr().out
    assert "his cell differs at 1, of which 1 by a symmetry of the position only" in printed
    assert "all:     0 positions" in printed
    assert (out / "mirrored.txt").read_text().split() == ["0.0"]
    bench.main(argv)  # resumed: nothing left to value, the same summary
    assert "his cell differs at 1, of which 1 by a symmetry of the position only" in (
        capsys.readouterr().out
    )
    with pytest.raises(SystemExit) as stopped:
        bench.main([*argv[:-4], "--games", "4", "--out", str(out)])
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"bench_hill_swap.py: error: {out} holds another run (")
    assert line.endswith("): use a new --out")


def test_bench_hill_swap__a_java_failure_is_one_line_and_keeps_the_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = _without_jdk_checks(monkeypatch)
    monkeypatch.setattr(
        subprocess, "run", lambda command, check: subprocess.CompletedProcess(command, 1)
    )
    out = tmp_path / "s"
    with pytest.raises(SystemExit) as stopped:
        bench.main(
            ["--hill", str(tmp_path), "--preset", "beginner", "--games", "2", "--out", str(out)]
        )
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (
        f"bench_hill_swap.py: error: java stopped with status 1 (its message is above); the moves "
        f"it found are kept in {out / 'moves.txt'}: run the same command again to go on"
    )


def test_first_in_game__keeps_each_games_earliest_guess_and_sums_once() -> None:
    # a decision declined at guesses 3 and 10 of game 7 counts once (the 3rd), game 2 once
    bench = load_benchmark("bench_hill_swap")

    def swap(key: str, won_other: int) -> Any:
        game = int(key.split(".")[0])
        return bench.Swap(key, game, 0.5, 1, 2, 0.1, 0.5, "m", 4, True, 2, won_other)

    swaps = [swap("7.10", 4), swap("2.0", 1), swap("7.3", 3)]
    first = bench.first_in_game(swaps)
    assert [s.key for s in first] == ["2.0", "7.3"]
    lines = list(bench.band_lines(swaps, "its moves"))
    assert lines[-2].lstrip().startswith("all:     3 positions, its moves win +0.50 games more")
    assert lines[-1].lstrip().startswith("first in game:     2 positions, its moves win +0.00")
