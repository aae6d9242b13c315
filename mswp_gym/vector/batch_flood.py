"""Flood fill for a batch of boards: which cells a click on a zero opens, for many boards at once.

Same contract as :mod:`mswp_gym.floodfill`. Every implementation grows each board's region one
ring at a time (iterative dilation), so a call costs as many rounds as the deepest region:

* :func:`flood_bigint` (default): every board as a bit grid with a one-bit frame, all boards end to
  end in one Python integer; a round is eight shifts/ands/ors. Any board width.
* :func:`flood_bits`: each board row as the bits of one NumPy word (up to 64 columns); a
  cross-check.
* :func:`flood_dense`: bool arrays, any width (the plain reference).

A revealed zero always has its neighbours revealed, so growing through it opens nothing new; the
caller keeps only the cells not yet revealed.
"""

from __future__ import annotations

import numpy as np

MAX_BITS_COLS = 64
"""Widest board :func:`flood_bits` handles (one uint64 per row)."""


def word_dtype(cols: int) -> type[np.unsignedinteger]:
    """The narrowest unsigned integer holding ``cols`` bits (``cols`` at most 64).

    Raises:
        ValueError: if ``cols`` exceeds :data:`MAX_BITS_COLS`.
    """
    for dtype in (np.uint16, np.uint32, np.uint64):
        if cols <= np.iinfo(dtype).bits:
            return dtype
    raise ValueError(f"row bits hold at most {MAX_BITS_COLS} columns, got cols={cols}")


