"""Every bad value of issue 17, through each command line: exit status 2, one line, no traceback,
nothing created."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY_TRAIN = ["--rows", "5", "--cols", "5", "--mines", "3", "--channels", "4", "--blocks", "1"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A folder with a file, a truncated zip, a bad config and a run folder without state."""
    (tmp_path / "a_file").write_text("not a folder")
    (tmp_path / "truncated.zip").write_bytes(b"PK\x03\x04\x14\x00\x00\x00")
    (tmp_path / "many.toml").write_text('channels = "many"\n')
    (tmp_path / "lr.toml").write_text('learning_rate = "fast"\n')
    (tmp_path / "stateless").mkdir()
    (tmp_path / "out").mkdir()
    return tmp_path


TRAIN_BAD: list[list[str]] = [
    ["--seed", "-1"],
    ["--seed", "abc"],
    ["--mines", "1000"],
    ["--rows", "-1"],
    ["--rows", "100000", "--cols", "100000"],
    ["--first-click", "bogus"],
    ["--learning-rate", "nan"],
    ["--bc-learning-rate", "0"],
    ["--gamma", "2"],
    ["--clip-range", "-1"],
    ["--epsilon", "1.5"],
    ["--rescue", "7"],
    ["--time-budget-minutes", "-1"],
    ["--sitting-minutes", "-1"],
    ["--boards", "9x9"],
    ["--boards", "9x9/81"],
    ["--device", "tpu"],
    ["--backend", "mpi"],
    ["--ray-address", "auto"],
    ["--total-timesteps", "-5"],
    ["--dagger-iterations", "-1"],
    ["--n-steps", "1", "--n-envs", "1", "--batch-size", "64"],
    ["--batch-size", "1"],
    ["--algo", "sac"],
    ["--rewards", "dense"],
    ["--preset", "huge"],
    ["--eval-baselines", "maybe"],
    ["--bogus"],
    ["--out", "{ws}/a_file"],
    ["--out", "/proc/x/y"],
    ["--config", "{ws}/many.toml"],
    ["--config", "{ws}/lr.toml"],
    ["--config", "{ws}/missing.toml"],
    ["--init", "{ws}/truncated.zip"],
    ["--init", "{ws}/missing.zip"],
    ["--resume", "{ws}/stateless"],
    ["--resume", "{ws}/nowhere"],
    ["--resume", "{ws}/stateless", "--init", "{ws}/truncated.zip"],
    ["--resume", "{ws}/stateless", "--preset", "expert"],
    ["--resume", "{ws}/stateless", "--channels", "8"],
    ["--resume", "{ws}/stateless", "--out", "{ws}/out"],
]
EVAL_BAD: list[list[str]] = [
    ["--agents", "solver:x"],
    ["--agents", "foo"],
    ["--agents", "random,random"],
    ["--rows", "0", "--cols", "5"],
    ["--rows", "5"],
    ["--rows", "100000", "--cols", "100000", "--mines", "5"],
    ["--mines", "1000"],
    ["--mines", "-1"],
    ["--density", "1.5"],
    ["--density", "abc"],
    ["--games", "0"],
    ["--games", "abc"],
    ["--seed", "-1"],
    ["--workers", "0"],
    ["--first-click", "bogus"],
    ["--preset", "huge"],
    ["--compare", "logic", "logic", "--agents", "logic,random"],
    ["--compare", "logic", "solver"],
    ["--ray-address", "auto"],
    ["--out", "/proc/x/y"],
    ["--out", "{ws}/a_file"],
    ["--resume", "{ws}/stateless"],
    ["--resume", "{ws}/nowhere"],
    ["--bogus"],
]
PLAY_BAD: list[list[str]] = [
    ["--seed", "-1"],
    ["--screenshot", "/proc/x.png"],
    ["--screenshot", "{ws}/shot.txt"],
    ["--screenshot", "{ws}/out"],
    ["--guess", "bogus"],
    ["--agent", "solver", "--guess", "global"],
    ["--agent", "foo"],
    ["--rows", "0"],
    ["--rows", "100000", "--cols", "100000"],
    ["--mines", "1000"],
    ["--speed", "-1"],
    ["--moves", "-1"],
    ["--hover", "99,99"],
    ["--hover", "x"],
    ["--preset", "huge"],
]


