"""``python -m eval``: flags, outputs, reproducibility and clear errors before any game."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from eval import runner
from eval.cli import main


def _deterministic_part(output: str) -> str:
    """The report without the timing tables and the list of files written."""
    kept = []
    skipping = False
    for line in output.splitlines():
        if line.startswith("timings"):
            skipping = True
        elif line.startswith("=="):
            skipping = False
        if not skipping and not line.startswith("wrote "):
            kept.append(line)
    return "\n".join(kept)


def test_main__writes_json_csv_and_plots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = [
        "--agents",
        "random,logic:global",
        "--preset",
        "beginner",
        "--games",
        "4",
        "--seed",
        "3",
        "--workers",
        "1",
        "--out",
        str(out),
        "--quiet",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "logic:global" in printed and "p (exact McNemar)" in printed
    document = json.loads((out / "results.json").read_text())
    config = document["config"]
    assert config["games"] == 4 and config["seed"] == 3
    assert config["settings"][0]["rows"] == 9 and config["settings"][0]["first_click"] == "safe"
    assert len(config["game_seeds"]) == 4
    assert "--games" in config["command_line"]
    assert "numpy" in document["provenance"]["versions"]
    assert [s["agent"] for s in document["summaries"]] == ["random", "logic:global"]
    assert document["comparisons"][0]["wins"]["pairs"] == 4
    with (out / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 8
    assert {row["seed"] for row in rows} == {str(s) for s in config["game_seeds"]}
    for name in ("win_rate.png", "knowledge.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_main__same_command_prints_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--agents", "local,logic", "--games", "6", "--seed", "11", "--quiet", "--workers", "1"]
    main(argv)
    first = capsys.readouterr().out
    main([*argv[:-1], "2"])  # a different worker count changes nothing
    second = capsys.readouterr().out
    assert _deterministic_part(first) == _deterministic_part(second)
    assert "wins" in _deterministic_part(first)


def test_main__density_sweep_plots_win_rate_against_density(tmp_path: Path) -> None:
    argv = [
        "--agents",
        "local,logic",
        "--rows",
        "6",
        "--cols",
        "6",
        "--density",
        "0.1,0.2",
        "--games",
        "3",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert main(argv) == 0
    document = json.loads((tmp_path / "results.json").read_text())
    assert [s["mines"] for s in document["config"]["settings"]] == [4, 7]
    assert (tmp_path / "win_rate_vs_density.png").exists()


def test_main__score_mode_reports_mines_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--agents",
        "local,logic:global",
        "--rows",
        "8",
        "--cols",
        "8",
        "--mines",
        "16",
        "--first-click",
        "any",
        "--score-mode",
        "--games",
        "3",
        "--workers",
        "1",
        "--out",
        str(tmp_path),
        "--quiet",
        "--no-plots",
    ]
    assert main(argv) == 0
    assert "mines found" in capsys.readouterr().out
    with (tmp_path / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        assert int(row["mines_found"]) + int(row["mines_exploded"]) == 16
        assert row["outcome"] in ("WON", "CLEARED")  # score mode plays every game to the end
    document = json.loads((tmp_path / "results.json").read_text())
    assert 0 <= document["summaries"][0]["score"]["estimate"] <= 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "logic,nosuchagent"], "nosuchagent"),
        (["--agents", "logic:nosuchpolicy"], "nosuchpolicy"),
        (["--rows", "3", "--cols", "3", "--mines", "9"], "mines=9"),
        (["--rows", "3", "--cols", "3", "--mines", "8", "--first-click", "opening"], "mines=8"),
        (["--rows", "5"], "--cols"),
        (["--density", "1.5"], "1.5"),
        (["--density", "0.1,abc"], "abc"),
        (["--preset", "huge"], "huge"),
        (["--games", "0"], "games"),
        (["--agents", "ppo:/nonexistent/checkpoint.zip"], "ppo"),
        (["--compare", "logic", "solver"], "solver"),
    ],
)
def test_main__bad_input_fails_clearly_before_any_game(
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_chunks", no_games)
    assert main([*argv, "--quiet", "--workers", "1"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("mswp-eval: error:")
    assert message in error


def test_main__corrupt_checkpoint_fails_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt = tmp_path / "corrupt.zip"
    corrupt.write_bytes(b"this is not a checkpoint")
    assert main(["--agents", f"ppo:{corrupt}", "--quiet", "--workers", "1"]) == 2
    assert "ppo" in capsys.readouterr().err


def test_progress_bar_factory__off_when_quiet_or_not_a_tty(monkeypatch: pytest.MonkeyPatch) -> None:
    from eval.progress import progress_bar_factory

    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert progress_bar_factory(quiet=True) is None
    factory = progress_bar_factory(quiet=False)
    assert factory is not None
    update, close = factory(3)
    update(3)
    close()
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    assert progress_bar_factory(quiet=False) is None
