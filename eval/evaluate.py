"""One call that runs an evaluation and writes all its outputs (used by the CLI and the demo)."""

from __future__ import annotations

import importlib.util
import os
import signal
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from agents.llm import EndpointError
from common.atomic import check_output_folder
from common.workers import WORKER_DIED
from eval.agent_specs import AgentSpec
from eval.config import EvalConfig, game_seeds
from eval.games import GameRecord
from eval.journal import GAMES, PLOTS, GameLog, Manifest, read_games
from eval.knowledge import KnowledgeTrace, trace_knowledge
from eval.plots import (
    plot_knowledge,
    plot_win_rate_by_bbbv,
    plot_win_rate_vs_density,
    plot_win_rates,
)
from eval.progress import progress_bar_factory
from eval.report import (
    BandRate,
    rates_by_bbbv,
    render_report,
    results_document,
    write_csv,
    write_json,
)
from eval.runner import RunResult, run, validate
from eval.summary import RunSummary, summarise_run

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


def kept(played: int, total: int, out: Path | None) -> str:
    """Where the games played so far are, and how to finish the run."""
    if played == 0 and out is None:
        return "before any game was played"
    where = (
        f"kept in {out / GAMES}; finish with: mswp-eval --resume {out}"
        if out is not None
        else "not kept (no --out)"
    )
    return f"after {played} of {total} games; they are {where}"


class EvalInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped an evaluation; the games finished so far are kept."""

    def __init__(self, played: int, total: int, out: Path | None) -> None:
        super().__init__(f"interrupted {kept(played, total, out)}")
        self.played, self.total, self.out = played, total, out


class EvalWorkerDied(RuntimeError):
    """A worker process was killed, or an ``llm:`` agent's endpoint stopped answering, mid-run;
    the games finished so far are kept."""

    def __init__(
        self, played: int, total: int, out: Path | None, reason: str = WORKER_DIED
    ) -> None:
        super().__init__(f"{reason}: stopped {kept(played, total, out)}")
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
    by: str | None = None,
) -> Evaluation:
    """Validate, play every game, summarise, and write ``out/{results.json,games.csv,*.png}``.

    With ``out``, ``run.json`` is written first and each finished chunk is appended to
    ``games.csv`` at once (see :mod:`eval.journal`), so a killed run can be resumed.

    Args:
        out: output folder (checked and created before anything runs); None writes nothing.
        plots: write the PNG plots; without, PNGs of an earlier run in ``out`` are removed.
        argv: the command's arguments, stored in ``run.json`` for ``--resume``.
        resume: keep the games already in ``out/games.csv`` and play only the others.
        by: ``"3bv"`` adds each agent's win rate per 3BV band (report, JSON and a plot).

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
    except (BrokenProcessPool, EndpointError) as exc:
        reason = str(exc) if isinstance(exc, EndpointError) else WORKER_DIED
        raise EvalWorkerDied(min(played[0], total), total, out, reason) from None
    finally:
        if log is not None:
            log.close()
    summary = summarise_run(result)
    bands = rates_by_bbbv(result.records) if by == "3bv" else None
    report = render_report(result, summary, bands)
    if out is None:
        return Evaluation(result, summary, report, None, ())
    if plots and importlib.util.find_spec("matplotlib") is None:
        plots = False
        report += f"\n\n{NO_PLOTS}"
    knowledge, files = _write_results(out, config, result, summary, bands, plots)
    Manifest(argv, total, complete=True).write(out)
    return Evaluation(result, summary, report, knowledge, files)


def _write_results(
    out: Path,
    config: EvalConfig,
    result: RunResult,
    summary: RunSummary,
    bands: list[BandRate] | None,
    plots: bool,
) -> tuple[KnowledgeTrace | None, tuple[Path, ...]]:
    """Write ``results.json``, ``games.csv`` and (with ``plots``) the PNGs into ``out``.

    Returns:
        The traced knowledge game (None without plots) and the files written.
    """
    document = results_document(result, summary, bands)
    knowledge = None
    drawn: list[Path] = []
    if plots:
        knowledge, drawn = _draw_plots(out, config, summary, bands)
        document["knowledge_game"] = knowledge.as_dict()
    _remove_stale_plots(out, drawn)
    write_json(out / "results.json", document)
    write_csv(out / GAMES, result.records)
    return knowledge, (out / "results.json", out / GAMES, *drawn)


NO_PLOTS = "no plots: matplotlib is missing (pip install 'mswp-gym[eval]' adds it)"
"""The report's last line when plots were asked for but matplotlib is not installed."""


def _draw_plots(
    out: Path, config: EvalConfig, summary: RunSummary, bands: list[BandRate] | None
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
    if bands:
        files.append(out / "win_rate_by_3bv.png")
        plot_win_rate_by_bbbv(files[-1], bands)
    files.append(out / "knowledge.png")
    plot_knowledge(files[-1], knowledge)
    return knowledge, files


def _remove_stale_plots(out: Path, drawn: list[Path]) -> None:
    """Delete an earlier run's plots in ``out`` that this run did not redraw."""
    for name in PLOTS:
        if out / name not in drawn and (out / name).is_file():
            (out / name).unlink()
