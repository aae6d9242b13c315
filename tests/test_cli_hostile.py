"""Hostile input to the command lines: every bad value, unreachable cluster, damaged run file,
Ctrl-C and killed worker ends in one line on stderr, with the exit status, and nothing created.

Each case names the command, its arguments, the exit status and a piece of the one line.
``NEW`` in an argument is a folder inside the test's temporary folder that must not exist after
the command.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from processes import children
from tiny_training import TINY_IMITATION, TINY_RUN, tweak

import eval.cli
import eval.play
import train.cli
from train import run as run_module

ROOT = Path(__file__).resolve().parents[1]
MAINS: dict[str, Callable[[list[str]], int]] = {
    "eval": eval.cli.main,
    "train": train.cli.main,
    "play": eval.play.main,
}
TINY_TRAIN = ("--board", "5x5/3", "--channels", "4", "--blocks", "1")


@dataclass(frozen=True)
class Case:
    """One hostile command: ``NEW`` and ``FILE:<kind>`` in ``args`` are filled in per test."""

    command: str
    args: tuple[str, ...]
    status: int
    says: str
    """A piece of the one line on stderr."""


def bad_file(folder: Path, kind: str) -> Path:
    """A file that is no checkpoint: text, an empty zip, a truncated or corrupt copy of one."""
    shipped = (ROOT / "train" / "checkpoints" / "net-beginner.zip").read_bytes()
    path = folder / f"{kind}.zip"
    if kind == "text":
        path.write_text("not a checkpoint\n")
    elif kind == "empty":
        zipfile.ZipFile(path, "w").close()
    elif kind == "truncated":
        path.write_bytes(shipped[: len(shipped) // 2])
    else:  # corrupt: the same length, its middle overwritten
        middle = len(shipped) // 2
        path.write_bytes(shipped[:middle] + b"\0" * 4096 + shipped[middle + 4096 :])
    return path


EVAL = ("--games", "2", "--workers", "1", "--no-plots", "--quiet", "--out", "NEW/run")
TRAIN = (*TINY_TRAIN, "--algo", "imitation", "--out", "NEW/runs")
CASES: dict[str, Case] = {
    "eval-unknown-agent": Case("eval", ("--agents", "nosuch", *EVAL), 2, "unknown agent 'nosuch'"),
    "eval-missing-zip": Case("eval", ("--agents", "ppo:/nonexistent.zip", *EVAL), 2, "nonexist"),
    "eval-text-zip": Case("eval", ("--agents", "ppo:FILE:text", *EVAL), 2, "text.zip"),
    "eval-truncated-zip": Case("eval", ("--agents", "ppo:FILE:truncated", *EVAL), 2, "truncated"),
    "eval-corrupt-zip": Case("eval", ("--agents", "ppo:FILE:corrupt", *EVAL), 2, "corrupt.zip"),
    "eval-solver-depth": Case("eval", ("--agents", "solver:-1", *EVAL), 2, "depth=-1"),
    "eval-logic-policy": Case("eval", ("--agents", "logic:bogus", *EVAL), 2, "'bogus'"),
    "eval-symmetries": Case(
        "eval", ("--agents", "ppo:beginner:symmetries=3", *EVAL), 2, "symmetries"
    ),
    "eval-network-board": Case(
        "eval", ("--agents", "ppo:beginner", "--preset", "intermediate", *EVAL), 2, "16x16"
    ),
    "eval-huge-games": Case(
        "eval", ("--agents", "random", *EVAL, "--games", "1000000000000"), 2, "10,000,000"
    ),
    "eval-empty-preset": Case("eval", ("--preset", "", *EVAL), 2, "beginner, intermediate"),
    "eval-ray-closed-port": Case(
        "eval",
        ("--agents", "random", "--backend", "ray", "--ray-address", "127.0.0.1:1", *EVAL),
        2,
        "'127.0.0.1:1'",
    ),
    "train-init-text": Case("train", ("--init", "FILE:text", *TRAIN), 2, "text.zip"),
    "train-init-empty": Case("train", ("--init", "FILE:empty", *TRAIN), 2, "empty.zip"),
    "train-init-truncated": Case("train", ("--init", "FILE:truncated", *TRAIN), 2, "truncated"),
    "train-init-corrupt": Case("train", ("--init", "FILE:corrupt", *TRAIN), 2, "corrupt.zip"),
    "train-init-unknown": Case("train", ("--init", "nosuch", *TRAIN), 2, "nosuch"),
    "train-init-channels": Case(
        "train",
        ("--init", "beginner", *TRAIN),
        2,
        "this run builds 4 x 1: add --channels 48 --blocks 4",
    ),
    "train-huge-round": Case(
        "train", (*TRAIN, "--imitation.games-per-round", "1000000000000"), 2, "16 GiB limit"
    ),
    "train-huge-channels": Case("train", (*TRAIN, "--channels", "100000000"), 2, "at most 1024"),
    "train-huge-evaluation": Case(
        "train", (*TRAIN, "--eval-games", "1000000000000"), 2, "eval_games=1000000000000"
    ),
    "train-huge-envs": Case(
        "train", (*TRAIN, "--algo", "ppo", "--ppo.n-envs", "1000000"), 2, "ppo.n_envs=1000000"
    ),
    "train-ray-closed-port": Case(
        "train", (*TRAIN, "--backend", "ray", "--ray-address", "127.0.0.1:1"), 2, "127.0.0.1:1"
    ),
    "play-speed-nan": Case("play", ("--headless", "--speed", "nan"), 2, "--speed"),
    "play-speed-inf": Case("play", ("--headless", "--speed", "inf"), 2, "--speed"),
}


def fill(args: tuple[str, ...], folder: Path) -> list[str]:
    """``args`` with ``NEW`` and ``FILE:<kind>`` replaced by paths in ``folder``."""
    filled = []
    for arg in args:
        if arg.startswith("NEW"):
            arg = str(folder / arg)
        for prefix in ("ppo:FILE:", "FILE:"):
            if arg.startswith(prefix):
                kind = arg.removeprefix(prefix)
                arg = prefix.removesuffix("FILE:") + str(bad_file(folder, kind))
        filled.append(arg)
    return filled


def one_line(text: str) -> str:
    """The only line of ``text`` (fails if there are more or none)."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize("name", list(CASES))
