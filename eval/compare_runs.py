"""``python -m eval.compare_runs DIR DIR ...``: pair agents of separate evaluations game by game.

``mswp-eval --out`` folders run with the same ``--seed``, rule and board met the same seed in game
``i``: this reads their ``games.csv`` and prints, per setting, each agent's win rate (Wilson 95%)
and every pair's exact McNemar test over the games both played.

Example::

    python -m eval.compare_runs out/table out/averaged --agents s8,large,solver
    python -m eval.compare_runs out/long out/table --games 1000   # games 0-999 only

``--games N`` keeps only the games with an index below N. A label found in several folders is
shown as ``FOLDER/LABEL``; a pair whose seeds differ is an error, never silently paired. Bad input
is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from common.cli import OneLineParser, report_error
from eval.games import GameRecord
from eval.journal import GAMES, read_games
from eval.report import agent_table, comparison_table
from eval.summary import Comparison, compare, summarise

PROG = "python -m eval.compare_runs"


@dataclass(frozen=True)
class SavedAgent:
    """One agent's games on one setting, read from a folder."""

    label: str
    """The agent's label, unique among every folder read (``FOLDER/LABEL`` where needed)."""
    setting: str
    games: dict[int, GameRecord]
    """Its records by game index."""


@dataclass(frozen=True)
class SettingComparison:
    """Every figure for one setting: the agents' own figures and the paired tests."""

    setting: str
    agents: tuple[SavedAgent, ...]
    comparisons: tuple[Comparison, ...]


def read_saved_agents(folders: Sequence[Path]) -> list[SavedAgent]:
    """Every (agent, setting) of ``folders``' ``games.csv``, in folder then file order.

    Raises:
        FileNotFoundError: a folder without a ``games.csv``.
        ValueError: a ``games.csv`` with no game or a row that is not a game record.
    """
    found: list[tuple[Path, str, str, dict[int, GameRecord]]] = []
    for folder in folders:
        path = folder / GAMES
        if not path.is_file():
            raise FileNotFoundError(
                f"{str(folder)!r} has no {GAMES}: give folders written by mswp-eval --out"
            )
        records = read_games(path)
        if not records:
            raise ValueError(f"{str(path)!r} holds no game")
        by_key: dict[tuple[str, str], dict[int, GameRecord]] = {}
        for record in records:
            by_key.setdefault((record.agent, record.setting), {})[record.game] = record
        found.extend((folder, agent, setting, games) for (agent, setting), games in by_key.items())
    folders_of: dict[str, set[Path]] = {}
    for folder, agent, _setting, _games in found:
        folders_of.setdefault(agent, set()).add(folder)
    return [
        SavedAgent(
            label=agent if len(folders_of[agent]) == 1 else f"{folder.name}/{agent}",
            setting=setting,
            games=dict(sorted(games.items())),
        )
        for folder, agent, setting, games in found
    ]


def first_games(agents: Sequence[SavedAgent], count: int) -> list[SavedAgent]:
    """``agents`` with only their games of index below ``count`` (agents left with none are
    dropped).

    Raises:
        ValueError: ``count`` below 1.
    """
    if count < 1:
        raise ValueError(f"--games must be >= 1, got {count}")
    kept = [
        SavedAgent(agent.label, agent.setting, {g: r for g, r in agent.games.items() if g < count})
        for agent in agents
    ]
    return [agent for agent in kept if agent.games]


def paired_records(a: SavedAgent, b: SavedAgent) -> tuple[list[GameRecord], list[GameRecord]]:
    """The records of the games both agents played, in game order.

    Raises:
        ValueError: a game index both played with different seeds (other ``--seed`` values).
    """
    common = sorted(a.games.keys() & b.games.keys())
    for game in common:
        if a.games[game].seed != b.games[game].seed:
            raise ValueError(
                f"{a.label!r} and {b.label!r} played game {game} of {a.setting} with different "
                f"seeds ({a.games[game].seed} vs {b.games[game].seed}): only runs made with the "
                f"same --seed can be paired"
            )
    return [a.games[g] for g in common], [b.games[g] for g in common]


def compare_settings(
    agents: Sequence[SavedAgent], labels: Sequence[str] | None = None
) -> list[SettingComparison]:
    """Group ``agents`` by setting (only ``labels``, in that order, when given) and pair every two
    agents of a setting over the games both played (pairs with no common game are left out).

    Raises:
        ValueError: a label in ``labels`` that no folder holds; see :func:`paired_records`.
    """
    if labels is not None:
        known = {agent.label for agent in agents}
        missing = [label for label in labels if label not in known]
        if missing:
            raise ValueError(f"no agent {missing[0]!r} in these folders; they hold {sorted(known)}")
        order = {label: i for i, label in enumerate(labels)}
        agents = sorted((a for a in agents if a.label in order), key=lambda a: order[a.label])
    settings: dict[str, list[SavedAgent]] = {}
    for agent in agents:
        settings.setdefault(agent.setting, []).append(agent)
    result = []
    for setting, members in settings.items():
        comparisons = []
        for a, b in combinations(members, 2):
            a_records, b_records = paired_records(a, b)
            if a_records:
                comparisons.append(compare(setting, a.label, a_records, b.label, b_records, False))
        result.append(SettingComparison(setting, tuple(members), tuple(comparisons)))
    return result


def render(comparisons: Sequence[SettingComparison]) -> str:
    """The report: per setting, each agent's figures over all its games, then the pairs."""
    parts = []
    for item in comparisons:
        summaries = [
            summarise(item.setting, agent.label, list(agent.games.values()), False)
            for agent in item.agents
        ]
        parts += [f"== {item.setting}", agent_table(summaries, score_mode=False), ""]
        if item.comparisons:
            parts += ["paired over the games both played:", comparison_table(item.comparisons), ""]
    return "\n".join(parts)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = OneLineParser(
        prog=PROG,
        description="Pair the agents of separate mswp-eval --out folders (run with the same "
        "--seed) game by game: win rates with Wilson 95% intervals and exact McNemar tests.",
    )
    parser.add_argument("folders", nargs="+", type=Path, help="folders written by mswp-eval --out")
    parser.add_argument(
        "--agents",
        help="comma-separated labels to show, in this order (default: every agent); a label "
        "found in several folders is FOLDER/LABEL",
    )
    parser.add_argument(
        "--games",
        type=int,
        help="only the games with an index below this, for every figure (default: every game)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (2 on bad input)."""
    args = build_parser().parse_args(argv)
    labels = None if args.agents is None else [s for s in args.agents.split(",") if s]
    if labels is not None and not labels:
        return report_error(PROG, f"--agents {args.agents!r} names no agent")
    try:
        agents = read_saved_agents(args.folders)
        if args.games is not None:
            agents = first_games(agents, args.games)
        comparisons = compare_settings(agents, labels)
        report = render(comparisons)
    except (FileNotFoundError, ValueError) as exc:
        return report_error(PROG, exc)
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
