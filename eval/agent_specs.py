"""Agent specs: the strings the CLI takes for agents, turned into ``agents.make`` calls.

Grammar (one spec per agent; the CLI separates specs with commas)::

    NAME                      agents.make(NAME)
    NAME:KEY=VALUE[:KEY=VALUE...]
                              agents.make(NAME, KEY=VALUE, ...) (VALUE parsed as int, float,
                              bool or else kept a string)
    logic:POLICY              agents.make("logic", guess=POLICY)     e.g. logic:global
    solver:N                  agents.make("solver", depth=N)         e.g. solver:2
    net:NAME, rl:NAME         agents.make("net:NAME")                a shipped network, e.g.
                                                                     net:expert, rl:beginner
    net:PATH                  agents.make("net:PATH")                a checkpoint zip or a training
                                                                     run folder (rl:, ppo: alike)
    net:NAME:KEY=VALUE[...]   agents.make("net:NAME", KEY=VALUE)     e.g. net:beginner:symmetries=8
    sb3:PATH                  agents.make("sb3:PATH")                any PPO/MaskablePPO zip
    LABEL=SPEC                SPEC, shown as LABEL                   e.g. mine=net:/long/path.zip

The spec string itself is the agent's label in every table, file and plot, unless a
``LABEL=`` prefix names it (a label has no ``,``, ``:`` or ``=``; the ``=`` of a label comes
before any ``:``, which tells it from ``NAME:KEY=VALUE``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

SHORTHAND_KWARG: dict[str, str] = {"logic": "guess", "solver": "depth"}
"""For these agents a bare ``NAME:VALUE`` sets this keyword argument."""

PATH_AGENTS: frozenset[str] = frozenset({"net", "rl", "ppo", "sb3", "llm"})
"""Agents whose ``NAME:VALUE`` is a shipped name or a path passed to ``agents.make`` unchanged."""
GUESSING_AGENTS: frozenset[str] = frozenset({*PATH_AGENTS, "random"})
"""Agents that prove nothing: every move is a choice, none is a deduction (their "certain"
share is not applicable)."""


@dataclass(frozen=True)
class AgentSpec:
    """One agent of an evaluation, as the user named it."""

    label: str
    """The spec string, used as the agent's name in results."""
    make_name: str
    """The first argument to ``agents.make`` (``"net:PATH"`` keeps its path)."""
    options: tuple[tuple[str, Any], ...] = ()
    """Keyword arguments to ``agents.make``, as sorted ``(key, value)`` pairs (hashable)."""
    text: str = field(default="", compare=False)
    """The spec as the user wrote it, label included: :func:`parse_agent_spec` reads it back
    (not compared: two specs that build the same agent under the same label are equal)."""

    @property
    def deduces(self) -> bool:
        """Whether the agent proves cells safe (False for networks and ``random``)."""
        return self.make_name.partition(":")[0] not in GUESSING_AGENTS

    @property
    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments to ``agents.make``."""
        return dict(self.options)

    def build(self) -> Any:
        """A fresh agent: ``agents.make(make_name, **kwargs)``."""
        import agents

        return agents.make(self.make_name, **self.kwargs)

    def as_dict(self) -> dict[str, Any]:
        """For the JSON record."""
        return {
            "label": self.label,
            "spec": self.text,
            "make_name": self.make_name,
            "kwargs": self.kwargs,
        }


def _parse_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse one agent spec (see the module docstring).

    Raises:
        ValueError: an empty spec, an empty name, a malformed ``KEY=VALUE`` or ``LABEL=``.
    """
    spec = text.strip()
    label, eq, rest = spec.partition("=")
    if eq and ":" not in label:  # LABEL=SPEC: the '=' comes before any ':'
        label, rest = label.strip(), rest.strip()
        if not label or not rest or any(c in label for c in ",:"):
            raise ValueError(
                f"agent spec {text!r}: expected LABEL=SPEC with a non-empty label (no ',' or ':') "
                f"and a spec, e.g. mine=net:model.zip"
            )
        return replace(_parse_unlabelled(rest, text), label=label, text=spec)
    return replace(_parse_unlabelled(spec, text), text=spec)


def _parse_unlabelled(spec: str, text: str) -> AgentSpec:
    if not spec:
        raise ValueError(f"empty agent spec in {text!r}")
    name, sep, rest = spec.partition(":")
    if not name:
        raise ValueError(f"agent spec {text!r} has no agent name before ':'")
    if not sep:
        return AgentSpec(spec, name)
    if not rest:
        raise ValueError(f"agent spec {text!r} has nothing after ':'")
    if name in PATH_AGENTS:
        path, options = _split_path_options(rest)
        return AgentSpec(spec, f"{name}:{path}" if path else name, options)
    if "=" not in rest:
        if name not in SHORTHAND_KWARG:
            raise ValueError(
                f"agent spec {text!r}: {name!r} takes no shorthand argument; use {name}:KEY=VALUE"
            )
        return AgentSpec(spec, name, ((SHORTHAND_KWARG[name], _parse_value(rest)),))
    kwargs: dict[str, Any] = {}
    for part in rest.split(":"):
        key, eq, value = part.partition("=")
        if not eq or not key.isidentifier() or not value:
            raise ValueError(f"agent spec {text!r}: expected KEY=VALUE, got {part!r}")
        kwargs[key] = _parse_value(value)
    return AgentSpec(spec, name, tuple(sorted(kwargs.items())))


def _split_path_options(rest: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """``[PATH][:KEY=VALUE...]`` -> the path ("" for none: the agent's default checkpoint) and
    the sorted options: the trailing ``:``-parts that read ``KEY=VALUE`` with an identifier key
    are options, the rest is the path."""
    parts = rest.split(":")
    kwargs: dict[str, Any] = {}
    while parts:
        key, eq, value = parts[-1].partition("=")
        if not (eq and key.isidentifier() and value):
            break
        kwargs[key] = _parse_value(value)
        parts.pop()
    return ":".join(parts), tuple(sorted(kwargs.items()))


def parse_agent_list(text: str) -> list[AgentSpec]:
    """Parse a comma-separated list of agent specs.

    Raises:
        ValueError: an empty list, a bad spec, or the same label twice.
    """
    specs = [parse_agent_spec(part) for part in text.split(",")]
    labels = [spec.label for spec in specs]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise ValueError(f"agent {duplicates[0]!r} is listed twice in {text!r}")
    return specs
