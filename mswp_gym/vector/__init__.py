"""The batched engine and the vector env: B boards stepped together by whole-array NumPy.

* :mod:`~mswp_gym.vector.batch_board`, :mod:`~mswp_gym.vector.batch_place`,
  :mod:`~mswp_gym.vector.batch_flood`, :mod:`~mswp_gym.vector.batch_rng`: the batched engine,
  plain NumPy (no Gymnasium), the counterpart of :mod:`mswp_gym.board`;
* :mod:`~mswp_gym.vector.vector_env`: :class:`MinesweeperVectorEnv`, the Gymnasium adapter (the
  ``vector_entry_point`` of the registered ids);
* :mod:`~mswp_gym.vector.sb3_vec`: ``MinesweeperSB3VecEnv``, the same boards as a Stable-Baselines3
  ``VecEnv`` (imported on its own: it needs SB3).
"""

from __future__ import annotations

from mswp_gym.vector.vector_env import MinesweeperVectorEnv

__all__ = ["MinesweeperVectorEnv"]
