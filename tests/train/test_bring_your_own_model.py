"""Bring your own model: any PPO/MaskablePPO zip as an agent, BoardPolicy for SB3 users, labels."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch

import agents
from eval.agent_specs import parse_agent_list, parse_agent_spec
from eval.cli import main
from mswp_gym import Outcome
from mswp_gym.spec import GameSpec

torch.set_num_threads(1)


class LastInfo(gym.Wrapper):
    """Keeps the last step's info."""

    def step(self, action: int) -> tuple:
        result = super().step(action)
        self.info = result[4]
        return result


def _save(tmp: Path, algo: str, env_id: str = "Minesweeper-v0", **env_kwargs: object) -> Path:
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO

    cls = MaskablePPO if algo == "maskable" else PPO
    policy = "MultiInputPolicy" if env_kwargs.get("obs_mode") == "dict" else "MlpPolicy"
    model = cls(policy, gym.make(env_id, **env_kwargs), n_steps=16, batch_size=16, seed=0)
    model.learn(16)  # a few steps: the test is about loading and playing, not skill
    path = tmp / f"{algo}_{env_id}_{'_'.join(map(str, env_kwargs.values()))}.zip"
    model.save(path)
    return path


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("models")
    return {
        "maskable": _save(tmp, "maskable"),
        "ppo": _save(tmp, "ppo"),
        "channels": _save(tmp, "maskable", obs_mode="channels"),
        "dict": _save(tmp, "ppo", obs_mode="dict"),
        "cartpole": _save(tmp, "ppo", "CartPole-v1"),
    }


@pytest.mark.parametrize("kind", ["maskable", "ppo", "channels", "dict"])
@pytest.mark.parametrize("prefix", ["sb3", "ppo"])
def test_sb3_agent__any_ppo_zip_plays_legal_moves_to_the_end(
    models: dict[str, Path], kind: str, prefix: str
) -> None:
    from train.sb3_agent import SB3Agent

    agent = agents.make(f"{prefix}:{models[kind]}", seed=0)
    assert isinstance(agent, SB3Agent)
    env = LastInfo(gym.make("Minesweeper-v0"))  # board observations, whatever the model saw
    for seed in range(3):
        result = agents.play_episode(env, agent, seed=seed)
        assert result.outcome in (Outcome.WON, Outcome.LOST)
        assert env.info["invalid_actions"] == 0


def test_sb3_agent__samples_only_legal_actions(models: dict[str, Path]) -> None:
    agent = agents.make(f"sb3:{models['ppo']}", seed=0, deterministic=False)
    agent.reset(seed=0, spec=GameSpec(9, 9, 10))
    mask = np.zeros(81, dtype=bool)
    mask[[3, 77]] = True
    board = np.full((9, 9), -1, dtype=np.int8)
    assert {agent.act(board, mask) for _ in range(30)} <= {3, 77}


def test_sb3_agent__clear_errors(models: dict[str, Path], tmp_path: Path) -> None:
    agent = agents.make(f"sb3:{models['maskable']}")
    with pytest.raises(ValueError, match="trained on 9x9 boards; it cannot play 16x16"):
        agent.reset(0, GameSpec(16, 16, 40))
    with pytest.raises(ValueError, match="not a Minesweeper env's"):
        agents.make(f"sb3:{models['cartpole']}")
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=r"junk\.zip"):
        agents.make(f"sb3:{junk}")
    with pytest.raises(FileNotFoundError, match=r"nowhere\.zip"):
        agents.make(f"sb3:{tmp_path / 'nowhere.zip'}")
    with pytest.raises(ValueError, match="needs a model"):
        agents.make("sb3")


def test_ppo_agent__network_options_take_only_mswp_train_networks(
    models: dict[str, Path],
) -> None:
    with pytest.raises(TypeError, match="symmetries applies to mswp-train's own networks"):
        agents.make(f"net:{models['maskable']}", symmetries=2)


def test_ppo_agent__a_board_policy_zip_still_gets_the_policy_agent() -> None:
    from train.agent import PolicyAgent

    assert isinstance(agents.make("ppo"), PolicyAgent)


def test_agent_spec__label_prefix_names_the_agent() -> None:
    spec = parse_agent_spec("mine=ppo:/very/long/path/model.zip")
    assert (spec.label, spec.make_name, spec.text) == (
        "mine",
        "ppo:/very/long/path/model.zip",
        "mine=ppo:/very/long/path/model.zip",
    )
    assert parse_agent_spec("g=logic:guess=global").kwargs == {"guess": "global"}
    assert parse_agent_spec("solver:depth=2").label == "solver:depth=2"  # no label: unchanged
    assert parse_agent_spec(spec.text) == spec
    with pytest.raises(ValueError, match="LABEL=SPEC"):
        parse_agent_spec("=logic")
    with pytest.raises(ValueError, match="listed twice"):
        parse_agent_list("a=logic,a=solver")


def test_eval_cli__labelled_model_joins_the_table_under_its_short_name(
    models: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--agents",
        f"mine=ppo:{models['maskable']},logic",
        "--games",
        "4",
        "--quiet",
        "--workers",
        "1",
        "--seed",
        "0",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "mine" in out and str(models["maskable"]) not in out.replace(" ", "").split("command")[0]


def test_board_policy__mines_from_the_env_or_a_clear_error() -> None:
    from sb3_contrib import MaskablePPO

    from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv
    from train.policy import BoardPolicy, board_policy_kwargs

    env = gym.make("Minesweeper-Intermediate-v0")
    with pytest.raises(ValueError, match="board_policy_kwargs"):
        MaskablePPO(BoardPolicy, env)
    model = MaskablePPO(BoardPolicy, env, policy_kwargs=board_policy_kwargs(env), n_steps=8)
    assert model.policy.board == (16, 16, 40)
    assert board_policy_kwargs(MinesweeperSB3VecEnv(2, rows=5, cols=5, mines=3)) == {
        "features_extractor_kwargs": {"mines": 3}
    }
    with pytest.raises(ValueError, match="mine count"):
        board_policy_kwargs(object())
