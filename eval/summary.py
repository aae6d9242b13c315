"""Turn game records into the figures of a run: per-agent summaries and paired comparisons."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from common.stats import (
    Interval,
    PairedTest,
    mcnemar_exact,
    mean_interval,
    sign_test,
    wilson_interval,
)
from eval.games import GameRecord
from eval.runner import RunResult


@dataclass(frozen=True)
class AgentSummary:
    """The figures of one agent on one setting."""

    setting: str
    agent: str
    games: int
    wins: int
    win_rate: Interval
    """Wilson 95% interval."""
    cells_revealed: Interval
    """Mean fraction of safe cells revealed, normal 95% interval."""
    moves_per_game: float
    certain_share: float
    """Certain moves / all moves, pooled over games (the CS280 report's safe move accuracy)."""
    guesses_per_game: Interval
    mines_found: Interval | None
    """Score mode: mean mines identified safely (the CS520 score's numerator); else None."""
    score: Interval | None
    """Score mode: mean of mines identified safely / total mines; else None."""
    ms_per_move: float
    """Agent thinking time per move, milliseconds (varies run to run)."""
    ms_per_game: float
    """Whole-game wall time per game, milliseconds (varies run to run)."""

    def as_dict(self) -> dict[str, Any]:
        """For JSON: every field, the intervals as ``{"estimate", "low", "high"}``."""
        return asdict(self)


def summarise(
    setting: str, agent: str, records: list[GameRecord], score_mode: bool
) -> AgentSummary:
    """The :class:`AgentSummary` of ``records`` (one agent, one setting).

    Raises:
        ValueError: no records.
    """
    if not records:
        raise ValueError(f"no games recorded for {agent!r} on {setting}")
    n = len(records)
    wins = sum(r.won for r in records)
    moves = sum(r.moves for r in records)
    certain = sum(r.certain_moves for r in records)
    found = score = None
    if score_mode:
        found = mean_interval([float(r.mines_found) for r in records])
        score = mean_interval([r.mines_found / r.mines if r.mines else 1.0 for r in records])
    return AgentSummary(
        setting=setting,
        agent=agent,
        games=n,
        wins=wins,
        win_rate=wilson_interval(wins, n),
        cells_revealed=mean_interval([r.cells_revealed for r in records]),
        moves_per_game=moves / n,
        certain_share=certain / moves if moves else math.nan,
        guesses_per_game=mean_interval([float(r.guesses) for r in records]),
        mines_found=found,
        score=score,
        ms_per_move=1000 * sum(r.agent_time for r in records) / moves if moves else math.nan,
        ms_per_game=1000 * sum(r.wall_time for r in records) / n,
    )


@dataclass(frozen=True)
class Comparison:
    """Two agents on the same seeds of one setting."""

    setting: str
    a: str
    b: str
    wins: PairedTest
    """Exact McNemar test on won/lost."""
    scores: PairedTest | None
    """Score mode: exact sign test on mines identified safely; else None."""
    same_board: int
    """Seeds on which both agents met the identical layout (always all, under ``any``; under
    ``safe``/``opening`` the layout also depends on the first click)."""

    def as_dict(self) -> dict[str, Any]:
        """For JSON."""
        scores = None if self.scores is None else self.scores.as_dict()
        return {**asdict(self), "wins": self.wins.as_dict(), "scores": scores}


def compare(
    setting: str,
    a: str,
    a_records: list[GameRecord],
    b: str,
    b_records: list[GameRecord],
    score_mode: bool,
) -> Comparison:
    """The paired comparison of two agents' records of the same seeds.

    Raises:
        ValueError: the records are not of the same seeds in the same order.
    """
    if [r.seed for r in a_records] != [r.seed for r in b_records]:
        raise ValueError(f"{a!r} and {b!r} did not play the same seeds on {setting}")
    wins = mcnemar_exact([r.won for r in a_records], [r.won for r in b_records])
    scores = None
    if score_mode:
        scores = sign_test([r.mines_found for r in a_records], [r.mines_found for r in b_records])
    same = sum(
        1
        for x, y in zip(a_records, b_records, strict=True)
        if x.board_hash and x.board_hash == y.board_hash
    )
    return Comparison(setting, a, b, wins, scores, same)


@dataclass(frozen=True)
class RunSummary:
    """Every figure of a run."""

    agents: tuple[AgentSummary, ...]
    comparisons: tuple[Comparison, ...]


def summarise_run(result: RunResult) -> RunSummary:
    """Summaries per (setting, agent) and the configured paired comparisons per setting."""
    config = result.config
    summaries = []
    comparisons = []
    for setting in config.settings:
        by_agent = {agent.label: result.for_pair(setting, agent.label) for agent in config.agents}
        for agent in config.agents:
            summaries.append(
                summarise(setting.label, agent.label, by_agent[agent.label], setting.score_mode)
            )
        for a, b in config.pairs():
            comparisons.append(
                compare(setting.label, a, by_agent[a], b, by_agent[b], setting.score_mode)
            )
    return RunSummary(tuple(summaries), tuple(comparisons))
