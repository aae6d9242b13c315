"""One training run, start to finish: naming, seeding, imitation, PPO, evaluation, checkpoints.

Run folder ``<out>/<board>__<algo>__<seed>__<UTC time>/`` (``<board>`` is the preset's name, or
``ROWSxCOLSxMINES`` for a custom board): ``state.json`` (a :class:`train.state.RunState`, with the
settings) + checkpoint files (see :mod:`train.checkpoint`), ``curve.csv`` (win rate against wall
time and steps), ``tb/`` (TensorBoard) and ``progress.csv`` (SB3's log, appended across resumes).

A checkpoint is committed when the model is built, after every DAgger round and every PPO
evaluation. A resumed run keeps its saved settings and continues bit-identically (``vec_env``
``dummy`` or ``native``, no time budget; ``subproc`` restarts the episodes in progress).
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import sys
import time
import zipfile
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import (
    CSVOutputFormat,
    HumanOutputFormat,
    Logger,
    configure,
)
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor
from tqdm import tqdm

from agents import registry
from common.atomic import (
    check_output_folder,
    first_missing,
    remove_stale_temporaries,
    write_text_atomic,
)
from common.cli import one_line
from common.lifetime import die_with_parent
from common.workers import WORKER_DIED, check_ray_address
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig
from mswp_gym.env import MinesweeperEnv
from mswp_gym.presets import preset
from mswp_gym.spec import GameSpec
from train.checkpoint import (
    RuntimeFromOtherCode,
    commit,
    kill_point,
    load_model,
    read_model,
    resolve_checkpoint,
    restore_runtime,
    run_lineage,
    save_model_atomic,
    save_runtime,
    write_lineage,
)
from train.dataset import load_positions, save_positions
from train.device import resolve_device
from train.evaluate import WinRate, evaluate_agent, evaluate_net
from train.generalist import board_tag, parse_boards, spec_from_meta, split_games, windows_for
from train.imitation import BoardBuffer, Collector, guess_positions, train_round
from train.network import MINE_HEAD, MOVE_HEAD
from train.policy import BoardPolicy
from train.rollout import RolloutConfig, solver_labeller
from train.settings import REWARD_CONFIGS, TrainSettings, resumed_settings, saved_settings
from train.state import RunState, read_state

CURVE_FIELDS = (
    "phase",
    "iteration",
    "wall_seconds",
    "env_steps",
    "positions",
    "gradient_samples",
    "wins",
    "games",
    "win_rate",
    "low95",
    "high95",
)


class LinearDecay:
    """Learning-rate schedule: ``start`` at progress 1 down to ``end`` at progress 0 (picklable),
    or by ``spent`` (the time budget's fraction used, set by the PPO callback with
    ``ppo_lr_follows_budget``) where that is further along."""

    spent: float = 0.0
    """The wall-time budget's fraction used, in [0, 1] (a class default: older pickles lack it)."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = float(start), float(end)

    def __call__(self, progress_remaining: float) -> float:
        """SB3 passes the remaining progress, from 1 to 0."""
        remaining = min(progress_remaining, 1.0 - self.spent)
        return self.end + (self.start - self.end) * remaining


def game_spec(settings: TrainSettings) -> GameSpec:
    """The board and rules the run trains on."""
    rows, cols, mines = settings.board
    return GameSpec(rows, cols, mines, FirstClick(settings.first_click))


def board_label(settings: TrainSettings) -> str:
    """``boardsN`` for a mix of N boards, the preset's name for its board, else
    ``ROWSxCOLSxMINES``."""
    if settings.boards:
        return f"boards{len(parse_boards(settings.boards, settings.first_click))}"
    base = preset(settings.preset)
    if settings.board == (base.rows, base.cols, base.mines):
        return base.name
    return board_tag(game_spec(settings))


def training_boards(settings: TrainSettings) -> tuple[GameSpec, ...]:
    """The boards imitation collects on: the ``boards`` mix, else the run's board."""
    if settings.boards:
        return parse_boards(settings.boards, settings.first_click)
    return (game_spec(settings),)


