"""The CS520 Table 2 reproduction: its setting and its benchmark script."""

from __future__ import annotations

import pytest
from benchmark_scripts import load_benchmark


def test_table2_setting__is_the_reports_rules() -> None:
    module = load_benchmark("cs520_table2")
    MINES, TABLE_2 = module.MINES, module.TABLE_2
    table2_setting, table2_config = module.table2_setting, module.table2_config
    setting = table2_setting()
    assert (setting.rows, setting.cols, setting.mines) == (30, 30, MINES) == (30, 30, 300)
    assert setting.first_click == "any" and setting.score_mode
    config = table2_config(games=3)
    assert [a.label for a in config.agents] == ["local", "logic", "logic:global"]
    assert [row.mines_found for row in TABLE_2] == [225.6, 239.5, 267.0]


def test_cs520_benchmark__prints_ours_beside_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_benchmark("cs520_table2")
    module.main(["--games", "2", "--workers", "1", "--quiet"])
    printed = capsys.readouterr().out
    assert "225.6" in printed and "267.0" in printed
    assert "ours (N=2)" in printed
