"""The nested settings: one section per algorithm, the flat keys and flags of earlier versions
named with their place now, and run states saved flat still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from train.arguments import read_toml, settings_from_args
from train.settings import (
    Algorithm,
    BanditSettings,
    PPOSettings,
    Rewards,
    TrainSettings,
    from_nested,
    saved_settings,
)


def test_settings__choices_are_enums_and_plain_strings_become_them() -> None:
    settings = TrainSettings(algo="bandit", ppo=PPOSettings(rewards="per-reveal"))  # type: ignore[arg-type]
    assert settings.algo is Algorithm.BANDIT and settings.ppo.rewards is Rewards.PER_REVEAL
    assert settings.rounds is settings.bandit and settings.sections == ("bandit",)
    with pytest.raises(ValueError, match="unknown algo 'sac'; choose one of ppo, imitation"):
        TrainSettings(algo="sac")  # type: ignore[arg-type]


def test_settings__to_dict_round_trips_through_the_nested_form() -> None:
    settings = TrainSettings(algo=Algorithm.BANDIT, bandit=BanditSettings(rounds=7, epsilon=0.01))
    data = settings.to_dict()
    assert data["bandit"]["rounds"] == 7 and data["algo"] == "bandit"
    assert json.loads(json.dumps(data))["first_click"] == "safe"
    assert saved_settings(data) == settings


def test_saved_settings__a_flat_state_of_an_earlier_version_reads_into_its_sections() -> None:
    flat = {"algo": "bandit", "dagger_iterations": 36, "bc_learning_rate": 5e-4, "epsilon": 0.01}
    flat |= {"move_weight": 0.0, "total_timesteps": 1000, "ppo_lr_follows_budget": True}
    flat |= {"channels": 32, "a_key_long_gone": 1}
    settings = saved_settings(flat)
    assert (settings.bandit.rounds, settings.bandit.learning_rate) == (36, 5e-4)
    assert settings.bandit.epsilon == 0.01 and settings.imitation.rounds == 60
    assert settings.ppo.total_timesteps == 1000 and settings.ppo.lr_follows_budget
    assert settings.channels == 32
    imitation = saved_settings({"algo": "imitation", "dagger_iterations": 9, "move_weight": 1.0})
    assert (imitation.imitation.rounds, imitation.imitation.move_weight) == (9, 1.0)


def test_recipe__a_flat_key_of_an_earlier_version_names_its_place_now(tmp_path: Path) -> None:
    recipe = tmp_path / "old.toml"
    recipe.write_text('algo = "bandit"\ndagger_iterations = 3\n')
    with pytest.raises(
        ValueError, match=r"^dagger_iterations in .* is now rounds under \[bandit\]$"
    ):
        read_toml(recipe)
    recipe.write_text("channels = 8\nbc_learning_rate = 1e-3\n")
    with pytest.raises(ValueError, match=r"is now learning_rate under \[imitation\]$"):
        read_toml(recipe)
    recipe.write_text("total_timesteps = 5\n")
    with pytest.raises(ValueError, match=r"is now total_timesteps under \[ppo\]$"):
        read_toml(recipe)
    recipe.write_text("imitation = 3\n")
    with pytest.raises(ValueError, match=r"^\[imitation\] in .* must be a table, got 3$"):
        read_toml(recipe)
    recipe.write_text("[imitation]\nrounds = 2\n[ppo]\nnot_a_field = 1\n")
    with pytest.raises(ValueError, match=r"unknown setting 'ppo\.not_a_field'"):
        read_toml(recipe)


def test_cli__a_flag_of_an_earlier_version_names_its_flag_now() -> None:
    with pytest.raises(ValueError, match=r"^--dagger-iterations is now --imitation.rounds$"):
        settings_from_args(["--dagger-iterations", "3"])
    with pytest.raises(ValueError, match=r"^--dagger-iterations is now --bandit.rounds$"):
        settings_from_args(["--algo", "bandit", "--dagger-iterations", "3"])
    with pytest.raises(ValueError, match=r"^--total-timesteps is now --ppo.total-timesteps$"):
        settings_from_args(["--algo", "ppo", "--total-timesteps", "3"])


def test_recipe__a_section_its_algo_does_not_read_is_refused(tmp_path: Path) -> None:
    recipe = tmp_path / "mixed.toml"
    recipe.write_text('algo = "imitation"\n[ppo]\nn_envs = 4\n')
    message = r"ppo.n_envs=4 \(from the recipe\) belongs to \[ppo\], which algo imitation does not"
    with pytest.raises(ValueError, match=message):
        settings_from_args(["--config", str(recipe)])
    both = settings_from_args(["--config", str(recipe), "--algo", "imitation+ppo"])
    assert both.ppo.n_envs == 4  # imitation+ppo reads [ppo]


def test_shipped_recipes__are_nested_and_each_reads_only_its_algos_sections() -> None:
    from train.arguments import packaged_configs

    for name in packaged_configs():
        values = read_toml(name)
        settings = from_nested(values).check()
        tables = {key for key, value in values.items() if isinstance(value, dict)}
        assert tables <= set(settings.sections), name
