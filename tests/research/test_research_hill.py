"""research/bench_hill.py's Python side: the boards it deals, its files, its bad input (the Java
side needs a JDK and Hill's sources, which CI has not)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from eval.agent_specs import parse_agent_spec
from eval.config import game_seeds
from eval.games import Chunk, layout_hash, play_chunk
from eval.journal import read_games
from eval.settings import build_settings


def _setting(first_click: str = "safe") -> object:
    (setting,) = build_settings(["beginner"], None, None, None, None, first_click, False)
    return setting


@pytest.mark.parametrize("first_click", ["safe", "opening"])
def test_deals__the_boards_python_m_eval_deals_an_agent_with_that_first_click(
    first_click: str,
) -> None:
    bench = load_benchmark("bench_hill")
    setting = _setting(first_click)
    agent = parse_agent_spec("solver")
    seeds = game_seeds(3, 4)
    records = play_chunk(Chunk(0, 0, setting, agent, tuple(range(4)), tuple(seeds)))  # type: ignore[arg-type]
    first = tuple(int(v) for v in records[0].first_cell.split(":"))
    dealt = bench.deals(setting, first, 3, 4)
    assert [deal.seed for deal in dealt] == seeds
    assert [layout_hash(deal.layout) for deal in dealt] == [r.board_hash for r in records]
    for deal in dealt:
        assert int(deal.layout.sum()) == 10 and not deal.layout[first]


def test_layout_lines__one_line_a_game_row_by_row() -> None:
    bench = load_benchmark("bench_hill")
    layout = np.zeros((9, 9), dtype=bool)
    layout[0, 1] = layout[8, 8] = True
    line = bench.layout_lines(_setting(), [bench.Deal(5, 77, (2, 3), layout)])
    game, rows, cols, mines, row, col, bits = line.split()
    assert (game, rows, cols, mines, row, col) == ("5", "9", "9", "10", "2", "3")
    assert bits == "01" + "0" * 78 + "1" and line.endswith("\n")


def test_read_results__a_torn_last_line_is_dropped_a_bad_middle_one_refused() -> None:
    bench = load_benchmark("bench_hill")
    text = "0 1 200 3 71 71 0.05\n1 0 12 2 9 71 0.01\n2 1 3"
    games = bench.read_results(text)
    assert sorted(games) == [0, 1]
    assert games[0] == bench.HillGame(0, True, 200, 3, 71, 71, 0.05)
    assert not games[1].won
    with pytest.raises(ValueError, match=re.escape("line 2 of hill.txt is not a result: 'oops'")):
        bench.read_results("0 1 200 3 71 71 0.05\noops\n1 0 12 2 9 71 0.01\n")


def test_game_record__an_eval_row_that_pairs_with_the_deal() -> None:
    bench = load_benchmark("bench_hill")
    setting = _setting()
    layout = np.zeros((9, 9), dtype=bool)
    layout[4, :] = True
    layout[5, 0] = True
    deal = bench.Deal(7, 99, (0, 0), layout)
    lost = bench.game_record(setting, deal, bench.HillGame(7, False, 20, 4, 35, 71, 0.25))
    assert (lost.agent, lost.game, lost.seed, lost.outcome, lost.won) == (
        "hill",
        7,
        99,
        "LOST",
        False,
    )
    assert (lost.moves, lost.certain_moves, lost.guesses) == (20, 16, 4)
    assert lost.cells_revealed == pytest.approx(35 / 71)
    assert (lost.mines_exploded, lost.first_cell) == (1, "0:0")
    assert lost.board_hash == layout_hash(layout) and lost.setting == setting.label  # type: ignore[attr-defined]
    won = bench.game_record(setting, deal, bench.HillGame(7, True, 30, 2, 71, 71, 0.5))
    assert (won.outcome, won.mines_exploded, won.cells_revealed) == ("WON", 0, 1.0)


def test_bench_hill__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = ["--out", str(tmp_path / "h")]
    (line,) = bad_input_lines("bench_hill", ["--hill", str(tmp_path), "--games", "0", *out], capsys)
    assert line == "bench_hill.py: error: --games must be an integer >= 1, got 0"
    (line,) = bad_input_lines(
        "bench_hill", ["--hill", str(tmp_path), "--first-cell", "2;3", *out], capsys
    )
    assert line.endswith("--first-cell must be ROW,COL (two integers), got '2;3'")
    (line,) = bad_input_lines("bench_hill", ["--hill", str(tmp_path), *out], capsys)
    assert "this benchmark needs a JDK" in line or (
        f"--hill {str(tmp_path)!r} is not a checkout of github.com/DavidNHill/Minesweeper" in line
    )
    for folder in load_benchmark("bench_hill").HILL_SOURCES:
        (tmp_path / folder).mkdir(parents=True)
    (line,) = bad_input_lines(
        "bench_hill", ["--hill", str(tmp_path), "--first-cell", "16,0", *out], capsys
    )
    assert "this benchmark needs a JDK" in line or line.endswith(
        "--first-cell 16,0 is off the 16x30 board (rows 0..15, cols 0..29)"
    )


def test_check_hill_option__known_keys_and_values_only() -> None:
    bench = load_benchmark("bench_hill")
    for option in ("longterm=false", "method=SAFETY_PROGRESS", "cutoff=0.85", "weights=4,1"):
        assert bench.check_hill_option(option) == option
    with pytest.raises(ValueError, match="'depth=3' is not KEY=VALUE with KEY one of analysis"):
        bench.check_hill_option("depth=3")
    with pytest.raises(ValueError, match=re.escape("longterm='flase': the value must match")):
        bench.check_hill_option("longterm=flase")
    with pytest.raises(ValueError, match="is not KEY=VALUE"):
        bench.check_hill_option("longterm")


def test_compile_driver__a_build_newer_than_the_driver_is_kept(tmp_path: Path) -> None:
    bench = load_benchmark("bench_hill")
    built = tmp_path / "classes" / "hillrun" / "HillRun.class"
    built.parent.mkdir(parents=True)
    built.write_bytes(b"")
    bench.compile_driver(tmp_path / "no-hill-here", tmp_path / "classes")  # no javac run
    assert built.is_file()


def _without_java(monkeypatch: pytest.MonkeyPatch, returncode: int, lines: str = "") -> ModuleType:
    """bench_hill with its JDK steps replaced: no checks, no javac, and a ``java`` that writes
    ``lines`` to the results file and exits with ``returncode``."""
    bench = load_benchmark("bench_hill")
    monkeypatch.setattr(bench, "check_inputs", lambda *_: None)
    monkeypatch.setattr(bench, "compile_driver", lambda *_: None)

    def java(command: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        results = Path(command[command.index("hillrun.HillRun") + 2])
        results.write_text(lines)
        return subprocess.CompletedProcess(command, returncode)

    monkeypatch.setattr(bench.subprocess, "run", java)
    return bench


def test_bench_hill__a_java_failure_is_one_line_and_keeps_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = _without_java(monkeypatch, returncode=1)
    with pytest.raises(SystemExit) as stopped:
        bench.main(["--hill", str(tmp_path), "--preset", "beginner", "--games", "2",
                    "--out", str(tmp_path / "h")])  # fmt: skip
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (
        f"bench_hill.py: error: java stopped with status 1 (its message is above); the games it "
        f"finished are kept in {tmp_path / 'h' / 'hill.txt'}: run the same command again to go on"
    )


def test_bench_hill__writes_an_eval_folder_and_refuses_to_mix_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    played = "0 1 30 2 71 71 0.01\n1 0 5 1 9 71 0.02\n"
    bench = _without_java(monkeypatch, returncode=0, lines=played)
    out = tmp_path / "h"
    base = ["--hill", str(tmp_path), "--preset", "beginner", "--games", "2", "--out", str(out)]
    bench.main(base)
    records = read_games(out / "games.csv")
    assert [(r.agent, r.game, r.won, r.moves, r.guesses) for r in records] == [
        ("hill", 0, True, 30, 2),
        ("hill", 1, False, 5, 1),
    ]
    capsys.readouterr()
    for argv, message in (
        ([*base, "--hill-option", "longterm=false"], "games of other --hill-option values"),
        ([*base, "--seed", "5"], "games of other layouts"),
    ):
        with pytest.raises(SystemExit) as stopped:
            bench.main(argv)
        assert stopped.value.code == 2
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line == f"bench_hill.py: error: {out} holds {message}: use a new --out"
