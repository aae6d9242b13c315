"""Imitation (DAgger): the network plays, the exact solver labels every position it reaches, and
the network learns the labels (:mod:`train.imitation` holds the collection and the gradient steps).

With ``--dataset DIR`` it learns from the shards of ``python -m train.dataset`` instead of play:
each round is ``gradient_steps_per_iteration`` steps of :func:`train.imitation.train_steps`, then
the round's evaluation and checkpoint; rounds, decay, budget and ``--resume`` work as for DAgger.
"""

from __future__ import annotations

import time
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
from sb3_contrib import MaskablePPO

from mswp_gym.spec import GameSpec
from train.checkpoint import damaged
from train.dataset import load_positions, save_positions
from train.generalist import BoardWindow, board_tag, spec_from_meta, split_games, windows_for
from train.imitation import BoardBuffer, Collector, guess_positions, train_round
from train.network import CellNet
from train.policy import BoardPolicy
from train.rollout import RolloutConfig, solver_labeller
from train.session import Run, progress_bar, training_boards
from train.settings import TrainSettings
from train.shards import load_shards
from train.state import RunState


class Imitation:
    """The :class:`~train.session.Phase` of imitation, until its ``rounds`` or the
    time budget."""

    name = "imitation"
    entry_tag = "dagger0000"
    label = "imitation"
    """The name its evaluation lines go by."""
    guesses = "need a guess"
    """What the round's line says of the positions that
    :func:`train.imitation.guess_positions` counts."""

    def rollout_config(self, settings: TrainSettings) -> RolloutConfig:
        """How the learner plays and what labels the positions: the solver's (the hidden truth
        when the solver is missing)."""
        return RolloutConfig(
            settings.rounds.epsilon,
            settings.imitation.rescue,
            settings.opening_weight,
            "solver" if solver_labeller() is not None else "truth",
            move_labels=settings.move_head,
        )

    def unfinished(self, settings: TrainSettings, state: RunState) -> bool:
        """See :class:`~train.session.Phase`."""
        return state.iteration < settings.rounds.rounds

    def train(self, run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
        """See :class:`~train.session.Phase`: DAgger, or rounds on ``dataset``."""
        if run.settings.imitation.dataset:
            self.from_dataset(run, model, rng)
        else:
            self.dagger(run, model, rng)

    def more_rounds(self, run: Run) -> bool:
        """Whether another round is due (within the time budget and the sitting)."""
        done = run.out_of_time() or run.sitting_over()
        return self.unfinished(run.settings, run.state) and not done

    def dagger(self, run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
        """DAgger rounds until ``rounds`` or the time budget (see
        :mod:`train.imitation`)."""
        settings, state = run.settings, run.state
        policy = model.policy
        assert isinstance(policy, BoardPolicy)
        windows = restore_windows(run, training_boards(settings))
        net, optimizer = policy.cell_net(), policy.optimizer
        collector = Collector(settings.workers, settings.backend, settings.ray_address or None)
        # a round's positions are written beside its gradient steps (zlib lets go of the GIL)
        saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="save-positions")
        bar = progress_bar(run, settings.rounds.rounds, state.iteration, "dagger", "round")
        try:
            while self.more_rounds(run):
                iteration = state.iteration + 1
                round_started = time.perf_counter()
                learner = policy.cell_net_copy("cpu")
                found, guesses, wins, clean, collect_wall, saves = self.collect(
                    run, learner, collector, saver, windows, rng
                )
                buffers = [
                    BoardBuffer(s.mines, window.positions()) for s, window in windows.items()
                ]
                buffered = sum(len(b.positions) for b in buffers)
                tick = time.perf_counter()
                loss = train_round(
                    settings, iteration, run.budget_spent(), net, optimizer, buffers, rng
                )
                gradient_seconds = time.perf_counter() - tick
                count_round(run, iteration)
                state.positions_files = [
                    name for window in windows.values() for name in window.files
                ]
                state.positions_seen += found
                run.say(
                    f"dagger {run.progress(iteration, settings.rounds.rounds, 'rounds')}: "
                    f"{found} new positions ({guesses} {self.guesses}), buffer {buffered}, "
                    f"loss {loss:.4f}, clean wins {wins:.0f}/{clean:.0f}"
                )
                result = run.evaluate(policy, "imitation", {"loss": loss}, self.label)
                for save in saves:
                    save.result()  # the positions are on disk before a checkpoint names them
                round_seconds = time.perf_counter() - round_started
                run.say(
                    f"round {round_seconds:.1f}s: collection {collect_wall:.1f}s, gradients "
                    f"{gradient_seconds:.1f}s; ETA {run.eta(iteration, settings.rounds.rounds)}"
                )
                bar.set_postfix(win=f"{result.rate:.1%}", loss=f"{loss:.3f}")
                bar.update(1)
                figures = {"loss": loss, "win_rate": result.rate, "buffer": buffered}
                figures |= {"wall_seconds": run.wall_seconds, "round_seconds": round_seconds}
                figures |= {
                    "collection_seconds": collect_wall,
                    "gradient_seconds": gradient_seconds,
                }
                tick = time.perf_counter()
                end_round(run, model, rng, iteration, figures)
                run.say(f"checkpoint dagger{iteration:04d}: {time.perf_counter() - tick:.1f}s")
        finally:
            saver.shutdown()
            bar.close()
            collector.close()

    def from_dataset(self, run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
        """Gradient rounds on the data set until ``rounds`` or the time budget."""
        settings, state = run.settings, run.state
        policy = model.policy
        assert isinstance(policy, BoardPolicy)
        positions, _ = load_shards(settings.imitation.dataset)
        run.say(f"dataset {settings.imitation.dataset}: {len(positions):,} positions")
        net, optimizer = policy.cell_net(), policy.optimizer
        while self.more_rounds(run):
            iteration = state.iteration + 1
            tick = time.perf_counter()
            loss = train_round(
                settings, iteration, run.budget_spent(), net, optimizer, positions, rng
            )
            count_round(run, iteration)
            run.say(
                f"round {iteration}/{settings.rounds.rounds}: loss {loss:.4f} "
                f"({time.perf_counter() - tick:.1f} s of gradient steps)"
            )
            result = run.evaluate(policy, "imitation", {"loss": loss})
            end_round(run, model, rng, iteration, {"loss": loss, "win_rate": result.rate})

    def collect(
        self,
        run: Run,
        learner: CellNet,
        collector: Collector,
        saver: ThreadPoolExecutor,
        windows: dict[GameSpec, BoardWindow],
        rng: np.random.Generator,
    ) -> tuple[int, int, float, float, float, list[Future[None]]]:
        """One round's games on every board, added to ``windows`` and saved by ``saver``; returns
        the positions, those that :func:`guess_positions` counts, wins, clean games, collection
        seconds and the pending saves."""
        settings, iteration = run.settings, run.state.iteration + 1
        config = self.rollout_config(settings)
        limit = settings.rounds.buffer_positions // len(windows)
        found = guesses = 0
        wins = clean = collect_wall = 0.0
        saves: list[Future[None]] = []
        split = split_games(settings.rounds.games_per_round, len(windows))
        for spec, games in zip(windows, split, strict=True):
            tick = time.perf_counter()
            positions, stats = collector.collect(learner, spec, games, rng, config)
            collect_wall += time.perf_counter() - tick
            tag = "" if len(windows) == 1 else f"-{board_tag(spec)}"
            name = f"positions-{iteration:04d}{tag}.npz"
            board = {"rows": spec.rows, "cols": spec.cols, "mines": spec.mines}
            meta = {**board, "first_click": spec.first_click, "labels": config.labels}
            saves.append(saver.submit(save_positions, run.run_dir / name, positions, meta))
            windows[spec].add(name, positions, limit)
            found += len(positions)
            guesses += int(guess_positions(positions).sum())
            wins += stats["wins"]
            clean += stats["clean_games"]
        return found, guesses, wins, clean, collect_wall, saves


def restore_windows(run: Run, specs: tuple[GameSpec, ...]) -> dict[GameSpec, BoardWindow]:
    """Each board's window of positions, holding the files the run's state names.

    Raises:
        ValueError: a positions file is damaged or holds another board's positions.
    """
    windows = windows_for(specs)
    for name in run.state.positions_files:
        try:
            positions, meta = load_positions(run.run_dir / name)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as exc:
            raise damaged(run.run_dir / name, exc) from None
        spec = spec_from_meta(meta, run.settings.first_click)
        if spec not in windows:
            raise ValueError(f"{name!r} holds {board_tag(spec)} positions, not a board of this run")
        windows[spec].files.append(name)
        windows[spec].parts.append(positions)
    return windows


def count_round(run: Run, iteration: int) -> None:
    """Count round ``iteration`` and its gradient samples as done."""
    run.state.iteration = iteration
    settings = run.settings
    run.state.gradient_samples += settings.rounds.gradient_steps * settings.rounds.batch_size


def end_round(
    run: Run,
    model: MaskablePPO,
    rng: np.random.Generator,
    iteration: int,
    figures: dict[str, float],
) -> None:
    """Log the round's ``figures`` (as ``imitation/<key>``) and commit its checkpoint."""
    for key, value in figures.items():
        run.logger.record(f"imitation/{key}", value)
    run.logger.dump(iteration)
    run.state.rng_state = dict(rng.bit_generator.state)
    run.checkpoint(model, f"dagger{iteration:04d}")
