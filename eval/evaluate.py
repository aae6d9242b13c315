"""One call that runs an evaluation and writes all its outputs (used by the CLI and the demo)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from eval.agent_specs import AgentSpec
from eval.config import EvalConfig, game_seeds
from eval.knowledge import KnowledgeTrace, trace_knowledge
from eval.plots import plot_knowledge, plot_win_rate_vs_density, plot_win_rates
from eval.progress import progress_bar_factory
from eval.report import render_report, results_document, write_csv, write_json
from eval.runner import RunResult, run
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


def evaluate(
    config: EvalConfig,
    out: Path | None = None,
    *,
    quiet: bool = True,
    plots: bool = True,
    skip_validation: bool = False,
) -> Evaluation:
    """Validate, play every game, summarise, and write ``out/{results.json,games.csv,*.png}``.

    Args:
        config: the run.
        out: output folder (created); None writes nothing.
        quiet: no progress bar.
        plots: write the PNG plots (and trace the knowledge of one game for its chart).
        skip_validation: the caller already validated ``config``.

    Raises:
        eval.runner.EvalSetupError: an agent or setting is unusable; nothing was played.
        ImportError: the Ray backend without Ray.
    """
    result = run(config, progress_bar_factory(quiet), skip_validation=skip_validation)
    summary = summarise_run(result)
    report = render_report(result, summary)
    knowledge = None
    files: list[Path] = []
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        document = results_document(result, summary)
        if plots:
            knowledge = trace_knowledge(
                knowledge_agent_for(config), config.settings[0], game_seeds(config.seed, 1)[0]
            )
            document["knowledge_game"] = knowledge.as_dict()
            labels = [agent.label for agent in config.agents]
            files.append(out / "win_rate.png")
            plot_win_rates(files[-1], config.settings, labels, summary.agents)
            if plot_win_rate_vs_density(
                out / "win_rate_vs_density.png", config.settings, labels, summary.agents
            ):
                files.append(out / "win_rate_vs_density.png")
            files.append(out / "knowledge.png")
            plot_knowledge(files[-1], knowledge)
        write_json(out / "results.json", document)
        write_csv(out / "games.csv", result.records)
        files = [out / "results.json", out / "games.csv", *files]
    return Evaluation(result, summary, report, knowledge, tuple(files))
