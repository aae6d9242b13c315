"""Sound deduction over a whole board at once: what a player proves from the clues, never guessing.

A ``rows x cols`` board lives on Python integers, one bit per cell: cell ``(r, c)`` is bit
``r * width + c`` with ``width = cols + GUARD``. The guard columns are always 0, so shifting a
board by a neighbour offset (up to three columns) never carries a cell into the next row; a rule
is then a few shifts, ands and ors for every cell at once, whatever the board size.

The rules, all sound (they never settle a cell wrongly), applied until none settles a new cell:

* **single clue**: a revealed clue whose known mine neighbours already make its number clears its
  unknown neighbours; one that needs every unknown neighbour to be a mine mines them all;
* **pair**: for two revealed clues ``x`` and ``y`` whose neighbourhoods overlap, with ``A``/``B``
  their unknown neighbours and ``need`` a clue minus its known mine neighbours: if
  ``need(y) - need(x) == |B - A|``, the cells of ``B - A`` are mines and those of ``A - B`` are
  safe (this includes the subset rule);
* **global count**, when neither finds anything: no mine left clears every unknown cell; as many
  mines left as unknown cells mines them all.

``need(x)`` also equals the number of ``x``'s unknown neighbours that are mines, so the rules
evaluate the player's conditions from the layout (faster, same answers): every cell settled here
is one a player proves from the clues and the mine count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from mswp_gym.cells import Cell

GUARD = 3
"""Zero columns right of every row: the pair rule reads cells up to three columns away."""

_RING1 = tuple((i, j) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
_RING2 = tuple((i, j) for i in range(-2, 3) for j in range(-2, 3) if max(abs(i), abs(j)) in (1, 2))


@dataclass(frozen=True)
class PairOffsets:
    """The pair rule for clue ``x`` and the clue ``y`` at offset ``d`` from it, as bit offsets.

    ``only_y``/``only_x`` are the offsets from ``x`` of the cells around ``y`` but not ``x`` and
    around ``x`` but not ``y`` (neither clue itself: both are revealed).
    """

    d: int
    only_y: tuple[int, ...]
    only_x: tuple[int, ...]


@dataclass(frozen=True)
class Grid:
    """The bit layout of a ``rows x cols`` board (see the module docstring).

    Attributes:
        rows: board rows.
        cols: board columns.
        width: bits per row, ``cols + GUARD``.
        valid: every on-board cell's bit set.
        pairs: the pair rule for each of the 24 offsets whose neighbourhoods overlap.
    """

    rows: int
    cols: int
    width: int
    valid: int
    pairs: tuple[PairOffsets, ...]

    def to_bits(self, mask: np.ndarray) -> int:
        """The ``(rows, cols)`` bool ``mask`` as a board integer."""
        padded = np.zeros((self.rows, self.width), dtype=bool)
        padded[:, : self.cols] = mask
        return int.from_bytes(np.packbits(padded, bitorder="little").tobytes(), "little")

    def from_bits(self, bits: int) -> np.ndarray:
        """The board integer ``bits`` as a ``(rows, cols)`` bool array."""
        cells = self.rows * self.width
        raw = np.frombuffer(bits.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
        flat = np.unpackbits(raw, count=cells, bitorder="little").view(bool)
        return flat.reshape(self.rows, self.width)[:, : self.cols].copy()

    def positions(self, bits: int) -> np.ndarray:
        """``(n,)`` intp, the bit positions set in ``bits``, ascending."""
        cells = self.rows * self.width
        raw = np.frombuffer(bits.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, count=cells, bitorder="little"))

    def bit(self, cell: Cell) -> int:
        """The board integer with only ``cell`` set."""
        return 1 << (cell[0] * self.width + cell[1])

    def spread(self, bits: int) -> int:
        """``bits`` and every on-board neighbour of a set cell."""
        w = self.width
        h = bits | bits << 1 | bits >> 1
        return (h | h << w | h >> w) & self.valid


@lru_cache(maxsize=64)
def grid(rows: int, cols: int) -> Grid:
    """The (cached) :class:`Grid` of a ``rows x cols`` board."""
    width = cols + GUARD
    valid = 0
    row_bits = (1 << cols) - 1
    for r in range(rows):
        valid |= row_bits << (r * width)
    pairs = []
    around = set(_RING1)
    for dr, dc in _RING2:
        around_y = {(dr + i, dc + j) for i, j in _RING1}
        only_y = sorted(around_y - around - {(0, 0)})
        only_x = sorted(around - around_y - {(dr, dc)})
        pairs.append(
            PairOffsets(
                dr * width + dc,
                tuple(i * width + j for i, j in only_y),
                tuple(i * width + j for i, j in only_x),
            )
        )
    return Grid(rows, cols, width, valid, tuple(pairs))


def _read(bits: int, offset: int) -> int:
    """The board whose cell ``p`` is ``bits``' cell ``p + offset``."""
    return bits >> offset if offset > 0 else bits << -offset


