"""Play seeded games and record each as a flat row: the unit of work of every backend.

Functions are top level with picklable arguments (for process pools and Ray). A worker keeps an
env and an agent per (setting, agent), reset from each game's seed, so a record depends only on
its seed.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from dataclasses import MISSING, asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from eval.agent_specs import AgentSpec
from eval.settings import Setting
from mswp_gym.constants import Outcome
from mswp_gym.difficulty import bbbv


@dataclass(frozen=True)
class Chunk:
    """A batch of games for one agent on one setting."""

    setting_index: int
    agent_index: int
    setting: Setting
    agent: AgentSpec
    game_indices: tuple[int, ...]
    seeds: tuple[int, ...]


_FROM_TEXT: dict[str, Any] = {"bool": lambda text: text == "True", "int": int, "float": float}
"""How :meth:`GameRecord.from_row` reads a column of each field type (any other: as text)."""


@dataclass(frozen=True)
class GameRecord:
    """One game, as a CSV row. Timing fields vary run to run; every other field is a function
    of the seed."""

    setting: str
    """The setting's label."""
    agent: str
    """The agent's label (its spec string)."""
    game: int
    """Index of the game within the setting, 0-based."""
    seed: int
    """Seed of the env and the agent."""
    outcome: str
    """``WON``, ``LOST``, ``CLEARED`` (score mode) or ``PLAYING`` (stopped by the step guard)."""
    won: bool
    """Every safe cell revealed without stepping on a mine."""
    moves: int
    """Actions taken."""
    certain_moves: int
    """Moves the agent had proven safe before playing them."""
    guesses: int
    """Moves not proven safe (``moves - certain_moves``)."""
    cells_revealed: float
    """Fraction of the safe cells revealed at the end."""
    mines: int
    """Mines on the board."""
    mines_exploded: int
    """Mines stepped on."""
    mines_found: int
    """Score mode: mines never stepped on (the CS520 score's numerator); else 0."""
    first_cell: str
    """The first cell played, ``row:col``."""
    board_hash: str
    """First 12 hex digits of SHA-1 of the final layout, to tell when two agents met one board."""
    wall_time: float
    """Seconds for the whole game (agent and env)."""
    agent_time: float
    """Seconds inside the agent."""
    bbbv: int = -1
    """3BV of the final layout (:mod:`mswp_gym.difficulty`); -1 when no mine was placed."""
    replies: int = 0
    """``llm:`` agents: the model's replies (valid or not); else 0."""
    invalid_replies: int = 0
    """``llm:`` agents: replies that named no legal move."""
    tokens: int = 0
    """``llm:`` agents: prompt plus completion tokens, as the endpoint reported them."""
    llm_seconds: float = 0.0
    """``llm:`` agents: the model's seconds (a cached reply keeps its first time)."""

    @classmethod
    def field_names(cls) -> list[str]:
        """Column names, in CSV order."""
        return [f.name for f in fields(cls)]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_row(cls, row: dict[str, str]) -> GameRecord:
        """The record of a ``games.csv`` row (the inverse of :meth:`as_dict` written as CSV).

        Raises:
            ValueError: a missing column or a value of the wrong type.
        """
        values: dict[str, Any] = {}
        for item in fields(cls):
            text = row.get(item.name)
            if text is None and item.default is not MISSING:
                continue  # a column added later: older files get its default
            if text is None:
                raise ValueError(f"games.csv row lacks column {item.name!r}")
            kind = str(item.type)
            if kind == "bool" and text not in ("True", "False"):
                raise ValueError(f"column {item.name!r}: {text!r} is not True or False")
            values[item.name] = _FROM_TEXT.get(kind, str)(text)
        return cls(**values)

    def without_timing(self) -> tuple[Any, ...]:
        """Every field but the timings: what must match between runs of the same command."""
        return tuple(v for k, v in asdict(self).items() if k not in TIMINGS)


TIMINGS = ("wall_time", "agent_time", "llm_seconds")
"""The fields that vary from run to run."""


def with_usage(record: GameRecord, agent: Any) -> GameRecord:
    """``record`` with the chat usage of an ``llm:`` agent's game (others: unchanged)."""
    from agents.llm import ChatUsage

    usage = getattr(agent, "usage", None)
    if not isinstance(usage, ChatUsage):
        return record
    return replace(
        record,
        replies=usage.replies,
        invalid_replies=usage.invalid_replies,
        tokens=usage.tokens,
        llm_seconds=usage.seconds,
    )


def layout_hash(layout: np.ndarray | None) -> str:
    """A short stable hash of a bool layout (empty string for None)."""
    if layout is None:
        return ""
    array = np.ascontiguousarray(np.asarray(layout, dtype=bool))
    digest = hashlib.sha1(repr(array.shape).encode() + array.tobytes()).hexdigest()
    return digest[:12]


def record_game(setting: Setting, agent_label: str, game: int, result: Any) -> GameRecord:
    """Flatten an ``agents.EpisodeResult`` into a :class:`GameRecord`."""
    certain = int(result.certain_moves)
    first = result.moves[0].cell if result.moves else None
    return GameRecord(
        setting=setting.label,
        agent=agent_label,
        game=game,
        seed=int(result.seed),
        outcome=Outcome(result.outcome).name,
        won=bool(result.won),
        moves=int(result.steps),
        certain_moves=certain,
        guesses=int(result.steps) - certain,
        cells_revealed=float(result.cells_revealed),
        mines=setting.mines,
        mines_exploded=int(result.mines_exploded),
        mines_found=setting.mines - int(result.mines_exploded) if setting.score_mode else 0,
        first_cell="" if first is None else f"{first[0]}:{first[1]}",
        board_hash=layout_hash(result.layout),
        wall_time=float(result.wall_time),
        agent_time=float(result.agent_time),
        bbbv=-1 if result.layout is None else bbbv(result.layout),
    )


_WORKER_CACHE: dict[tuple[Setting, AgentSpec, int], tuple[Any, Any]] = {}
"""Per process: the env and agent built for each (setting, agent) pair and thread."""


_POOL_WORKER = False
"""True in a worker process of a local pool (set by :func:`mark_pool_worker`)."""


def mark_pool_worker() -> None:
    """Pool initializer: note that this process is one of several sharing the CPU cores."""
    global _POOL_WORKER
    _POOL_WORKER = True


def _env_and_agent(setting: Setting, agent: AgentSpec) -> tuple[Any, Any]:
    key = (setting, agent, threading.get_ident())
    if key not in _WORKER_CACHE:
        _WORKER_CACHE[key] = (setting.make_env(), agent.build())
        torch = sys.modules.get("torch")
        if _POOL_WORKER and torch is not None:
            # Each pool worker is one of W processes: W torch thread pools the size of the
            # machine would oversubscribe the cores (a learned agent's forward passes).
            torch.set_num_threads(1)
    return _WORKER_CACHE[key]


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play every game of ``chunk`` and return their records, in the chunk's order."""
    from agents import play_episode

    env, agent = _env_and_agent(chunk.setting, chunk.agent)
    return [
        with_usage(
            record_game(chunk.setting, chunk.agent.label, game, play_episode(env, agent, seed)),
            agent,
        )
        for game, seed in zip(chunk.game_indices, chunk.seeds, strict=True)
    ]