def run_name(settings: TrainSettings, now: datetime) -> str:
    """``board__algo__seed__time`` (see :func:`board_label`)."""
    return f"{board_label(settings)}__{settings.algo}__{settings.seed}__{now:%Y%m%d-%H%M%S}"


def make_vec_env(settings: TrainSettings, spec: GameSpec) -> VecEnv:
    """``n_envs`` board envs (DummyVecEnv, SubprocVecEnv, or the batched native
    :class:`mswp_gym.vector.sb3_vec.MinesweeperSB3VecEnv`), with episode stats."""

    parent = os.getpid()

    def factory() -> MinesweeperEnv:
        if os.getpid() != parent:  # a SubprocVecEnv worker: end with the run
            die_with_parent(parent)
        return MinesweeperEnv(config=config)

    rewards = REWARD_CONFIGS[settings.rewards]()
    config = GameConfig.from_spec(spec, rewards=rewards)
    if settings.vec_env == "native":
        from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

        native: VecEnv = MinesweeperSB3VecEnv(settings.n_envs, config=config)
        return VecMonitor(native, info_keywords=("is_success",))
    makers: list[Callable[[], gym.Env]] = [factory] * settings.n_envs
    env: VecEnv = DummyVecEnv(makers) if settings.vec_env == "dummy" else SubprocVecEnv(makers)
    return VecMonitor(env, info_keywords=("is_success",))


def eval_command(settings: TrainSettings, model_path: Path) -> str:
    """The ``python -m eval`` line comparing the checkpoint with logic and solver agents; it is
    named ``rl:`` only when its whole lineage learned from reward alone."""
    base = preset(settings.preset)
    where = []
    for spec in training_boards(settings):
        if (spec.rows, spec.cols, spec.mines) == (base.rows, base.cols, base.mines):
            where.append(f"--preset {settings.preset}")
        else:
            where.append(f"--rows {spec.rows} --cols {spec.cols} --mines {spec.mines}")
    from train.settings import REWARD_ONLY

    init = registry.shipped_name(settings.init) or ("" if not settings.init else "a file")
    reward_only = settings.algo in REWARD_ONLY and (not init or init.startswith("rl:"))
    agents_list = f"{'rl' if reward_only else 'net'}:{model_path},logic,logic:global,solver"
    return " ; ".join(
        f"python -m eval --agents {agents_list} {board} --first-click "
        f"{settings.first_click} --games 2000"
        for board in dict.fromkeys(where)
    )


def build_model(
    settings: TrainSettings, spec: GameSpec, env: VecEnv, tb_dir: Path | None
) -> MaskablePPO:
    """A fresh MaskablePPO with the fully-convolutional :class:`BoardPolicy`."""
    policy_kwargs: dict[str, Any] = {
        "features_extractor_kwargs": {
            "mines": spec.mines,
            "channels": settings.channels,
            "blocks": settings.blocks,
        },
        "opening_weight": settings.opening_weight,
        "beta": settings.beta,
        "any_board": bool(settings.boards),
        "move_head": settings.move_weight > 0,
    }
    return MaskablePPO(
        BoardPolicy,
        env,
        **schedules(settings),
        n_steps=settings.n_steps,
        batch_size=settings.batch_size,
        n_epochs=settings.n_epochs,
        gamma=settings.gamma,
        gae_lambda=settings.gae_lambda,
        ent_coef=settings.ent_coef,
        vf_coef=settings.vf_coef,
        policy_kwargs=policy_kwargs,
        tensorboard_log=None if tb_dir is None else str(tb_dir),
        seed=settings.seed,
        device=resolve_device(settings.device),
        verbose=0,
    )


