"""PNG plots of a run (matplotlib, Agg backend: no display needed).

``win_rate.png`` (score mode: mean score) per setting and agent, ``win_rate_vs_density.png`` for
board sizes swept over densities, ``win_rate_by_3bv.png`` (``--by 3bv``), and ``knowledge.png``:
known safes, mines and sentences per move of one game. Rates carry 95% intervals.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from common.atomic import atomic_path
from common.stats import Interval
from eval.knowledge import KnowledgeTrace
from eval.report import BandRate
from eval.settings import Setting
from eval.summary import AgentSummary

DPI = 120
DODGE = 0.008
"""Horizontal offset between agents in the density plot, as a share of the density range."""


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, path: Path) -> None:
    """Lay out ``fig``, write it to ``path`` atomically and close it."""
    fig.tight_layout()
    with atomic_path(path) as temporary:
        fig.savefig(temporary, dpi=DPI)
    plt.close(fig)


def _figure_value(summary: AgentSummary) -> Interval:
    """The plotted figure: the CS520 score in score mode, else the win rate."""
    return summary.score if summary.score is not None else summary.win_rate


def _whiskers(values: Sequence[Interval]) -> list[list[float]]:
    """Matplotlib's ``yerr`` of the intervals: distances from each estimate down and up."""
    return [
        [max(0.0, v.estimate - v.low) for v in values],
        [max(0.0, v.high - v.estimate) for v in values],
    ]


def plot_win_rates(
    path: Path,
    settings: Sequence[Setting],
    agents: Sequence[str],
    summaries: Sequence[AgentSummary],
) -> None:
    """Grouped bars: one group per setting, one bar per agent, with 95% interval whiskers."""
    plt = _pyplot()
    by_key = {(s.setting, s.agent): s for s in summaries}
    width = 0.8 / max(len(agents), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(settings) * max(1, len(agents)) / 3), 4.2))
    for j, agent in enumerate(agents):
        values = [_figure_value(by_key[(setting.label, agent)]) for setting in settings]
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(settings))]
        ys = [v.estimate for v in values]
        ax.bar(xs, ys, width=width, yerr=_whiskers(values), capsize=3, label=agent)
    ax.set_xticks(range(len(settings)))
    ax.set_xticklabels([s.label for s in settings], rotation=15, ha="right", fontsize=8)
    score = any(s.score_mode for s in settings)
    ax.set_ylabel("mines identified safely / mines" if score else "win rate")
    ax.set_ylim(0, 1)
    ax.set_title("95% intervals (" + ("normal" if score else "Wilson") + ")")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _save(plt, fig, path)


def density_groups(settings: Sequence[Setting]) -> dict[tuple[int, int, str, bool], list[Setting]]:
    """Settings grouped by board size and rules, keeping groups with two or more densities."""
    groups: dict[tuple[int, int, str, bool], list[Setting]] = {}
    for setting in settings:
        groups.setdefault(
            (setting.rows, setting.cols, setting.first_click, setting.score_mode), []
        ).append(setting)
    return {
        key: sorted(group, key=lambda s: s.mines)
        for key, group in groups.items()
        if len(group) >= 2
    }


def plot_win_rate_vs_density(
    path: Path,
    settings: Sequence[Setting],
    agents: Sequence[str],
    summaries: Sequence[AgentSummary],
) -> bool:
    """Win rate (or score) against mine density with 95% intervals, one panel per board size.

    Returns:
        False (and writes nothing) if no board size was run at two or more densities.
    """
    groups = density_groups(settings)
    if not groups:
        return False
    plt = _pyplot()
    by_key = {(s.setting, s.agent): s for s in summaries}
    fig, axes = plt.subplots(1, len(groups), figsize=(5.5 * len(groups), 4.2), squeeze=False)
    for ax, ((rows, cols, rule, score), group) in zip(axes[0], groups.items(), strict=True):
        spread = group[-1].density - group[0].density
        for j, agent in enumerate(agents):
            values = [_figure_value(by_key[(s.label, agent)]) for s in group]
            dodge = DODGE * spread * (j - (len(agents) - 1) / 2)  # keep whiskers apart
            xs = [s.density + dodge for s in group]
            ys = [v.estimate for v in values]
            ax.errorbar(xs, ys, yerr=_whiskers(values), marker="o", capsize=3, label=agent)
        ax.set_xlabel("mine density (mines / cells)")
        ax.set_ylabel("mines identified safely / mines" if score else "win rate")
        ax.set_ylim(0, 1.02)
        ax.set_title(
            f"{rows}x{cols}, first click {rule}"
            + (", score mode (normal 95% CI)" if score else " (Wilson 95% CI)")
        )
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    _save(plt, fig, path)
    return True


def plot_win_rate_by_bbbv(path: Path, rates: Sequence[BandRate]) -> None:
    """Win rate per 3BV band with Wilson 95% intervals, one panel per setting, a line per agent."""
    plt = _pyplot()
    settings = list(dict.fromkeys(r.setting for r in rates))
    fig, axes = plt.subplots(1, len(settings), figsize=(5.5 * len(settings), 4.2), squeeze=False)
    for ax, setting in zip(axes[0], settings, strict=True):
        mine = [r for r in rates if r.setting == setting]
        bands = sorted(dict.fromkeys((r.low, r.band) for r in mine))
        where = {band: i for i, (_, band) in enumerate(bands)}
        agents = list(dict.fromkeys(r.agent for r in mine))
        for j, agent in enumerate(agents):
            points = [r for r in mine if r.agent == agent]
            xs = [where[r.band] + 0.06 * (j - (len(agents) - 1) / 2) for r in points]
            values = [r.win_rate for r in points]
            ys = [v.estimate for v in values]
            ax.errorbar(xs, ys, yerr=_whiskers(values), marker="o", capsize=3, label=agent)
        ax.set_xticks(range(len(bands)))
        ax.set_xticklabels([band for _, band in bands])
        ax.set_xlabel("3BV band")
        ax.set_ylabel("win rate")
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{setting} (Wilson 95% CI)", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    _save(plt, fig, path)


def plot_knowledge(path: Path, trace: KnowledgeTrace) -> None:
    """Known safes, known mines and sentences at each move of one game; guesses marked."""
    plt = _pyplot()
    moves = [step.move for step in trace.steps]
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.plot(moves, [s.known_safes for s in trace.steps], label="known safe (unrevealed)")
    ax.plot(moves, [s.known_mines for s in trace.steps], label="known mines")
    if all(s.sentences is not None for s in trace.steps) and trace.steps:
        ax.plot(moves, [s.sentences for s in trace.steps], label="sentences")
    guesses = [s.move for s in trace.steps if not s.certain]
    for i, move in enumerate(guesses):
        ax.axvline(move, color="grey", alpha=0.35, linewidth=0.8, label="guess" if i == 0 else None)
    ax.set_xlabel("move")
    ax.set_ylabel("count")
    ax.set_title(
        f"{trace.agent} on {trace.setting}, seed {trace.seed}: {trace.outcome}", fontsize=9
    )
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    _save(plt, fig, path)