def train_main(argv: list[str]) -> int:
    from train.cli import main

    return main(argv)


def eval_main(argv: list[str]) -> int:
    from eval.cli import main

    return main([*argv, "--quiet", "--games", "2"] if "--games" not in argv else [*argv, "--quiet"])


def play_main(argv: list[str]) -> int:
    from eval.play import main

    return main([*argv, "--headless"])


def status_of(main: Callable[[list[str]], int], argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exit_:  # argparse's own errors
        return int(exit_.code or 0)


def check_refused(
    main: Callable[[list[str]], int],
    argv: list[str],
    workspace: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [a.replace("{ws}", str(workspace)) for a in argv]
    before = sorted(p.name for p in (workspace / "out").iterdir())
    assert status_of(main, argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "error:" in lines[0] and "Traceback" not in err
    assert sorted(p.name for p in (workspace / "out").iterdir()) == before  # no junk run folder


@pytest.mark.parametrize("argv", TRAIN_BAD, ids=" ".join)
def test_train_cli__bad_value_is_one_line_exit_2(
    argv: list[str], workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    out = (
        ["--out", str(workspace / "out")] if "--out" not in argv and "--resume" not in argv else []
    )
    # the tiny board's flags would override a bad config file, and --resume refuses them
    tiny = TINY_TRAIN if "--config" not in argv and "--resume" not in argv else []
    check_refused(train_main, [*tiny, *out, *argv], workspace, capsys)


@pytest.mark.parametrize("argv", EVAL_BAD, ids=" ".join)
def test_eval_cli__bad_value_is_one_line_exit_2(
    argv: list[str], workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_refused(eval_main, argv, workspace, capsys)


@pytest.mark.parametrize("argv", PLAY_BAD, ids=" ".join)
def test_play_cli__bad_value_is_one_line_exit_2(
    argv: list[str],
    workspace: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    check_refused(play_main, argv, workspace, capsys)


@pytest.mark.parametrize("module", ["train", "eval", "eval.play"])
def test_cli__bad_seed_in_a_real_process_is_one_line_exit_2(module: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            module,
            "--seed",
            "-1",
            "--headless"
            if module == "eval.play"
            else "--quiet"
            if module == "eval"
            else "--torch-threads=1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_eval_cli__oversized_board_in_a_real_process_is_one_line_exit_2() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "eval",
            "--rows",
            "100000",
            "--cols",
            "100000",
            "--mines",
            "5",
            "--quiet",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        (
            "mswp-eval: error: a 100000x100000 board has 10,000,000,000 cells; the limit is "
            "1,000,000 cells"
        )
    ]


def test_eval_cli__density_zero_is_accepted_as_the_env_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from eval.cli import main

    assert (
        main(
            [
                "--agents",
                "local",
                "--rows",
                "4",
                "--cols",
                "4",
                "--density",
                "0",
                "--games",
                "2",
                "--workers",
                "1",
                "--quiet",
            ]
        )
        == 0
    )
    assert "4x4/0" in capsys.readouterr().out


def test_cli_help__no_doubled_percent_signs() -> None:
    from eval.cli import build_parser as eval_parser
    from eval.demo import build_parser as demo_parser
    from train.arguments import build_parser as train_parser

    for parser in (eval_parser(), demo_parser(), train_parser()):
        text = parser.format_help()
        assert "%%" not in text, parser.prog


def test_one_line_parser__require_at_least_names_the_first_option_below_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import argparse

    from common.cli import OneLineParser

    parser = OneLineParser(prog="prog")
    parser.require_at_least(argparse.Namespace(games=1, max_workers=0), 1, "games")
    with pytest.raises(SystemExit) as stopped:
        parser.require_at_least(
            argparse.Namespace(games=1, max_workers=0), 1, "games", "max_workers"
        )
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "prog: error: --max-workers must be >= 1, got 0 (see prog --help)"
    )