def test_cli__hostile_input_is_one_line_and_creates_nothing(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    if "ray" in name:
        pytest.importorskip("ray")
    before = set(tmp_path.iterdir())
    status = MAINS[case.command](fill(case.args, tmp_path))
    line = one_line(capsys.readouterr().err)
    assert status == case.status
    assert case.says in line
    assert not (tmp_path / "NEW").exists()
    made = {p for p in tmp_path.iterdir() if p.suffix != ".zip"} - before
    assert not made


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished one-round DAgger run and a finished PPO run, to damage copies of."""
    out = tmp_path_factory.mktemp("runs")
    return {
        "imitation": run_module.train(replace(TINY_IMITATION, out=str(out / "imitation"))),
        "ppo": run_module.train(tweak(TINY_RUN, algo="ppo", ppo__total_timesteps=64, out=str(out))),
    }


@pytest.mark.parametrize(
    ("kind", "pattern", "damage", "more"),
    [
        ("imitation", "positions-*.npz", "truncate", ("--imitation.rounds", "2")),
        ("imitation", "positions-*.npz", "corrupt", ("--imitation.rounds", "2")),
        ("imitation", "model-*.zip", "truncate", ("--imitation.rounds", "2")),
        ("ppo", "runtime-*.pkl", "garbage", ("--ppo.total-timesteps", "128")),
        ("ppo", "runtime-*.pkl", "truncate", ("--ppo.total-timesteps", "128")),
    ],
)
def test_train__resume_of_a_damaged_file_names_it_and_says_what_to_do(
    kind: str,
    pattern: str,
    damage: str,
    more: tuple[str, ...],
    runs: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_dir = Path(shutil.copytree(runs[kind], tmp_path / "run"))
    (path,) = run_dir.glob(pattern)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "corrupt":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle : middle + 64]))
        path.write_bytes(path.read_bytes() + data[middle + 64 :])
    else:
        path.write_bytes(b"garbage, not a pickle\n")
    state = (run_dir / "state.json").read_text()
    capsys.readouterr()
    status = train.cli.main(["--resume", str(run_dir), *more])
    line = one_line(capsys.readouterr().err)
    assert status == 2
    assert path.name in line and "start the run again" in line
    assert (run_dir / "state.json").read_text() == state


def start(command: list[str], cwd: Path) -> subprocess.Popen[str]:
    """``python -m <command>`` in its own process group, stdout and stderr piped."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", *command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,
    )


