"""One training run, start to finish: naming, seeding, imitation, PPO, evaluation, checkpoints.

Run folder ``<out>/<board>__<algo>__<seed>__<UTC time>/`` (``<board>`` is the preset's name, or
``ROWSxCOLSxMINES`` for a custom board): ``state.json`` (a :class:`train.state.RunState`, with the
settings) + checkpoint files (see :mod:`train.checkpoint`), ``curve.csv`` (win rate against wall
time and steps), ``tb/`` (TensorBoard) and ``progress.csv`` (SB3's log, appended across resumes).

Kills and resumes: the first checkpoint is committed right after the model is built, then after
every DAgger round and every PPO evaluation. A resumed run keeps its saved settings (see
:func:`train.settings.resumed_settings`) and continues bit-identically to an uninterrupted run
with ``vec_env`` ``dummy`` or ``native`` and no time budget (tested); with ``subproc`` the
episodes in progress at the checkpoint restart, and a time budget makes the imitation learning
rate depend on wall time.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import CSVOutputFormat, Logger, configure
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from mswp_gym.atomic import check_output_folder, remove_stale_temporaries, write_text_atomic
from mswp_gym.env import MinesweeperEnv
from mswp_gym.lifetime import die_with_parent
from mswp_gym.presets import preset
from mswp_gym.spec import GameSpec
from train.checkpoint import (
    commit,
    kill_point,
    load_model,
    restore_runtime,
    save_model_atomic,
    save_runtime,
)
from train.dataset import PositionSet, load_positions, save_positions
from train.evaluate import WinRate, evaluate_agent, evaluate_net
from train.imitation import Collector, train_steps
from train.policy import BoardPolicy
from train.rollout import RolloutConfig, solver_labeller
from train.settings import TrainSettings, resumed_settings, saved_settings
from train.state import RunState, read_state

CURVE_FIELDS = ("phase", "iteration", "wall_seconds", "env_steps", "positions", "gradient_samples",
                "wins", "games", "win_rate", "low95", "high95")


class LinearDecay:
    """Learning-rate schedule: ``start`` at progress 1 down to ``end`` at progress 0 (picklable)."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = float(start), float(end)

    def __call__(self, progress_remaining: float) -> float:
        """SB3 passes the remaining progress, from 1 to 0."""
        return self.end + (self.start - self.end) * progress_remaining


def game_spec(settings: TrainSettings) -> GameSpec:
    """The board and rules the run trains on."""
    rows, cols, mines = settings.board
    return GameSpec(rows, cols, mines, settings.first_click)


def board_label(settings: TrainSettings) -> str:
    """The preset's name if the run plays its board, else ``ROWSxCOLSxMINES``."""
    base = preset(settings.preset)
    rows, cols, mines = settings.board
    if (rows, cols, mines) == (base.rows, base.cols, base.mines):
        return base.name
    return f"{rows}x{cols}x{mines}"


def run_name(settings: TrainSettings, now: datetime) -> str:
    """``board__algo__seed__time`` (see :func:`board_label`)."""
    return f"{board_label(settings)}__{settings.algo}__{settings.seed}__{now:%Y%m%d-%H%M%S}"


def make_vec_env(settings: TrainSettings, spec: GameSpec) -> VecEnv:
    """``n_envs`` board envs (DummyVecEnv, SubprocVecEnv, or the batched native
    :class:`mswp_gym.sb3_vec.MinesweeperSB3VecEnv`), with episode stats (VecMonitor)."""

    parent = os.getpid()

    def factory() -> MinesweeperEnv:
        if os.getpid() != parent:  # a SubprocVecEnv worker: end with the run
            die_with_parent(parent)
        return MinesweeperEnv(spec.rows, spec.cols, spec.mines, first_click=spec.first_click)

    if settings.vec_env == "native":
        from mswp_gym.sb3_vec import MinesweeperSB3VecEnv

        native = MinesweeperSB3VecEnv(settings.n_envs, rows=spec.rows, cols=spec.cols,
                                      mines=spec.mines, first_click=spec.first_click)
        return VecMonitor(native, info_keywords=("is_success",))
    makers: list[Callable[[], gym.Env]] = [factory] * settings.n_envs
    env: VecEnv = DummyVecEnv(makers) if settings.vec_env == "dummy" else SubprocVecEnv(makers)
    return VecMonitor(env, info_keywords=("is_success",))


