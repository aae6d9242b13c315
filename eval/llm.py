"""Evaluating ``llm:MODEL`` agents: their endpoint flags, their games played concurrently in
threads (a served model is bound by latency, not by this machine's cores), and the figures they
add (invalid replies, tokens and model seconds per move).

The threads change no figure: every game builds its own agent (one per thread) and depends only
on its seed, and the reply cache makes a rerun identical.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from typing import Any

from common.stats import wilson_interval
from eval.agent_specs import AgentSpec
from eval.backends import Progress, Sink, collect
from eval.games import Chunk, GameRecord, play_chunk

DEFAULT_IN_FLIGHT = 8
"""Games (and so requests) of ``llm:`` agents in flight at once."""


def is_llm(spec: AgentSpec) -> bool:
    """Whether ``spec`` is a language model behind an endpoint."""
    return spec.make_name.partition(":")[0] == "llm"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--llm-*`` flags."""
    group = parser.add_argument_group("language models (llm:MODEL agents)")
    url = "OpenAI-compatible API base, e.g. http://localhost:8000/v1 (vLLM)"
    group.add_argument("--llm-url", help=url)
    key = "environment variable holding the API key (default OPENAI_API_KEY; unset: no key)"
    group.add_argument("--llm-key-env", default="OPENAI_API_KEY", help=key)
    flight = f"llm games in flight at once (default {DEFAULT_IN_FLIGHT}); changes no figure"
    group.add_argument("--llm-in-flight", type=int, default=DEFAULT_IN_FLIGHT, help=flight)


def with_endpoint(specs: Sequence[AgentSpec], args: argparse.Namespace) -> list[AgentSpec]:
    """``specs`` with ``--llm-url`` and ``--llm-key-env`` passed to every ``llm:`` agent.

    Raises:
        ValueError: a bad ``--llm-in-flight``.
    """
    if args.llm_in_flight < 1:
        raise ValueError(f"--llm-in-flight must be an integer >= 1, got {args.llm_in_flight}")
    endpoint = {"url": args.llm_url, "key_env": args.llm_key_env}
    return [
        replace(spec, options=tuple(sorted({**endpoint, **spec.kwargs}.items())))
        if is_llm(spec) and args.llm_url
        else spec
        for spec in specs
    ]


def run_threads(
    chunks: Sequence[Chunk],
    in_flight: int,
    progress: Progress | None = None,
    sink: Sink | None = None,
) -> list[GameRecord]:
    """Play every game of ``chunks`` on ``in_flight`` threads, one game per task."""
    games = [
        replace(chunk, game_indices=(game,), seeds=(seed,))
        for chunk in chunks
        for game, seed in zip(chunk.game_indices, chunk.seeds, strict=True)
    ]
    records: list[GameRecord] = []
    if not games:
        return records
    with ThreadPoolExecutor(max_workers=min(in_flight, len(games))) as pool:
        futures = [pool.submit(play_chunk, game) for game in games]
        try:
            for future in as_completed(futures):
                collect(records, future.result(), progress, sink)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return records


def usage_rows(records: Sequence[GameRecord]) -> list[dict[str, Any]]:
    """Per (setting, agent) that sent replies: replies, the invalid share (Wilson 95%), and per
    move played: replies, tokens and model seconds."""
    groups: dict[tuple[str, str], list[GameRecord]] = {}
    for record in records:
        if record.replies:
            groups.setdefault((record.setting, record.agent), []).append(record)
    rows = []
    for (setting, agent), mine in groups.items():
        replies, moves = sum(r.replies for r in mine), max(1, sum(r.moves for r in mine))
        invalid = wilson_interval(sum(r.invalid_replies for r in mine), replies)
        rows.append(
            {"setting": setting, "agent": agent, "replies": replies,
             "invalid_replies": invalid.as_dict(), "replies_per_move": replies / moves,
             "tokens_per_move": sum(r.tokens for r in mine) / moves,
             "seconds_per_move": sum(r.llm_seconds for r in mine) / moves}
        )  # fmt: skip
    return rows


USAGE_HEADER = ("agent", "replies", "invalid (95% CI)", "replies/move", "tokens/move", "s/move")
USAGE_TITLE = "language-model replies (s/move: the model's time; a cached reply keeps its own):"


def usage_lines(records: Sequence[GameRecord]) -> list[list[str]]:
    """:func:`usage_rows` as table lines under :data:`USAGE_HEADER` (none: no agent replied)."""
    lines = []
    for row in usage_rows(records):
        rate = {k: 100 * v for k, v in row["invalid_replies"].items()}
        lines.append(
            [f"{row['agent']} ({row['setting']})", str(row["replies"]),
             f"{rate['estimate']:.1f}% ({rate['low']:.1f}-{rate['high']:.1f})",
             f"{row['replies_per_move']:.2f}", f"{row['tokens_per_move']:.0f}",
             f"{row['seconds_per_move']:.2f}"]
        )  # fmt: skip
    return lines