def pack_rows(cells: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Pack ``(k, rows*cols)`` bool boards into ``(k, rows + 2)`` row words (:func:`word_dtype`).

    Bit ``c`` of word ``r + 1`` is cell ``(r, c)``; words 0 and ``rows + 1`` are an empty frame so
    that vertical neighbours never need bounds checks. Rows up to 53 columns are packed with one
    float matrix product against the powers of two (exact in float32 up to 24 columns, float64
    up to 53), a few times faster than ``np.packbits`` on short rows.

    Raises:
        ValueError: if ``cols`` exceeds :data:`MAX_BITS_COLS`.
    """
    dtype = word_dtype(cols)
    k = cells.shape[0]
    words = np.zeros((k, rows + 2), dtype=dtype)
    if cols <= _FLOAT32_EXACT_COLS:
        weights = _powers_of_two(cols, np.float32)
        words[:, 1:-1] = cells.reshape(k, rows, cols).astype(np.float32) @ weights
    elif cols <= _FLOAT64_EXACT_COLS:
        weights = _powers_of_two(cols, np.float64)
        words[:, 1:-1] = cells.reshape(k, rows, cols).view(np.uint8) @ weights
    else:
        packed = np.packbits(cells.reshape(k, rows, cols), axis=-1, bitorder="little")
        as_bytes = np.zeros((k, rows, 8), dtype=np.uint8)
        as_bytes[..., : packed.shape[-1]] = packed
        words[:, 1:-1] = as_bytes.view("<u8")[..., 0]
    return words


_FLOAT32_EXACT_COLS = 24
_FLOAT64_EXACT_COLS = 53
_POWERS: dict[tuple[int, type], np.ndarray] = {}


def _powers_of_two(cols: int, dtype: type) -> np.ndarray:
    weights = _POWERS.get((cols, dtype))
    if weights is None:
        weights = (2.0 ** np.arange(cols)).astype(dtype)
        _POWERS[(cols, dtype)] = weights
    return weights


def unpack_rows(words: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Inverse of :func:`pack_rows`: ``(k, rows + 2)`` words to ``(k, rows*cols)`` bool."""
    k = words.shape[0]
    size = words.dtype.itemsize
    little = np.ascontiguousarray(words[:, 1:-1], dtype=words.dtype.newbyteorder("<"))
    as_bytes = little.view(np.uint8).reshape(k, rows, size)
    bits = np.unpackbits(as_bytes, axis=-1, count=cols, bitorder="little")
    return bits.reshape(k, rows * cols).view(bool)


def flood_bits(zero_bits: np.ndarray, starts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Cells opened by clicking ``starts`` (safe zeros), one click per board, on row bits.

    The boards' words are laid end to end in one flat array: the empty frame rows keep boards
    apart (a frame row holds no zero, so nothing grows through it), and each round is a few
    whole-array operations whose cost barely depends on the batch size.

    Args:
        zero_bits: ``(k, rows + 2)`` packed safe zero cells (see :func:`pack_rows`).
        starts: ``(k,)`` flat cells clicked, each a safe zero of its board.
        rows: board rows.
        cols: board columns (at most 64).

    Returns:
        ``(k, rows*cols)`` bool: the zero region of each click and its border.
    """
    k = zero_bits.shape[0]
    dtype = zero_bits.dtype.type
    height = rows + 2
    region = np.zeros(k * height, dtype=dtype)
    start_row, start_col = np.divmod(starts, cols)
    region[np.arange(k) * height + start_row + 1] = np.left_shift(dtype(1), start_col.astype(dtype))
    zeros = zero_bits.reshape(-1)
    one = dtype(1)
    seeds = np.empty_like(region)
    across = np.empty_like(region)
    grown = np.empty_like(region)
    bit_and, bit_or = np.bitwise_and, np.bitwise_or
    rounds = 0
    while True:
        # Bits may spill one column past the board's edge: they are never zeros, so they never
        # grow further, and unpacking drops them (a 16-, 32- or 64-column board drops them
        # off the word instead).
        bit_and(region, zeros, out=seeds)
        np.left_shift(seeds, one, out=across)
        bit_or(across, seeds, out=across)
        np.right_shift(seeds, one, out=seeds)
        bit_or(across, seeds, out=across)
        bit_or(across, region, out=grown)
        bit_or(grown[1:], across[:-1], out=grown[1:])
        bit_or(grown[:-1], across[1:], out=grown[:-1])
        rounds += 1
        # Test for the fixed point every other round: a spare round costs less than a test.
        if rounds % 2 == 0 and grown.tobytes() == region.tobytes():
            break
        region, grown = grown, region
    return unpack_rows(grown.reshape(k, height), rows, cols)


def flood_bigint(zero: np.ndarray, starts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Cells opened by clicking ``starts`` (safe zeros), one click per board, on one big integer.

    Board ``b``'s cell ``(r, c)`` is bit ``(b * (rows + 2) + r + 1) * (cols + 1) + c``: every row
    has one spare bit on its right (which is also the left neighbour of the next row's first
    cell) and every board a spare row above and below. Spare bits are never zeros, so growth
    stops at them: no bounds checks, and boards never touch.

    Args:
        zero: ``(k, rows*cols)`` bool safe zero cells.
        starts: ``(k,)`` flat cells clicked, each a safe zero of its board.
        rows: board rows.
        cols: board columns (any).

    Returns:
        ``(k, rows*cols)`` bool: the zero region of each click and its border.
    """
    k = zero.shape[0]
    height, width = rows + 2, cols + 1
    grid = np.zeros((k, height, width), dtype=bool)
    grid[:, 1:-1, :cols] = zero.reshape(k, rows, cols)
    zeros = _to_int(grid)
    grid[:, 1:-1, :cols] = False
    start_row, start_col = np.divmod(starts, cols)
    grid[np.arange(k), start_row + 1, start_col] = True
    region = _to_int(grid)
    while True:
        seeds = region & zeros
        across = seeds | (seeds << 1) | (seeds >> 1)
        grown = region | across | (across << width) | (across >> width)
        if grown == region:
            break
        region = grown
    bits = k * height * width
    raw = np.frombuffer(region.to_bytes(bits // 8 + 2, "little"), dtype=np.uint8)
    cells = np.unpackbits(raw, count=bits, bitorder="little").view(bool)
    return cells.reshape(k, height, width)[:, 1:-1, :cols].reshape(k, rows * cols)


def _to_int(grid: np.ndarray) -> int:
    """The bool array ``grid``, flattened, as the bits of one non-negative integer (bit i = i)."""
    return int.from_bytes(np.packbits(grid.reshape(-1), bitorder="little").tobytes(), "little")


def flood_dense(zero: np.ndarray, starts: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Cells opened by clicking ``starts`` (safe zeros), one click per board, on bool arrays.

    Args:
        zero: ``(k, rows*cols)`` bool safe zero cells.
        starts: ``(k,)`` flat cells clicked, each a safe zero of its board.
        rows: board rows.
        cols: board columns (any).

    Returns:
        ``(k, rows*cols)`` bool: the zero region of each click and its border.
    """
    k = zero.shape[0]
    zeros = np.zeros((k, rows + 2, cols + 2), dtype=bool)
    zeros[:, 1:-1, 1:-1] = zero.reshape(k, rows, cols)
    region = np.zeros((k, rows + 2, cols + 2), dtype=bool)
    start_row, start_col = np.divmod(starts, cols)
    region[np.arange(k), start_row + 1, start_col + 1] = True
    done = region.copy()
    active = np.arange(k)
    while active.size:
        seeds = region & zeros
        across = seeds[:, :, :-2] | seeds[:, :, 1:-1] | seeds[:, :, 2:]
        block = across[:, :-2] | across[:, 1:-1] | across[:, 2:]
        grown = region.copy()
        grown[:, 1:-1, 1:-1] |= block
        growing = (grown != region).any(axis=(1, 2))
        finished = ~growing
        if finished.any():
            done[active[finished]] = grown[finished]
            active = active[growing]
            grown = grown[growing]
            zeros = zeros[growing]
        region = grown
    return done[:, 1:-1, 1:-1].reshape(k, rows * cols)
