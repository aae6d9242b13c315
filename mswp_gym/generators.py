"""Who places the mines: generators decide the layout from ``(rng, first_click)``.

========== ====================================================================================
name       rule
========== ====================================================================================
``any``    the layout is fixed at reset, before any click; the first click can hit a mine (the
           CS50 game). Needs ``0 <= mines <= rows*cols - 1``.
``safe``   mines are placed after the first click, never under it (Windows XP). Needs
           ``0 <= mines <= rows*cols - 1``.
``opening`` mines are placed after the first click, off the 3x3 block around it (clipped to the
           board), so it opens a zero (Windows 7). Needs
           ``0 <= mines <= rows*cols - min(rows, 3) * min(cols, 3)``.
``fixed``  a given layout (array or text picture), whatever the click: tests, puzzles, replays.
``no-guess`` as ``opening``, and the board can then be solved from the first click without a
           guess: the sound rules of :mod:`mswp_gym.deduction` reveal every safe cell from it.
           Needs at least 3x3 and ``mines <= NO_GUESS_DENSITY * rows*cols``.
========== ====================================================================================

Every layout of ``any``, ``safe`` and ``opening`` is uniformly random among those the rule allows.
``no-guess`` layouts are not: a random ``opening`` layout is repaired where the deduction gets
stuck (see :class:`NoGuessFirstClick`), which favours some layouts over others.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np

from mswp_gym.cells import Cell, region_around
from mswp_gym.choices import FirstClick, parse_choice
from mswp_gym.deduction import Grid, grid, settle

MAX_CELLS = 1_000_000
"""The largest board any env accepts, in cells (1000x1000; the engine is tested up to it)."""


class Generator(Protocol):
    """Places the mines of one game."""

    @property
    def name(self) -> str:
        """The rule's name: ``any``, ``safe``, ``opening``, ``fixed`` or ``no-guess``."""
        ...

    @property
    def needs_first_click(self) -> bool:
        """If True, :meth:`layout` is called at the first click with it; else at reset with None."""
        ...

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        """Return a ``(rows, cols)`` bool layout with ``mines`` mines honouring the rule."""
        ...


