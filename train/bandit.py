"""The contextual bandit: imitation's loop, with every position labelled by its move's reward
alone (mine or safe) instead of by the solver, and no rescue from a losing move."""

from __future__ import annotations

from dataclasses import replace

from train.dagger import Imitation
from train.rollout import RolloutConfig
from train.settings import TrainSettings


class Bandit(Imitation):
    """The :class:`~train.session.Phase` of the bandit (``RunState.phase`` ``imitation``)."""

    label = "bandit"
    guesses = "on a mine"

    def rollout_config(self, settings: TrainSettings) -> RolloutConfig:
        """Reward labels, played without rescue."""
        return replace(super().rollout_config(settings), rescue=0.0, labels="reward")