def build_model(settings: TrainSettings, spec: GameSpec, env: VecEnv, tb_dir: Path | None) -> MaskablePPO:
    """A fresh MaskablePPO with the fully-convolutional :class:`BoardPolicy`."""
    policy_kwargs: dict[str, Any] = {
        "features_extractor_kwargs": {
            "mines": spec.mines, "channels": settings.channels, "blocks": settings.blocks,
        },
        "opening_weight": settings.opening_weight,
        "beta": settings.beta,
    }
    return MaskablePPO(
        BoardPolicy, env, learning_rate=LinearDecay(settings.learning_rate, 0.0),
        n_steps=settings.n_steps, batch_size=settings.batch_size, n_epochs=settings.n_epochs,
        gamma=settings.gamma, gae_lambda=settings.gae_lambda, clip_range=settings.clip_range,
        ent_coef=settings.ent_coef, vf_coef=settings.vf_coef, policy_kwargs=policy_kwargs,
        tensorboard_log=None if tb_dir is None else str(tb_dir), seed=settings.seed, device="cpu",
        verbose=0,
    )


class Run:
    """The state of one run and the operations on it (checkpoint, evaluate, log)."""

    def __init__(self, settings: TrainSettings, run_dir: Path, state: RunState) -> None:
        self.settings = settings
        self.spec = game_spec(settings)
        self.run_dir = run_dir
        self.state = state
        self.started = time.monotonic()
        self.wall_before = float(state.wall_seconds)
        progress = run_dir / "progress.csv"
        earlier = progress.read_text() if progress.is_file() else ""
        self.logger: Logger = configure(str(run_dir), ["stdout", "csv", "tensorboard"])
        if earlier:
            keep_csv_log(self.logger, earlier)

    @property
    def wall_seconds(self) -> float:
        """Wall time of the whole run, across resumes."""
        return self.wall_before + time.monotonic() - self.started

    def out_of_time(self) -> bool:
        """Whether the run's wall-time budget is spent."""
        budget = self.settings.time_budget_minutes * 60
        return budget > 0 and self.wall_seconds >= budget

    def say(self, message: str) -> None:
        """One log line, prefixed with the run's wall time."""
        print(f"[{self.wall_seconds:7.1f}s] {message}", flush=True)

    def evaluate(self, policy: BoardPolicy, phase: str, extra: dict[str, float]) -> WinRate:
        """Evaluate ``policy`` on the fixed seeds and append a curve point."""
        result = evaluate_net(policy.cell_net(), self.spec, self.settings.eval_games,
                              self.settings.opening_weight)
        low, high = result.interval
        state = self.state
        point = {"phase": phase, "iteration": state.iteration,
                 "wall_seconds": round(self.wall_seconds, 1), "env_steps": state.num_timesteps,
                 "positions": state.positions_seen, "gradient_samples": state.gradient_samples,
                 "wins": result.wins, "games": result.games, "win_rate": result.rate,
                 "low95": low, "high95": high, **extra}
        state.curve.append(point)
        buffer = io.StringIO(newline="")
        writer = csv.DictWriter(buffer, CURVE_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(state.curve)
        write_text_atomic(self.run_dir / "curve.csv", buffer.getvalue())
        self.say(f"{phase} eval: {result}")
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
        commit(self.run_dir, self.state)


def keep_csv_log(logger: Logger, earlier: str) -> None:
    """Put the rows of an earlier session back at the top of the logger's new ``progress.csv``
    (SB3 opens it for writing; a resumed run appends)."""
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


def run_imitation(run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
    """DAgger rounds until ``dagger_iterations`` or the time budget (see :mod:`train.imitation`)."""
    settings, state = run.settings, run.state
    policy = model.policy
    assert isinstance(policy, BoardPolicy)
    labels = settings.labels
    if labels == "solver" and solver_labeller() is None:
        run.say("agents.solver.mine_probabilities not importable: labelling by the true layout")
        labels = "truth"
    config = RolloutConfig(settings.epsilon, settings.rescue, settings.opening_weight, labels)
    parts = [load_positions(run.run_dir / name)[0] for name in state.positions_files]
    optimizer = policy.optimizer
    net = policy.cell_net()
    collector = Collector(settings.workers)
    try:
        while state.iteration < settings.dagger_iterations and not run.out_of_time():
            iteration = state.iteration + 1
            positions, stats = collector.collect(
                policy.cell_net_copy(), run.spec, settings.games_per_iteration, rng, config)
            name = f"positions-{iteration:04d}.npz"
            save_positions(run.run_dir / name, positions, {
                "rows": run.spec.rows, "cols": run.spec.cols, "mines": run.spec.mines,
                "first_click": run.spec.first_click, "labels": labels})
            parts.append(positions)
            files = [*state.positions_files, name]
            while sum(len(p) for p in parts[1:]) >= settings.buffer_positions:
                parts.pop(0)
                files.pop(0)
            buffer = PositionSet.concatenate(parts)
            fraction = (iteration - 1) / max(settings.dagger_iterations - 1, 1)
            if settings.time_budget_minutes > 0:
                fraction = max(fraction, run.wall_seconds / (settings.time_budget_minutes * 60))
            fraction = min(fraction, 1.0)
            for group in optimizer.param_groups:
                group["lr"] = settings.bc_learning_rate * (1.0 - 0.9 * fraction)
            loss = train_steps(net, optimizer, buffer, settings.gradient_steps_per_iteration,
                               settings.bc_batch_size, rng)
            state.iteration = iteration
            state.positions_files = files
            state.positions_seen += len(positions)
            state.gradient_samples += settings.gradient_steps_per_iteration * settings.bc_batch_size
            run.say(f"dagger {iteration}/{settings.dagger_iterations}: {len(positions)} new "
                    f"positions, buffer {len(buffer)}, loss {loss:.4f}, "
                    f"clean wins {stats['wins']:.0f}/{stats['clean_games']:.0f}")
            result = run.evaluate(policy, "imitation", {"loss": loss})
            for key, value in (("loss", loss), ("win_rate", result.rate),
                               ("buffer", len(buffer)), ("wall_seconds", run.wall_seconds)):
                run.logger.record(f"imitation/{key}", value)
            run.logger.dump(iteration)
            state.rng_state = dict(rng.bit_generator.state)
            run.checkpoint(model, f"dagger{iteration:04d}")
    finally:
        collector.close()


class PPOProgress(BaseCallback):
    """Evaluates, checkpoints (at rollout starts: right after an update) and enforces the budget."""

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.run = run
        self.last_eval = run.state.ppo_last_eval

    def _on_rollout_start(self) -> None:
        steps = int(self.model.num_timesteps)
        if steps - self.last_eval >= self.run.settings.eval_every_steps:
            self.last_eval = steps
            self.run.state.num_timesteps = steps
            self.run.state.ppo_last_eval = steps
            policy = self.model.policy
            assert isinstance(policy, BoardPolicy)
            result = self.run.evaluate(policy, "ppo", {})
            self.logger.record("eval/win_rate", result.rate)
            self.run.checkpoint(self.model, f"ppo{steps:09d}")  # type: ignore[arg-type]

    def _on_step(self) -> bool:
        return not self.run.out_of_time()


def run_ppo(run: Run, model: MaskablePPO) -> None:
    """MaskablePPO until ``total_timesteps`` (counted across resumes) or the time budget."""
    remaining = run.settings.total_timesteps - int(model.num_timesteps)
    if remaining <= 0 or run.out_of_time():
        return
    run.say(f"ppo: {model.num_timesteps} -> {run.settings.total_timesteps} env steps")
    model.set_logger(run.logger)
    model.learn(remaining, callback=PPOProgress(run), reset_num_timesteps=False,
                progress_bar=False)
    run.state.num_timesteps = int(model.num_timesteps)


def read_init(checkpoint: str, board: tuple[int, int, int]) -> MaskablePPO:
    """The ``--init`` checkpoint, checked against the run's board before anything is created.

    Raises:
        FileNotFoundError: nothing at ``checkpoint``.
        ValueError: not a readable checkpoint, or trained on another board (names both).
    """
    source = load_model(checkpoint)
    policy = source.policy
    assert isinstance(policy, BoardPolicy)
    if policy.board != board:
        raise ValueError(f"--init {checkpoint!r} was trained on rows, cols, mines = "
                         f"{policy.board}, this run is {board}")
    return source


def start_from(model: MaskablePPO, source: MaskablePPO, checkpoint: str) -> None:
    """Copy the network weights of ``source`` into ``model`` (a fresh optimizer and schedule).

    Raises:
        ValueError: the checkpoint's network has another shape (channels/blocks).
    """
    target = model.policy
    assert isinstance(target, BoardPolicy)
    try:
        target.load_state_dict(source.policy.state_dict())
    except RuntimeError as exc:
        first = str(exc).strip().splitlines()[0]
        raise ValueError(f"--init {checkpoint!r} has another network shape "
                         f"(channels/blocks): {first}") from None


def phase_after_resume(settings: TrainSettings, state: RunState) -> str:
    """The phase a resumed run continues in: a finished run whose target was raised reopens."""
    if state.phase != "done":
        return state.phase
    if "ppo" in settings.algo and state.num_timesteps < settings.total_timesteps:
        return "ppo"
    if settings.algo == "imitation" and state.iteration < settings.dagger_iterations:
        return "imitation"
    return "done"


def open_run(settings: TrainSettings) -> tuple[TrainSettings, Path, RunState, MaskablePPO | None]:
    """Check everything a run needs, then create (or reopen) its folder.

    Returns:
        The settings to run with, the folder, its state and the ``--init`` checkpoint (if any).

    Raises:
        FileNotFoundError / ValueError: one line each, before any folder is created.
    """
    if settings.resume:
        run_dir = Path(settings.resume)
        state = read_state(run_dir)
        saved = saved_settings(state.settings)
        settings, notices = resumed_settings(saved, settings.to_dict())
        for notice in notices:
            print(notice, flush=True)
        removed = remove_stale_temporaries(run_dir)
        if removed:
            print(f"removed {len(removed)} temporary file(s) a killed save left: "
                  f"{', '.join(p.name for p in removed)}", flush=True)
        missing = [name for name in state.files() if not (run_dir / name).is_file()]
        if missing:
            raise FileNotFoundError(f"run {str(run_dir)!r} is damaged: its state names missing "
                                    f"files {missing}")
        return settings, run_dir, state, None
    settings.check()
    out = check_output_folder(settings.out)
    source = read_init(settings.init, settings.board) if settings.init else None
    run_dir = out / run_name(settings, datetime.now(UTC))
    run_dir.mkdir(exist_ok=False)
    phase = "imitation" if settings.algo.startswith("imitation") else "ppo"
    state = RunState(name=run_dir.name, settings=settings.to_dict(), phase=phase)
    return settings, run_dir, state, source


def train(settings: TrainSettings) -> Path:
    """Run (or resume) one training run; returns its folder.

    Raises:
        FileNotFoundError / ValueError: bad settings, output folder, ``--init`` or ``--resume``
            folder, found before any folder is created or any work is done.
    """
    settings, run_dir, state, source = open_run(settings)
    resumed = bool(settings.resume)
    try:
        return _train(settings, run_dir, state, source, resumed)
    except BaseException as exc:
        committed = (run_dir / "state.json").is_file()
        if not resumed and not committed:
            shutil.rmtree(run_dir, ignore_errors=True)  # nothing to resume: leave no junk folder
        if isinstance(exc, KeyboardInterrupt) and committed:
            raise RunInterrupted(run_dir) from None
        raise


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run that has a committed checkpoint (``run_dir``: its folder)."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(f"interrupted: resume with --resume {run_dir}")
        self.run_dir = run_dir


def _train(settings: TrainSettings, run_dir: Path, state: RunState, source: MaskablePPO | None,
           resumed: bool) -> Path:
    kill_point(0)
    state.settings = settings.to_dict()
    if resumed:
        state.phase = phase_after_resume(settings, state)
    run = Run(settings, run_dir, state)
    run.say(f"run {run_dir} ({'resumed' if resumed else 'new'}), board "
            f"{run.spec.rows}x{run.spec.cols}/{run.spec.mines} first_click={run.spec.first_click}")

    # ---- seeding: the one place randomness is set up --------------------------------------
    th.set_num_threads(settings.torch_threads)
    th.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)  # layouts, exploration, minibatches (imitation)
    if state.rng_state is not None:
        rng.bit_generator.state = state.rng_state
    # PPO's env and sampling seeds come from MaskablePPO(seed=settings.seed) (SB3's own seeding);
    # a resume puts back the envs and the torch/NumPy/random states saved with the checkpoint.
    # -----------------------------------------------------------------------------------------

    env = make_vec_env(settings, run.spec)
    if state.model_file:
        model = load_model(run_dir / state.model_file, env=env)
        model.tensorboard_log = str(run_dir / "tb")
        if state.runtime_file:
            restore_runtime(run_dir / state.runtime_file, model)
    else:
        model = build_model(settings, run.spec, env, run_dir / "tb")
        if source is not None:
            start_from(model, source, settings.init)
            run.say(f"network initialised from {settings.init}")
        run.checkpoint(model, "start")  # a kill from now on leaves a resumable run
    try:
        baselines(run)
        if state.phase == "imitation":
            run_imitation(run, model, rng)
            if settings.algo == "imitation+ppo" and not run.out_of_time():
                state.phase = "ppo"
                run.checkpoint(model, "ppo000000000")
        if state.phase == "ppo":
            run_ppo(run, model)
        policy = model.policy
        assert isinstance(policy, BoardPolicy)
        if state.phase != "done":
            run.evaluate(policy, "final", {})
            state.phase = "done"
            run.checkpoint(model, "final")
        if settings.final_eval_games and (state.final_eval is None
                                          or state.final_eval["games"] != settings.final_eval_games):
            result = evaluate_net(policy.cell_net(), run.spec, settings.final_eval_games,
                                  settings.opening_weight)
            state.final_eval = {"wins": result.wins, "games": result.games,
                                "win_rate": result.rate, "interval": list(result.interval)}
            run.say(f"final evaluation: {result}")
            commit(run.run_dir, state)
        run.say(f"done: {run_dir / state.model_file}")
    finally:
        env.close()
        run.logger.close()
    return run_dir
