"""The outputs of a run: terminal tables, ``results.json`` and ``games.csv``."""

from __future__ import annotations

import importlib.metadata
import json
import math
import platform
import shlex
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from common.atomic import write_text_atomic
from common.provenance import git_state
from common.stats import Interval, wilson_interval
from eval.config import SEED_RULE, game_seeds
from eval.games import GameRecord
from eval.llm import USAGE_HEADER, USAGE_TITLE, usage_lines, usage_rows
from eval.runner import RunResult
from eval.summary import AgentSummary, Comparison, RunSummary

PACKAGES: tuple[str, ...] = (
    "mswp-gym",
    "numpy",
    "gymnasium",
    "torch",
    "stable-baselines3",
    "sb3-contrib",
    "matplotlib",
    "tqdm",
    "ray",
)
"""Packages whose versions results.json records (those installed)."""


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def _pct(interval: Interval) -> str:
    return (
        f"{100 * interval.estimate:5.1f}% [{100 * interval.low:4.1f}, {100 * interval.high:4.1f}]"
    )


def agent_table(
    summaries: Sequence[AgentSummary], score_mode: bool, guessers: Collection[str] = ()
) -> str:
    """The main table of one setting (every figure here is reproducible from the seed).

    ``guessers``: labels of agents that prove nothing (networks, random); their certain share
    and guesses are shown as ``-`` (not applicable), not as 0% certain."""
    header = [
        "agent",
        "games",
        "wins",
        "win rate [95% CI]",
        "safe revealed",
        "moves/game",
        "certain",
        "guesses/game",
    ]
    if score_mode:
        header += ["mines found [95% CI]", "score"]
    rows = []
    for s in summaries:
        row = [
            s.agent,
            str(s.games),
            str(s.wins),
            _pct(s.win_rate),
            f"{100 * s.cells_revealed.estimate:.1f}%",
            f"{s.moves_per_game:.1f}",
            f"{100 * s.certain_share:.1f}%",
            f"{s.guesses_per_game.estimate:.2f}",
        ]
        if s.agent in guessers:
            row[-2:] = ["-", "-"]
        if score_mode:
            assert s.mines_found is not None and s.score is not None
            found = s.mines_found
            row += [f"{found.estimate:.1f} [{found.low:.1f}, {found.high:.1f}]"]
            row += [f"{100 * s.score.estimate:.1f}%"]
        rows.append(row)
    return format_table(header, rows)


BY_CHOICES: tuple[str, ...] = ("3bv",)
"""What ``--by`` can split win rates by."""
BANDS = 4
"""3BV bands per setting: the quartiles of its boards' 3BV."""


