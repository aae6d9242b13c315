"""``mswp-play`` from the command line: bad input fails before any window, headless runs finish."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from eval import play
from eval.gui import app as app_module
from eval.gui.options import parse_options


@pytest.fixture
def no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a window is opened."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a window was opened")

    monkeypatch.setattr(app_module.PlayApp, "__init__", refuse)


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--agent", "nobody"], "nobody"),
        (["--agent", "ppo:missing/run.zip"], "missing/run.zip"),
        (["--rows", "0"], "rows"),
        (["--rows", "5", "--cols", "5", "--mines", "30"], "30"),
        (["--mines", "-3"], "-3"),
        (["--preset", "expert", "--rows", "10"], "--preset"),
        (["--agent", "solver", "--guess", "global"], "--guess"),
        (["--guess", "sometimes"], "sometimes"),
        (["--speed", "-1"], "-1"),
        (["--hover", "3"], "'3'"),
        (["--hover", "3,30"], "(3, 30)"),
    ],
)
def test_play_main__bad_input_is_a_clear_error_before_the_window(
    argv: list[str], named: str, no_window: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert play.main([*argv, "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mswp-play: error:") and named in err


def test_parse_options__presets_custom_boards_and_agents() -> None:
    options = parse_options(["--preset", "expert", "--first-click", "opening", "--seed", "5"])
    assert (options.board.rows, options.board.cols, options.board.mines) == (16, 30, 99)
    assert options.board.first_click == "opening" and options.seed == 5
    custom = parse_options(
        ["--rows", "12", "--mines", "20", "--agent", "logic", "--guess", "sentence-max"]
    )
    assert (custom.board.name, custom.board.rows, custom.board.cols, custom.board.mines) == (
        "custom",
        12,
        9,
        20,
    )
    assert custom.agent == "logic:sentence-max"
    assert parse_options([]).agent == "logic:global"


def test_play_main__headless_autoplay_writes_the_final_screenshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = tmp_path / "out.png"
    argv = [
        "--headless",
        "--agent",
        "solver",
        "--seed",
        "3",
        "--autoplay",
        "--screenshot",
        str(shot),
    ]
    assert play.main(argv) == 0
    out = capsys.readouterr().out
    assert shot.stat().st_size > 1000
    assert "game 1 (seed 3):" in out and ("won" in out or "lost" in out)


def test_play_module__runs_as_python_dash_m(tmp_path: Path) -> None:
    shot = tmp_path / "m.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "eval.play",
            "--headless",
            "--agent",
            "logic",
            "--seed",
            "1",
            "--autoplay",
            "--moves",
            "3",
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert shot.exists() and "game 1 (seed 1):" in result.stdout