def check_size(rows: int, cols: int) -> tuple[int, int]:
    """``(rows, cols)`` as Python ints, checked: integers >= 1, at most :data:`MAX_CELLS` cells.

    Raises:
        ValueError: naming the bad value, or the cell count and the limit.
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    # int() first: NumPy integers overflow in the product (np.int8(100) ** 2 is 16).
    rows, cols = int(rows), int(cols)
    if rows * cols > MAX_CELLS:
        raise ValueError(
            f"a {rows}x{cols} board has {rows * cols:,} cells; the limit is {MAX_CELLS:,} cells"
        )
    return rows, cols


NO_GUESS_DENSITY = 0.3
"""The densest ``no-guess`` board accepted: the search seldom finds denser ones within its
bounds; on large boards lower densities can fail too."""


def max_mines(rule: str, rows: int, cols: int) -> int:
    """The largest mine count ``rule`` can honour for every first click on ``rows x cols``
    (``no-guess``: :data:`NO_GUESS_DENSITY` of the cells, none under 3 rows or columns, where a
    mine hides the cells behind it)."""
    cells = rows * cols
    if rule == "no-guess" and min(rows, cols) < 3:
        return 0
    if rule in ("opening", "no-guess"):
        cleared = cells - min(rows, 3) * min(cols, 3)
        return min(cleared, int(NO_GUESS_DENSITY * cells)) if rule == "no-guess" else cleared
    return cells - 1


def check_mines(rule: str, rows: int, cols: int, mines: int) -> None:
    """Raise a ValueError naming the values unless ``rule`` can place ``mines`` mines."""
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)):
        raise TypeError(f"mines must be an integer, got {mines!r}")
    rows, cols, mines = int(rows), int(cols), int(mines)
    if mines < 0:
        raise ValueError(f"mines must be >= 0, got {mines}")
    cells = rows * cols
    if mines >= cells:
        raise ValueError(
            f"mines={mines} leaves no safe cell on a {rows}x{cols} board ({cells} cells); "
            f"use at most {cells - 1}"
        )
    limit = max_mines(rule, rows, cols)
    if mines > limit and rule == "no-guess":
        raise ValueError(
            f"first_click='no-guess' needs at least 3 rows and 3 cols and a density up to "
            f"{NO_GUESS_DENSITY}: at most {limit} mines on {rows}x{cols}; got mines={mines} "
            f"(density {mines / cells:.2f})"
        )
    if mines > limit:
        region = min(rows, 3) * min(cols, 3)
        raise ValueError(
            f"first_click='{rule}' clears up to {region} cells around the first click, so a "
            f"{rows}x{cols} board ({cells} cells) holds at most {limit} mines; got mines={mines}"
        )


ALLOWED_CACHE_CELLS = 1024
"""Boards with at most this many cells cache, per excluded region, the sorted allowed cells."""


@lru_cache(maxsize=2048)
def _allowed_cells(cells: int, excluded: tuple[int, ...]) -> np.ndarray:
    """The flat cells not in ``excluded``, ascending: rank ``r`` among them is entry ``r``."""
    allowed = np.delete(np.arange(cells), excluded)
    allowed.flags.writeable = False
    return allowed


def _place(cells: int, mines: int, excluded: list[int], rng: np.random.Generator) -> np.ndarray:
    """Flat bool layout with ``mines`` mines uniformly among the cells not in ``excluded``.

    ``excluded`` must be sorted ascending. A uniform draw of ranks among the allowed cells is
    mapped to cells by stepping over each excluded cell in turn (small boards look the ranks up
    in a cached table of the allowed cells instead: same cells, same draws).
    """
    flat = np.zeros(cells, dtype=bool)
    if mines == 0:
        return flat
    picks = rng.permutation(cells - len(excluded))[:mines]
    if not excluded:
        flat[picks] = True
    elif cells <= ALLOWED_CACHE_CELLS:
        flat[_allowed_cells(cells, tuple(excluded)).take(picks)] = True
    else:
        for cell in excluded:
            picks += picks >= cell
        flat[picks] = True
    return flat


@dataclass(frozen=True)
class AnyFirstClick:
    """Layout fixed at reset; the first click may be a mine."""

    name: str = "any"
    needs_first_click: bool = False

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        return _place(rows * cols, mines, [], rng).reshape(rows, cols)


@dataclass(frozen=True)
class SafeFirstClick:
    """Mines placed after the first click, never under it."""

    name: str = "safe"
    needs_first_click: bool = True

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        if first_click is None:
            raise ValueError("the 'safe' generator needs the first click")
        return _place(rows * cols, mines, [first_click[0] * cols + first_click[1]], rng).reshape(
            rows, cols
        )


@dataclass(frozen=True)
class OpeningFirstClick:
    """Mines placed after the first click, never in the 3x3 block around it."""

    name: str = "opening"
    needs_first_click: bool = True

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        return _opening_layout(rows, cols, mines, rng, first_click, self.name)


def _opening_layout(
    rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None, rule: str
) -> np.ndarray:
    if first_click is None:
        raise ValueError(f"the {rule!r} generator needs the first click")
    excluded = sorted(r * cols + c for r, c in region_around(first_click, rows, cols))
    if mines > rows * cols - len(excluded):
        raise ValueError(
            f"first click {first_click} clears {len(excluded)} cells, leaving "
            f"{rows * cols - len(excluded)} for mines={mines}"
        )
    return _place(rows * cols, mines, excluded, rng).reshape(rows, cols)


NO_GUESS_PASSES = 12
"""Repair passes per drawn layout before :class:`NoGuessFirstClick` draws a fresh one."""
NO_GUESS_DRAWS = 1000
"""Fresh layouts :class:`NoGuessFirstClick` tries before it gives up."""
NO_GUESS_WORK = 20_000_000
"""Cells times solves :class:`NoGuessFirstClick` spends before it gives up (a few seconds): a
bound on the work, not the clock, so the same seed gives the same board or the same error."""


@dataclass(frozen=True)
class NoGuessFirstClick:
    """Mines placed after the first click, off its 3x3 block, so that no guess is ever needed.

    A layout is drawn as under ``opening`` and solved from the click with the sound rules of
    :mod:`mswp_gym.deduction`; where they get stuck it is repaired (as Simon Tatham's Mines does:
    :func:`_repair`) and solved again, until a fresh solve needs no repair. After
    :data:`NO_GUESS_PASSES` passes, or a repair with no room, a fresh layout is drawn; after
    :data:`NO_GUESS_DRAWS` draws or :data:`NO_GUESS_WORK` it gives up.
    """

    name: str = "no-guess"
    needs_first_click: bool = True

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        """A no-guess ``(rows, cols)`` bool layout with ``mines`` mines, none around the click.

        Raises:
            ValueError: no first click, or too many mines to clear its block.
            RuntimeError: no no-guess layout found within the bounds (one line, in seconds).
        """
        if first_click is None:
            raise ValueError(f"the {self.name!r} generator needs the first click")
        g = grid(rows, cols)
        start = g.bit(first_click)
        solves = [max(NO_GUESS_WORK // (rows * cols), 1)]
        draws = 0
        while draws < NO_GUESS_DRAWS and solves[0] > 0:
            draws += 1
            drawn = _opening_layout(rows, cols, mines, rng, first_click, self.name)
            accepted = _repaired(g, g.to_bits(drawn), start, rng, solves)
            if accepted is not None:
                return g.from_bits(accepted)
        raise RuntimeError(
            f"no no-guess layout of {mines} mines on {rows}x{cols} found from first click "
            f"{first_click} in {draws} draws (limits: {NO_GUESS_DRAWS} draws, "
            f"{NO_GUESS_WORK:,} cell-solves); use fewer mines"
        )


def _repaired(
    g: Grid, layout: int, start: int, rng: np.random.Generator, solves: list[int]
) -> int | None:
    """``layout`` repaired until a fresh solve from ``start`` settles every cell without a repair.

    ``solves``: one count, the solves left, lowered by each solve.

    Returns:
        That layout, or None after :data:`NO_GUESS_PASSES` passes, a repair that finds no room or
        the last solve left.
    """
    for _ in range(NO_GUESS_PASSES):
        solves[0] -= 1
        safe, known = settle(g, layout, start, 0)
        if safe | known == g.valid:
            return layout
        while safe | known != g.valid:
            repaired = _repair(g, layout, safe, known, rng)
            if repaired is None or solves[0] <= 0:
                return None
            layout = repaired
            solves[0] -= 1
            safe, known = settle(g, layout, safe, known)
    return None


def _repair(g: Grid, layout: int, safe: int, known: int, rng: np.random.Generator) -> int | None:
    """``layout`` with the unknown cells around one random stuck clue all cleared or all mined
    (whichever moves fewer mines), the mines moved to or from unknown cells no clue sees, else
    any other unknown cells. Revealed cells stay safe, known mines stay mines.

    Returns:
        The new layout, or None if no revealed clue sees an unknown cell (known mines wall them
        off) or no other unknown cells can take or give the mines moved.
    """
    unknown = g.valid & ~(safe | known)
    clues = g.positions(safe & g.spread(unknown))
    if not clues.size:
        return None
    stuck = int(clues[rng.integers(clues.size)])
    cells = g.spread(1 << stuck) & unknown
    mined = cells & layout
    clear = cells ^ mined
    unseen = unknown & ~g.spread(safe)
    for pool in (unseen, unknown & ~cells):
        free, full = pool & ~layout, pool & layout
        to_clear, to_fill = mined.bit_count(), clear.bit_count()
        options = []
        if to_clear <= free.bit_count():
            options.append((to_clear, free, mined))
        if to_fill <= full.bit_count():
            options.append((to_fill, full, clear))
        if not options:
            continue
        options.sort(key=lambda option: option[0])
        if len(options) == 2 and options[0][0] == options[1][0]:
            options = [options[int(rng.integers(2))]]
        count, source, flipped = options[0]
        chosen = rng.choice(g.positions(source), size=count, replace=False)
        moved = 0
        for position in chosen.tolist():
            moved |= 1 << position
        return layout ^ flipped ^ moved
    return None


@dataclass(frozen=True)
class FixedLayout:
    """A given layout, whatever the click."""

    mines_layout: np.ndarray
    name: str = "fixed"
    needs_first_click: bool = False

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        return self.mines_layout.copy()


def _is_layout_value(v: object) -> bool:
    return isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, np.integer)) and v in (0, 1))


def layout_values(array: np.ndarray) -> np.ndarray:
    """``array`` as bool, refusing any entry but 0, 1, False and True (of any shape).

    Raises:
        ValueError: naming the first bad entry and its index.
    """
    if array.dtype == np.bool_:
        return array.copy()
    if array.dtype.kind in "iuf":
        bad = ~np.isin(array, (0, 1))  # NaN is neither
    else:
        bad = ~np.vectorize(_is_layout_value, otypes=[bool])(array)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        value = array[where]
        value = value.item() if isinstance(value, np.generic) else value
        raise ValueError(f"a layout holds only 0/1 or False/True, got {value!r} at {where}")
    return array.astype(bool)


STOCK_GENERATORS = (
    AnyFirstClick,
    SafeFirstClick,
    OpeningFirstClick,
    FixedLayout,
    NoGuessFirstClick,
)
"""The generators of the five rules (the batched engine reproduces the first four, with its own
draws; the vector env places ``no-guess`` boards with this generator, board by board)."""


def fixed_from(layout: np.ndarray | str) -> FixedLayout:
    """A fixed generator from a bool array or a text picture (see :mod:`mswp_gym.pictures`).

    Raises:
        ValueError: for a layout that is not a non-empty 2-D array or has no safe cell.
    """
    if isinstance(layout, str):
        from mswp_gym.pictures import parse_picture

        array = parse_picture(layout).mines
    else:
        array = np.asarray(layout)
        if array.ndim != 2 or array.size == 0:
            raise ValueError(
                f"a fixed layout must be a non-empty 2-D array, got shape {array.shape}"
            )
        array = layout_values(array)
    if array.all():
        raise ValueError(
            f"a fixed layout needs a safe cell; this {array.shape} layout is all mines"
        )
    return FixedLayout(mines_layout=array)


def make_generator(name: str, layout: np.ndarray | str | None = None) -> Generator:
    """Build the generator called ``name`` (``layout`` is required for, and only for, ``fixed``).

    Raises:
        ValueError: for an unknown name or a missing/unexpected layout.
    """
    rule = parse_choice(FirstClick, name, "first_click rule")
    if rule == FirstClick.FIXED:
        if layout is None:
            raise ValueError("first_click='fixed' needs a layout (array or text picture)")
        return fixed_from(layout)
    if layout is not None:
        raise ValueError(
            f"a layout was given but first_click={rule.value!r}; use first_click='fixed'"
        )
    drawn = (AnyFirstClick, SafeFirstClick, OpeningFirstClick, NoGuessFirstClick)
    return next(kind for kind in drawn if kind.name == rule)()
