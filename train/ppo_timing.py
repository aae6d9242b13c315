"""Where a PPO run's time goes: the env, the network playing, the network learning.

On this project's CPU runs PPO is bound by the network, not the env (docs/train.md); these
timings show it per run. :class:`TimedVecMonitor` counts the seconds spent inside the vector env
(steps, resets and the action-mask calls sb3-contrib makes through ``env_method``);
:class:`PPOClock` splits the rest of each iteration into network play (the rollout minus the
env) and gradients (the update after it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from stable_baselines3.common.vec_env import VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvObs, VecEnvStepReturn


class TimedVecMonitor(VecMonitor):
    """A :class:`VecMonitor` that also adds up the wall seconds spent inside the wrapped env.

    ``env_seconds`` only grows; readers take differences.
    """

    env_seconds: float = 0.0

    def reset(self) -> VecEnvObs:
        """See :meth:`VecMonitor.reset`."""
        start = time.perf_counter()
        try:
            return super().reset()
        finally:
            self.env_seconds += time.perf_counter() - start

    def step_wait(self) -> VecEnvStepReturn:
        """See :meth:`VecMonitor.step_wait`."""
        start = time.perf_counter()
        try:
            return super().step_wait()
        finally:
            self.env_seconds += time.perf_counter() - start

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """See :meth:`VecEnvWrapper.env_method` (sb3-contrib reads the action masks here)."""
        start = time.perf_counter()
        try:
            return super().env_method(method_name, *method_args, indices=indices, **method_kwargs)
        finally:
            self.env_seconds += time.perf_counter() - start


@dataclass
class IterationTimes:
    """Seconds of one PPO iteration (a rollout and the update before it)."""

    env: float
    """Inside the env during the rollout."""
    network_play: float
    """The rest of the rollout: the policy's forward passes and SB3's buffer bookkeeping."""
    gradients: float
    """The update that preceded the rollout (evaluation and checkpoints excluded)."""

    def as_record(self) -> Sequence[tuple[str, float]]:
        """``(progress.csv column, seconds)`` pairs, the column names of DAgger rounds."""
        return (
            ("time/engine_seconds", self.env),
            ("time/network_play_seconds", self.network_play),
            ("time/gradients_seconds", self.gradients),
        )


class PPOClock:
    """Splits each PPO iteration's wall time; call the marks in the order SB3 runs them.

    Args:
        now: the clock (seconds); tests pass a fake one.
    """

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        self._now = now
        self._rollout_start: float | None = None
        self._rollout_end: float | None = None
        self._env_at_start = 0.0
        self._paused = 0.0
        self._gradients = 0.0

    def rollout_start(self, env_seconds: float, paused: float) -> None:
        """At a rollout's start; ``paused`` seconds since the last rollout's end were spent on
        evaluation or checkpoints, not gradients."""
        now = self._now()
        if self._rollout_end is not None:
            self._gradients = max(0.0, now - self._rollout_end - paused)
        self._rollout_start, self._env_at_start = now, env_seconds

    def rollout_end(self, env_seconds: float) -> IterationTimes:
        """At a rollout's end: this iteration's times."""
        now = self._now()
        start = now if self._rollout_start is None else self._rollout_start
        env = env_seconds - self._env_at_start
        self._rollout_end = now
        return IterationTimes(env, max(0.0, now - start - env), self._gradients)
