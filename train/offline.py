"""Imitation from a saved data set: the shards of ``python -m train.dataset`` instead of play.

``python -m train --algo imitation --dataset DIR`` trains on every position of ``DIR``'s shards:
each round is ``gradient_steps_per_iteration`` steps of :func:`train.imitation.train_steps`, then
the round's evaluation and checkpoint; rounds, decay, budget and ``--resume`` work as for DAgger.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from train.imitation import train_round
from train.policy import BoardPolicy
from train.settings import TrainSettings
from train.shards import load_shards
from train.state import RunState


class RunHost(Protocol):
    """What a round needs of the run it belongs to (:class:`train.run.Run` is one)."""

    settings: TrainSettings
    state: RunState
    logger: Logger

    def budget_spent(self) -> float: ...

    def out_of_time(self) -> bool: ...

    def sitting_over(self) -> bool: ...

    def say(self, message: str) -> None: ...

    def evaluate(self, policy: BoardPolicy, phase: str, extra: dict[str, float]) -> Any: ...

    def checkpoint(self, model: MaskablePPO, tag: str) -> None: ...


def train_on_dataset(run: RunHost, model: MaskablePPO, rng: np.random.Generator) -> None:
    """Gradient rounds on the data set until ``dagger_iterations`` or the time budget."""
    settings, state = run.settings, run.state
    policy = model.policy
    assert isinstance(policy, BoardPolicy)
    positions, _ = load_shards(settings.dataset)
    run.say(f"dataset {settings.dataset}: {len(positions):,} positions")
    net, optimizer = policy.cell_net(), policy.optimizer
    while (
        state.iteration < settings.dagger_iterations
        and not run.out_of_time()
        and not run.sitting_over()
    ):
        iteration = state.iteration + 1
        tick = time.perf_counter()
        loss = train_round(settings, iteration, run.budget_spent(), net, optimizer, positions, rng)
        state.iteration = iteration
        state.gradient_samples += settings.gradient_steps_per_iteration * settings.bc_batch_size
        run.say(
            f"round {iteration}/{settings.dagger_iterations}: loss {loss:.4f} "
            f"({time.perf_counter() - tick:.1f} s of gradient steps)"
        )
        result = run.evaluate(policy, "imitation", {"loss": loss})
        run.logger.record("imitation/loss", loss)
        run.logger.record("imitation/win_rate", result.rate)
        run.logger.dump(iteration)
        state.rng_state = dict(rng.bit_generator.state)
        run.checkpoint(model, f"dagger{iteration:04d}")