def as_from_a_terminal() -> None:
    """In the child: Ctrl-C delivered and not ignored, as a shell starts a foreground command.
    A test process may have inherited SIGINT ignored or blocked (from its runner or a library
    it loaded), and both pass on to children through exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def wait_for(condition: Callable[[], bool], seconds: float) -> None:
    """Poll ``condition`` until it holds (fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    """The exit status and stderr of ``process`` (killed after 150 s: a loaded machine is slow, a
    hang still fails)."""
    try:
        _, err = process.communicate(timeout=150)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    return process.returncode, err


DAGGER = (
    "train",
    *TINY_TRAIN,
    "--algo",
    "imitation",
    "--workers",
    "2",
    "--imitation.rounds",
    "50",
    "--imitation.games-per-round",
    "40",
    "--eval-games",
    "0",
    "--eval-baselines",
    "false",
    "--out",
    "NEW",
)
EVAL_LONG = ("eval", "--agents", "logic", "--games", "20000", "--workers", "2", "--out", "NEW")


def loaded(pid: int, library: str) -> bool:
    """Whether process ``pid`` has mapped a shared library whose path holds ``library``."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.parametrize(
    ("command", "moment", "says"),
    [
        (("eval", "--games", "50", "--out", "NEW"), "_multiarray_umath", "interrupted before"),
        (("train", *TINY_TRAIN, "--out", "NEW"), "_multiarray_umath", "interrupted before"),
        (("train", *TINY_TRAIN, "--out", "NEW"), "libtorch", "interrupted before"),
        (("train", *TINY_TRAIN, "--out", "NEW"), "folder", "interrupted"),
        (DAGGER, "collecting", "--resume"),
    ],
)
def test_cli__ctrl_c_at_any_moment_is_one_line_and_status_130(
    command: tuple[str, ...], moment: str, says: str, tmp_path: Path
) -> None:
    """Ctrl-C while the command imports NumPy, while it imports torch, once the run has made its
    folder, and while DAgger's two workers collect."""
    process = start(fill(command, tmp_path), tmp_path)
    if moment == "collecting":
        collecting(process, tmp_path)
    elif moment == "folder":  # the run has made its folder
        wait_for(lambda: (tmp_path / "NEW").exists(), 50)
    else:
        wait_for(lambda: loaded(process.pid, moment), 50)
    os.killpg(process.pid, signal.SIGINT)
    status, err = finish(process)
    assert status == 130
    assert says in one_line(err)
    folder = tmp_path / "NEW"
    assert not folder.exists() or any(folder.glob("*/state.json"))


def pool_workers(pid: int) -> list[int]:
    """The process-pool workers among the descendants of ``pid``."""
    found = []
    for child in children(pid):
        try:
            line = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in line and b"resource_tracker" not in line:
            found.append(child)
    return found


def collecting(process: subprocess.Popen[str], tmp_path: Path) -> None:
    """Wait until ``process`` has its two pool workers and has committed a checkpoint (train)
    or kept a game (eval) in ``tmp_path/NEW``."""
    wait_for(lambda: len(pool_workers(process.pid)) == 2, 50)
    kept = ("*/state.json", "games.csv")
    wait_for(
        lambda: any(p.stat().st_size > 300 for k in kept for p in tmp_path.glob(f"NEW/{k}")), 50
    )


@pytest.mark.parametrize(
    ("command", "says"),
    [(EVAL_LONG, "mswp-eval --resume"), (DAGGER, "python -m train --resume")],
)
def test_cli__a_killed_worker_is_one_line_naming_the_resume(
    command: tuple[str, ...], says: str, tmp_path: Path
) -> None:
    process = start(fill(command, tmp_path), tmp_path)
    collecting(process, tmp_path)
    os.kill(pool_workers(process.pid)[0], signal.SIGKILL)
    status, err = finish(process)
    line = one_line(err)
    assert status == 1
    assert "worker process died" in line and says in line
