"""Mine probabilities when clues are bounds (the CS520 report's optimistic and cautious models).

Under ``optimistic`` clues a safe cell with true count ``t`` shows ``k`` uniform in ``0..t``; under
``cautious`` clues ``k`` uniform in ``t..n`` (``n`` its neighbours). With a uniform prior over the
layouts holding the game's mine count, a layout's posterior weight is the product of these
likelihoods over the shown clues.

:func:`noisy_analysis` enumerates each region by backtracking and combines them by mine count;
when a region passes ``node_budget``, regions get a binomial prior and the too-large one a
per-clue estimate (``approximate``). A cell is certain only when every admitted layout agrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.solver.enumerate import cells_by_signature, connected
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import is_clue, is_unknown

LIKELIHOOD_SCALE = 2520
"""lcm(1..9): every likelihood ``1/m`` (``m`` in 1..9) times this is an integer."""
DEFAULT_NOISE_BUDGET = 20_000
"""Search nodes one region may use before the approximation takes over."""
SEARCH_SPACE_SLACK = math.log(50.0)
"""A region whose unpruned search space exceeds ``node_budget`` times this is not searched."""


@dataclass(frozen=True)
class NoisyAnalysis:
    """Mine probabilities of the unknown cells of one position under noisy clues.

    Attributes:
        probability: ``(rows * cols,)`` float64; NaN on revealed cells, 1.0 on known mines.
        safe: flat indices of hidden cells certainly safe.
        mines: flat indices of hidden cells certainly mines.
        approximate: True if a region was too large to enumerate (see module docstring).
    """

    probability: np.ndarray
    safe: frozenset[int]
    mines: frozenset[int]
    approximate: bool


class _TooLarge(RuntimeError):
    pass


def likelihood(noise: str, shown: int, true: int, neighbours: int) -> int:
    """``LIKELIHOOD_SCALE * P(shown | true)`` under ``noise`` (0 if impossible)."""
    if noise == "optimistic":
        return LIKELIHOOD_SCALE // (true + 1) if shown <= true else 0
    if noise == "cautious":
        return LIKELIHOOD_SCALE // (neighbours - true + 1) if true <= shown <= neighbours else 0
    return LIKELIHOOD_SCALE if shown == true else 0


@dataclass
class _Clue:
    shown: int
    known: int  # proven mines around it
    size: int  # its number of neighbours
    cells: list[int]  # its unknown neighbours


@dataclass
class _Region:
    cells: list[int]
    weight: dict[int, int]  # mines in region -> total weight
    # mines in region -> per-cell weight of being a mine, times its group size
    cell_weight: dict[int, list[int]]
    # per cell: the size of its group (cell_weight / group_size is the weight)
    group_size: list[int]


RegionKey = tuple[tuple[int, int, int, tuple[int, ...]], ...]
"""A region's clues, ``(shown, known, size, cells)`` each, sorted: the key of its cached result."""
RegionCache = dict[RegionKey, _Region | None]
"""Region results (None: too large) by their clues, reused between the moves of one game."""


