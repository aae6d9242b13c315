"""The configuration of one evaluation run, and how its game seeds are derived."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from eval.agent_specs import AgentSpec
from eval.settings import Setting

DEFAULT_GAMES = 200
DEFAULT_SEED = 0
MAX_GAMES = 10_000_000
"""Most games in one evaluation (settings x agents x games): every game's record is held in
memory (about 0.5 KB) until the tables are made."""
SEED_RULE = "numpy.random.SeedSequence(seed).generate_state(games, dtype=uint32)"
"""How game seeds are derived from ``--seed``: recorded in results.json so a run can be redone."""


@dataclass(frozen=True)
class EvalConfig:
    """What to evaluate and how; everything a run's figures depend on."""

    agents: tuple[AgentSpec, ...]
    """The agents, in table order."""
    settings: tuple[Setting, ...]
    """The board settings; every agent plays every setting."""
    games: int = DEFAULT_GAMES
    """Games per agent and setting."""
    seed: int = DEFAULT_SEED
    """Base seed: game ``i`` of every setting and agent uses ``game_seeds(seed, games)[i]``."""
    workers: int = 1
    """Local worker processes (``local`` backend); does not change any figure."""
    backend: str = "local"
    """``local`` or ``ray``; does not change any figure."""
    llm_in_flight: int = 8
    """``llm:`` agents' games played at once, in threads (:mod:`eval.llm`); changes no figure."""
    ray_address: str | None = None
    """Ray cluster address (``auto``, ``ray://host:port``); None starts a local Ray."""
    compare: tuple[tuple[str, str], ...] = ()
    """Agent label pairs to test against each other; empty means every pair."""
    extra: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """Free-form provenance (e.g. the command line), copied to results.json."""

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("no agents to evaluate")
        if not self.settings:
            raise ValueError("no board settings to evaluate")
        for name, least in (("games", 1), ("seed", 0), ("workers", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
        pairs = len(self.agents) * len(self.settings)
        if self.games * pairs > MAX_GAMES:
            raise ValueError(
                f"games={self.games} makes {self.games * pairs:,} games ({len(self.settings)} "
                f"settings x {len(self.agents)} agents), more than the {MAX_GAMES:,} one "
                f"evaluation may hold in memory; play at most {MAX_GAMES // pairs:,} games per "
                f"agent and setting"
            )
        labels = {agent.label for agent in self.agents}
        for a, b in self.compare:
            for label in (a, b):
                if label not in labels:
                    raise ValueError(
                        f"cannot compare {label!r}: it is not among the agents {sorted(labels)}"
                    )

    def pairs(self) -> list[tuple[str, str]]:
        """The agent pairs to compare: ``compare``, or every pair in table order."""
        if self.compare:
            return list(self.compare)
        labels = [agent.label for agent in self.agents]
        return [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of games ``0..games-1`` (see :data:`SEED_RULE`); a prefix of a longer run's."""
    state = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    return [int(s) for s in state]
