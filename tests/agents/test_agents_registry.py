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

    agents.register("loader", load, argument="PATH")
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


def test_register__a_new_agent_shows_up_in_every_entry_point(scratch_registry: None) -> None:
    from eval.agent_specs import parse_agent_spec
    from eval.cli import build_parser
    from eval.gui.options import build_parser as gui_parser

    def load(model: str | None, **kwargs: object) -> RandomAgent:
        return RandomAgent()

    agents.register("toy", load, summary="a toy language model", argument="MODEL", proves=False)
    assert "toy:MODEL: a toy language model" in build_parser().format_help()
    assert "toy:MODEL" in gui_parser().format_help().replace("\n", " ")
    assert isinstance(agents.make("toy:tiny"), RandomAgent)
    spec = parse_agent_spec("toy:tiny:seed=3")
    assert (spec.make_name, spec.kwargs, spec.deduces) == ("toy:tiny", {"seed": 3}, False)


def test_registry__shipped_names_are_written_only_in_the_registry() -> None:
    import re
    from pathlib import Path

    from agents.registry import _ALIASES, shipped

    root = Path(__file__).resolve().parents[2]
    names = sorted({*shipped(), *_ALIASES} - set(agents.available()), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w:/.-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    found = [
        f"{path.relative_to(root)}:{number}: {match.group()}"
        for package in ("mswp_gym", "agents", "common", "train", "eval")
        for path in sorted((root / package).rglob("*.py"))
        if path.name != "registry.py" or path.parent.name != "agents"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for match in [pattern.search(line)]
        if match
    ]
    assert names and not found, found
