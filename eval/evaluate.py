"""One call that runs an evaluation and writes all its outputs (used by the CLI and the demo)."""

from __future__ import annotations

import importlib.util
import os
import signal
from dataclasses import dataclass
from pathlib import Path

from eval.agent_specs import AgentSpec
from eval.config import EvalConfig, game_seeds
from eval.games import GameRecord
from eval.journal import GAMES, PLOTS, GameLog, Manifest, read_games
from eval.knowledge import KnowledgeTrace, trace_knowledge
from eval.plots import plot_knowledge, plot_win_rate_vs_density, plot_win_rates
from eval.progress import progress_bar_factory
from eval.report import render_report, results_document, write_csv, write_json
from eval.runner import RunResult, run, validate
from eval.summary import RunSummary, summarise_run
from mswp_gym.atomic import check_output_folder

DEFAULT_KNOWLEDGE_AGENT = "logic"


@dataclass(frozen=True)
class Evaluation:
    """A finished run: the records, the figures, the terminal report and the files written."""

    result: RunResult
    summary: RunSummary
    report: str
    knowledge: KnowledgeTrace | None
    files: tuple[Path, ...]


def knowledge_agent_for(config: EvalConfig) -> AgentSpec:
    """The first logic-family agent of the run, else the plain logic agent."""
    for agent in config.agents:
        if agent.make_name == DEFAULT_KNOWLEDGE_AGENT:
            return agent
    return AgentSpec(DEFAULT_KNOWLEDGE_AGENT, DEFAULT_KNOWLEDGE_AGENT)


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped an evaluation; the games finished so far are kept."""

    def __init__(self, played: int, total: int, out: Path | None) -> None:
        where = (
            f"kept in {out / GAMES}; finish with: mswp-eval --resume {out}"
            if out is not None
            else "not kept (no --out)"
        )
        super().__init__(f"interrupted after {played} of {total} games; they are {where}")
        self.played, self.total, self.out = played, total, out


KILL_HOOK = "MSWP_EVAL_KILL_AFTER_CHUNKS"
"""Fault injection for the kill tests: SIGKILL this process after appending N chunks."""


def evaluate(
    config: EvalConfig,
    out: Path | None = None,
    *,
    quiet: bool = True,
    plots: bool = True,
    skip_validation: bool = False,
    argv: list[str] | None = None,
    resume: bool = False,
) -> Evaluation:
    """Validate, play every game, summarise, and write ``out/{results.json,games.csv,*.png}``.

    With ``out``, ``run.json`` is written first and each finished chunk is appended to
    ``games.csv`` at once (see :mod:`eval.journal`), so a killed run can be resumed.

    Args:
        out: output folder (checked and created before anything runs); None writes nothing.
        quiet: no progress bar.
        plots: write the PNG plots (and trace the knowledge of one game for its chart); without
            plots, PNGs of an earlier run in ``out`` are removed.
        skip_validation: the caller already validated ``config``.
        argv: the command's arguments, stored in ``run.json`` for ``--resume``.
        resume: keep the games already in ``out/games.csv`` and play only the others.

    Raises:
        ValueError: ``out`` is not a writable folder (before any game).
        eval.runner.EvalSetupError: an agent or setting is unusable; nothing was played.
        ImportError: the Ray backend without Ray.
        EvalInterrupted: Ctrl-C; the finished games are in ``out/games.csv``.
    """
    total = len(config.settings) * len(config.agents) * config.games
    log = None
    done: list[GameRecord] = []
    if out is not None:
        check_output_folder(out)
        done = read_games(out / GAMES) if resume else []
    if not skip_validation:
        validate(config)
    if out is not None:
        Manifest(argv, total).write(out)
        log = GameLog(out, fresh=not resume)
    played = [len(done)]
    chunks = [0]

    def sink(records: list[GameRecord]) -> None:
        if log is not None:
            log.append(records)
        played[0] += len(records)
        chunks[0] += 1
        if os.environ.get(KILL_HOOK) == str(chunks[0]):
            os.kill(os.getpid(), signal.SIGKILL)

    try:
        result = run(
            config, progress_bar_factory(quiet), skip_validation=True, done=done, sink=sink
        )
    except KeyboardInterrupt:
        raise EvalInterrupted(min(played[0], total), total, out) from None
    finally:
        if log is not None:
            log.close()
    summary = summarise_run(result)
    report = render_report(result, summary)
    if out is not None and plots and importlib.util.find_spec("matplotlib") is None:
        plots = False
        report += f"\n\n{NO_PLOTS}"
    knowledge = None
    files: list[Path] = []
    if out is not None:
        document = results_document(result, summary)
        if plots:
            knowledge, files = _draw_plots(out, config, summary)
            document["knowledge_game"] = knowledge.as_dict()
        _remove_stale_plots(out, files)
        write_json(out / "results.json", document)
        write_csv(out / GAMES, result.records)
        Manifest(argv, total, complete=True).write(out)
        files = [out / "results.json", out / GAMES, *files]
    return Evaluation(result, summary, report, knowledge, tuple(files))


NO_PLOTS = "no plots: matplotlib is missing (pip install 'mswp-gym[eval]' adds it)"
"""The report's last line when plots were asked for but matplotlib is not installed."""


def _draw_plots(
    out: Path, config: EvalConfig, summary: RunSummary
) -> tuple[KnowledgeTrace, list[Path]]:
    """Draw the PNG plots into ``out``: the traced knowledge game and the files drawn."""
    knowledge = trace_knowledge(
        knowledge_agent_for(config), config.settings[0], game_seeds(config.seed, 1)[0]
    )
    labels = [agent.label for agent in config.agents]
    files = [out / "win_rate.png"]
    plot_win_rates(files[-1], config.settings, labels, summary.agents)
    if plot_win_rate_vs_density(
        out / "win_rate_vs_density.png", config.settings, labels, summary.agents
    ):
        files.append(out / "win_rate_vs_density.png")
    files.append(out / "knowledge.png")
    plot_knowledge(files[-1], knowledge)
    return knowledge, files


def _remove_stale_plots(out: Path, drawn: list[Path]) -> None:
    """Delete an earlier run's plots in ``out`` that this run did not redraw."""
    for name in PLOTS:
        if out / name not in drawn and (out / name).is_file():
            (out / name).unlink()
