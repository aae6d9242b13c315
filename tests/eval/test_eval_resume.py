"""Evaluations that survive kills and Ctrl-C, and pool workers that die with their parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from processes import alive, children

from eval import backends
from eval.cli import main
from eval.evaluate import KILL_HOOK
from eval.journal import read_games

ROOT = Path(__file__).resolve().parents[2]
ARGS = [
    "--agents",
    "random,local",
    "--rows",
    "6",
    "--cols",
    "6",
    "--mines",
    "5",
    "--games",
    "30",
    "--workers",
    "1",
    "--quiet",
    "--no-plots",
]
TIMINGS = ("ms_per_move", "ms_per_game")


def figures(folder: Path) -> dict[str, Any]:
    """results.json's figures (timings and provenance aside) and games.csv without timings."""
    document = json.loads((folder / "results.json").read_text())
    summaries = [{k: v for k, v in s.items() if k not in TIMINGS} for s in document["summaries"]]
    games = [r.without_timing() for r in read_games(folder / "games.csv")]
    return {"summaries": summaries, "comparisons": document["comparisons"], "games": games}


def eval_in_subprocess(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "eval", *args],
        cwd=ROOT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_eval__killed_run_resumes_to_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*ARGS, "--out", str(tmp_path / "whole")]) == 0
    killed = eval_in_subprocess([*ARGS, "--out", str(tmp_path / "killed")], {KILL_HOOK: "3"})
    killed.communicate(timeout=120)
    assert killed.returncode == -signal.SIGKILL
    kept = read_games(tmp_path / "killed" / "games.csv")
    assert 0 < len(kept) < 60
    assert not (tmp_path / "killed" / "results.json").exists()
    assert main(["--resume", str(tmp_path / "killed")]) == 0
    assert figures(tmp_path / "killed") == figures(tmp_path / "whole")
    # The kept games were not played again: their records, timings included, are unchanged.
    resumed = {
        (r.setting, r.agent, r.game): r for r in read_games(tmp_path / "killed" / "games.csv")
    }
    assert all(resumed[(r.setting, r.agent, r.game)] == r for r in kept)


def test_eval__ctrl_c_keeps_the_games_played_and_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    original = backends.play_chunk

    def interrupt_third(chunk: Any) -> Any:
        calls.append(chunk)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return original(chunk)

    monkeypatch.setattr(backends, "play_chunk", interrupt_third)
    out = tmp_path / "out"
    assert main([*ARGS, "--out", str(out)]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "interrupted after" in err[0] and "--resume" in err[0]
    assert len(read_games(out / "games.csv")) > 0
    monkeypatch.undo()
    assert main(["--resume", str(out)]) == 0
    assert len(read_games(out / "games.csv")) == 60
    assert main([*ARGS, "--out", str(tmp_path / "whole")]) == 0
    assert figures(out) == figures(tmp_path / "whole")


def test_eval__resume_refuses_other_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*ARGS, "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["--resume", str(tmp_path), "--games", "5"]) == 2
    assert "--games cannot be used with --resume" in capsys.readouterr().err


def test_eval__no_plots_removes_the_plots_of_an_earlier_run(tmp_path: Path) -> None:
    (tmp_path / "win_rate.png").write_bytes(b"old")
    (tmp_path / "knowledge.png").write_bytes(b"old")
    assert main([*ARGS, "--out", str(tmp_path)]) == 0
    assert not list(tmp_path.glob("*.png"))
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_eval__pool_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    parent = eval_in_subprocess(
        [
            "--agents",
            "solver",
            "--preset",
            "expert",
            "--games",
            "40",
            "--workers",
            "2",
            "--quiet",
            "--out",
            str(tmp_path),
        ]
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while time.monotonic() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = children(parent.pid)
    assert len(workers) >= 2, "the pool never started"
    parent.kill()
    parent.communicate()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]