@dataclass(frozen=True)
class BandRate:
    """One agent's win rate over one setting's games whose 3BV lies in ``[low, high]``."""

    setting: str
    agent: str
    low: int
    high: int
    games: int
    win_rate: Interval
    """Wilson 95% interval."""

    @property
    def band(self) -> str:
        """``low-high`` (``low`` alone for a one-value band)."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def as_dict(self) -> dict[str, Any]:
        """For JSON."""
        return {
            "setting": self.setting,
            "agent": self.agent,
            "bbbv_low": self.low,
            "bbbv_high": self.high,
            "games": self.games,
            "win_rate": self.win_rate.as_dict(),
        }


def rates_by_bbbv(records: Sequence[GameRecord], bands: int = BANDS) -> list[BandRate]:
    """Each agent's win rate per 3BV band of each setting (games without a layout left out).

    The bands split the 3BV of every game of the setting (all agents together) at its
    quantiles, into at most ``bands`` integer ranges; every agent is then cut at the same edges.
    """
    rates = []
    settings = dict.fromkeys(r.setting for r in records)
    for setting in settings:
        games = [r for r in records if r.setting == setting and r.bbbv >= 0]
        if not games:
            continue
        values = np.array([r.bbbv for r in games])
        edges = np.unique(np.quantile(values, np.linspace(0, 1, bands + 1), method="nearest"))
        lows = [int(edges[0]), *(int(e) + 1 for e in edges[1:-1])]
        highs = [int(e) for e in edges[1:]] or lows
        for agent in dict.fromkeys(r.agent for r in games):
            for low, high in zip(lows, highs, strict=True):
                won = [r.won for r in games if r.agent == agent and low <= r.bbbv <= high]
                if won:
                    interval = wilson_interval(sum(won), len(won))
                    rates.append(BandRate(setting, agent, low, high, len(won), interval))
    return rates


def band_table(rates: Sequence[BandRate]) -> str:
    """Per setting, a table of win rates: one row per agent, one column per 3BV band."""
    blocks = []
    for setting in dict.fromkeys(r.setting for r in rates):
        mine = [r for r in rates if r.setting == setting]
        bands = list(dict.fromkeys((r.low, r.high, r.band) for r in mine))
        bands.sort()
        by_key = {(r.agent, r.band): r for r in mine}
        rows = []
        for agent in dict.fromkeys(r.agent for r in mine):
            cells = [by_key.get((agent, band)) for _, _, band in bands]
            rows.append(
                [agent, *("" if c is None else f"{_pct(c.win_rate)} n={c.games}" for c in cells)]
            )
        header = ["agent", *(f"3BV {band}" for _, _, band in bands)]
        blocks.append(f"win rate by 3BV band, {setting}:\n" + format_table(header, rows))
    return "\n\n".join(blocks)


def timing_table(summaries: Sequence[AgentSummary]) -> str:
    """Agent time per move and wall time per game (these vary from run to run)."""
    header = ["agent", "ms/move (agent)", "ms/game (wall)"]
    rows = [[s.agent, f"{s.ms_per_move:.3f}", f"{s.ms_per_game:.1f}"] for s in summaries]
    return format_table(header, rows)


def comparison_table(comparisons: Sequence[Comparison]) -> str:
    """Paired comparisons: discordant seeds and the exact McNemar (and sign test) p-values."""
    header = [
        "a vs b",
        "a won, b lost",
        "b won, a lost",
        "both won",
        "both lost",
        "p (exact McNemar)",
        "same board",
    ]
    with_scores = any(c.scores is not None for c in comparisons)
    if with_scores:
        header += ["a found more", "b found more", "p (sign test)"]
    rows = []
    for c in comparisons:
        row = [
            f"{c.a} vs {c.b}",
            str(c.wins.a_only),
            str(c.wins.b_only),
            str(c.wins.both),
            str(c.wins.neither),
            f"{c.wins.p_value:.3g}",
            f"{c.same_board}/{c.wins.pairs}",
        ]
        if with_scores:
            scores = c.scores
            row += (
                ["", "", ""]
                if scores is None
                else [str(scores.a_only), str(scores.b_only), f"{scores.p_value:.3g}"]
            )
        rows.append(row)
    return format_table(header, rows)


def render_report(
    result: RunResult, summary: RunSummary, bands: Sequence[BandRate] | None = None
) -> str:
    """The whole terminal report: per setting, the main table, timings and comparisons; then the
    win rates by 3BV band, if ``bands`` are given."""
    config = result.config
    blocks = []
    for setting in config.settings:
        mine = [s for s in summary.agents if s.setting == setting.label]
        pairs = [c for c in summary.comparisons if c.setting == setting.label]
        title = (
            f"== {setting.label} (density {setting.density:.3f}): "
            f"{config.games} games per agent, seed {config.seed} =="
        )
        guessers = {spec.label for spec in config.agents if not spec.deduces}
        parts = [title, agent_table(mine, setting.score_mode, guessers)]
        if pairs:
            parts += ["", "paired on the same seeds:", comparison_table(pairs)]
        parts += ["", "timings (vary run to run):", timing_table(mine)]
        blocks.append("\n".join(parts))
    if bands:
        blocks.append(band_table(bands))
    if usage := usage_lines(result.records):
        blocks.append(f"{USAGE_TITLE}\n{format_table(USAGE_HEADER, usage)}")
    return "\n\n".join(blocks)


def package_versions() -> dict[str, str]:
    """Versions of the installed packages among :data:`PACKAGES`, and Python's."""
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def results_document(
    result: RunResult, summary: RunSummary, bands: Sequence[BandRate] | None = None
) -> dict[str, Any]:
    """Everything results.json holds: configuration, provenance, summaries, comparisons (and the
    win rates by 3BV band, if ``bands`` are given)."""
    config = result.config
    by_band = {} if bands is None else {"win_rate_by_3bv": [band.as_dict() for band in bands]}
    return {
        "config": {
            "agents": [agent.as_dict() for agent in config.agents],
            "settings": [setting.as_dict() for setting in config.settings],
            "games": config.games,
            "seed": config.seed,
            "seed_rule": SEED_RULE,
            "game_seeds": game_seeds(config.seed, config.games),
            "workers": config.workers,
            "backend": config.backend,
            "pairs": [list(pair) for pair in config.pairs()],
            **config.extra,
        },
        "provenance": {
            "versions": package_versions(),
            "git": git_state(),
            "platform": platform.platform(),
            "seconds": result.seconds,
        },
        "summaries": [s.as_dict() for s in summary.agents],
        "comparisons": [c.as_dict() for c in summary.comparisons],
        **by_band,
        **({"llm": usage} if (usage := usage_rows(result.records)) else {}),
    }


def write_json(path: Path, document: dict[str, Any]) -> None:
    """Write ``document`` as indented JSON (NaN written as null)."""
    write_text_atomic(path, json.dumps(_no_nan(document), indent=2) + "\n")


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


def write_csv(path: Path, records: Sequence[GameRecord]) -> None:
    """One row per game, columns as :meth:`GameRecord.field_names` (written atomically)."""
    from eval.journal import csv_text

    write_text_atomic(path, csv_text(records))


def command_line(prog: str | None = None, argv: Sequence[str] | None = None) -> str:
    """The command that made a run, for the record (shell-quoted).

    Args:
        prog: the program name to show; None shows the interpreter and ``sys.argv``.
        argv: the arguments; None means ``sys.argv[1:]``.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    head = [prog] if prog is not None else [Path(sys.executable).name, *_script(sys.argv[0])]
    return shlex.join([*head, *args])


def _script(argv0: str) -> list[str]:
    """``["-m", "eval.demo"]`` for a module of this repository run with ``-m``, else the path."""
    root = Path(__file__).resolve().parent.parent
    try:
        relative = Path(argv0).resolve().relative_to(root)
    except (ValueError, OSError):
        return [argv0]
    if relative.parts and relative.parts[0] == "eval" and relative.suffix == ".py":
        parts = list(relative.with_suffix("").parts)
        if parts[-1] == "__main__":
            parts.pop()
        return ["-m", ".".join(parts)]
    return [str(relative)]
