"""Per-board random streams for batches of boards, drawn for thousands of boards in one go.

Every board gets its own *counter-based* stream, so board ``i``'s layouts never depend on the
other boards: the ``k``-th layout of the board seeded ``s`` is decided by hashing ``(s, k, cell)``.
``(s, k)`` becomes a 64-bit state with SplitMix64's mixer, once per board; cell ``j`` gets the
32-bit key ``lowbias32(lo + j * golden32) ^ hi`` (``lo``/``hi`` the state's halves, ``lowbias32``
Chris Wellons' bijective hash). ``j -> lo + j * golden32`` is a bijection modulo ``2**32``, so one
board's keys are distinct and ranking cells by key never meets a tie.
"""

from __future__ import annotations

import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""SplitMix64's increment (2**64 divided by the golden ratio)."""
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_EPISODE_SALT = np.uint64(0xD1B54A32D192ED03)
"""Odd constant separating the episode counter from the seed before mixing."""
_MASK64 = (1 << 64) - 1
_GOLDEN32 = np.uint32(0x9E3779B9)
"""2**32 divided by the golden ratio, odd: the per-cell step of a board's 32-bit counter."""
_LOWBIAS1 = np.uint32(0x7FEB352D)
_LOWBIAS2 = np.uint32(0x846CA68B)
_LOW32 = np.uint64(0xFFFFFFFF)


def mix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser: a bijective scramble of every uint64 in ``x`` (a new array)."""
    z: np.ndarray = x ^ (x >> np.uint64(30))
    z *= _MIX1
    z ^= z >> np.uint64(27)
    z *= _MIX2
    z ^= z >> np.uint64(31)
    return z


def seeds_to_uint64(seeds: list[int]) -> np.ndarray:
    """Integer seeds as uint64, modulo ``2**64``: the entry points refuse seeds outside
    ``[0, 2**64)`` (:func:`mswp_gym.inputs.check_seed`), so only the envs' own entropy wraps."""
    return np.array([seed & _MASK64 for seed in seeds], dtype=np.uint64)


def lowbias32(x: np.ndarray) -> np.ndarray:
    """Wellons' ``lowbias32`` integer hash of every uint32 in ``x``, in place (returns ``x``)."""
    x ^= x >> np.uint32(16)
    x *= _LOWBIAS1
    x ^= x >> np.uint32(15)
    x *= _LOWBIAS2
    x ^= x >> np.uint32(16)
    return x


def stream_keys(board_seeds: np.ndarray, episodes: np.ndarray, cells: int) -> np.ndarray:
    """``cells`` uniform uint32 keys per board: board ``i``'s stream number ``episodes[i]``.

    Args:
        board_seeds: ``(k,)`` uint64 seeds, one per board.
        episodes: ``(k,)`` uint64 stream counters (a board's episode number).
        cells: how many keys to draw per board (at most ``2**32``).

    Returns:
        ``(k, cells)`` uint32 keys, distinct within each row; the same inputs always give the same
        keys, and a board's keys depend on its own seed and counter only.
    """
    state = mix64(mix64(board_seeds) + episodes * _EPISODE_SALT)
    low = (state & _LOW32).astype(np.uint32)
    high = (state >> np.uint64(32)).astype(np.uint32)
    steps = np.arange(1, cells + 1, dtype=np.uint32) * _GOLDEN32
    keys = lowbias32(low[:, None] + steps[None, :])
    keys ^= high[:, None]
    return keys
