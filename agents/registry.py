"""Build any agent by name: ``agents.make("logic", guess="global")``,
``agents.make("net:expert")``, ``agents.make("net:runs/RUN/model-final.zip")``.

Entries are factories, or ``"module:attr"`` strings imported only when first used, so optional
agents (the solver, the PPO agent and its torch dependency) cost nothing until asked for.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.base import Agent

Factory = Callable[..., Agent]


@dataclass(frozen=True)
class Entry:
    """One registered agent."""

    target: Factory | str
    """A factory, or ``"module:attr"`` naming one."""
    takes_path: bool = False
    """If True, ``make("name:PATH")`` calls ``factory(PATH, **kwargs)`` and ``make("name")``
    calls ``factory(None, **kwargs)``."""


_REGISTRY: dict[str, Entry] = {}


def register(name: str, factory: Factory | str, *, takes_path: bool = False) -> None:
    """Register (or replace) an agent factory under ``name``.

    Args:
        name: the name ``make`` will accept; no ``":"``.
        factory: a callable returning an agent, or a lazy ``"module:attr"`` string.
        takes_path: whether the name accepts a ``":PATH"`` suffix (see :class:`Entry`).

    Raises:
        ValueError: bad name or a malformed ``"module:attr"`` string.
        TypeError: ``factory`` is neither callable nor a string.
    """
    if not isinstance(name, str) or not name or ":" in name:
        raise ValueError(f"agent name must be a non-empty string without ':', got {name!r}")
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        if not module or not attr:
            raise ValueError(f"lazy factory must look like 'module:attr', got {factory!r}")
    elif not callable(factory):
        raise TypeError(f"factory for {name!r} must be callable or 'module:attr', got {factory!r}")
    _REGISTRY[name] = Entry(factory, takes_path)


def available() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


def _resolve(name: str, target: Factory | str) -> Factory:
    if not isinstance(target, str):
        return target
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        top = module_name.partition(".")[0]
        shadow = _shadowing_file(top)
        if shadow is not None:
            raise ImportError(
                f"agent {name!r}: {shadow} hides the package {top!r} of mswp-gym; rename that "
                f"file, or run from another folder"
            ) from None
        raise ImportError(
            f"agent {name!r} needs module {module_name!r}, which could not be imported ({exc}); "
            f"is its optional part installed (e.g. pip install -e '.[train]')?"
        ) from exc
    try:
        factory: Factory = getattr(module, attr)
    except AttributeError as exc:
        raise ImportError(f"agent {name!r}: module {module_name!r} has no {attr!r}") from exc
    return factory


def _shadowing_file(package: str) -> str | None:
    """The module file (a user's own ``train.py`` beside their script, say) that Python found
    under the name ``package`` instead of the package itself; None if the package is found."""
    found = sys.modules.get(package)
    if found is not None:
        return None if hasattr(found, "__path__") else getattr(found, "__file__", None)
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.submodule_search_locations is not None:
        return None
    return spec.origin


def make(name: str, **kwargs: Any) -> Agent:
    """Build the agent registered as ``name`` (``"name:PATH"`` for agents that load a file).

    Args:
        name: a name from :func:`available`, optionally ``":PATH"``-suffixed.
        **kwargs: passed to the factory (e.g. ``seed=``, ``guess=``).

    Raises:
        ValueError: unknown name (the message lists the known ones), or a path given to an
            agent that takes none.
        TypeError: ``name`` is not a string.
        ImportError: the agent's optional module is missing.
    """
    if not isinstance(name, str):
        raise TypeError(f"agent name must be a string, got {name!r}")
    base, sep, path = name.partition(":")
    entry = _REGISTRY.get(base)
    if entry is None:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(available())} (the shipped "
            f"networks are net:beginner, net:intermediate, net:expert, net:generalist, "
            f"rl:beginner, rl:intermediate and rl:expert)"
        )
    if sep and not entry.takes_path:
        raise ValueError(f"agent {base!r} takes no ':PATH' suffix, got {name!r}")
    if sep and not path:
        raise ValueError(f"empty path in agent name {name!r}")
    factory = _resolve(base, entry.target)
    if entry.takes_path:
        return factory(path or None, **kwargs)
    return factory(**kwargs)


def _register_builtin() -> None:
    register("random", "agents.baselines:RandomAgent")
    register("local", "agents.baselines:LocalRulesAgent")
    register("logic", "agents.logic.agent:LogicAgent")
    register("solver", "agents.solver:SolverAgent")
    register("net", "train.agent:load_net_agent", takes_path=True)
    register("rl", "train.agent:load_rl_agent", takes_path=True)
    register("ppo", "train.agent:load_ppo_named", takes_path=True)
    register("sb3", "train.sb3_agent:load_sb3_agent", takes_path=True)
    register("llm", "agents.llm:load_llm_agent", takes_path=True)


_register_builtin()
