"""Agent names: the shipped networks under net:/rl:, the older ppo: names, paths and run folders,
and one resolution for every entry point (agents.make, eval specs, the GUI, --init)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

import agents
from agents.registry import _ALIASES, shipped, shipped_name
from eval.agent_specs import parse_agent_spec
from eval.gui.choices import build_agent
from train.checkpoint import resolve_checkpoint


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("net:beginner", "net-beginner.zip"),
        ("net:intermediate", "net-intermediate.zip"),
        ("net:expert", "net-expert.zip"),
        ("net:generalist", "net-generalist.zip"),
        ("rl:beginner", "rl-beginner.zip"),
        ("rl:intermediate", "rl-intermediate.zip"),
        ("rl:expert", "rl-expert.zip"),
        ("net", "net-beginner.zip"),
        ("rl", "rl-beginner.zip"),
        ("ppo", "net-beginner.zip"),
        ("ppo:expert", "net-expert.zip"),
        ("ppo:beginner-rl", "rl-beginner.zip"),
    ],
)
def test_agents_make__shipped_names_and_their_aliases_load_the_shipped_file(
    name: str, file: str
) -> None:
    assert Path(agents.make(name).source).name == file  # type: ignore[attr-defined]


def test_shipped_name__bare_names_resolve_for_init() -> None:
    assert shipped_name("beginner-rl") == "rl:beginner"
    assert shipped_name("expert") == "net:expert"
    assert shipped_name("rl:beginner") == "rl:beginner"
    assert shipped_name("./expert") is None  # a path wins only when written as one
    assert set(_ALIASES.values()) <= set(shipped())


@pytest.mark.parametrize("typo", ["net:beginer", "ppo:beginer", "rl:expret"])
def test_agents_make__a_typo_lists_the_shipped_names(typo: str) -> None:
    with pytest.raises(ValueError, match=r"unknown network .*shipped: net:beginner, .*rl:beginner"):
        agents.make(typo)


def test_resolve_checkpoint__a_run_folder_is_its_last_model_and_a_parent_lists_its_runs(
    tmp_path: Path,
) -> None:
    run = tmp_path / "beginner__imitation__0__1"
    run.mkdir()
    (run / "state.json").write_text(
        json.dumps({"name": run.name, "settings": {}, "model_file": "model-final.zip"})
    )
    model = run / "model-final.zip"
    model.write_bytes(b"")
    assert resolve_checkpoint(f"net:{run}") == model
    with pytest.raises(
        FileNotFoundError, match=r"not a training run folder; its run folders: .*__1"
    ):
        resolve_checkpoint(str(tmp_path))


def test_gui__accepts_every_shipped_network() -> None:
    for name in shipped():
        agent = build_agent(parse_agent_spec(name))
        assert agent.move_kind == "network move"  # type: ignore[attr-defined]
    for old in ("ppo:beginner", "ppo:generalist"):
        build_agent(parse_agent_spec(old))


def test_eval_specs__networks_do_not_deduce_and_solvers_do() -> None:
    assert not parse_agent_spec("net:expert:symmetries=2").deduces
    assert not parse_agent_spec("mine=rl:beginner").deduces
    assert parse_agent_spec("logic:global").deduces and parse_agent_spec("solver").deduces


def test_policy_agent__refusal_recommends_a_name_the_gui_accepts() -> None:
    from mswp_gym.spec import GameSpec

    agent = agents.make("net:beginner")
    reason = agent.refusal(GameSpec(16, 30, 99))  # type: ignore[attr-defined]
    assert reason is not None and "net:generalist" in reason
    build_agent(parse_agent_spec("net:generalist")).reset(0, GameSpec(16, 30, 99))


def test_agent_table__a_network_has_no_certain_share_a_solver_has_one() -> None:
    from common.stats import Interval
    from eval.report import agent_table
    from eval.summary import AgentSummary

    def summary(agent: str) -> AgentSummary:
        half = Interval(0.5, 0.4, 0.6)
        return AgentSummary("s", agent, 10, 5, half, half, 20.0, 0.0, half, None, None, 1.0, 2.0)

    table = agent_table([summary("net:expert"), summary("solver")], False, {"net:expert"})
    network, solver = (line for line in table.splitlines() if line.startswith(("net", "solver")))
    assert network.split()[-2:] == ["-", "-"]
    assert solver.split()[-2:] == ["0.0%", "0.50"]