def noisy_analysis(
    board: np.ndarray,
    noise: str,
    total_mines: int,
    known_mines: set[int],
    known_safe: set[int],
    node_budget: int = DEFAULT_NOISE_BUDGET,
    cache: RegionCache | None = None,
) -> NoisyAnalysis:
    """Posterior mine probabilities and certain cells of a position with noisy clues.

    ``known_mines`` / ``known_safe``: flat cells proven by sound inference; ``cache``: region
    results by their clues, kept for one game (``None`` marks a region too large).

    Raises:
        ValueError: no layout fits (the clues contradict the noise model or the knowledge).
    """
    rows, cols = board.shape
    flat = board.ravel()
    table = neighbour_table(rows, cols)
    hidden = is_unknown(flat)
    unknown = hidden.copy()
    for cell in known_mines | known_safe:
        unknown[cell] = False
    probability = np.full(rows * cols, np.nan)
    if known_mines:
        probability[list(known_mines)] = 1.0
    if known_safe:
        probability[list(known_safe)] = 0.0
    safe, mines = set(known_safe), {c for c in known_mines if hidden[c]}
    mines_left = total_mines - len(known_mines)
    clues = []
    for index in np.flatnonzero(is_clue(flat)).tolist():
        around = table[index]
        cells = [n for n in around if unknown[n]]
        if cells:
            known = sum(1 for n in around if n in known_mines)
            clues.append(_Clue(int(flat[index]), known, len(around), cells))
    regions_of = [[clues[i] for i in group] for group in connected([c.cells for c in clues])]
    frontier = {c for clue in clues for c in clue.cells}
    off = [c for c in np.flatnonzero(unknown).tolist() if c not in frontier]
    if mines_left < 0 or mines_left > int(unknown.sum()):
        raise ValueError(f"{mines_left} mines left cannot fit {int(unknown.sum())} unknown cells")
    regions: list[_Region] = []
    too_large: list[list[_Clue]] = []
    cache = {} if cache is None else cache
    for region_clues in regions_of:
        key = tuple(sorted((c.shown, c.known, c.size, tuple(c.cells)) for c in region_clues))
        if key not in cache:
            try:
                cache[key] = _enumerate(region_clues, noise, node_budget)
            except _TooLarge:
                cache[key] = None
        found = cache[key]
        if found is None:
            too_large.append(region_clues)
        else:
            regions.append(found)
    if not too_large:
        _combine_exact(regions, off, mines_left, probability, safe, mines)
        approximate = False
    else:
        _combine_approximate(
            regions, too_large, off, mines_left, int(unknown.sum()), noise, probability, safe, mines
        )
        approximate = True
    return NoisyAnalysis(probability, frozenset(safe), frozenset(mines), approximate)


def _enumerate(clues: list[_Clue], noise: str, node_budget: int) -> _Region:
    """Every layout of the region's cells the clue bounds admit, weighted by the likelihoods.

    Cells under exactly the same clues are interchangeable, so the search runs over such groups:
    ``m`` mines in a group of ``s`` cells stand for ``comb(s, m)`` layouts, each cell a mine in
    ``m / s`` of them. The per-cell weights are kept as ``s *`` weight so they stay integers.
    """
    groups = _groups_by_clues(clues)
    sizes = [len(cells) for _, cells in groups]
    if sum(math.log(size + 1) for size in sizes) > math.log(node_budget) + SEARCH_SPACE_SLACK:
        raise _TooLarge  # hopeless: skip the search rather than spend the budget finding out
    search = _RegionSearch(clues, noise, node_budget, [list(sig) for sig, _ in groups], sizes)
    search.search(0, 0, 1)
    if not search.weight:
        raise ValueError("the clues of a region admit no layout under the noise model")
    cells: list[int] = []
    cell_weight: dict[int, list[int]] = {k: [] for k in search.weight}
    for g, (_, group_cells) in enumerate(groups):
        for cell in group_cells:
            cells.append(cell)
            for k in search.weight:
                # mines-weight of the group, shared evenly by its cells; scaled by the group size
                # per cell so it stays an integer, compared below against size * weight.
                cell_weight[k].append(search.group_weight[k][g])
    group_size = [sizes[g] for g, (_, group_cells) in enumerate(groups) for _ in group_cells]
    return _Region(cells, search.weight, cell_weight, group_size)


def _groups_by_clues(clues: list[_Clue]) -> list[tuple[tuple[int, ...], list[int]]]:
    """The region's cells grouped by the clues they lie under: ``(clue indices, cells)`` each,
    ordered by their first clue."""
    by_signature = cells_by_signature(tuple((tuple(clue.cells), 0) for clue in clues))
    return sorted(by_signature.items(), key=lambda item: (min(item[0]), item[0]))


