"""Replaying a run's first round from the lineage in its checkpoint."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_IMITATION, tweak

from train import run as run_module
from train.checkpoint import LINEAGE, read_lineage
from train.replay import main, replay_first_round, replay_settings
from train.state import read_state


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    settings = tweak(TINY_IMITATION, imitation__rounds=2, eval_games=8)
    out = tmp_path_factory.mktemp("runs")
    run_dir = run_module.train(tweak(settings, out=str(out)))
    return run_dir / read_state(run_dir).model_file


def test_replay__the_first_round_wins_the_recorded_games(
    two_rounds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lineage = read_lineage(two_rounds)
    assert lineage is not None and lineage["first_evaluation"]["iteration"] == 1
    replay = replay_first_round(str(two_rounds), str(tmp_path / "a"))
    assert replay.matches and replay.replayed["games"] == 8
    assert main([str(two_rounds), "--out", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().out.strip().endswith(": the same")


def test_replay__a_record_the_replay_misses_exits_1(two_rounds: Path, tmp_path: Path) -> None:
    lineage = read_lineage(two_rounds)
    assert lineage is not None
    lineage["first_evaluation"]["wins"] += 1  # a record the code no longer reproduces
    forged = tmp_path / "forged.zip"
    with zipfile.ZipFile(two_rounds) as source, zipfile.ZipFile(forged, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            target.writestr(item, json.dumps(lineage) if item.filename == LINEAGE else data)
    assert main([str(forged), "--out", str(tmp_path)]) == 1


def test_replay__refuses_what_cannot_replay_exactly(
    two_rounds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lineage = read_lineage(two_rounds)
    assert lineage is not None
    budget = {**lineage, "config": {**lineage["config"], "time_budget_minutes": 5.0}}
    with pytest.raises(ValueError, match="does not replay exactly"):
        replay_settings(budget, "out")
    moved = {**lineage, "config": {**lineage["config"], "init": "net:beginner"}}
    with pytest.raises(ValueError, match="'net:beginner' is not the recorded parent"):
        replay_settings({**moved, "parent_sha256": "0" * 64}, "out")
    with pytest.raises(
        ValueError, match=r"init .net:beginner. is not the recorded parent .* with --init"
    ):
        replay_settings(lineage, "out", init="net:beginner")  # --init FILE: a file of another run
    with pytest.raises(ValueError, match="no first evaluation"):
        replay_settings({**lineage, "first_evaluation": None}, "out")
    assert main(["net:beginner"]) == 2  # shipped before lineage recorded a first evaluation
    assert "records no first evaluation" in capsys.readouterr().err


def test_replay__the_shipped_rl_intermediate_first_round_matches_its_record(
    tmp_path: Path,
) -> None:
    """The code now trains the first round of ``rl:intermediate``'s run as its commit did: the
    same 113 of 200 wins from the shipped parent (one round of 1000 games, about a minute)."""
    replay = replay_first_round("rl:intermediate", str(tmp_path))
    assert replay.recorded["wins"] == 113 and replay.recorded["games"] == 200
    assert replay.matches, (replay.recorded, replay.replayed)
    assert replay.replayed["positions"] == replay.recorded["positions"]
