"""The CS520 report's Table 2, reproduced in our env: a check against a published table.

The report scores an agent on a 30x30 board with 300 mines by the number of mines it identifies
safely (never steps on); stepping on a mine does not end the game (our ``score_mode``). The
agent's first move is a random guess, so the first click may hit a mine (our ``first_click="any"``).
Its Table 2 averages, out of 300 mines:

=================================== ================ =========== ==========
agent                                report           our agent   our spec
=================================== ================ =========== ==========
local rules (the baseline)           225.6            ``local``   ``local``
CS50 inference (the "improved" one)  239.5            ``logic``   ``logic``
inference + total mine count         267.0            ``logic``   ``logic:global``
=================================== ================ =========== ==========

The report does not say how many games each average is over, so no interval can be put on its
figures; ours carry a 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass

from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.config import EvalConfig
from eval.settings import Setting

ROWS = COLS = 30
MINES = 300
FIRST_CLICK = "any"


@dataclass(frozen=True)
class PublishedRow:
    """One row of the report's Table 2 and the agent spec that plays it here."""

    description: str
    spec: str
    mines_found: float
    """The report's average number of mines identified safely, out of :data:`MINES`."""


TABLE_2: tuple[PublishedRow, ...] = (
    PublishedRow("local rules baseline", "local", 225.6),
    PublishedRow("logic agent (CS50 inference)", "logic", 239.5),
    PublishedRow("logic agent + total mine count", "logic:global", 267.0),
)


def table2_setting() -> Setting:
    """30x30, 300 mines, first click may be a mine, score mode."""
    return Setting(ROWS, COLS, MINES, FIRST_CLICK, score_mode=True, name="cs520")


def table2_config(
    games: int, seed: int = 0, workers: int = 1, extra_agents: tuple[AgentSpec, ...] = ()
) -> EvalConfig:
    """The evaluation that reproduces Table 2 (``games`` games per agent).

    Args:
        games: games per agent.
        seed: base seed.
        workers: local worker processes.
        extra_agents: reference agents played beside the table's (e.g. the exact solver).
    """
    return EvalConfig(
        agents=tuple(parse_agent_spec(row.spec) for row in TABLE_2) + extra_agents,
        settings=(table2_setting(),),
        games=games,
        seed=seed,
        workers=workers,
        extra={
            "first_click": FIRST_CLICK,
            "score_mode": True,
            "reproduces": "CS520 report, Table 2",
        },
    )
