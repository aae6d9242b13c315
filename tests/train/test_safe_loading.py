"""Loading a checkpoint never runs code from it: booby-trapped zips through every entry point.

Each trap is a pickle whose ``__reduce__`` opens (creates) a marker file when unpickled. SB3's own
``load`` springs it (the control test); every entry point of ours either loads the network as
data or refuses in one line, and the marker never appears.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch as th

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO
from tiny_training import TINY_IMITATION

import agents
from eval.agent_specs import parse_agent_spec
from eval.cli import main as eval_main
from eval.gui.choices import build_agent
from mswp_gym.env import MinesweeperEnv
from train import run as run_module
from train.agent import PolicyAgent
from train.checkpoint import SHIPPED_BEGINNER, read_model
from train.sb3_agent import SB3Agent


class Trap:
    """Unpickling this creates ``marker`` (as a malicious pickle would run a command)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return open, (str(self.marker), "w")


def _pickled(marker: Path) -> str:
    return base64.b64encode(pickle.dumps(Trap(marker))).decode()


def _rewrite(source: Path, target: Path, entries: dict[str, bytes]) -> Path:
    """A copy of the zip ``source`` with ``entries`` replaced or added."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for name in old.namelist():
            if name not in entries:
                new.writestr(name, old.read(name))
        for name, content in entries.items():
            new.writestr(name, content)
    return target


def _with_data(source: Path, target: Path, change: dict[str, Any]) -> Path:
    with zipfile.ZipFile(source) as archive:
        data = json.loads(archive.read("data"))
    data.update(change)
    return _rewrite(source, target, {"data": json.dumps(data).encode()})


@pytest.fixture
def marker(tmp_path: Path) -> Path:
    return tmp_path / "ran-code-from-the-file"


@pytest.fixture
def trapped(tmp_path: Path, marker: Path) -> Path:
    """The shipped Beginner network whose ``lr_schedule`` unpickles into the trap."""
    with zipfile.ZipFile(SHIPPED_BEGINNER) as archive:
        entry = json.loads(archive.read("data"))["lr_schedule"]
    entry[":serialized:"] = _pickled(marker)
    return _with_data(SHIPPED_BEGINNER, tmp_path / "trapped.zip", {"lr_schedule": entry})


def test_trap__springs_under_sb3s_own_load(trapped: Path, marker: Path) -> None:
    MaskablePPO.load(trapped, device="cpu")
    assert marker.exists()  # the trap is real: SB3's load ran code from the file


def test_read_model__loads_the_trapped_network_as_data(trapped: Path, marker: Path) -> None:
    model = read_model(trapped)
    shipped = read_model(SHIPPED_BEGINNER)
    assert not marker.exists()
    for key, tensor in shipped.policy.state_dict().items():
        assert th.equal(model.policy.state_dict()[key], tensor)


@pytest.mark.parametrize("name", ["ppo", "sb3"])
def test_agents_make__plays_the_trapped_network_without_running_it(
    name: str, trapped: Path, marker: Path
) -> None:
    agent = agents.make(f"{name}:{trapped}")
    assert isinstance(agent, PolicyAgent if name == "ppo" else SB3Agent)
    env = MinesweeperEnv()
    obs, info = env.reset(seed=0)
    agent.reset(0, env.game_spec)
    assert info["action_mask"][agent.act(obs, info["action_mask"])]
    assert not marker.exists()


def test_eval_cli__plays_the_trapped_network_without_running_it(
    trapped: Path, marker: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = eval_main(["--agents", f"ppo:{trapped}", "--games", "2", "--quiet", "--workers", "1"])
    assert status == 0, capsys.readouterr().err
    assert not marker.exists()


def test_gui_build_agent__loads_the_trapped_network_without_running_it(
    trapped: Path, marker: Path
) -> None:
    assert isinstance(build_agent(parse_agent_spec(f"ppo:{trapped}")), PolicyAgent)
    assert not marker.exists()


def test_train_init__starts_from_the_trapped_network_without_running_it(
    trapped: Path, marker: Path, tmp_path: Path
) -> None:
    settings = replace(
        TINY_IMITATION, channels=48, blocks=4, init=str(trapped), out=str(tmp_path / "runs")
    )
    (tmp_path / "runs").mkdir()
    run_dir = run_module.train(settings)
    assert (run_dir / "state.json").is_file()
    assert not marker.exists()


def test_train_init__refuses_a_trapped_policy_class_in_one_line(
    tmp_path: Path, marker: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _with_data(
        SHIPPED_BEGINNER, tmp_path / "bad.zip", {"policy_class": {":serialized:": _pickled(marker)}}
    )
    with pytest.raises(ValueError, match="has no policy class reference") as caught:
        run_module.read_init(str(bad))
    assert "\n" not in str(caught.value) and not marker.exists()


def _other_traps(tmp_path: Path, marker: Path) -> dict[str, tuple[Path, str]]:
    buffer = io.BytesIO()
    th.save({"weights": Trap(marker), "padding": th.zeros(200_000)}, buffer)  # a net's size
    return {
        "policy_class": (
            _with_data(
                SHIPPED_BEGINNER,
                tmp_path / "class.zip",
                {"policy_class": {":serialized:": _pickled(marker)}},
            ),
            "has no policy class reference",
        ),
        "extra field": (
            _with_data(
                SHIPPED_BEGINNER,
                tmp_path / "extra.zip",
                {"env": {":type:": "x", ":serialized:": _pickled(marker)}},
            ),
            "stores env as a pickle, which could run code",
        ),
        "policy.pth": (
            _rewrite(SHIPPED_BEGINNER, tmp_path / "weights.zip", {"policy.pth": buffer.getvalue()}),
            "could not load checkpoint .*weights.zip.: its weights hold objects other than",
        ),
        "policy class not imported": (
            _with_data(
                SHIPPED_BEGINNER,
                tmp_path / "import.zip",
                {
                    "policy_class": {
                        ":serialized:": base64.b64encode(pickle.dumps(zipfile.ZipFile)).decode()
                    }
                },
            ),
            "names the policy class zipfile.ZipFile, which is not an imported SB3 policy",
        ),
    }


@pytest.mark.parametrize(
    "trap", ["policy_class", "extra field", "policy.pth", "policy class not imported"]
)
@pytest.mark.parametrize("name", ["ppo", "sb3"])
def test_agents_make__refuses_other_traps_in_one_line(
    trap: str, name: str, tmp_path: Path, marker: Path
) -> None:
    path, message = _other_traps(tmp_path, marker)[trap]
    with pytest.raises(ValueError, match=message) as caught:
        agents.make(f"{name}:{path}")
    assert "\n" not in str(caught.value)
    assert not marker.exists()


@pytest.mark.parametrize("obs_mode", ["board", "channels", "dict"])
@pytest.mark.parametrize("algorithm", [PPO, MaskablePPO])
def test_read_model__rebuilds_every_observation_form_from_json(
    obs_mode: str, algorithm: Any, tmp_path: Path
) -> None:
    env = MinesweeperEnv(4, 5, 3, obs_mode=obs_mode)
    policy = "MultiInputPolicy" if obs_mode == "dict" else "MlpPolicy"
    model = algorithm(policy, env, n_steps=8, batch_size=8, device="cpu")
    model.save(tmp_path / "model.zip")
    loaded = read_model(tmp_path / "model.zip")
    assert type(loaded) is algorithm
    assert loaded.observation_space == env.observation_space
    assert loaded.action_space == env.action_space
    obs, _ = env.reset(seed=0)
    assert np.array_equal(
        loaded.predict(obs, deterministic=True)[0], model.predict(obs, deterministic=True)[0]
    )


def test_board_features__reads_the_global_pool_flag_of_earlier_checkpoints() -> None:
    """Checkpoints of earlier versions store ``global_pool=False``: they still build; True is
    refused in one line."""
    import gymnasium as gym
    import pytest

    from train.policy import BoardFeatures

    space = gym.spaces.Box(-5, 8, (5, 5))
    features = BoardFeatures(space, mines=3, channels=4, blocks=1, global_pool=False)
    assert features.channels == 4
    with pytest.raises(ValueError, match="global pooling"):
        BoardFeatures(space, mines=3, channels=4, blocks=1, global_pool=True)
