"""PPO with an auxiliary mine loss on the env's own layouts: no solver and no imitation.

The published PPO recipe for Minesweeper adds to the policy a head that predicts where the mines
are, supervised by the true layout. Here the policy's own per-cell mine and opening outputs are
that head (:class:`~train.network.CellNet`): after every PPO update the network takes
``aux_steps`` Adam steps on the masked binary cross-entropy of those outputs against the layouts
of the positions the rollout visited (:func:`~train.imitation.train_steps`, minibatches of the
PPO batch size under random board symmetries). The targets are the truth (0/1), whose optimum is
the exact mine probability; the solver is never called, so the run learns from the env alone:
its reward and, as an auxiliary signal, the layouts it hides from the player.

:class:`TruthRecorder` wraps the training env and, before each step, copies the visible boards
and their layouts from the native batched env (:meth:`MinesweeperVectorEnv.truth`; the SB3
adapter moves the boards in ``step_wait``, so that is where it looks first): the position SB3
stores for step ``t`` is the one the recorder saw. Positions of boards whose mines are not yet
laid (the blank board before the first click under ``safe``) are left out.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper, unwrap_vec_wrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

from mswp_gym.constants import FLAGGED, HIDDEN
from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv
from mswp_gym.vector.vector_env import MinesweeperVectorEnv
from train.dataset import PositionSet, no_moves
from train.imitation import train_steps
from train.network import CellNet


def native_vector_env(env: VecEnv) -> MinesweeperVectorEnv:
    """The batched env under ``env``'s SB3 wrappers.

    Raises:
        ValueError: ``env`` is not built on :class:`MinesweeperSB3VecEnv` (``vec_env = native``).
    """
    inner = env.unwrapped
    if not isinstance(inner, MinesweeperSB3VecEnv):
        raise ValueError(
            f"the auxiliary mine loss reads the layouts of the native vector env "
            f"(vec_env = native), got {type(inner).__name__}"
        )
    return inner.venv


class TruthRecorder(VecEnvWrapper):
    """Records, before each step, the visible boards whose mines are laid and their truth.

    :meth:`take` returns what was recorded since the last call as a :class:`PositionSet` (mine
    targets 0/1, opening targets: safe cells with clue 0, both on the hidden cells) and forgets
    it.
    """

    def __init__(self, venv: VecEnv) -> None:
        super().__init__(venv)
        self.native = native_vector_env(venv)
        self._boards: list[np.ndarray] = []
        self._mines: list[np.ndarray] = []
        self._zeros: list[np.ndarray] = []

    def __getstate__(self) -> dict[str, Any]:
        # SB3's wrapper keeps its class's members (mappingproxies) for attribute lookups, which
        # do not pickle; they are rebuilt on load. The PPO runtime state pickles this wrapper.
        state = self.__dict__.copy()
        state.pop("class_attributes", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.class_attributes = dict(inspect.getmembers(self.__class__))

    def reset(self) -> VecEnvObs:
        """Reset the wrapped env (nothing recorded)."""
        return self.venv.reset()

    def step_async(self, actions: np.ndarray) -> None:
        """Pass the actions on (the SB3 adapter only stores them; the boards move in
        :meth:`step_wait`)."""
        self.venv.step_async(actions)

    def step_wait(self) -> VecEnvStepReturn:
        """Record the positions about to be played, then step: the wrapped env's result,
        unchanged."""
        truth = self.native.truth()
        placed = truth.placed
        if placed.any():
            self._boards.append(self.native.visible[placed])
            self._mines.append(truth.mines[placed])
            self._zeros.append(truth.zeros[placed])
        return self.venv.step_wait()

    def take(self) -> PositionSet:
        """The positions recorded since the last call (possibly none), in step order."""
        rows, cols = self.native.rows, self.native.cols
        if not self._boards:
            return PositionSet.empty(rows, cols)
        boards = np.concatenate(self._boards)
        hidden = (boards == HIDDEN) | (boards == FLAGGED)
        positions = PositionSet(
            boards=boards,
            mine_targets=np.concatenate(self._mines).astype(np.float32),
            mine_masks=hidden,
            open_targets=np.concatenate(self._zeros).astype(np.float32),
            open_masks=hidden,
            move_cells=no_moves(len(boards)),
        )
        self._boards, self._mines, self._zeros = [], [], []
        return positions


def find_recorder(env: VecEnv | None) -> TruthRecorder | None:
    """The :class:`TruthRecorder` among ``env``'s wrappers, if any."""
    return None if env is None else unwrap_vec_wrapper(env, TruthRecorder)


def auxiliary_steps(
    net: CellNet,
    optimizer: Any,
    positions: PositionSet,
    steps: int,
    batch_size: int,
    seed: int,
    timesteps: int,
) -> float | None:
    """``steps`` Adam steps of the mine and opening loss on ``positions``; the mean loss, or None
    when there is nothing to train on.

    The minibatches are drawn from a generator seeded by ``(seed, timesteps)``, so a resumed run
    draws what one long run draws.
    """
    if steps <= 0 or len(positions) == 0:
        return None
    rng = np.random.default_rng([seed, timesteps])
    return train_steps(net, optimizer, positions, steps, batch_size, rng)
