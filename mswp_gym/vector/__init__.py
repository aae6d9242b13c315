"""The batched engine (``batch_*``: plain NumPy, the counterpart of :mod:`mswp_gym.board`) and
the vector env :class:`MinesweeperVectorEnv`; :mod:`~mswp_gym.vector.sb3_vec` (imported on its
own: it needs SB3) offers the same boards as a Stable-Baselines3 ``VecEnv``.
"""

from __future__ import annotations

from mswp_gym.vector.vector_env import MinesweeperVectorEnv

__all__ = ["MinesweeperVectorEnv"]
