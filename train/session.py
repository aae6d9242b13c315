"""What every training algorithm shares of a run: its clocks, evaluation curve, checkpoints and
log (:class:`Run`), and the interface an algorithm's phase offers the run's lifecycle
(:class:`Phase`)."""

from __future__ import annotations

import csv
import io
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import CSVOutputFormat, HumanOutputFormat, Logger, configure
from tqdm import tqdm

from common.atomic import write_text_atomic
from mswp_gym.choices import FirstClick
from mswp_gym.spec import GameSpec
from train.checkpoint import commit, run_lineage, save_model_atomic, save_runtime, write_lineage
from train.evaluate import WinRate, evaluate_agent, evaluate_net
from train.generalist import parse_boards
from train.policy import BoardPolicy
from train.settings import TrainSettings
from train.state import RunState


def game_spec(settings: TrainSettings) -> GameSpec:
    """The board and rules the run trains on."""
    rows, cols, mines = settings.board
    return GameSpec(rows, cols, mines, FirstClick(settings.first_click))


def training_boards(settings: TrainSettings) -> tuple[GameSpec, ...]:
    """The boards imitation collects on: the ``boards`` mix, else the run's board."""
    if settings.boards:
        return parse_boards(settings.boards, settings.first_click)
    return (game_spec(settings),)