class _RegionSearch:
    """The backtracking of :func:`_enumerate`: a mine count per group, in order, pruned by the
    clue bounds; each clue's likelihood enters once its last group is assigned.

    Attributes:
        weight: mines in region -> total weight of the admitted layouts.
        group_weight: mines in region -> per group, the weight times the group's mine count.
    """

    def __init__(
        self,
        clues: list[_Clue],
        noise: str,
        node_budget: int,
        clues_of: list[list[int]],
        sizes: list[int],
    ) -> None:
        self.clues = clues
        self.noise = noise
        self.node_budget = node_budget
        self.clues_of = clues_of  # per group: the clues it lies under
        self.sizes = sizes  # per group: its number of cells
        last = [0] * len(clues)
        for g, sig in enumerate(clues_of):
            for j in sig:
                last[j] = max(last[j], g)
        self.closes: list[list[int]] = [[] for _ in sizes]  # per group: the clues it completes
        for j, at in enumerate(last):
            self.closes[at].append(j)
        self.count = [0] * len(clues)  # per clue: mines assigned around it so far
        self.left = [len(clue.cells) for clue in clues]  # per clue: its cells not yet assigned
        self.assignment = [0] * len(sizes)
        self.weight: dict[int, int] = {}
        self.group_weight: dict[int, list[int]] = {}
        self.nodes = 0

    def search(self, g: int, mines: int, w: int) -> None:
        """Assign groups ``g..`` given ``mines`` mines and weight ``w`` so far."""
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _TooLarge
        if g == len(self.sizes):
            self._record(mines, w)
            return
        size = self.sizes[g]
        under = self.clues_of[g]
        count, left = self.count, self.left
        for j in under:
            left[j] -= size
        for value in range(size + 1):
            for j in under:
                count[j] += value
            factor = self._factor(g, value)
            if factor:
                self.assignment[g] = value
                self.search(g + 1, mines + value, w * factor)
                self.assignment[g] = 0
            for j in under:
                count[j] -= value
        for j in under:
            left[j] += size

    def _factor(self, g: int, value: int) -> int:
        """The weight of ``value`` mines in group ``g``: its layouts times the likelihoods of the
        clues it completes; 0 when a clue over it can no longer be met."""
        for j in self.clues_of[g]:
            if not self._feasible(j):
                return 0
        factor = math.comb(self.sizes[g], value)
        for j in self.closes[g]:
            clue = self.clues[j]
            factor *= likelihood(self.noise, clue.shown, clue.known + self.count[j], clue.size)
        return factor

    def _feasible(self, j: int) -> bool:
        clue = self.clues[j]
        low = clue.known + self.count[j]
        if self.noise == "optimistic":
            return low + self.left[j] >= clue.shown
        if self.noise == "cautious":
            return low <= clue.shown
        return low <= clue.shown <= low + self.left[j]

    def _record(self, mines: int, w: int) -> None:
        self.weight[mines] = self.weight.get(mines, 0) + w
        row = self.group_weight.setdefault(mines, [0] * len(self.sizes))
        for k, value in enumerate(self.assignment):
            if value:
                row[k] += w * value


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _scaled(weights: dict[int, int]) -> dict[int, float]:
    biggest = max(weights.values())
    return {k: w / biggest for k, w in weights.items()}


