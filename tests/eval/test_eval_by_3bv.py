"""Eval's 3BV: the games.csv column, the win rate per 3BV band (``--by 3bv``), table and plot."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from common.stats import wilson_interval
from eval.cli import main
from eval.games import GameRecord
from eval.report import band_table, rates_by_bbbv


def _record(agent: str, bbbv: int, won: bool, game: int) -> GameRecord:
    return GameRecord(
        setting="beginner 9x9/10 safe",
        agent=agent,
        game=game,
        seed=game,
        outcome="WON" if won else "LOST",
        won=won,
        moves=1,
        certain_moves=0,
        guesses=1,
        cells_revealed=1.0,
        mines=10,
        mines_exploded=0,
        mines_found=0,
        first_cell="0:0",
        board_hash="",
        wall_time=0.0,
        agent_time=0.0,
        bbbv=bbbv,
    )


def test_rates_by_bbbv__cuts_every_agent_at_the_settings_quartiles() -> None:
    values = [4, 8, 12, 16, 20, 24, 28, 32]
    records = [_record("a", v, v <= 12, i) for i, v in enumerate(values)]
    records += [_record("b", v, True, i) for i, v in enumerate(values)]
    records.append(_record("b", -1, False, 99))  # no layout: left out
    rates = rates_by_bbbv(records)
    a = [r for r in rates if r.agent == "a"]
    # quartiles (nearest values) 4, 12, 20, 24, 32: four integer ranges, none shared
    assert [(r.low, r.high) for r in a] == [(4, 12), (13, 20), (21, 24), (25, 32)]
    assert [r.games for r in a] == [3, 2, 1, 2]
    assert a[0].win_rate == wilson_interval(3, 3) and a[1].win_rate == wilson_interval(0, 2)
    assert sum(r.games for r in rates if r.agent == "b") == 8
    table = band_table(rates)
    assert "3BV 4-12" in table.splitlines()[1] and "3BV 25-32" in table.splitlines()[1]
    assert table.splitlines()[3].startswith("a ")


def test_game_record__reads_a_games_csv_row_written_before_the_3bv_column() -> None:
    row = {k: str(v) for k, v in _record("a", 7, True, 0).as_dict().items()}
    assert GameRecord.from_row(row).bbbv == 7
    del row["bbbv"]
    assert GameRecord.from_row(row).bbbv == -1


def test_main__by_3bv_adds_the_table_the_plot_and_the_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["--agents", "random,logic", "--games", "8", "--workers", "1", "--quiet"]
    assert main([*argv, "--first-click", "no-guess", "--by", "3bv", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "win rate by 3BV band, beginner 9x9/10 no-guess:" in printed
    with (out / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert all(int(row["bbbv"]) > 0 for row in rows)
    bands = json.loads((out / "results.json").read_text())["win_rate_by_3bv"]
    assert sum(b["games"] for b in bands) == 16
    assert (out / "win_rate_by_3bv.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_main__bad_by_value_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--by", "size", "--quiet"])
    assert stopped.value.code == 2
    assert "3bv" in capsys.readouterr().err
