"""Per-board random streams for batches of boards, drawn for thousands of boards in one go.

A batch cannot call one ``np.random.Generator`` per board without a Python loop, and one shared
generator would make board ``i``'s layout depend on which other boards happened to need a layout
in the same step. So every board gets its own *counter-based* stream: the ``k``-th layout of the
board seeded ``s`` is decided by hashing ``(s, k, cell)`` with SplitMix64 (Steele, Lea and Flood,
2014; the generator Java's ``SplittableRandom`` uses). The ``k``-th stream of a board is literally
a SplitMix64 sequence started from a state derived from ``(s, k)``, so within a board the keys are
as good as SplitMix64's output (it passes BigCrush); across boards and episodes the starting states
are themselves mixed. The keys only rank cells for mine placement, so that quality is plenty.

Everything here is vectorised uint64 arithmetic (wrap-around multiplication is the point).
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


def mix64(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser: a bijective scramble of every uint64 in ``x`` (a new array)."""
    z = x ^ (x >> np.uint64(30))
    z *= _MIX1
    z ^= z >> np.uint64(27)
    z *= _MIX2
    z ^= z >> np.uint64(31)
    return z


def seeds_to_uint64(seeds: list[int] | np.ndarray) -> np.ndarray:
    """Python/NumPy integer seeds (any size, any sign) as uint64, reduced modulo ``2**64``.

    Raises:
        TypeError: naming a seed that is not an integer.
    """
    out = np.empty(len(seeds), dtype=np.uint64)
    for i, seed in enumerate(seeds):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seeds must be integers, got {seed!r} at position {i}")
        out[i] = int(seed) & _MASK64
    return out


def stream_keys(board_seeds: np.ndarray, episodes: np.ndarray, cells: int) -> np.ndarray:
    """``cells`` uniform uint64 keys per board: board ``i``'s stream number ``episodes[i]``.

    Args:
        board_seeds: ``(k,)`` uint64 seeds, one per board.
        episodes: ``(k,)`` uint64 stream counters (a board's episode number).
        cells: how many keys to draw per board.

    Returns:
        ``(k, cells)`` uint64 keys; the same inputs always give the same keys, and a board's keys
        depend on its own seed and counter only.
    """
    start = mix64(mix64(board_seeds) + episodes * _EPISODE_SALT)
    steps = np.arange(1, cells + 1, dtype=np.uint64) * _GOLDEN
    return mix64(start[:, None] + steps[None, :])
