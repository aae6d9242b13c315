"""The one list of agents: every name, family, alias, shipped checkpoint and option shorthand.

``agents.make("logic", guess="global")``, ``agents.make("net:PATH")`` and every command line,
help text, error message and GUI choice read this registry, so a new agent is one :func:`register`
call. Entries are factories, or ``"module:attr"`` strings imported only when first used, so optional
agents (the solver, the networks and their torch dependency) cost nothing until asked for.

A family that takes an argument (``net:PATH``, or a language model as ``llm:MODEL``)::

    from agents.registry import register

    register(
        "llm",
        "my_package.llm_agent:load_llm_agent",  # called as load_llm_agent(MODEL or None, **kw)
        summary="a language model playing from the text board",
        argument="MODEL",  # ``llm:MODEL`` passes MODEL to the factory; ``llm`` passes None
        proves=False,  # it proves nothing: eval shows no "certain" share for it
    )

``agents.make("llm:some-model", seed=0)`` then calls ``load_llm_agent("some-model", seed=0)``,
``mswp-eval --agents llm:some-model`` plays it, and both ``--help`` texts list it. An option
shorthand (``shorthand="temperature"``) would make ``llm:0.7`` mean ``temperature=0.7`` instead
(a family takes an argument or a shorthand, not both). A family with packaged checkpoints lists
them as ``shipped=("small",)``: ``llm:small`` is then the file ``train/checkpoints/llm-small.zip``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from agents.base import Agent

Factory = Callable[..., Agent]


@dataclass(frozen=True)
class Entry:
    """One registered agent (see :func:`register`)."""

    target: Factory | str
    """A factory, or ``"module:attr"`` naming one."""
    summary: str = ""
    """What the agent is, in a few words, for help texts."""
    argument: str | None = None
    """The metavar of a ``NAME:ARG`` suffix (``PATH``, ``MODEL``), or None for none:
    ``make("name:ARG")`` calls ``factory(ARG, **kw)``, ``make("name")`` ``factory(None, **kw)``."""
    shorthand: str | None = None
    """The keyword argument a spec ``NAME:VALUE`` sets (``logic:global`` is ``guess="global"``)."""
    proves: bool = True
    """Whether the agent proves cells safe; False: every move is a choice (no "certain" share)."""
    shipped: tuple[str, ...] = ()
    """The packaged checkpoints ``NAME:S``, in the file ``NAME-S.zip`` (:func:`shipped_file`)."""
    locate: str | None = None
    """``"module:attr"`` of a function from the full name to the file the agent loads (for its
    SHA-256 in a citable row), or None for an agent that loads no file (:func:`agent_file`)."""


_REGISTRY: dict[str, Entry] = {}
_ALIASES: dict[str, str] = {}


def register(
    name: str,
    factory: Factory | str,
    *,
    summary: str = "",
    argument: str | None = None,
    shorthand: str | None = None,
    proves: bool = True,
    shipped: tuple[str, ...] = (),
    locate: str | None = None,
) -> None:
    """Register (or replace) an agent factory under ``name`` (the fields are :class:`Entry`'s).

    Raises:
        ValueError: a bad name, a malformed ``"module:attr"`` string, or both an argument and a
            shorthand (``NAME:VALUE`` could not tell them apart).
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
    if argument is not None and shorthand is not None:
        raise ValueError(f"agent {name!r} takes an argument or a shorthand, not both")
    _REGISTRY[name] = Entry(factory, summary, argument, shorthand, proves, shipped, locate)


def alias(other: str, name: str) -> None:
    """Make ``other`` (``"ppo:expert"``) another name of the agent ``name`` (``"net:expert"``)."""
    _ALIASES[other] = name


def entry(name: str) -> Entry | None:
    """The entry of ``name`` (``"net:PATH"`` is ``net``'s), or None if it is not registered."""
    return _REGISTRY.get(name.partition(":")[0])


def proves(name: str) -> bool:
    """Whether the agent ``name`` proves cells (True for a name not registered)."""
    found = entry(name)
    return found is None or found.proves


def agent_file(name: str) -> Path | None:
    """The file the agent ``name`` loads (a checkpoint zip), or None if it loads none.

    Raises:
        ValueError, FileNotFoundError: the locating function's, for a name that names no file.
    """
    found = entry(name)
    if found is None or found.locate is None:
        return None
    locate = cast(Callable[[str], "str | Path"], _resolve(name, found.locate))
    return Path(locate(name))


def argument_path(name: str) -> Path:
    """The ``PATH`` of ``NAME:PATH``: the file of an agent that loads its argument as given."""
    return Path(name.partition(":")[2])


def shipped() -> list[str]:
    """Every shipped network's name (``FAMILY:NAME``), in registration order."""
    return [f"{family}:{name}" for family, e in _REGISTRY.items() for name in e.shipped]


def shipped_name(text: str) -> str | None:
    """The shipped name that ``text`` names: itself, an alias (``ppo:expert``, ``net``) or an
    alias's bare name (``expert``, ``beginner-rl``); None for anything else."""
    for candidate in (text, f"ppo:{text}"):
        candidate = _ALIASES.get(candidate, candidate)
        if candidate in shipped():
            return candidate
    return None


def shipped_file(name: str) -> str:
    """The packaged file of a shipped name: ``FAMILY:NAME`` is ``FAMILY-NAME.zip``."""
    return name.replace(":", "-") + ".zip"


def help_lines() -> list[str]:
    """One line per agent for help texts: its spec forms, what it is, its shipped networks."""
    lines = []
    for name in available():
        e = _REGISTRY[name]
        forms = [name] if e.argument is None else [f"{name}:{e.argument}"]
        if e.shorthand is not None:
            forms.append(f"{name}:{e.shorthand.upper()}")
        forms += [f"{name}:{s}" for s in e.shipped]
        lines.append(f"{' | '.join(forms)}: {e.summary}" if e.summary else " | ".join(forms))
    return lines


def available() -> list[str]:
    """The registered agent names, sorted (aliases aside)."""
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
    """Build the agent registered as ``name`` (``"name:ARG"`` for agents that take an argument).

    Args:
        name: a name from :func:`available`, optionally ``":ARG"``-suffixed.
        **kwargs: passed to the factory (e.g. ``seed=``, ``guess=``).

    Raises:
        ValueError: unknown name (the message lists the known ones), or an argument given to an
            agent that takes none.
        TypeError: ``name`` is not a string.
        ImportError: the agent's optional module is missing.
    """
    if not isinstance(name, str):
        raise TypeError(f"agent name must be a string, got {name!r}")
    base, sep, argument = name.partition(":")
    found = _REGISTRY.get(base)
    if found is None:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(available())} (the shipped "
            f"networks are {', '.join(shipped())})"
            + (f"; for a checkpoint or run folder write net:{name}" if "/" in name else "")
        )
    if sep and found.argument is None:
        raise ValueError(f"agent {base!r} takes no ':PATH' suffix, got {name!r}")
    if sep and not argument:
        raise ValueError(f"empty {found.argument} in agent name {name!r}")
    factory = _resolve(base, found.target)
    if found.argument is not None:
        return factory(argument or None, **kwargs)
    return factory(**kwargs)