def _write(bits: int, offset: int) -> int:
    """The board whose cell ``p + offset`` is ``bits``' cell ``p``."""
    return bits << offset if offset > 0 else bits >> -offset


def pair_rule(g: Grid, safe: int, unknown: int, layout: int) -> tuple[int, int]:
    """The cells the pair rule settles in one pass over every pair of revealed clues.

    ``unknown``: neither revealed nor known mines. Returns ``(new_safe, new_mines)`` within it."""
    w = g.width
    h = unknown | unknown << 1 | unknown >> 1
    front = safe & (h | h << w | h >> w)  # revealed cells with an unknown neighbour
    mines_u = unknown & layout
    safe_u = unknown ^ mines_u
    new_safe = new_mines = 0
    for rule in g.pairs:
        fire = front & _read(front, rule.d)
        if not fire:
            continue
        for o in rule.only_y:  # B - A must hold no safe cell ...
            fire &= ~_read(safe_u, o)
        for o in rule.only_x:  # ... and A - B no mine
            fire &= ~_read(mines_u, o)
        if not fire:
            continue
        for o in rule.only_y:
            new_mines |= _write(fire, o)
        for o in rule.only_x:
            new_safe |= _write(fire, o)
    return new_safe & unknown, new_mines & unknown


def settle(g: Grid, layout: int, safe: int, mines: int) -> tuple[int, int]:
    """Apply the rules until none settles a new cell.

    ``layout``: the mines (the player knows only their number); ``safe``: the revealed cells;
    ``mines``: the known mines. Returns ``(safe, mines)`` at the fixed point."""
    w, valid = g.width, g.valid
    unknown = valid & ~(safe | mines)
    while unknown:
        mines_u = unknown & layout
        safe_u = unknown ^ mines_u
        # Single clue: a revealed cell with no unknown mine neighbour clears its unknown cells;
        # one with no unknown safe neighbour mines them.
        h = mines_u | mines_u << 1 | mines_u >> 1
        done = safe & ~(h | h << w | h >> w)
        h = done | done << 1 | done >> 1
        new_safe = (h | h << w | h >> w) & safe_u
        h = safe_u | safe_u << 1 | safe_u >> 1
        full = safe & ~(h | h << w | h >> w)
        h = full | full << 1 | full >> 1
        new_mines = (h | h << w | h >> w) & mines_u
        if not (new_safe or new_mines):
            new_safe, new_mines = pair_rule(g, safe, unknown, layout)
            if not (new_safe or new_mines):
                if not mines_u:  # global count: no mine left
                    new_safe = unknown
                elif not safe_u:  # as many mines left as unknown cells
                    new_mines = unknown
                else:
                    break
        safe |= new_safe
        mines |= new_mines
        unknown ^= new_safe | new_mines
    return safe, mines


def solves(layout: np.ndarray, first_click: Cell) -> bool:
    """Whether the rules reveal every safe cell of ``layout`` (bool mines) from ``first_click``
    alone (a mine there is never solved)."""
    mines = np.asarray(layout, dtype=bool)
    if mines[first_click]:
        return False
    g = grid(*mines.shape)
    bits = g.to_bits(mines)
    safe, _ = settle(g, bits, g.bit(first_click), 0)
    return safe == g.valid & ~bits
