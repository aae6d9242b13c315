"""Run an evaluation: validate everything up front, split the games into chunks, play them.

The chunks are the same whatever the backend or worker count, and the records come back sorted
by (setting, agent, game), so the figures of a run depend only on its configuration.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from agents.episode import Resign
from eval.agent_specs import AgentSpec
from eval.backends import Progress, Sink, run_chunks
from eval.config import EvalConfig, game_seeds
from eval.games import Chunk, GameRecord
from eval.llm import is_llm, run_threads
from eval.settings import Setting

MAX_CHUNK = 25
"""Most games per chunk: small enough to balance workers and to move a progress bar."""


class EvalSetupError(ValueError):
    """An agent or a setting cannot be built or cannot play: raised before any game runs."""


def check_agent_plays(agent_spec: AgentSpec, setting: Setting) -> None:
    """Build ``agent_spec`` and the env of ``setting`` and have the agent choose a first move.

    Raises:
        EvalSetupError: naming the agent, the setting and the cause.
    """
    try:
        env = setting.make_env()
    except (ValueError, TypeError) as exc:
        raise EvalSetupError(f"board {setting.label}: {exc}") from exc
    try:
        agent = agent_spec.build()
        observation, info = env.reset(seed=0)
        agent.reset(0, env.get_wrapper_attr("game_spec"))
        action = int(agent.act(np.asarray(observation), np.asarray(info["action_mask"])))
    except Resign:  # a legal end of a game (an llm: agent out of valid replies)
        return
    except (ValueError, TypeError, ImportError, OSError, RuntimeError, KeyError) as exc:
        raise EvalSetupError(f"agent {agent_spec.label!r} on {setting.label}: {exc}") from exc
    finally:
        env.close()
    if not bool(np.asarray(info["action_mask"]).ravel()[action]):
        raise EvalSetupError(f"agent {agent_spec.label!r} chose illegal first action {action}")


def validate(config: EvalConfig) -> None:
    """Check that every agent can play every setting (see :func:`check_agent_plays`).

    Raises:
        EvalSetupError: the first problem found.
    """
    for setting in config.settings:
        for agent in config.agents:
            check_agent_plays(agent, setting)


def make_chunks(config: EvalConfig, chunk_size: int) -> list[Chunk]:
    """Split every (setting, agent) pair's games into chunks of at most ``chunk_size``."""
    seeds = game_seeds(config.seed, config.games)
    chunks = []
    for s, setting in enumerate(config.settings):
        for a, agent in enumerate(config.agents):
            for start in range(0, config.games, chunk_size):
                stop = min(start + chunk_size, config.games)
                chunks.append(
                    Chunk(s, a, setting, agent, tuple(range(start, stop)), tuple(seeds[start:stop]))
                )
    return chunks


def chunk_size_for(games: int, workers: int) -> int:
    """About four chunks per worker per (setting, agent), at most :data:`MAX_CHUNK` games."""
    return max(1, min(MAX_CHUNK, math.ceil(games / (4 * workers))))


@dataclass(frozen=True)
class RunResult:
    """The records of a run, sorted by (setting, agent, game)."""

    config: EvalConfig
    records: tuple[GameRecord, ...]
    seconds: float
    """Wall-clock seconds for all games."""

    def for_pair(self, setting: Setting, agent: str) -> list[GameRecord]:
        """The records of one agent on one setting, by game index."""
        return [r for r in self.records if r.setting == setting.label and r.agent == agent]


def remaining_chunks(chunks: list[Chunk], done: set[tuple[str, str, int]]) -> list[Chunk]:
    """``chunks`` without the games in ``done`` (``(setting label, agent label, game)`` keys)."""
    left = []
    for chunk in chunks:
        keep = [
            i
            for i, game in enumerate(chunk.game_indices)
            if (chunk.setting.label, chunk.agent.label, game) not in done
        ]
        if keep:
            left.append(
                replace(
                    chunk,
                    game_indices=tuple(chunk.game_indices[i] for i in keep),
                    seeds=tuple(chunk.seeds[i] for i in keep),
                )
            )
    return left


def run(
    config: EvalConfig,
    progress_factory: Callable[[int], tuple[Progress, Callable[[], None]]] | None = None,
    *,
    skip_validation: bool = False,
    done: Sequence[GameRecord] = (),
    sink: Sink | None = None,
) -> RunResult:
    """Validate ``config`` and play every game not already in ``done``.

    ``progress_factory`` maps the number of games to ``(update, close)``; ``done`` holds games
    already played (others than ``config``'s are dropped); ``sink`` takes each finished chunk.

    Raises:
        EvalSetupError: an agent or setting is unusable (nothing has been played).
        ImportError: the Ray backend without Ray.
    """
    import time

    if not skip_validation:
        validate(config)
    workers = config.workers if config.backend == "local" else 1
    order = {
        (s.label, a.label): (i, j)
        for i, s in enumerate(config.settings)
        for j, a in enumerate(config.agents)
    }
    kept = {
        (r.setting, r.agent, r.game): r
        for r in done
        if (r.setting, r.agent) in order and 0 <= r.game < config.games
    }
    chunks = remaining_chunks(make_chunks(config, chunk_size_for(config.games, workers)), set(kept))
    update, close = (None, None)
    if progress_factory is not None:
        update, close = progress_factory(sum(len(c.game_indices) for c in chunks))
    start = time.perf_counter()
    try:
        remote = [c for c in chunks if is_llm(c.agent)]
        local = [c for c in chunks if not is_llm(c.agent)]
        records = run_chunks(
            local, config.backend, config.workers, config.ray_address, update, sink
        )
        records += run_threads(remote, config.llm_in_flight, update, sink)
    finally:
        if close is not None:
            close()
    records = [*kept.values(), *records]
    records.sort(key=lambda r: (*order[(r.setting, r.agent)], r.game))
    return RunResult(config, tuple(records), time.perf_counter() - start)
