"""Minesweeper logic puzzles (:mod:`agents.puzzles`) as a verifiers (0.4) single-turn
environment, taskset id ``mswp-text-puzzles``: one seeded position and one question per task,
the reply scored exactly (F1 of the safe cells, the P(safe) gap of the chosen cell, or the
error of a mine probability), with exact match as a metric.

    env = mswp_text_puzzles.load_environment(question="safe-cells", deduction="subset", count=500)
    vf-eval mswp-text-puzzles --env.taskset.question safest-cell
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from verifiers.v1.harnesses.null import NullHarnessConfig

from agents.puzzles import Puzzle, make_puzzle, score
from mswp_gym.config import GameConfig

__all__ = ["PuzzleTaskset", "load_environment"]
TASKSET_ID = "mswp-text-puzzles"


class PuzzleConfig(vf.TasksetConfig):
    """Which puzzles: the question, the deduction class (None: any), the board and the seeds."""

    question: str = "safe-cells"
    """``safe-cells``, ``safest-cell`` or ``mine-probability``."""
    deduction: str | None = None
    rows: int = 9
    cols: int = 9
    mines: int = 10
    count: int = 1000
    seed: int = 0
    """Puzzle ``i`` is drawn from seed ``seed + i``."""


class PuzzleData(vf.TaskData):
    record: dict[str, Any]
    """``Puzzle.record()``: prompt, answer and the exact metadata that scores a reply."""


class PuzzleTask(vf.Task[PuzzleData]):
    @vf.reward(weight=1.0)
    async def puzzle_score(self, trace: vf.Trace) -> float:
        """The puzzle's score of the reply, in [0, 1]."""
        return score(Puzzle.from_record(self.data.record), trace.last_reply).reward

    @vf.metric
    async def exact(self, trace: vf.Trace) -> float:
        return float(score(Puzzle.from_record(self.data.record), trace.last_reply).exact)


class PuzzleTaskset(vf.Taskset[PuzzleTask, PuzzleConfig]):
    def load(self) -> Iterator[PuzzleTask]:
        c = self.config
        board = GameConfig(c.rows, c.cols, c.mines)
        for seed in range(c.seed, c.seed + c.count):
            record = make_puzzle(c.question, seed, board, c.deduction).record()
            data = PuzzleData(name=f"{c.question}#{seed}", prompt=record["prompt"], record=record)
            yield PuzzleTask(data, c.task)


def load_environment(**options: Any) -> Any:
    """The environment (verifiers' single-agent env); ``options`` are :class:`PuzzleConfig`
    fields."""
    config = vf.SingleAgentEnvConfig(
        taskset=PuzzleConfig(id=TASKSET_ID, **options),
        agent=vf.AgentConfig(harness=NullHarnessConfig(id="null"), runtime=vf.SubprocessConfig()),
    )
    return vf.load_environment(config)