class Phase(Protocol):
    """One phase of a training algorithm (``RunState.phase`` names it), as the lifecycle drives
    it."""

    name: str
    """The run's phase while this one trains."""
    entry_tag: str
    """The tag of the checkpoint committed on entering this phase from an earlier one."""

    def unfinished(self, settings: TrainSettings, state: RunState) -> bool:
        """Whether ``settings`` ask for more of this phase than ``state`` has done."""

    def train(self, run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
        """Train ``model`` until this phase's target, the time budget or the sitting's end,
        checkpointing as it goes."""


class Run:
    """The state of one run and the operations on it (checkpoint, evaluate, log)."""

    def __init__(self, settings: TrainSettings, run_dir: Path, state: RunState) -> None:
        self.settings = settings
        self.spec = game_spec(settings)
        self.run_dir = run_dir
        self.state = state
        self.started = time.monotonic()
        self.wall_before = float(state.wall_seconds)
        self.progress_checkpoints = 0
        """Checkpoints this process committed after doing work (rounds, PPO updates)."""
        progress = run_dir / "progress.csv"
        earlier = progress.read_text() if progress.is_file() else ""
        self.logger: Logger = configure(str(run_dir), ["csv", "tensorboard"])
        self.logger.output_formats.append(RunClockOutput(self))
        if earlier:
            keep_csv_log(self.logger, earlier)

    @property
    def wall_seconds(self) -> float:
        """Wall time of the whole run, across resumes."""
        return self.wall_before + time.monotonic() - self.started

    def budget_spent(self) -> float:
        """The fraction of the wall-time budget used, in [0, 1]; 0 without a budget."""
        budget = self.settings.time_budget_minutes * 60
        return min(self.wall_seconds / budget, 1.0) if budget > 0 else 0.0

    def out_of_time(self) -> bool:
        """Whether the run's wall-time budget is spent."""
        budget = self.settings.time_budget_minutes * 60
        return budget > 0 and self.wall_seconds >= budget

    def sitting_over(self) -> bool:
        """Whether this sitting's ``sitting_minutes`` are spent (after at least one checkpoint)."""
        sitting = self.settings.sitting_minutes * 60
        return (
            sitting > 0
            and self.progress_checkpoints > 0
            and time.monotonic() - self.started >= sitting
        )

    def eta(self, done: int, total: int) -> str:
        """Time left, ``H:MM:SS``, by the mean time per unit so far, capped by the budget."""
        left = self.wall_seconds / max(done, 1) * max(total - done, 0)
        budget = self.settings.time_budget_minutes * 60
        if budget > 0:
            left = min(left, max(budget - self.wall_seconds, 0.0))
        return str(timedelta(seconds=round(left)))

    def progress(self, done: int, total: int, unit: str) -> str:
        """``3/60 rounds``, or under a time budget ``round 3, 1.4 of 2 budget minutes``."""
        budget = self.settings.time_budget_minutes
        if budget <= 0:
            return f"{done}/{total} {unit}"
        return (
            f"{unit.rstrip('s')} {done}, {self.wall_seconds / 60:.1f} of {budget:g} budget minutes"
        )

    def say(self, message: str) -> None:
        """One log line, prefixed with the run's wall time."""
        print(f"[{self.wall_seconds:7.1f}s] {message}", flush=True)

    def evaluate(
        self, policy: BoardPolicy, phase: str, extra: dict[str, float], label: str = ""
    ) -> WinRate:
        """Evaluate ``policy`` on the fixed seeds and append a curve point; the log line names
        ``label`` (default ``phase``)."""
        settings = self.settings
        result = evaluate_net(
            policy.cell_net_copy(), self.spec, settings.eval_games, settings.opening_weight
        )
        low, high = result.interval
        state = self.state
        point = {
            "phase": phase,
            "iteration": state.iteration,
            "wall_seconds": round(self.wall_seconds, 1),
            "env_steps": state.num_timesteps,
            "positions": state.positions_seen,
            "gradient_samples": state.gradient_samples,
            "wins": result.wins,
            "games": result.games,
            "win_rate": result.rate,
            "low95": low,
            "high95": high,
        }
        state.curve.append({**point, **extra})
        buffer = io.StringIO(newline="")
        # The extras go to state.json only.
        writer = csv.DictWriter(buffer, list(point), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(state.curve)
        write_text_atomic(self.run_dir / "curve.csv", buffer.getvalue())
        label = f"{label or phase} eval"
        if phase == "final":  # one "final evaluation" line: the larger one, if it follows
            label = "last curve eval" if settings.final_eval_games else "final evaluation"
        self.say(f"{label}: {result}")
        return result

    def checkpoint(self, model: MaskablePPO, tag: str) -> None:
        """Save the model and its runtime state, then commit the state that names them."""
        model_file, runtime_file = f"model-{tag}.zip", f"runtime-{tag}.pkl"
        save_model_atomic(model, self.run_dir / model_file)
        has_runtime = save_runtime(self.run_dir / runtime_file, model)
        self.state.model_file = model_file
        self.state.runtime_file = runtime_file if has_runtime else ""
        self.state.wall_seconds = self.wall_seconds
        self.state.num_timesteps = int(model.num_timesteps)
        write_lineage(self.run_dir / model_file, run_lineage(self.state))
        commit(self.run_dir, self.state)
        if tag != "start":
            self.progress_checkpoints += 1


class RunClockOutput(HumanOutputFormat):
    """SB3's terminal table with ``time/time_elapsed`` on the run's clock (across resumes)."""

    def __init__(self, run: Run) -> None:
        super().__init__(sys.stdout)
        self.run = run

    def write(self, key_values: dict[str, Any], key_excluded: Any, step: int = 0) -> None:
        """See :class:`~stable_baselines3.common.logger.HumanOutputFormat`."""
        if "time/time_elapsed" in key_values:
            key_values = {**key_values, "time/time_elapsed": round(self.run.wall_seconds)}
        super().write(key_values, key_excluded, step)


def baseline_comparison(run: Run, games: int) -> str:
    """``; logic 80.2%, solver 90.1% on the same seeds`` (with ``eval_baselines``), else empty."""
    if not run.settings.eval_baselines:
        return ""
    results = [evaluate_agent(name, run.spec, games) for name in ("logic", "solver")]
    found = [f"{r.name} {r.rate:.1%}" for r in results if r is not None]
    return f"; {', '.join(found)} on the same seeds" if found else ""


def keep_csv_log(logger: Logger, earlier: str) -> None:
    """Put an earlier session's rows back at the top of the logger's new ``progress.csv``."""
    for output in logger.output_formats:
        if isinstance(output, CSVOutputFormat):
            lines = earlier.splitlines(keepends=True)
            if lines and not lines[-1].endswith("\n"):
                lines.pop()  # torn by a kill mid-write
            if lines:
                output.file.write("".join(lines))
                output.file.flush()
                output.keys = lines[0].rstrip("\n").split(",")


def baselines(run: Run) -> None:
    """Evaluate the logic agent and the solver once on the evaluation seeds (if importable)."""
    if not run.settings.eval_baselines or run.state.baselines is not None:
        return
    found: dict[str, dict[str, float]] = {}
    for name in ("logic", "solver"):
        result = evaluate_agent(name, run.spec, run.settings.eval_games)
        if result is None:
            run.say(f"baseline {name!r} not importable: skipped")
            continue
        run.say(f"baseline {result}")
        found[name] = {"wins": result.wins, "games": result.games, "win_rate": result.rate}
        run.logger.record(f"baseline/{name}_win_rate", result.rate)
    run.state.baselines = found
    # Reference agents are not training: the run's wall clock starts after them.
    run.started = time.monotonic()


def progress_bar(run: Run, total: int, done: int, what: str, unit: str) -> tqdm:
    """A terminal progress bar (no total under a time budget); silent when stderr is not a
    terminal."""
    return tqdm(
        total=None if run.settings.time_budget_minutes > 0 else total,
        initial=min(done, total),
        desc=what,
        unit=unit,
        disable=None,
        dynamic_ncols=True,
        leave=False,
    )
