"""Where networks run: ``train.device`` and the learned agent's ``device`` option."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

from agents import make, play_episode
from eval.agent_specs import parse_agent_spec
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train.agent import PolicyAgent, load_ppo_agent
from train.device import DEVICES, Device, resolve_device

HAS_CUDA = th.cuda.is_available()
BEGINNER = GameSpec(9, 9, 10)


def test_resolve_device__every_name_and_what_auto_picks() -> None:
    assert DEVICES == ("auto", "cpu", "cuda")
    assert resolve_device("cpu") == "cpu"
    assert resolve_device(Device.CPU) == "cpu"
    assert resolve_device("auto") == ("cuda" if HAS_CUDA else "cpu")


@pytest.mark.parametrize("bad", ["tpu", "CPU", "", "cuda:0"])
def test_resolve_device__refuses_other_names_listing_the_allowed_ones(bad: str) -> None:
    with pytest.raises(
        ValueError, match=rf"device must be one of 'auto', 'cpu', 'cuda', got '{bad}'"
    ):
        resolve_device(bad)


@pytest.mark.skipif(HAS_CUDA, reason="needs a machine without a CUDA GPU")
def test_resolve_device__cuda_without_a_gpu_is_refused() -> None:
    with pytest.raises(ValueError, match="torch sees no CUDA GPU"):
        resolve_device("cuda")
    with pytest.raises(ValueError, match="torch sees no CUDA GPU"):
        load_ppo_agent("beginner", device="cuda")


def _games(agent: PolicyAgent, seeds: range) -> list[tuple[bool, tuple[tuple[int, int], ...]]]:
    env = MinesweeperEnv(rows=9, cols=9, mines=10)
    played = []
    for seed in seeds:
        result = play_episode(env, agent, seed)
        played.append((result.won, tuple(move.cell for move in result.moves)))
    return played


def test_policy_agent__device_option_defaults_to_the_cpu_and_auto_plays_the_same_here() -> None:
    default = load_ppo_agent("beginner", symmetries=2)
    assert isinstance(default, PolicyAgent)
    assert default.device == "cpu"
    assert next(default.net.parameters()).device.type == "cpu"
    if HAS_CUDA:
        return  # auto is the GPU there: test_policy_agent__on_the_gpu_plays_as_on_the_cpu
    auto = load_ppo_agent("beginner", symmetries=2, device="auto")
    assert isinstance(auto, PolicyAgent)
    assert auto.device == "cpu"
    assert _games(auto, range(6)) == _games(default, range(6))


def test_policy_agent__device_reaches_the_agent_through_a_spec_and_agents_make() -> None:
    spec = parse_agent_spec("ppo:beginner:symmetries=2:device=cpu")
    agent = spec.build()
    assert isinstance(agent, PolicyAgent)
    assert agent.device == "cpu"
    made = make("ppo:beginner", device="cpu")
    assert isinstance(made, PolicyAgent) and made.device == "cpu"


def test_policy_agent__a_bad_device_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="device must be one of 'auto', 'cpu', 'cuda', got 'tpu'"):
        load_ppo_agent("beginner", device="tpu")


@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
def test_policy_agent__on_the_gpu_plays_as_on_the_cpu() -> None:
    """The GPU's logits differ from the CPU's in the last bits only: the same games, and the same
    risk map to 1e-4, on a handful of seeds (a near tie could in principle split them)."""
    cpu = load_ppo_agent("beginner", symmetries=8)
    gpu = load_ppo_agent("beginner", symmetries=8, device="cuda")
    assert isinstance(cpu, PolicyAgent) and isinstance(gpu, PolicyAgent)
    assert next(gpu.net.parameters()).device.type == "cuda"
    assert next(cpu.policy.parameters()).device.type == "cpu"
    assert _games(gpu, range(10)) == _games(cpu, range(10))
    cpu_risk, gpu_risk = cpu.explain().risk, gpu.explain().risk
    assert cpu_risk is not None and gpu_risk is not None
    assert np.allclose(cpu_risk, gpu_risk, atol=1e-4, equal_nan=True)