def _register_builtin() -> None:
    from agents.logic.guessing import GUESS_POLICIES

    network = "a network: shipped, a checkpoint zip or a training run folder"
    path: dict[str, Any] = {"argument": "PATH", "proves": False}
    checkpoint = {**path, "locate": "train.checkpoint:resolve_checkpoint"}
    solver = "agents.solver.noise.agent:NoisySolverAgent"  # one solver for every clue model
    boards = ("beginner", "intermediate", "expert")
    register("random", "agents.baselines:RandomAgent", summary="random legal clicks", proves=False)
    register("local", "agents.baselines:LocalRulesAgent", summary="single-clue rules")
    logic = "CS50 logic; GUESS: " + ", ".join(GUESS_POLICIES)
    register("logic", "agents.logic.agent:LogicAgent", summary=logic, shorthand="guess")
    exact = "exact probabilities; DEPTH: look-ahead (0 = none)"
    register("solver", solver, summary=exact, shorthand="depth")
    register("solver-noise", solver, summary="older name of solver", shorthand="depth")
    net = {**checkpoint, "shipped": (*boards, "generalist")}
    register("net", "train.agent:load_net_agent", summary=f"{network}, imitating the solver", **net)
    rl, rewarded = {**checkpoint, "shipped": boards}, f"{network}, learned from reward alone"
    register("rl", "train.agent:load_rl_agent", summary=rewarded, **rl)
    register("ppo", "train.agent:load_ppo_named", summary="older names of net", **checkpoint)
    sb3 = {**path, "locate": "agents.registry:argument_path"}
    register("sb3", "train.sb3_agent:load_sb3_agent", summary="any PPO/MaskablePPO zip", **sb3)
    llm = {**path, "argument": "MODEL"}
    register("llm", "agents.llm:load_llm_agent", summary="a chat model at --llm-url", **llm)
    for other, name in (("net", "net:beginner"), ("rl", "rl:beginner"), ("ppo", "net:beginner")):
        alias(other, name)
    for name in _REGISTRY["net"].shipped:
        alias(f"ppo:{name}", f"net:{name}")
    alias("ppo:beginner-rl", "rl:beginner")


_register_builtin()
