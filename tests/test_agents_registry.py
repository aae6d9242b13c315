"""Building agents by name: ``agents.make``, ``agents.register``, ``agents.available``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import agents
from agents import LocalRulesAgent, LogicAgent, RandomAgent
from agents.base import Agent
from agents.registry import _REGISTRY


@pytest.fixture
def scratch_registry() -> Iterator[None]:
    """Undo any registration a test makes."""
    saved = dict(_REGISTRY)
    yield
    _REGISTRY.clear()
    _REGISTRY.update(saved)


def test_available__lists_builtin_names() -> None:
    assert {"random", "local", "logic", "solver", "ppo"} <= set(agents.available())


@pytest.mark.parametrize(
    ("name", "kwargs", "cls"),
    [("random", {}, RandomAgent), ("local", {}, LocalRulesAgent), ("logic", {}, LogicAgent)],
)
def test_make__builds_builtin_agents(name: str, kwargs: dict, cls: type) -> None:
    agent = agents.make(name, seed=3, **kwargs)
    assert isinstance(agent, cls)
    assert isinstance(agent, Agent)


@pytest.mark.parametrize("guess", agents.GUESS_POLICIES)
def test_make__passes_guess_policy_to_logic(guess: str) -> None:
    agent = agents.make("logic", guess=guess)
    assert isinstance(agent, LogicAgent) and agent.guess == guess


def test_make__unknown_name_lists_known_names() -> None:
    with pytest.raises(ValueError, match=r"unknown agent 'nope'.*logic.*random"):
        agents.make("nope")


def test_make__rejects_non_string_name() -> None:
    with pytest.raises(TypeError, match="string"):
        agents.make(3)  # type: ignore[arg-type]


def test_make__rejects_path_for_agent_without_one() -> None:
    with pytest.raises(ValueError, match="takes no ':PATH'"):
        agents.make("random:foo.zip")


def test_make__bad_kwarg_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        agents.make("random", colour="red")


def test_register__callable_factory(scratch_registry: None) -> None:
    agents.register("always-random", lambda **kw: RandomAgent(**kw))
    assert "always-random" in agents.available()
    assert isinstance(agents.make("always-random", seed=1), RandomAgent)


def test_register__lazy_entry_imported_on_make(scratch_registry: None) -> None:
    agents.register("lazy-local", "agents.baselines:LocalRulesAgent")
    assert isinstance(agents.make("lazy-local"), LocalRulesAgent)


def test_register__path_agent_gets_path_or_none(scratch_registry: None) -> None:
    seen: list[str | None] = []

    def load(path: str | None, **kwargs: object) -> RandomAgent:
        seen.append(path)
        return RandomAgent()

    agents.register("loader", load, takes_path=True)
    agents.make("loader")
    agents.make("loader:runs/model.zip")
    assert seen == [None, "runs/model.zip"]


def test_make__missing_optional_module_gives_clear_import_error(scratch_registry: None) -> None:
    agents.register("ghost", "agents.no_such_module:Ghost")
    with pytest.raises(ImportError, match=r"'ghost' needs module 'agents\.no_such_module'"):
        agents.make("ghost")


def test_make__missing_attribute_gives_clear_import_error(scratch_registry: None) -> None:
    agents.register("ghost", "agents.baselines:Ghost")
    with pytest.raises(ImportError, match="has no 'Ghost'"):
        agents.make("ghost")


@pytest.mark.parametrize("bad", ["", "a:b", None])
def test_register__rejects_bad_names(bad: object) -> None:
    with pytest.raises(ValueError, match="name"):
        agents.register(bad, RandomAgent)  # type: ignore[arg-type]


def test_register__rejects_malformed_lazy_string_and_non_callables() -> None:
    with pytest.raises(ValueError, match="module:attr"):
        agents.register("x", "agents.baselines")
    with pytest.raises(TypeError, match="callable"):
        agents.register("x", 42)  # type: ignore[arg-type]
