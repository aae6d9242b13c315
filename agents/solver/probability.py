"""Exact mine probabilities of a visible position, with the certain cells decided exactly.

Method:
    1. :func:`~agents.solver.position.read_position` turns the board into clue constraints.
    2. :func:`~agents.solver.deduce.deduce` settles what the single-clue and pairwise rules prove.
    3. The remaining frontier splits into independent regions; each is counted exactly by mine count
       (:func:`~agents.solver.sweep.count_region_sweep`, dynamic programming along a path
       decomposition of the region, cached by its constraints).
    4. Regions are combined by mine count: ``k_i`` mines per region weigh
       ``prod(layouts_i[k_i]) * comb(O, M - sum(k_i))`` (``O`` unknown cells off the frontier,
       ``M`` mines unaccounted for), on exact integers when small, else in float64 on normalised
       counts with the possible totals tracked exactly: a probability is 0 or 1 only when every
       possible layout agrees, never by rounding.

Approximation (a last resort): a region whose sweep needs more than ``node_budget`` states at one
step is relaxed by dropping its largest clue and re-splitting. That admits a superset of the true
layouts, so certain cells stay certain; only the others are approximate
(:attr:`Analysis.approximate`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from operator import mul

import numpy as np

from agents.solver.deduce import Contradiction, deduce
from agents.solver.enumerate import RegionCounts, RegionTooLarge, count_region, split_regions
from agents.solver.position import Constraint, Position, read_position_and_mines
from agents.solver.sweep import DEFAULT_STATE_BUDGET, count_region_sweep
from mswp_gym.cells import neighbour_table

_CACHE_SIZE = 4096
_SEARCH_FIRST_CLUES = 24
_SEARCH_FIRST_NODES = 2_000
"""Regions of at most this many clues get a backtracking search of at most this many nodes first
(cheaper than the sweep's set-up on small regions)."""
DEFAULT_NODE_BUDGET = DEFAULT_STATE_BUDGET
"""States one step of a region's sweep may hold before the region is relaxed."""
_TINY = float(np.nextafter(0.0, 1.0))
_ALMOST_ONE = float(np.nextafter(1.0, 0.0))


class RegionCache:
    """A bounded LRU cache of region counts, keyed by the region's constraints.

    Consecutive positions of a game share most regions, so a player keeps one cache per game.
    """

    def __init__(self, size: int = _CACHE_SIZE) -> None:
        self._store: OrderedDict[tuple[Constraint, ...], RegionCounts] = OrderedDict()
        self._size = size

    def get(self, key: tuple[Constraint, ...]) -> RegionCounts | None:
        """The cached counts for ``key``, or None."""
        found = self._store.get(key)
        if found is not None:
            self._store.move_to_end(key)
        return found

    def put(self, key: tuple[Constraint, ...], counts: RegionCounts) -> None:
        """Remember ``counts`` for ``key``, evicting the least recently used entry when full."""
        self._store[key] = counts
        if len(self._store) > self._size:
            self._store.popitem(last=False)


@dataclass(frozen=True)
class Analysis:
    """Everything known about one position.

    Attributes:
        position: The parsed position (for a hypothetical reveal, its constraints are the reduced
            ones the analysis started from).
        probability: ``(rows * cols,)`` float64 flat mine probabilities of the unknown cells; NaN on
            revealed safe cells, 1.0 on visible mines.
        safe: Flat indices of the unknown cells that are certainly safe.
        mines: Flat indices of the unknown cells that are certainly mines.
        log_layouts: Natural log of the number of layouts consistent with the position.
        approximate: True if a region was too large to count exactly (see module docstring).
        frontier: Flat indices of unknown cells that touch a clue and are not settled.
        deduced_safe: The cells the local rules settled as safe (a subset of ``safe``).
        deduced_mines: The cells the local rules settled as mines (a subset of ``mines``).
        reduced: The constraints left after the local rules (settled cells removed).
        visible_mines: Flat indices of the visible mines (``EXPLODED``/``MINE``).
        node_budget: The sweep's state budget this analysis ran under, which the analyses derived
            from it (:func:`analyse_reveal`, :func:`analyse_assuming`) run under too.
    """

    position: Position
    probability: np.ndarray
    safe: frozenset[int]
    mines: frozenset[int]
    log_layouts: float
    approximate: bool
    frontier: frozenset[int]
    deduced_safe: frozenset[int]
    deduced_mines: frozenset[int]
    reduced: tuple[Constraint, ...]
    visible_mines: frozenset[int]
    node_budget: int = DEFAULT_NODE_BUDGET


def analyse(
    board: np.ndarray,
    total_mines: int,
    cache: RegionCache | None = None,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> Analysis:
    """Exact mine probabilities and certain cells of a position.

    On ``board``, ``FLAGGED`` counts as hidden, ``EXPLODED``/``MINE`` as known mines, ``NO_CLUE``
    as revealed safe; ``cache`` (a fresh one if None) is reused between calls.

    Raises:
        TypeError, ValueError: bad input, or no layout fits the position (the message names why).
    """
    position, visible = read_position_and_mines(board, total_mines)
    template = np.full(position.rows * position.cols, np.nan)
    if visible:
        template[visible] = 1.0
    return _solve(
        position,
        position.constraints,
        frozenset(),
        frozenset(),
        template,
        frozenset(visible),
        total_mines,
        cache if cache is not None else RegionCache(),
        node_budget,
    )


def analyse_reveal(
    base: Analysis,
    cell: int,
    value: int,
    total_mines: int,
    cache: RegionCache,
) -> Analysis:
    """The analysis of ``base``'s position after ``cell`` is revealed safe showing ``value``.

    Equivalent to :func:`analyse` on the board with that clue written in (flood fill aside), but it
    starts from ``base``'s reduced constraints, so only the changed part is worked out again.

    Raises:
        ValueError: no layout fits the new position (the value is impossible there).
    """
    position = base.position
    rows, cols = position.rows, position.cols
    settled_mines = base.deduced_mines
    settled = base.deduced_safe | settled_mines
    around = neighbour_table(rows, cols)[cell]
    unknown = set(position.unknown)
    own = tuple(n for n in around if n in unknown and n not in settled)
    need = value - sum(1 for n in around if n in base.visible_mines or n in settled_mines)
    if need < 0 or need > len(own):
        raise ValueError(f"cell {cell} cannot show {value} here")
    constraints: list[Constraint] = []
    changed: list[int] = []
    for cells, mines in base.reduced:
        if cell in cells:
            cells = tuple(c for c in cells if c != cell)
            if not cells:
                if mines:
                    raise ValueError(f"cell {cell} must be a mine here")
                continue
            changed.append(len(constraints))
        constraints.append((cells, mines))
    if own:
        changed.append(len(constraints))
        constraints.append((own, need))
    new_position = Position(
        rows=rows,
        cols=cols,
        unknown=_without(position.unknown, cell),
        known_mines=position.known_mines,
        mines_left=position.mines_left,
        constraints=tuple(constraints),
    )
    template = base.probability.copy()
    template[cell] = np.nan
    return _solve(
        new_position,
        new_position.constraints,
        base.deduced_safe - {cell},
        settled_mines,
        template,
        base.visible_mines,
        total_mines,
        cache,
        base.node_budget,
        changed,
    )


def analyse_assuming(
    base: Analysis,
    mines: tuple[int, ...],
    safe: tuple[int, ...],
    total_mines: int,
    cache: RegionCache,
) -> Analysis:
    """The analysis of ``base``'s position restricted to the layouts with mines on ``mines`` and
    none on ``safe`` (all undecided unknown cells of ``base``).

    ``exp(result.log_layouts - base.log_layouts)`` is the event's probability.

    Raises:
        ValueError: no layout fits the assumption.
    """
    assumptions: tuple[Constraint, ...] = (*(((m,), 1) for m in mines), *(((c,), 0) for c in safe))
    constraints = (*base.reduced, *assumptions)
    first = len(base.reduced)
    return _solve(
        base.position,
        constraints,
        base.deduced_safe,
        base.deduced_mines,
        base.probability.copy(),
        base.visible_mines,
        total_mines,
        cache,
        base.node_budget,
        list(range(first, len(constraints))),
    )


def _solve(
    position: Position,
    constraints: tuple[Constraint, ...],
    known_safe: frozenset[int],
    known_mines: frozenset[int],
    template: np.ndarray,
    visible_mines: frozenset[int],
    total_mines: int,
    cache: RegionCache,
    node_budget: int,
    changed: list[int] | None = None,
) -> Analysis:
    """Deduce, count, combine: the common core of :func:`analyse` and :func:`analyse_reveal`."""
    try:
        deduction = deduce(constraints, changed=changed)
    except Contradiction as error:
        raise ValueError(f"no layout fits this board: {error}") from None
    deduced_safe = known_safe | deduction.safe
    deduced_mines = known_mines | deduction.mines
    regions: list[RegionCounts] = []
    approximate = False
    for region in split_regions(deduction.constraints):
        counted, exact = _count_with_fallback(region, cache, node_budget)
        regions.extend(counted)
        approximate = approximate or not exact
    mines_left = position.mines_left - len(deduced_mines)
    frontier = {cell for region in regions for group in region.groups for cell in group}
    settled = deduced_safe | deduced_mines
    off: list[int] = []
    if len(position.unknown) > len(frontier) + len(settled):  # both are unknown cells, and disjoint
        off = [cell for cell in position.unknown if cell not in frontier and cell not in settled]
    combined = _combine(regions, len(off), mines_left, total_mines)

    safe = set(deduced_safe)
    mines = set(deduced_mines)
    cells: list[int] = [*deduced_safe, *deduced_mines]
    values: list[float] = [0.0] * len(deduced_safe) + [1.0] * len(deduced_mines)
    for counts, (group_p, group_state) in zip(regions, combined.groups, strict=True):
        for group, p, state in zip(counts.groups, group_p, group_state, strict=True):
            _assign(cells, values, group, p, state, safe, mines)
    if off:
        _assign(cells, values, off, combined.off_probability, combined.off_state, safe, mines)
    probability = template.copy()
    probability[cells] = values
    return Analysis(
        position=position,
        probability=probability,
        safe=frozenset(safe),
        mines=frozenset(mines),
        log_layouts=combined.log_layouts,
        approximate=approximate,
        frontier=frozenset(frontier),
        deduced_safe=deduced_safe,
        deduced_mines=deduced_mines,
        reduced=deduction.constraints,
        visible_mines=visible_mines,
        node_budget=node_budget,
    )


def mine_probabilities(board: np.ndarray, total_mines: int, revealed: float = np.nan) -> np.ndarray:
    """Exact probability that each cell is a mine, for heat maps and soft training targets.

    Returns ``(rows, cols)`` float64: P(mine) of each hidden or flagged cell under a uniform
    consistent layout (exactly 0.0 or 1.0 when certain), 1.0 on visible mines, ``revealed`` on
    revealed safe cells.

    Raises:
        TypeError, ValueError: see :func:`analyse`.
    """
    analysis = analyse(board, total_mines)
    probability = analysis.probability.reshape(board.shape)
    if not np.isnan(revealed):
        probability = np.where(np.isnan(probability), revealed, probability)
    return probability


@dataclass(frozen=True)
class _Combined:
    groups: list[tuple[list[float], list[int]]]
    """Per region: each group's per-cell probability and state (-1 safe, 1 mine, 0 uncertain)."""
    off_probability: float
    off_state: int
    log_layouts: float


def _assign(
    cells: list[int],
    values: list[float],
    group: tuple[int, ...] | list[int],
    p: float,
    state: int,
    safe: set[int],
    mines: set[int],
) -> None:
    """Queue ``group``'s probability for writing; record it in ``safe``/``mines`` when certain."""
    cells.extend(group)
    if state < 0:
        values.extend([0.0] * len(group))
        safe.update(group)
    elif state > 0:
        values.extend([1.0] * len(group))
        mines.update(group)
    else:
        values.extend([min(max(p, _TINY), _ALMOST_ONE)] * len(group))


def _count_with_fallback(
    region: tuple[Constraint, ...], cache: RegionCache, node_budget: int
) -> tuple[list[RegionCounts], bool]:
    """Exact counts of a region, or of a relaxation of it (returns ``(counts, exact)``)."""
    if len(region) == 1:  # one clue: comb(cells, mines) layouts, all with the same mines
        ((cells, mines),) = region
        if not 0 <= mines <= len(cells):
            raise ValueError("the clues of a region admit no layout")
        ways = math.comb(len(cells), mines)
        return [
            RegionCounts(
                groups=(tuple(sorted(cells)),),
                min_mines=mines,
                layouts=(ways,),
                group_mines=((ways * mines,),),
            )
        ], True
    found = cache.get(region)
    if found is not None:
        return [found], True
    try:
        counts = _count_exact(region, node_budget)
    except RegionTooLarge:
        # relaxed below, not in this handler: while it runs, the exception's frames keep the
        # failed count's memory (a sweep's layers, gigabytes) alive through every level
        counts = None
    if counts is None:
        widest = max(range(len(region)), key=lambda i: (len(region[i][0]), -i))
        relaxed = region[:widest] + region[widest + 1 :]
        parts: list[RegionCounts] = []
        for part in split_regions(relaxed):
            counted, _ = _count_with_fallback(part, cache, node_budget)
            parts.extend(counted)
        covered = {cell for part in parts for group in part.groups for cell in group}
        dropped = tuple(cell for cell in region[widest][0] if cell not in covered)
        if dropped:  # cells only the dropped clue saw: free cells, any number of mines
            parts.append(_free_cells(dropped))
        return parts, False
    cache.put(region, counts)
    return [counts], True


def _count_exact(region: tuple[Constraint, ...], state_budget: int) -> RegionCounts:
    """Exact counts of a region: a short backtracking search first (faster on small regions, where
    the sweep's set-up dominates), else the sweep.

    Raises:
        RegionTooLarge: the sweep needed more than ``state_budget`` states at one step.
        ValueError: the region has no valid layout.
    """
    if len(region) <= _SEARCH_FIRST_CLUES:
        try:
            return count_region(region, _SEARCH_FIRST_NODES)
        except RegionTooLarge:
            pass
    return count_region_sweep(region, state_budget)


def _free_cells(cells: tuple[int, ...]) -> RegionCounts:
    """A region of cells with no constraint (used by the relaxation)."""
    size = len(cells)
    layouts = tuple(math.comb(size, k) for k in range(size + 1))
    return RegionCounts(
        groups=(tuple(sorted(cells)),),
        min_mines=0,
        layouts=layouts,
        group_mines=(tuple(k * w for k, w in enumerate(layouts)),),
    )


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    return math.lgamma(n + 1) - np.array(
        [math.lgamma(x + 1) + math.lgamma(n - x + 1) for x in k.tolist()]
    )


_EXACT_COMBINE_WORK = 4096
"""Combinations of at most this many prefix-by-suffix products run on exact integers, larger ones
in float64."""


def _combine(
    regions: list[RegionCounts], off_cells: int, mines_left: int, total_mines: int
) -> _Combined:
    """Combine independent regions and the off-frontier cells by mine count (see the module
    docstring)."""
    work, length = 0, 1
    for region in regions:
        length += len(region.layouts) - 1
        work += length * len(region.layouts)
    if work * max(1, len(regions)) <= _EXACT_COMBINE_WORK:
        return _combine_exact(regions, off_cells, mines_left, total_mines)
    return _combine_float(regions, off_cells, mines_left, total_mines)


def _convolve(a: list[int], b: tuple[int, ...] | list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _combine_exact(
    regions: list[RegionCounts], off_cells: int, mines_left: int, total_mines: int
) -> _Combined:
    """:func:`_combine` on exact integers: every count is a Python int and each probability one
    correctly rounded division, so certainty is exact by construction (a count is 0 or all)."""
    offset = sum(region.min_mines for region in regions)
    prefix: list[list[int]] = [[1]]
    for region in regions:
        prefix.append(_convolve(prefix[-1], region.layouts))
    everything = prefix[-1]
    free = mines_left - offset  # mines for the frontier's extra mines and the off-frontier cells
    comb = math.comb
    ways = [
        comb(off_cells, free - t) if 0 <= free - t <= off_cells else 0
        for t in range(len(everything))
    ]
    total = sum(map(mul, everything, ways))
    if not total:
        possible = [offset + t for t, f in enumerate(everything) if f]
        raise ValueError(
            f"no layout fits this board with total_mines={total_mines}: the clues need between "
            f"{min(possible)} and {max(possible)} mines on the frontier, {mines_left} remain "
            f"unaccounted for and {off_cells} unknown cells lie off the frontier"
        )
    groups: list[tuple[list[float], list[int]]] = []
    suffix: list[int] = [1]
    for index in range(len(regions) - 1, -1, -1):
        region = regions[index]
        others = _convolve(prefix[index], suffix) if index else suffix
        span = len(others)
        rest = [sum(map(mul, others, ways[k : k + span])) for k in range(len(region.layouts))]
        probs, states = [], []
        for group, mines_by_k in zip(region.groups, region.group_mines, strict=True):
            p, state = _exact_probability(sum(map(mul, mines_by_k, rest)), len(group), total)
            probs.append(p)
            states.append(state)
        groups.append((probs, states))
        if index:
            suffix = _convolve(suffix, region.layouts)
    groups.reverse()
    off_probability, off_state = 0.0, 0
    if off_cells:
        off_numer = sum(map(mul, map(mul, everything, ways), range(free, free - len(ways), -1)))
        if not off_numer:
            off_state = -1
        elif off_numer == off_cells * total:
            off_state = 1
        else:
            off_probability = off_numer / (off_cells * total)
    return _Combined(
        groups=groups,
        off_probability=off_probability,
        off_state=off_state,
        log_layouts=math.log(total),
    )


def _exact_probability(mines: int, cells: int, layouts: int) -> tuple[float, int]:
    """The per-cell mine probability of ``cells`` cells holding ``mines`` mines in all, summed
    over ``layouts`` layouts, and its state: ``(0.0, -1)`` safe, ``(1.0, 1)`` mine, else
    ``(mines / (cells * layouts), 0)`` (one correctly rounded division)."""
    whole = cells * layouts
    if not mines:
        return 0.0, -1
    if mines == whole:
        return 1.0, 1
    return mines / whole, 0


def _combine_float(
    regions: list[RegionCounts], off_cells: int, mines_left: int, total_mines: int
) -> _Combined:
    """:func:`_combine` in float64 on normalised counts, possible totals tracked as booleans."""
    scaled, possible, log_scale = [], [], 0.0
    for region in regions:
        biggest = max(region.layouts)
        scaled.append(np.array([w / biggest for w in region.layouts]))
        possible.append(np.array([1.0 if w else 0.0 for w in region.layouts]))
        log_scale += math.log(biggest)
    offset = sum(region.min_mines for region in regions)
    # prefix[i] / suffix[i]: the combined distribution of regions before i / from i on.
    prefix, prefix_possible = [np.ones(1)], [np.ones(1)]
    for weights, can in zip(scaled, possible, strict=True):
        prefix.append(np.convolve(prefix[-1], weights))
        prefix_possible.append(np.minimum(np.convolve(prefix_possible[-1], can), 1.0))
    suffix, suffix_possible = [np.ones(1)], [np.ones(1)]
    for weights, can in zip(reversed(scaled), reversed(possible), strict=True):
        suffix.append(np.convolve(suffix[-1], weights))
        suffix_possible.append(np.minimum(np.convolve(suffix_possible[-1], can), 1.0))
    suffix.reverse()
    suffix_possible.reverse()
    everything, everything_possible = prefix[-1], prefix_possible[-1] > 0.5
    frontier_mines = offset + np.arange(len(everything))
    off_mines = mines_left - frontier_mines
    fits = (off_mines >= 0) & (off_mines <= off_cells)
    feasible = fits & everything_possible
    if not feasible.any():
        low = int(frontier_mines[everything_possible].min())
        high = int(frontier_mines[everything_possible].max())
        raise ValueError(
            f"no layout fits this board with total_mines={total_mines}: the clues need between "
            f"{low} and {high} mines on the frontier, {mines_left} remain unaccounted for and "
            f"{off_cells} unknown cells lie off the frontier"
        )
    log_ways = np.full(len(everything), -np.inf)
    log_ways[fits] = _log_comb(off_cells, off_mines[fits])
    top = log_ways[fits].max()
    ways = np.where(fits, np.exp(log_ways - top), 0.0)
    fits_f = fits.astype(float)
    total = float(np.dot(everything, ways))
    log_layouts = log_scale + top + math.log(total) if total > 0 else -math.inf

    groups: list[tuple[list[float], list[int]]] = []
    for i, region in enumerate(regions):
        others = np.convolve(prefix[i], suffix[i + 1])
        others_possible = np.minimum(np.convolve(prefix_possible[i], suffix_possible[i + 1]), 1.0)
        rest = np.correlate(ways, others, mode="valid")
        rest_possible = np.correlate(fits_f, others_possible, mode="valid") > 0.5
        live = [k for k, ok in enumerate(rest_possible.tolist()) if ok and region.layouts[k]]
        norm = float(np.dot(scaled[i], rest))
        biggest = max(region.layouts)
        probs, states = [], []
        for group, mines_by_k in zip(region.groups, region.group_mines, strict=True):
            size = len(group)
            if all(mines_by_k[k] == 0 for k in live):
                states.append(-1)
                probs.append(0.0)
            elif all(mines_by_k[k] == size * region.layouts[k] for k in live):
                states.append(1)
                probs.append(1.0)
            else:
                states.append(0)
                numer = float(np.dot(np.array([m / biggest for m in mines_by_k]), rest))
                probs.append(numer / (size * norm) if norm > 0 else 0.5)
        groups.append((probs, states))

    off_probability, off_state = 0.0, 0
    if off_cells:
        live_off = off_mines[feasible]
        if (live_off == 0).all():
            off_state = -1
        elif (live_off == off_cells).all():
            off_state = 1
        else:
            expected = float(np.dot(everything * ways, np.where(fits, off_mines, 0))) / total
            off_probability = expected / off_cells
    return _Combined(
        groups=groups, off_probability=off_probability, off_state=off_state, log_layouts=log_layouts
    )


def _without(cells: tuple[int, ...], cell: int) -> tuple[int, ...]:
    """``cells`` less ``cell`` (which it holds at most once), order kept."""
    try:
        at = cells.index(cell)
    except ValueError:
        return cells
    return cells[:at] + cells[at + 1 :]
