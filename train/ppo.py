"""MaskablePPO: the envs, the model (every algorithm's network lives in one), its schedules and
the phase that trains it on the env's reward."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from common.lifetime import die_with_parent
from mswp_gym.config import GameConfig
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec
from train.device import resolve_device
from train.policy import BoardPolicy
from train.session import Run, progress_bar
from train.settings import REWARD_CONFIGS, TrainSettings, VecEnvKind
from train.state import RunState


class LinearDecay:
    """Learning-rate schedule: ``start`` at progress 1 down to ``end`` at progress 0 (picklable),
    or by ``spent`` (the time budget's fraction used, set by the PPO callback with
    ``ppo.lr_follows_budget``) where that is further along."""

    spent: float = 0.0
    """The wall-time budget's fraction used, in [0, 1] (a class default: older pickles lack it)."""

    def __init__(self, start: float, end: float) -> None:
        self.start, self.end = float(start), float(end)

    def __call__(self, progress_remaining: float) -> float:
        """SB3 passes the remaining progress, from 1 to 0."""
        remaining = min(progress_remaining, 1.0 - self.spent)
        return self.end + (self.start - self.end) * remaining


def make_vec_env(settings: TrainSettings, spec: GameSpec) -> VecEnv:
    """``n_envs`` board envs (DummyVecEnv, SubprocVecEnv, or the batched native
    :class:`mswp_gym.vector.sb3_vec.MinesweeperSB3VecEnv`), with episode stats."""

    parent = os.getpid()

    def factory() -> MinesweeperEnv:
        if os.getpid() != parent:  # a SubprocVecEnv worker: end with the run
            die_with_parent(parent)
        return MinesweeperEnv(config=config)

    rewards = REWARD_CONFIGS[settings.ppo.rewards]()
    config = GameConfig.from_spec(spec, rewards=rewards)
    if settings.ppo.vec_env == VecEnvKind.NATIVE:
        from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

        native: VecEnv = MinesweeperSB3VecEnv(settings.ppo.n_envs, config=config)
        return VecMonitor(native, info_keywords=("is_success",))
    makers: list[Callable[[], gym.Env]] = [factory] * settings.ppo.n_envs
    dummy = settings.ppo.vec_env == VecEnvKind.DUMMY
    env: VecEnv = DummyVecEnv(makers) if dummy else SubprocVecEnv(makers)
    return VecMonitor(env, info_keywords=("is_success",))


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
        "beta": settings.ppo.beta,
        "any_board": bool(settings.boards),
        "move_head": settings.move_head,
    }
    return MaskablePPO(
        BoardPolicy,
        env,
        **schedules(settings),
        n_steps=settings.ppo.n_steps,
        batch_size=settings.ppo.batch_size,
        n_epochs=settings.ppo.n_epochs,
        gamma=settings.ppo.gamma,
        gae_lambda=settings.ppo.gae_lambda,
        ent_coef=settings.ppo.ent_coef,
        vf_coef=settings.ppo.vf_coef,
        policy_kwargs=policy_kwargs,
        tensorboard_log=None if tb_dir is None else str(tb_dir),
        seed=settings.seed,
        device=resolve_device(settings.device),
        verbose=0,
    )


def schedules(settings: TrainSettings) -> dict[str, Any]:
    """The run's PPO schedules (a checkpoint's pickled ones are never loaded)."""
    return {
        "learning_rate": LinearDecay(settings.ppo.learning_rate, 0.0),
        "clip_range": settings.ppo.clip_range,
    }


class PPOProgress(BaseCallback):
    """Evaluates, checkpoints (at rollout starts: right after an update) and enforces the
    budget."""

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.run = run
        self.last_eval = run.state.ppo_last_eval
        self.sitting_done = False
        self.bar = progress_bar(
            run, run.settings.ppo.total_timesteps, run.state.num_timesteps, "ppo", "step"
        )

    def _on_training_end(self) -> None:
        self.bar.close()

    def _on_rollout_end(self) -> None:
        """Tell the learning-rate schedule the budget's fraction spent (0 without
        ``ppo.lr_follows_budget``)."""
        schedule = self.model.learning_rate
        if isinstance(schedule, LinearDecay):
            follows = self.run.settings.ppo.lr_follows_budget
            schedule.spent = self.run.budget_spent() if follows else 0.0

    def _on_rollout_start(self) -> None:
        """Evaluate and checkpoint every ``eval_every_steps``."""
        steps = int(self.model.num_timesteps)
        if steps - self.last_eval >= self.run.settings.ppo.eval_every_steps:
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


class PPO:
    """The :class:`~train.session.Phase` of MaskablePPO, until ``total_timesteps`` (counted across
    resumes) or the time budget."""

    name = "ppo"
    entry_tag = "ppo000000000"

    def unfinished(self, settings: TrainSettings, state: RunState) -> bool:
        """See :class:`~train.session.Phase`."""
        return state.num_timesteps < settings.ppo.total_timesteps

    def train(self, run: Run, model: MaskablePPO, rng: np.random.Generator) -> None:
        """See :class:`~train.session.Phase` (SB3 draws from its own seeded generators)."""
        remaining = run.settings.ppo.total_timesteps - int(model.num_timesteps)
        if remaining <= 0 or run.out_of_time():
            return
        run.say(f"ppo: {model.num_timesteps} -> {run.settings.ppo.total_timesteps} env steps")
        model.set_logger(run.logger)
        model.learn(
            remaining, callback=PPOProgress(run), reset_num_timesteps=False, progress_bar=False
        )
        run.state.num_timesteps = int(model.num_timesteps)
