"""What an agent knows move by move in one game (the CS280 report's knowledge chart data)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from agents.base import Explanation
from eval.agent_specs import AgentSpec
from eval.settings import Setting
from mswp_gym.constants import Outcome, is_revealed_safe


@dataclass(frozen=True)
class KnowledgeStep:
    """The agent's knowledge when it chose one move (``explain()`` just before playing it)."""

    move: int
    """1-based move number."""
    known_safes: int
    """Cells proven safe and not yet revealed."""
    known_mines: int
    """Cells proven to be mines (or exploded)."""
    sentences: int | None
    """Sentences in the knowledge base, if the agent reports them (the logic agent does)."""
    revealed: int
    """Safe cells revealed after the move."""
    certain: bool
    """Whether the move was proven safe (False: a guess)."""


@dataclass(frozen=True)
class KnowledgeTrace:
    """One game's knowledge steps and how it ended."""

    agent: str
    setting: str
    seed: int
    outcome: str
    steps: tuple[KnowledgeStep, ...]

    def as_dict(self) -> dict[str, Any]:
        """For JSON."""
        return {**asdict(self), "steps": [step.__dict__ for step in self.steps]}


def trace_knowledge(agent_spec: AgentSpec, setting: Setting, seed: int) -> KnowledgeTrace:
    """Play one seeded game of ``agent_spec`` on ``setting``, recording ``explain()`` per move."""
    from agents import play_episode

    env = setting.make_env()
    agent = agent_spec.build()
    steps: list[KnowledgeStep] = []

    def on_move(record: Any, _agent: Any, explanation: Explanation, board: np.ndarray) -> None:
        sentences = explanation.sentences
        steps.append(
            KnowledgeStep(
                move=len(steps) + 1,
                known_safes=len(explanation.safe),
                known_mines=len(explanation.mines),
                sentences=None if sentences is None else int(sentences),
                revealed=int(np.count_nonzero(is_revealed_safe(board))),
                certain=bool(record.certain),
            )
        )

    try:
        result = play_episode(env, agent, seed, on_move=on_move)
    finally:
        env.close()
    return KnowledgeTrace(
        agent_spec.label, setting.label, seed, Outcome(result.outcome).name, tuple(steps)
    )
