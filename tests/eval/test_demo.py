"""``python -m eval.demo`` smoke-runs with a tiny budget and writes its outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.demo import available_agents, main
from eval.settings import Setting


def test_demo__runs_and_writes_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "--games",
        "3",
        "--sweep-games",
        "2",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "games played by" in printed
    assert "win rate [95% CI]" in printed
    assert "density sweep" in printed
    document = json.loads((tmp_path / "results.json").read_text())
    labels = [agent["label"] for agent in document["config"]["agents"]]
    assert {"random", "local", "logic", "logic:global"} <= set(labels)
    for name in ("games.csv", "win_rate.png", "knowledge.png", "sweep/win_rate_vs_density.png"):
        assert (tmp_path / name).exists(), name


def test_available_agents__skips_unbuildable_agents_with_a_note() -> None:
    usable, notes = available_agents(
        ["random", "nosuchagent", "ppo:/nonexistent.zip"], Setting(9, 9, 10)
    )
    assert [a.label for a in usable] == ["random"]
    assert len(notes) == 2 and "nosuchagent" in notes[0] and "ppo" in notes[1]
