"""Kills and resumes of training runs: tiny 5x5 runs, the kills injected at chosen commits."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest
import torch as th
from processes import alive, children

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_RUN, tweak

from train import run as run_module
from train.arguments import flag, settings_from_args
from train.checkpoint import (
    KILL_HOOK,
    RuntimeFromOtherCode,
    load_model,
    read_state,
    restore_runtime,
)
from train.cli import main
from train.settings import TrainSettings, flat_values

ROOT = Path(__file__).resolve().parents[2]
TINY = TINY_RUN


def cli_args(settings: TrainSettings) -> list[str]:
    """The flags that make ``settings`` (every field: the preset's config file must not apply)."""
    args = []
    for name, value in flat_values(settings).items():
        section = name.partition(".")[0] if "." in name else ""
        if section and section not in settings.sections:
            continue  # the flags of a section the run does not read are refused
        if name != "resume" or value:  # an empty value still overrides the preset's
            text = str(value).lower() if isinstance(value, bool) else str(value)
            args += [flag(name), text]
    return args


def train_in_subprocess(
    args: list[str], kill_after: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if kill_after is not None:
        env[KILL_HOOK] = str(kill_after)
    return subprocess.run(
        [sys.executable, "-m", "train", *args],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def weights(run_dir: Path) -> dict[str, th.Tensor]:
    return load_model(run_dir).policy.state_dict()


@pytest.mark.parametrize(("algo", "kill_after"), [("ppo", 2), ("imitation+ppo", 2)])
def test_train__killed_and_resumed_run_is_bit_identical_to_an_uninterrupted_one(
    tmp_path: Path, algo: str, kill_after: int
) -> None:
    settings = replace(TINY, algo=algo)
    whole = run_module.train(replace(settings, out=str(tmp_path / "whole")))

    killed = train_in_subprocess(
        cli_args(replace(settings, out=str(tmp_path / "killed"))), kill_after
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    (run_dir,) = (tmp_path / "killed").iterdir()
    resumed = train_in_subprocess(["--resume", str(run_dir)])
    assert resumed.returncode == 0, resumed.stderr

    expected, got = weights(whole), weights(run_dir)
    assert expected.keys() == got.keys()
    assert all(th.equal(expected[key], got[key]) for key in expected)
    assert read_state(run_dir).num_timesteps == read_state(whole).num_timesteps
    curve_whole = [(p["phase"], p["env_steps"], p["wins"]) for p in read_state(whole).curve]
    curve_resumed = [(p["phase"], p["env_steps"], p["wins"]) for p in read_state(run_dir).curve]
    assert curve_resumed == curve_whole


def test_train__progress_log_is_appended_and_a_finished_run_adds_no_final_point(
    tmp_path: Path,
) -> None:
    settings = tweak(TINY, algo="ppo", ppo__total_timesteps=128, out=str(tmp_path))
    killed = train_in_subprocess(cli_args(settings), kill_after=2)
    assert killed.returncode == -signal.SIGKILL
    (run_dir,) = tmp_path.iterdir()
    rows_before = len((run_dir / "progress.csv").read_text().splitlines())
    assert rows_before >= 2
    run_module.train(replace(settings, resume=str(run_dir)))
    rows_after = len((run_dir / "progress.csv").read_text().splitlines())
    assert rows_after > rows_before
    finals = [p for p in read_state(run_dir).curve if p["phase"] == "final"]
    run_module.train(replace(settings, resume=str(run_dir)))
    assert [p for p in read_state(run_dir).curve if p["phase"] == "final"] == finals
    assert len(finals) == 1 and read_state(run_dir).phase == "done"


def test_train__kill_before_the_first_checkpoint_leaves_a_folder_that_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    killed = train_in_subprocess(cli_args(replace(TINY, out=str(tmp_path))), kill_after=0)
    assert killed.returncode == -signal.SIGKILL
    (run_dir,) = tmp_path.iterdir()
    assert main(["--resume", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no state.json" in err


def test_train__resume_removes_a_killed_save_s_temporaries(tmp_path: Path) -> None:
    settings = tweak(TINY, algo="ppo", ppo__total_timesteps=64, out=str(tmp_path))
    run_dir = run_module.train(settings)
    (run_dir / "model-ppo000000128.tmp-999.zip").write_bytes(b"")
    (run_dir / "model-old.tmp.zip").write_bytes(b"")
    run_module.train(replace(settings, resume=str(run_dir)))
    assert not [p.name for p in run_dir.iterdir() if ".tmp" in p.name]


def test_settings__resume_keeps_the_saved_settings_and_refuses_other_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tweak(TINY, algo="ppo", ppo__total_timesteps=64, out=str(tmp_path))
    run_dir = run_module.train(settings)
    bare = settings_from_args(["--resume", str(run_dir)])
    assert bare.ppo.total_timesteps == 64 and bare.channels == 4 and bare.board == (5, 5, 3)
    assert asdict(replace(bare, resume="")) == asdict(replace(settings, out=str(tmp_path)))
    longer = settings_from_args(["--resume", str(run_dir), "--ppo.total-timesteps", "128"])
    assert longer.ppo.total_timesteps == 128
    capsys.readouterr()
    run_module.train(longer)
    assert "ppo.total_timesteps 64 -> 128" in capsys.readouterr().out
    assert read_state(run_dir).num_timesteps == 128
    for flags in (
        ["--seed", "3"],
        ["--init", str(run_dir)],
        ["--preset", "expert"],
        ["--channels", "8"],
        ["--blocks", "2"],
        ["--ppo.learning-rate", "0.1"],
    ):
        with pytest.raises(ValueError, match=flags[0]):
            settings_from_args(["--resume", str(run_dir), *flags])


def test_train__custom_board_run_is_named_after_its_board(tmp_path: Path) -> None:
    name = run_module.run_name(replace(TINY, out=str(tmp_path)), run_module.datetime.now())
    assert name.startswith("5x5x3__")
    assert run_module.run_name(TrainSettings(), run_module.datetime.now()).startswith("beginner__")
    mix = tweak(
        TrainSettings(),
        preset="expert",
        algo="imitation",
        imitation__boards="9x9/10,16x16/40,16x30/99",
    )
    assert run_module.run_name(mix, run_module.datetime.now()).startswith("boards3__imitation__")


COLLECTOR_SCRIPT = """
import sys, time
from train.imitation import Collector
from train.ppo import make_vec_env
from train.session import game_spec
from train.settings import PPOSettings, TrainSettings
collector = Collector(2)
list(collector._pool.map(abs, range(4)))  # start the collectors
ppo = PPOSettings(n_envs=2, vec_env="subproc", batch_size=64)
settings = TrainSettings(rows=5, cols=5, mines=3, ppo=ppo)
env = make_vec_env(settings, game_spec(settings))
env.reset()
print("ready", flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_train__collectors_and_subproc_envs_die_with_a_killed_parent() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", COLLECTOR_SCRIPT],
        cwd=ROOT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
    workers = children(parent.pid)
    assert len(workers) >= 4  # 2 collectors, 2 env workers (and their helpers)
    parent.kill()
    parent.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not [pid for pid in workers if alive(pid)]


@pytest.mark.parametrize(
    "changes",
    [
        {"algo": "imitation"},
        {"algo": "imitation+ppo"},
        {"algo": "ppo", "ppo__vec_env": "native"},
    ],
    ids=["imitation", "imitation+ppo", "ppo-native"],
)
def test_train__run_split_over_sittings_is_bit_identical_to_one_long_run(
    tmp_path: Path, changes: dict[str, object]
) -> None:
    settings = tweak(TINY, imitation__rounds=3, **changes)
    whole = run_module.train(replace(settings, out=str(tmp_path / "whole")).check())
    # A sitting of ~0 minutes stops at every first checkpoint it reaches.
    split = run_module.train(
        replace(settings, out=str(tmp_path / "split"), sitting_minutes=1e-9).check()
    )
    sittings = 1
    while read_state(split).phase != "done":
        sittings += 1
        assert sittings < 20, "the split run never finished"
        run_module.train(replace(settings, resume=str(split), sitting_minutes=1e-9).check())
    assert sittings >= 3
    expected, got = weights(whole), weights(split)
    assert all(th.equal(expected[key], got[key]) for key in expected)
    assert read_state(split).curve[-1]["win_rate"] == read_state(whole).curve[-1]["win_rate"]


def test_resume__a_runtime_state_from_other_code_goes_on_with_fresh_episodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tweak(TINY, algo="ppo", ppo__total_timesteps=128, out=str(tmp_path))
    run_dir = run_module.train(settings.check())
    state = read_state(run_dir)
    runtime = run_dir / state.runtime_file
    saved = pickle.loads(runtime.read_bytes())
    runtime.write_bytes(pickle.dumps({**saved, "format": 1}))  # as an older version wrote it
    with pytest.raises(RuntimeFromOtherCode, match="runtime format 1"):
        restore_runtime(runtime, load_model(run_dir))
    resumed = run_module.train(tweak(settings, ppo__total_timesteps=256, resume=str(run_dir)))
    assert "starts fresh episodes" in capsys.readouterr().out
    assert read_state(resumed).num_timesteps >= 256