def _convolve(a: dict[int, float], b: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = {}
    for ka, wa in a.items():
        for kb, wb in b.items():
            out[ka + kb] = out.get(ka + kb, 0.0) + wa * wb
    return out


def _combine_exact(
    regions: list[_Region],
    off: list[int],
    mines_left: int,
    probability: np.ndarray,
    safe: set[int],
    mines: set[int],
) -> None:
    """Exact posterior: regions and off-frontier cells combined by mine count."""
    n_off = len(off)
    scaled = [_scaled(r.weight) for r in regions]

    def off_factor(total: int) -> float:
        rest = mines_left - total
        return 0.0 if rest < 0 or rest > n_off else _log_comb(n_off, rest)

    def fits(total: int) -> bool:
        return 0 <= mines_left - total <= n_off

    all_dist: dict[int, float] = {0: 1.0}
    for dist in scaled:
        all_dist = _convolve(all_dist, dist)
    possible_totals = [t for t in all_dist if fits(t)]
    if not possible_totals:
        raise ValueError("no layout fits the clues and the mine count")
    top = max(off_factor(t) for t in possible_totals)
    ways = {t: math.exp(off_factor(t) - top) for t in possible_totals}
    for i, region in enumerate(regions):
        others: dict[int, float] = {0: 1.0}
        for j, dist in enumerate(scaled):
            if j != i:
                others = _convolve(others, dist)
        rest = {k: sum(w * ways.get(k + s, 0.0) for s, w in others.items()) for k in region.weight}
        live = [k for k in region.weight if any(fits(k + s) for s in others)]
        _region_posterior(region, scaled[i], rest, live, probability, safe, mines)
    if n_off:
        _off_posterior(
            off,
            [mines_left - t for t in possible_totals],
            [all_dist[t] * ways[t] for t in possible_totals],
            probability,
            safe,
            mines,
        )


def _region_posterior(
    region: _Region,
    scaled: dict[int, float],
    rest: dict[int, float],
    live: list[int],
    probability: np.ndarray,
    safe: set[int],
    mines: set[int],
) -> None:
    """Set the region's cells in ``probability``, ``safe`` and ``mines``.

    ``scaled``: the region's weight per mine count (at most 1); ``rest``: per count, the weight
    of the completions to the game's count; ``live``: the counts some completion admits."""
    norm = sum(scaled[k] * rest[k] for k in region.weight)
    biggest = max(region.weight.values())
    for c, cell in enumerate(region.cells):
        size = region.group_size[c]
        if all(region.cell_weight[k][c] == 0 for k in live):
            probability[cell] = 0.0
            safe.add(cell)
        elif all(region.cell_weight[k][c] == size * region.weight[k] for k in live):
            probability[cell] = 1.0
            mines.add(cell)
        else:
            numer = sum(
                region.cell_weight[k][c] / (size * biggest) * rest[k] for k in region.weight
            )
            probability[cell] = min(max(numer / norm, 1e-12), 1 - 1e-12) if norm > 0 else 0.5


def _off_posterior(
    off: list[int],
    off_mines: list[int],
    weights: list[float],
    probability: np.ndarray,
    safe: set[int],
    mines: set[int],
) -> None:
    """Set the off-frontier cells ``off``, given per possible total its mines left for them and
    its weight."""
    n_off = len(off)
    if all(m == 0 for m in off_mines):
        probability[off] = 0.0
        safe.update(off)
    elif all(m == n_off for m in off_mines):
        probability[off] = 1.0
        mines.update(off)
    else:
        total = sum(weights)
        expected = sum(w * m for w, m in zip(weights, off_mines, strict=True)) / total
        probability[off] = min(max(expected / n_off, 1e-12), 1 - 1e-12)


def _combine_approximate(
    regions: list[_Region],
    too_large: list[list[_Clue]],
    off: list[int],
    mines_left: int,
    n_unknown: int,
    noise: str,
    probability: np.ndarray,
    safe: set[int],
    mines: set[int],
) -> None:
    """Independent regions under a binomial prior; per-clue estimates on too-large regions."""
    density = min(max(mines_left / n_unknown, 1e-6), 1 - 1e-6) if n_unknown else 0.5
    log_odds = math.log(density) - math.log(1 - density)
    expected_frontier = 0.0
    for region in regions:
        top = max(math.log(w) + k * log_odds for k, w in region.weight.items())
        prior = {k: math.exp(math.log(w) + k * log_odds - top) for k, w in region.weight.items()}
        norm = sum(prior.values())
        for c, cell in enumerate(region.cells):
            size = region.group_size[c]
            if all(region.cell_weight[k][c] == 0 for k in region.weight):
                probability[cell] = 0.0
                safe.add(cell)
            elif all(region.cell_weight[k][c] == size * region.weight[k] for k in region.weight):
                probability[cell] = 1.0
                mines.add(cell)
            else:
                p = (
                    sum(
                        prior[k] * region.cell_weight[k][c] / (size * region.weight[k])
                        for k in region.weight
                    )
                    / norm
                )
                probability[cell] = min(max(p, 1e-12), 1 - 1e-12)
            expected_frontier += float(probability[cell])
    for region_clues in too_large:
        estimates: dict[int, list[float]] = {}
        for clue in region_clues:
            fraction = _clue_fraction(clue, noise, density)
            for cell in clue.cells:
                estimates.setdefault(cell, []).append(fraction)
        for cell, values in estimates.items():
            probability[cell] = min(max(sum(values) / len(values), 1e-12), 1 - 1e-12)
            expected_frontier += float(probability[cell])
    if off:
        probability[off] = min(max((mines_left - expected_frontier) / len(off), 1e-12), 1 - 1e-12)


def _clue_fraction(clue: _Clue, noise: str, density: float) -> float:
    """Posterior expected fraction of mines in one clue's unknown cells, under a binomial prior."""
    u = len(clue.cells)
    weights = []
    for x in range(u + 1):
        w = likelihood(noise, clue.shown, clue.known + x, clue.size)
        weights.append(w * math.comb(u, x) * density**x * (1 - density) ** (u - x))
    total = sum(weights)
    if total <= 0:
        return density
    return sum(x * w for x, w in enumerate(weights)) / (total * u)
