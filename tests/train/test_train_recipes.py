"""What a new user meets: ``--algo`` over a recipe trains that algorithm as asked (a reward-only
run never starts from an imitation network unless ``--init`` says so), the logs name each
evaluation once, and a wrong path says what to pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import agents
from train.arguments import settings_from_args
from train.cli import main as train_main
from train.settings import TrainSettings

TOY_PPO = ["--channels", "4", "--blocks", "1", "--ppo.total-timesteps", "64", "--ppo.n-envs", "2"]
TOY_PPO += ["--ppo.n-steps", "32", "--ppo.batch-size", "32", "--ppo.n-epochs", "1"]
TOY_PPO += ["--ppo.eval-every-steps", "64", "--eval-games", "4", "--time-budget-minutes", "0"]
TOY_PPO += ["--final-eval-games", "6"]


def test_train_cli__ppo_over_the_beginner_recipe_trains_from_scratch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--preset", "beginner", "--algo", "ppo", *TOY_PPO, "--out", str(tmp_path)]
    assert train_main(argv) == 0
    out = capsys.readouterr().out
    (dropped,) = [line for line in out.splitlines() if "dropped" in line]
    assert dropped.startswith("--algo ppo over a recipe of algo imitation: dropped ")
    assert "init='net:intermediate'" in dropped
    for name in ("init", "imitation.move_weight", "imitation.rounds", "imitation.learning_rate"):
        assert f"{name}=" in dropped
    (run,) = tmp_path.iterdir()
    settings = json.loads((run / "state.json").read_text())["settings"]
    assert (settings["algo"], settings["init"]) == ("ppo", "")
    assert settings["imitation"]["move_weight"] == 0.0  # the default: the section went
    assert (settings["rows"] or 9, settings["channels"]) == (9, 4)
    assert "--init" not in out and "compare it: python -m eval --agents rl:" in out
    # one figure per name: the curve's last point is not called final
    assert out.count("final evaluation: ") == 1 and "final eval:" not in out


def test_settings__algo_over_a_recipe_keeps_an_explicit_init_and_its_own_group() -> None:
    kept = settings_from_args(["--preset", "beginner", "--algo", "ppo", "--init", "net:beginner"])
    assert kept.init == "net:beginner" and kept.imitation.move_weight == 0.0
    bandit = settings_from_args(["--preset", "beginner", "--algo", "bandit"])
    assert bandit.init == "" and bandit.rounds == TrainSettings().bandit  # its own defaults
    same = settings_from_args(["--preset", "beginner", "--algo", "imitation"])
    assert same.init == "net:intermediate" and same.imitation.move_weight == 1.0


def test_train_cli__resume_of_a_model_file_says_to_pass_the_run_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "model-final.zip").write_bytes(b"PK")
    assert train_main(["--resume", str(tmp_path / "model-final.zip")]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (
        f"mswp-train: error: '{tmp_path / 'model-final.zip'}' is a file, not a run folder: pass "
        f"its folder '{tmp_path}'"
    )


def test_agents_make__a_path_without_a_prefix_suggests_net_path() -> None:
    with pytest.raises(ValueError, match="; for a checkpoint or run folder write net:runs/x") as e:
        agents.make("runs/x")
    assert "\n" not in str(e.value)