def schedules(settings: TrainSettings) -> dict[str, Any]:
    """The run's PPO schedules (a checkpoint's pickled ones are never loaded)."""
    return {
        "learning_rate": LinearDecay(settings.learning_rate, 0.0),
        "clip_range": settings.clip_range,
    }


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

    def evaluate(self, policy: BoardPolicy, phase: str, extra: dict[str, float]) -> WinRate:
        """Evaluate ``policy`` on the fixed seeds and append a curve point."""
        result = evaluate_net(
            policy.cell_net_copy(),
            self.spec,
            self.settings.eval_games,
            self.settings.opening_weight,
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
            **extra,
        }
        state.curve.append(point)
        buffer = io.StringIO(newline="")
        writer = csv.DictWriter(buffer, CURVE_FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(state.curve)
        write_text_atomic(self.run_dir / "curve.csv", buffer.getvalue())
        label = f"{'bandit' if self.settings.algo == 'bandit' else phase} eval"
        if phase == "final":  # one "final evaluation" line: the larger one, if it follows
            label = "last curve eval" if self.settings.final_eval_games else "final evaluation"
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


def run_imitation(run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
    """DAgger rounds until ``dagger_iterations`` or the time budget (see :mod:`train.imitation`)."""
    settings, state = run.settings, run.state
    policy = model.policy
    assert isinstance(policy, BoardPolicy)
    by_reward = settings.algo == "bandit"
    labels = "reward" if by_reward else "solver" if solver_labeller() is not None else "truth"
    config = RolloutConfig(
        settings.epsilon,
        0.0 if by_reward else settings.rescue,
        settings.opening_weight,
        labels,
        move_labels=settings.move_weight > 0,
    )
    specs = training_boards(settings)
    windows = windows_for(specs)
    for name in state.positions_files:
        try:
            positions, meta = load_positions(run.run_dir / name)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise damaged(run.run_dir / name, exc) from None
        spec = spec_from_meta(meta, settings.first_click)
        if spec not in windows:
            raise ValueError(f"{name!r} holds {board_tag(spec)} positions, not a board of this run")
        windows[spec].files.append(name)
        windows[spec].parts.append(positions)
    limit = settings.buffer_positions // len(specs)
    optimizer = policy.optimizer
    net = policy.cell_net()
    collector = Collector(settings.workers, settings.backend, settings.ray_address or None)
    # a round's positions are written beside its gradient steps (zlib lets go of the GIL)
    saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="save-positions")
    bar = progress_bar(run, settings.dagger_iterations, state.iteration, "dagger", "round")
    try:
        while (
            state.iteration < settings.dagger_iterations
            and not run.out_of_time()
            and not run.sitting_over()
        ):
            iteration = state.iteration + 1
            round_started = time.perf_counter()
            learner = policy.cell_net_copy("cpu")
            round_positions = round_guesses = 0
            wins = clean = collect_wall = 0.0
            saves: list[Future[None]] = []
            for spec, games in zip(
                specs, split_games(settings.games_per_iteration, len(specs)), strict=True
            ):
                tick = time.perf_counter()
                positions, stats = collector.collect(learner, spec, games, rng, config)
                collect_wall += time.perf_counter() - tick
                name = (
                    f"positions-{iteration:04d}.npz"
                    if len(specs) == 1
                    else f"positions-{iteration:04d}-{board_tag(spec)}.npz"
                )
                meta = {
                    "rows": spec.rows,
                    "cols": spec.cols,
                    "mines": spec.mines,
                    "first_click": spec.first_click,
                    "labels": labels,
                }
                saves.append(saver.submit(save_positions, run.run_dir / name, positions, meta))
                windows[spec].add(name, positions, limit)
                round_positions += len(positions)
                round_guesses += int(guess_positions(positions).sum())
                wins += stats["wins"]
                clean += stats["clean_games"]
            files = [name for window in windows.values() for name in window.files]
            buffers = [
                BoardBuffer(spec.mines, window.positions()) for spec, window in windows.items()
            ]
            buffered = sum(len(b.positions) for b in buffers)
            tick = time.perf_counter()
            loss = train_round(
                settings, iteration, run.budget_spent(), net, optimizer, buffers, rng
            )
            gradient_seconds = time.perf_counter() - tick
            state.iteration = iteration
            state.positions_files = files
            state.positions_seen += round_positions
            state.gradient_samples += settings.gradient_steps_per_iteration * settings.bc_batch_size
            run.say(
                f"dagger {run.progress(iteration, settings.dagger_iterations, 'rounds')}: "
                f"{round_positions} new "
                f"positions ({round_guesses} {'on a mine' if by_reward else 'need a guess'}), "
                f"buffer {buffered}, loss {loss:.4f}, "
                f"clean wins {wins:.0f}/{clean:.0f}"
            )
            result = run.evaluate(policy, "imitation", {"loss": loss})
            for save in saves:
                save.result()  # the round's positions are on disk before its checkpoint names them
            round_seconds = time.perf_counter() - round_started
            run.say(
                f"round {round_seconds:.1f}s: collection {collect_wall:.1f}s, gradients "
                f"{gradient_seconds:.1f}s; ETA {run.eta(iteration, settings.dagger_iterations)}"
            )
            bar.set_postfix(win=f"{result.rate:.1%}", loss=f"{loss:.3f}")
            bar.update(1)
            for key, value in (
                ("loss", loss),
                ("win_rate", result.rate),
                ("buffer", buffered),
                ("wall_seconds", run.wall_seconds),
                ("round_seconds", round_seconds),
                ("collection_seconds", collect_wall),
                ("gradient_seconds", gradient_seconds),
            ):
                run.logger.record(f"imitation/{key}", value)
            run.logger.dump(iteration)
            state.rng_state = dict(rng.bit_generator.state)
            tick = time.perf_counter()
            run.checkpoint(model, f"dagger{iteration:04d}")
            run.say(f"checkpoint dagger{iteration:04d}: {time.perf_counter() - tick:.1f}s")
    finally:
        saver.shutdown()
        bar.close()
        collector.close()


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


class PPOProgress(BaseCallback):
    """Evaluates, checkpoints (at rollout starts: right after an update) and enforces the
    budget."""

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.run = run
        self.last_eval = run.state.ppo_last_eval
        self.sitting_done = False
        self.bar = progress_bar(
            run, run.settings.total_timesteps, run.state.num_timesteps, "ppo", "step"
        )

    def _on_training_end(self) -> None:
        self.bar.close()

    def _on_rollout_end(self) -> None:
        self._follow_budget()

    def _follow_budget(self) -> None:
        """Tell the learning-rate schedule the budget's fraction spent (0 without
        ``ppo_lr_follows_budget``)."""
        schedule = self.model.learning_rate
        if isinstance(schedule, LinearDecay):
            follows = self.run.settings.ppo_lr_follows_budget
            schedule.spent = self.run.budget_spent() if follows else 0.0

    def _on_rollout_start(self) -> None:
        self._evaluate_and_checkpoint()

    def _evaluate_and_checkpoint(self) -> None:
        steps = int(self.model.num_timesteps)
        if steps - self.last_eval >= self.run.settings.eval_every_steps:
            self.last_eval = steps
            self.run.state.num_timesteps = steps
            self.run.state.ppo_last_eval = steps
            policy = self.model.policy
            assert isinstance(policy, BoardPolicy)
            result = self.run.evaluate(policy, "ppo", {})
            self.bar.set_postfix(win=f"{result.rate:.1%}")
            self.logger.record("eval/win_rate", result.rate)
            self.run.checkpoint(self.model, f"ppo{steps:09d}")  # type: ignore[arg-type]  # SB3 types it BaseAlgorithm
            # A sitting ends only right after a checkpoint, so the resumed run picks up exactly.
            self.sitting_done = self.run.sitting_over()

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return not (self.run.out_of_time() or self.sitting_done)


def run_ppo(run: Run, model: MaskablePPO) -> None:
    """MaskablePPO until ``total_timesteps`` (counted across resumes) or the time budget."""
    remaining = run.settings.total_timesteps - int(model.num_timesteps)
    if remaining <= 0 or run.out_of_time():
        return
    run.say(f"ppo: {model.num_timesteps} -> {run.settings.total_timesteps} env steps")
    model.set_logger(run.logger)
    model.learn(remaining, callback=PPOProgress(run), reset_num_timesteps=False, progress_bar=False)
    run.state.num_timesteps = int(model.num_timesteps)


def read_init(checkpoint: str) -> MaskablePPO:
    """The ``--init`` checkpoint (a zip, a run folder or a shipped name).

    Raises:
        FileNotFoundError: nothing at ``checkpoint``.
        ValueError: not a readable checkpoint.
    """
    return load_model(resolve_checkpoint(checkpoint))


CELL_HEAD_KEYS = ("mlp_extractor.cell_head.weight", "mlp_extractor.cell_head.bias")
"""The per-cell head's parameters: 2 output channels, or 3 with a move head."""


ADDED_BLOCK = re.compile(r"\.trunk\.blocks\.(\d+)\.(conv1|conv2)\.")
"""A trunk block's parameter key: its index and which convolution."""


def network_shape(policy: BoardPolicy) -> tuple[int, int]:
    """``(channels, blocks)`` of ``policy``'s trunk."""
    trunk = policy.cell_net().trunk
    return trunk.stem.out_channels, len(trunk.blocks)


def start_from(model: MaskablePPO, source: MaskablePPO, checkpoint: str) -> str:
    """Copy the network weights of ``source`` (read from ``checkpoint``) into ``model`` (a fresh
    optimizer and schedule), from any board: channels must match, and this run may have more
    blocks, which start as identities (their second convolution zero), so the network plays as
    before. The mine count and ``beta`` stay this run's; a new move head starts as the negated
    mine output (so the network first plays its safest cell). Returns a one-line note of what was
    copied.

    Raises:
        ValueError: the checkpoint's network has other channels or more blocks (the message gives
            both shapes and the flags that match the checkpoint).
    """
    target = model.policy
    policy = source.policy
    assert isinstance(policy, BoardPolicy) and isinstance(target, BoardPolicy)
    (channels, blocks), wanted = network_shape(policy), network_shape(target)
    if channels != wanted[0] or blocks > wanted[1]:
        raise ValueError(
            f"--init {checkpoint!r} is a network of {channels} channels x {blocks} blocks; this "
            f"run builds {wanted[0]} x {wanted[1]}: add --channels {channels} --blocks {blocks}, "
            f"or --init '' to start from random weights"
        )
    note = f"network initialised from {checkpoint}"
    if policy.board != target.board:
        note += f" (trained on rows, cols, mines = {policy.board}; this run plays {target.board})"
    weights = {
        key: value
        for key, value in policy.state_dict().items()
        if not key.startswith("action_net.")
    }
    fresh = target.state_dict()
    if blocks < wanted[1]:
        note += f" ({wanted[1] - blocks} block(s) added as identities)"
    for key, value in fresh.items():
        added = ADDED_BLOCK.search(key)
        if added is not None and int(added.group(1)) >= blocks:
            weights[key] = th.zeros_like(value) if added.group(2) == "conv2" else value
    for key in CELL_HEAD_KEYS:
        if key in weights and weights[key].shape[1:] == fresh[key].shape[1:]:
            merged = fresh[key].clone()
            shared = min(len(merged), len(weights[key]))
            merged[:shared] = weights[key][:shared]
            if shared <= MOVE_HEAD < len(merged):
                # The safest cell first: the network starts by playing its old ranking.
                merged[MOVE_HEAD] = -weights[key][MINE_HEAD]
            weights[key] = merged
    result = target.load_state_dict(weights, strict=False)
    missing = [key for key in result.missing_keys if not key.startswith("action_net.")]
    if missing or result.unexpected_keys:
        raise ValueError(
            f"--init {checkpoint!r} is not a network of this kind: missing {missing[:3]}, "
            f"unexpected {result.unexpected_keys[:3]}"
        )
    return note


def phase_after_resume(settings: TrainSettings, state: RunState) -> str:
    """The phase a resumed run continues in: a finished run whose target was raised reopens."""
    if state.phase != "done":
        return state.phase
    if "ppo" in settings.algo and state.num_timesteps < settings.total_timesteps:
        return "ppo"
    if settings.algo in ("imitation", "bandit") and state.iteration < settings.dagger_iterations:
        return "imitation"
    return "done"


def open_run(settings: TrainSettings) -> tuple[TrainSettings, Path, RunState, MaskablePPO | None]:
    """Check everything a run needs (the settings, ``--out``, ``--init``, the Ray address, or a
    resumed run's files), creating nothing; returns the settings to run with, the folder, its
    state and the ``--init`` checkpoint (if any).

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
            print(
                f"removed {len(removed)} temporary file(s) a killed save left: "
                f"{', '.join(p.name for p in removed)}",
                flush=True,
            )
        missing = [name for name in state.files() if not (run_dir / name).is_file()]
        if missing:
            raise FileNotFoundError(
                f"run {str(run_dir)!r} is damaged: its state names missing files {missing}"
            )
        check_run_files(run_dir, state)
        return settings, run_dir, state, None
    settings.check()
    out = check_output_folder(settings.out, create=False)
    source = read_init(settings.init) if settings.init else None
    if settings.backend == "ray" and settings.ray_address:
        check_ray_address(settings.ray_address)
    run_dir = out / run_name(settings, datetime.now(UTC))
    if run_dir.exists():
        raise ValueError(f"{str(run_dir)!r} exists already; start the run again in a second")
    phase = "ppo" if settings.algo == "ppo" else "imitation"
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
    made = None if resumed else first_missing(run_dir)  # the folders this run creates
    try:
        if made is not None:
            check_output_folder(run_dir)
        return _train(settings, run_dir, state, source, resumed)
    except BaseException as exc:
        committed = (run_dir / "state.json").is_file()
        if made is not None and not committed:
            shutil.rmtree(made, ignore_errors=True)  # nothing to resume: leave no junk folder
        if isinstance(exc, KeyboardInterrupt) and committed:
            raise RunInterrupted(run_dir) from None
        if isinstance(exc, BrokenProcessPool):
            raise RunWorkerDied(run_dir if committed or resumed else None) from None
        raise


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run that has a committed checkpoint (``run_dir``: its folder)."""

    def __init__(self, run_dir: Path) -> None:
        super().__init__(f"interrupted: resume with --resume {run_dir}")
        self.run_dir = run_dir


class RunWorkerDied(BrokenProcessPool):
    """A collection worker was killed mid-round (``run_dir``: the run to resume, if any)."""

    def __init__(self, run_dir: Path | None) -> None:
        then = (
            f"the run keeps its last checkpoint: resume with python -m train --resume {run_dir}"
            if run_dir is not None
            else "nothing was kept: start the run again"
        )
        super().__init__(f"{WORKER_DIED}; {then}")


def damaged(path: Path, exc: BaseException) -> ValueError:
    """The one-line error for a run file that cannot be read back."""
    return ValueError(
        f"{str(path)!r} is damaged ({type(exc).__name__}: {one_line(exc)}); the run cannot "
        f"resume from it: put back a copy of the file, or start the run again without --resume"
    )


def check_run_files(run_dir: Path, state: RunState) -> None:
    """Refuse a run whose model fails :func:`~train.checkpoint.read_model` or whose zip files
    (the model, the positions) fail ``zipfile.testzip``.

    Raises:
        ValueError: naming the file and what to do.
    """
    for name in sorted(state.files()):
        if name.endswith((".zip", ".npz")):
            try:
                if name == state.model_file:  # sizes and settings before testzip reads it all
                    read_model(run_dir / name)
                with zipfile.ZipFile(run_dir / name) as archive:
                    bad = archive.testzip()
            except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
                raise damaged(run_dir / name, exc) from None
            if bad is not None:
                raise damaged(run_dir / name, ValueError(f"member {bad!r} fails its checksum"))


def open_model(run: Run, source: MaskablePPO | None) -> MaskablePPO:
    """The run's model on fresh envs: the last checkpoint's (with its runtime state), or a new one
    (from ``source`` for ``--init``), checkpointed at once."""
    settings, state, run_dir = run.settings, run.state, run.run_dir
    env = make_vec_env(settings, run.spec)
    if not state.model_file:
        model = build_model(settings, run.spec, env, run_dir / "tb")
        if source is not None:
            run.say(start_from(model, source, settings.init))
        run.checkpoint(model, "start")
        return model
    try:
        model = load_model(
            run_dir / state.model_file, env, resolve_device(settings.device), schedules(settings)
        )
    except ValueError as exc:
        env.close()
        raise damaged(run_dir / state.model_file, exc) from None
    model.tensorboard_log = str(run_dir / "tb")
    if state.runtime_file:
        try:
            restore_runtime(run_dir / state.runtime_file, model)
        except RuntimeFromOtherCode as exc:
            run.say(
                f"warning: {exc}; this sitting starts fresh episodes (the model, optimizer and "
                f"step count go on; the run is no longer bit-identical to one sitting)"
            )
        except Exception as exc:  # garbage unpickles into anything, or fails anyhow
            raise damaged(run_dir / state.runtime_file, exc) from None
    elif state.phase == "ppo" and settings.vec_env == "subproc":
        run.say(
            "notice: vec_env subproc keeps its envs in worker processes, which a checkpoint "
            "does not save: this sitting starts fresh episodes, so the run is not bit-identical "
            "to one sitting"
        )
    return model


def _train(
    settings: TrainSettings,
    run_dir: Path,
    state: RunState,
    source: MaskablePPO | None,
    resumed: bool,
) -> Path:
    kill_point(0)
    state.settings = settings.to_dict()
    if resumed:
        state.phase = phase_after_resume(settings, state)
    run = Run(settings, run_dir, state)
    run.say(
        f"run {run_dir} ({'resumed' if resumed else 'new'}), board "
        f"{run.spec.board} first_click={run.spec.first_click}"
    )

    # ---- seeding: the one place randomness is set up --------------------------------------
    th.set_num_threads(settings.torch_threads)
    th.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)  # layouts, exploration, minibatches (imitation)
    if state.rng_state is not None:
        rng.bit_generator.state = state.rng_state
    # PPO's env and sampling seeds come from MaskablePPO(seed=settings.seed) (SB3's own seeding);
    # a resume puts back the envs and the torch/NumPy/random states saved with the checkpoint.
    # -----------------------------------------------------------------------------------------

    model = open_model(run, source)
    try:
        baselines(run)
        if state.phase == "imitation":
            if settings.dataset:
                from train.offline import train_on_dataset

                train_on_dataset(run, model, rng)
            else:
                run_imitation(run, model, rng)
            if (
                settings.algo == "imitation+ppo"
                and not run.out_of_time()
                and not run.sitting_over()
            ):
                state.phase = "ppo"
                run.checkpoint(model, "ppo000000000")
        if state.phase == "ppo" and not run.sitting_over():
            run_ppo(run, model)
        if run.sitting_over() and not run.out_of_time() and state.phase != "done":
            run.say(
                f"sitting over after {settings.sitting_minutes:g} minutes at the last "
                f"checkpoint: continue with python -m train --resume {run_dir}"
            )
            return run_dir
        policy = model.policy
        assert isinstance(policy, BoardPolicy)
        if state.phase != "done":
            run.evaluate(policy, "final", {})
            state.phase = "done"
            run.checkpoint(model, "final")
        if settings.final_eval_games and (
            state.final_eval is None or state.final_eval["games"] != settings.final_eval_games
        ):
            result = evaluate_net(
                policy.cell_net_copy(), run.spec, settings.final_eval_games, settings.opening_weight
            )
            state.final_eval = {
                "wins": result.wins,
                "games": result.games,
                "win_rate": result.rate,
                "interval": list(result.interval),
            }
            run.say(f"final evaluation: {result}{baseline_comparison(run, result.games)}")
            write_lineage(run.run_dir / state.model_file, run_lineage(state))
            commit(run.run_dir, state)
        run.say(f"done: {run_dir / state.model_file}")
        run.say(f"compare it: {eval_command(settings, run_dir / state.model_file)}")
    finally:
        env = model.get_env()
        if env is not None:
            env.close()
        run.logger.close()
    return run_dir
