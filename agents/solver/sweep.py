"""Exact counting of one frontier region by dynamic programming along a path decomposition.

The region's groups (cells under the same clues) are decided one at a time in an order that keeps
few clues *open* (partly decided); the state is the vector of the open clues' remaining needs,
holding the number of partial layouts by mine count. The work is linear in the number of groups
times the states per step. Per-group mine totals come from a backward sweep over the same steps:
group ``g`` (decided at step ``i``) totals ``sum over transitions (s -> t, m mines) of F_i[s] * m *
C(size, m) * x^m * B_{i+1}[t]``. Where keeping every forward layer would pass the memory budget,
the sweep keeps every ``k``-th layer (``k = isqrt(steps) + 1``) and the backward sweep recomputes
the others a segment at a time.

Polynomials in the mine count are packed into single Python integers (Kronecker substitution,
``x = 2**bits`` with ``bits >= n + bit_length(n) + 1`` for ``n`` cells, so slots never carry): a
shift is a multiplication by ``x^m`` and one big-integer product convolves two polynomials; counts
stay exact. Each step's counts are divided by ``x**offset``, ``offset`` the fewest mines any of
them holds (:class:`_Layer`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from math import comb, isqrt
from operator import itemgetter

from agents.solver.enumerate import RegionCounts, RegionTooLarge, cells_by_signature
from agents.solver.position import Constraint

DEFAULT_STATE_BUDGET = 200_000
"""Most states the sweep may hold at one step before the region is handed to the relaxation."""
DEFAULT_MEMORY_BUDGET = 2_000_000_000
"""Most bytes (estimated) a region's sweep may hold, after thinning its kept layers, before the
region is handed to the relaxation."""
_STATE_BYTES = 400
"""Estimated bytes per state besides its packed counts (the key, dict slots, remembered moves)."""
_MANY_ORDERS_FROM = 40
"""Regions with more groups than this try several orders and sweep along the cheapest."""


def count_region_sweep(
    constraints: tuple[Constraint, ...],
    state_budget: int = DEFAULT_STATE_BUDGET,
    memory_budget: int = DEFAULT_MEMORY_BUDGET,
) -> RegionCounts:
    """Count the layouts of one region exactly by the sweep.

    Args:
        constraints: The region's constraints (connected, as
            :func:`~agents.solver.enumerate.split_regions` returns them).
        state_budget: Most states one step may hold.
        memory_budget: Most bytes (estimated) the sweep may hold in all.

    Returns:
        The exact counts per number of mines (as :func:`~agents.solver.enumerate.count_region`).

    Raises:
        RegionTooLarge: a step needed more than ``state_budget`` states, or the sweep more than
            ``memory_budget`` bytes even keeping every ``k``-th layer only.
        ValueError: the region has no valid layout.
    """
    by_signature = cells_by_signature(constraints)
    signatures = list(by_signature)
    order, steps = _choose_plan(
        signatures,
        [len(by_signature[sig]) for sig in signatures],
        constraints,
        state_budget,
        memory_budget,
    )
    groups = tuple(tuple(sorted(by_signature[signatures[g]])) for g in order)
    n_cells = sum(len(cells) for cells in by_signature.values())
    bits = 8 * ((n_cells + n_cells.bit_length() + 8) // 8)
    try:
        forward, held = _forward(steps, bits, state_budget, memory_budget)
    except _OverMemory:
        thin = True  # retried below, not here: the exception's frames hold the first pass's layers
    else:
        thin = False
    if thin:
        # keep every k-th layer only; the backward sweep recomputes the others a segment at a time
        forward, held = _forward(
            steps, bits, state_budget, memory_budget, keep_every=isqrt(len(steps)) + 1
        )
    group_totals = _backward(steps, forward, bits, memory_budget - held)
    last = forward[-1]
    assert last is not None  # the last layer is always kept
    return _region_counts(groups, last, group_totals, bits)


def _choose_plan(
    signatures: list[tuple[int, ...]],
    sizes: list[int],
    constraints: tuple[Constraint, ...],
    state_budget: int,
    memory_budget: int,
) -> tuple[list[int], list[_Step]]:
    """The order of the groups to sweep along, and its steps (the cheapest of the candidates).

    Raises:
        RegionTooLarge: every candidate order exceeds the budgets.
    """
    orders = candidate_orders(
        signatures, len(constraints), many=len(signatures) > _MANY_ORDERS_FROM
    )
    plans = [
        _plan(tuple(signatures[g] for g in order), [sizes[g] for g in order], constraints)
        for order in orders
    ]
    chosen = _cheapest(plans, state_budget, memory_budget // _STATE_BYTES) if len(plans) > 1 else 0
    if chosen is None:
        raise RegionTooLarge(
            f"region of {len(signatures)} groups needs more than {state_budget} sweep states"
        )
    # only the chosen plan is returned: the others' remembered moves are freed with them
    return orders[chosen], plans[chosen]


class _OverMemory(RegionTooLarge):
    """The sweep's kept layers passed its memory budget (a sweep that keeps fewer may fit)."""


@dataclass(slots=True)
class _Layer:
    """One step's packed counts by state, each divided by ``x**offset``: ``offset`` is the fewest
    mines any of them holds, so no packed count carries the empty low slots that every count of
    the step would share (on a long region most of them: a quarter of the bits is left)."""

    counts: dict[tuple[int, ...], int]
    offset: int


def _normalised(counts: dict[tuple[int, ...], int], offset: int, bits: int) -> _Layer:
    """``counts`` (each divided by ``x**offset``) as a :class:`_Layer` with their common empty low
    slots divided out too."""
    if not counts:
        return _Layer(counts, offset)
    low = min(((value & -value).bit_length() - 1) // bits for value in counts.values())
    if low:
        shift = low * bits
        for state, value in counts.items():
            counts[state] = value >> shift
    return _Layer(counts, offset + low)


def _forward(
    steps: list[_Step], bits: int, state_budget: int, memory_budget: int, keep_every: int = 1
) -> tuple[list[_Layer | None], int]:
    """The forward sweep: for each step, the packed counts of the decided part by state (the last
    layer holds the total under ``()``), and the estimated bytes of the layers kept.

    Layers are kept for the backward sweep: every one, or with ``keep_every`` > 1 only the first,
    every ``keep_every``-th and the last (the others are None, and :func:`_backward` recomputes
    them from the kept layer before them, a segment at a time).

    Raises:
        RegionTooLarge: a step needed more than ``state_budget`` states.
        _OverMemory: the kept layers and a segment to recompute needed more than
            ``memory_budget`` bytes.
        ValueError: the region has no valid layout.
    """
    layer = _Layer({(): 1}, 0)
    forward: list[_Layer | None] = [layer]
    held = 0  # every state (its key and remembered moves stay) and the kept layers' counts
    gap = 0  # the counts since the last kept layer: a segment the backward sweep will recompute
    for index, step in enumerate(steps, start=1):
        layer = _advance(step, layer, bits)
        if len(layer.counts) > state_budget:
            raise RegionTooLarge(
                f"region of {len(steps)} groups needs more than {state_budget} sweep states at a "
                f"step"
            )
        held += _STATE_BYTES * len(layer.counts)
        kept = index % keep_every == 0 or index == len(steps)
        if kept:
            held += _counts_bytes(layer)
            gap = 0
        else:
            gap += _counts_bytes(layer)
        if held + gap > memory_budget:
            raise _OverMemory(
                f"region of {len(steps)} groups needs more than {memory_budget} bytes of sweep "
                f"layers"
            )
        forward.append(layer if kept else None)
    return forward, held


def _advance(step: _Step, layer: _Layer, bits: int) -> _Layer:
    """The next forward layer: ``layer`` with ``step``'s group decided.

    Raises:
        ValueError: no state survives (the region has no valid layout).
    """
    following: dict[tuple[int, ...], int] = {}
    for state, value in layer.counts.items():
        for m, weight, target in step.moves(state):
            shifted = (value * weight) << (bits * m)
            following[target] = following.get(target, 0) + shifted
    if not following:
        raise ValueError("the clues of a region admit no layout")
    return _normalised(following, layer.offset, bits)


def _counts_bytes(layer: _Layer) -> int:
    """Bytes of one layer's packed counts (its states are counted apart, at :data:`_STATE_BYTES`
    each)."""
    return sum(value.bit_length() for value in layer.counts.values()) // 8


def _backward(
    steps: list[_Step], forward: list[_Layer | None], bits: int, memory_budget: int
) -> list[tuple[int, int]]:
    """The backward sweep: each group's packed mine totals (see the module docstring), as
    ``(packed, offset)``: the packed polynomial divided by ``x**offset``.

    A forward layer that was not kept is recomputed, with the rest of its segment, from the kept
    layer before it.

    Raises:
        RegionTooLarge: a recomputed segment needed more than ``memory_budget`` bytes.
    """
    backward = _Layer({(): 1}, 0)
    group_totals: list[tuple[int, int]] = [(0, 0)] * len(steps)
    segment: dict[int, _Layer] = {}
    for i in range(len(steps) - 1, -1, -1):
        before = forward[i]
        if before is None:
            if i not in segment:
                segment = _segment(steps, forward, i, bits, memory_budget)
            before = segment.pop(i)
        step = steps[i]
        after_counts = backward.counts
        layer = {}
        marginal = 0
        for state, value in before.counts.items():
            ways = 0
            mined = 0
            for m, weight, target in step.moves(state):
                after = after_counts.get(target)
                if after is None:
                    continue
                shifted = (after * weight) << (bits * m)
                ways += shifted
                if m:
                    mined += shifted * m
            if ways:
                layer[state] = ways
                if mined:
                    marginal += value * mined
        group_totals[i] = (marginal, before.offset + backward.offset)
        backward = _normalised(layer, backward.offset, bits)
    return group_totals


def _segment(
    steps: list[_Step], forward: list[_Layer | None], last: int, bits: int, memory_budget: int
) -> dict[int, _Layer]:
    """The forward layers from the kept one before ``last`` up to ``last``, by index.

    Raises:
        RegionTooLarge: they need more than ``memory_budget`` bytes.
    """
    start = last
    while forward[start] is None:
        start -= 1
    layer = forward[start]
    assert layer is not None
    layers: dict[int, _Layer] = {}
    held = 0
    for index in range(start + 1, last + 1):
        layer = _advance(steps[index - 1], layer, bits)
        held += _counts_bytes(layer)
        if held > memory_budget:
            raise RegionTooLarge(
                f"region of {len(steps)} groups needs more than its memory budget to recompute "
                f"its sweep's layers"
            )
        layers[index] = layer
    return layers


def _region_counts(
    groups: tuple[tuple[int, ...], ...],
    total: _Layer,
    group_totals: list[tuple[int, int]],
    bits: int,
) -> RegionCounts:
    """Unpack the sweep's last layer (its total under ``()``) and per-group totals into
    :class:`RegionCounts`."""
    coefficients = _unpack(total.counts[()], bits)
    first = next(k for k, c in enumerate(coefficients) if c)
    last = max(k for k, c in enumerate(coefficients) if c)
    low = total.offset + first
    width = last - first + 1
    group_mines = []
    for packed, offset in group_totals:
        row = _unpack(packed, bits)
        group_mines.append(
            tuple(
                row[k - offset] if 0 <= k - offset < len(row) else 0
                for k in range(low, low + width)
            )
        )
    return RegionCounts(
        groups=groups,
        min_mines=low,
        layouts=tuple(coefficients[first : last + 1]),
        group_mines=tuple(group_mines),
    )


def _cheapest(plans: list[list[_Step]], state_budget: int, total_states: int) -> int | None:
    """The index of the plan whose sweep makes the fewest transitions, or None if every plan exceeds
    ``state_budget`` states at some step or ``total_states`` states in all.

    The plans' sweeps are simulated with states only (no counts), always advancing by one step the
    plan that has made the fewest transitions so far; transitions only add up, so the first plan to
    finish is the cheapest, and the others stop where their work passed its total. The moves worked
    out are remembered by the steps, so the real sweep along the chosen plan reuses them.
    """
    heap: list[tuple[int, int, int, set[tuple[int, ...]]]] = [
        (0, index, 0, {()}) for index in range(len(plans))
    ]
    held = [0] * len(plans)
    while heap:
        work, index, at, layer = heapq.heappop(heap)
        if at == len(plans[index]):
            return index
        following: set[tuple[int, ...]] = set()
        step = plans[index][at]
        for state in layer:
            moves = step.moves(state)
            work += len(moves)
            following.update(target for _, _, target in moves)
        held[index] += len(following)
        if len(following) <= state_budget and held[index] <= total_states:
            heapq.heappush(heap, (work, index, at + 1, following))
    return None


class _Step:
    """How deciding one group changes the state (the open clues' remaining needs, in open order)."""

    __slots__ = (
        "_bounds_old",
        "_cases",
        "_high_new",
        "_low_new",
        "_opened",
        "_pick",
        "_touched",
        "_weights",
    )

    def __init__(
        self,
        size: int,
        bounds_old: list[tuple[int, int]],
        bounds_new: list[tuple[int, int]],
        touched: list[int],
        kept: list[int],
    ) -> None:
        """Args:
        size: The group's cells.
        bounds_old: ``(position in the state, room of that clue after this group)`` for each
            touched clue already open.
        bounds_new: ``(need, room after this group)`` for each clue this group opens; opened
            clues are appended to the state in this order.
        touched: Positions, in the state with the opened clues appended, of the clues this
            group lies under.
        kept: Positions, in that extended state, of the clues still open after this group.
        """
        self._bounds_old = bounds_old
        # the bounds from the clues this group opens do not depend on the state
        self._low_new = max([0, *(need - room for need, room in bounds_new)])
        self._high_new = min([size, *(need for need, _ in bounds_new)])
        self._opened = [need for need, _ in bounds_new]
        self._touched = touched
        self._pick: Callable[[list[int]], tuple[int, ...]]
        if len(kept) >= 2:
            self._pick = itemgetter(*kept)
        elif kept:
            only = kept[0]
            self._pick = lambda extended: (extended[only],)
        else:
            self._pick = lambda extended: ()
        self._weights = [comb(size, m) for m in range(size + 1)]
        self._cases: dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]] = {}

    def moves(self, state: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
        """The ``(mines, C(size, mines), next state)`` choices for this group from ``state``."""
        found = self._cases.get(state)
        if found is not None:
            return found
        low, high = self._low_new, self._high_new
        for position, room in self._bounds_old:
            need = state[position]
            # plain ifs: measurably faster than min/max in this hot loop
            if need < high:
                high = need
            if need - room > low:
                low = need - room
        moves = []
        if low <= high:
            extended = [*state, *self._opened]
            touched, pick, weights = self._touched, self._pick, self._weights
            if low:
                for p in touched:
                    extended[p] -= low
            for m in range(low, high + 1):
                moves.append((m, weights[m], pick(extended)))
                for p in touched:
                    extended[p] -= 1
        self._cases[state] = moves
        return moves


def _plan(
    signatures: tuple[tuple[int, ...], ...], sizes: list[int], constraints: tuple[Constraint, ...]
) -> list[_Step]:
    """The steps of the sweep for groups decided in this order."""
    room = [len(cells) for cells, _ in constraints]
    left = [0] * len(constraints)
    for sig in signatures:
        for c in sig:
            left[c] += 1
    open_clues: list[int] = []
    steps = []
    for sig, size in zip(signatures, sizes, strict=True):
        bounds_old, bounds_new, opened = [], [], []
        for c in sig:
            room[c] -= size
            left[c] -= 1
            if c in open_clues:
                bounds_old.append((open_clues.index(c), room[c]))
            else:
                opened.append(c)
                bounds_new.append((constraints[c][1], room[c]))
        extended = open_clues + opened
        touched = [p for p, c in enumerate(extended) if c in sig]
        kept = [p for p, c in enumerate(extended) if left[c] > 0]
        open_clues = [extended[p] for p in kept]
        steps.append(_Step(size, bounds_old, bounds_new, touched, kept))
    return steps


def candidate_orders(
    signatures: list[tuple[int, ...]], n_constraints: int, many: bool
) -> list[list[int]]:
    """Orders of the groups that keep few clues open (greedy path decompositions).

    Each starts at a pseudo-peripheral clue (the last one a breadth-first walk reaches from the far
    end of another walk). The greedy order repeatedly decides, among the groups that touch an open
    clue, the one that leaves the fewest clues open, preferring the clue opened earliest; the
    breadth-first order decides each clue's groups in the order of a walk of the clue graph. With
    ``many``, both are returned, else only the greedy one.
    """
    groups_of: list[list[int]] = [[] for _ in range(n_constraints)]
    for g, sig in enumerate(signatures):
        for c in sig:
            groups_of[c].append(g)
    if not n_constraints:
        return [list(range(len(signatures)))]
    one_end = _far_clue(0, signatures, groups_of)
    other_end = _far_clue(one_end, signatures, groups_of)
    if not many:
        return [_greedy_order(signatures, groups_of, other_end)]
    return [
        _greedy_order(signatures, groups_of, other_end),
        _walk_order(signatures, groups_of, other_end),
    ]


def _greedy_order(
    signatures: list[tuple[int, ...]], groups_of: list[list[int]], start: int
) -> list[int]:
    left = [len(gs) for gs in groups_of]
    opened = [-1] * len(groups_of)
    opened_count = 0
    placed = [False] * len(signatures)
    candidates: set[int] = set(groups_of[start])
    order: list[int] = []
    never = len(groups_of)

    def cost(g: int) -> tuple[int, int, int]:
        sig = signatures[g]
        change = sum(1 for c in sig if opened[c] < 0) - sum(1 for c in sig if left[c] == 1)
        return change, min((opened[c] for c in sig if opened[c] >= 0), default=never), g

    while len(order) < len(signatures):
        if not candidates:
            candidates = {next(g for g in range(len(signatures)) if not placed[g])}
        best = min(candidates, key=cost)
        candidates.discard(best)
        placed[best] = True
        order.append(best)
        for c in signatures[best]:
            left[c] -= 1
            if opened[c] < 0:
                opened[c] = opened_count
                opened_count += 1
                candidates.update(g for g in groups_of[c] if not placed[g])
    return order


def _walk_order(
    signatures: list[tuple[int, ...]], groups_of: list[list[int]], start: int
) -> list[int]:
    seen = [False] * len(groups_of)
    seen[start] = True
    queue = [start]
    placed = [False] * len(signatures)
    order: list[int] = []
    at = 0
    while at < len(queue):
        c = queue[at]
        at += 1
        following = sorted(
            {o for g in groups_of[c] for o in signatures[g] if not seen[o]},
            key=lambda o: len(groups_of[o]),
        )
        for o in following:
            seen[o] = True
            queue.append(o)
        for g in groups_of[c]:
            if not placed[g]:
                placed[g] = True
                order.append(g)
    order += [g for g in range(len(signatures)) if not placed[g]]
    return order


def _far_clue(start: int, signatures: list[tuple[int, ...]], groups_of: list[list[int]]) -> int:
    """The last clue a breadth-first walk of the clue graph from ``start`` reaches."""
    seen = {start}
    frontier = [start]
    last = start
    while frontier:
        following = []
        for c in frontier:
            for g in groups_of[c]:
                for other in signatures[g]:
                    if other not in seen:
                        seen.add(other)
                        following.append(other)
        if following:
            last = following[-1]
        frontier = following
    return last


def _unpack(packed: int, bits: int) -> list[int]:
    """The coefficients of a packed polynomial (see the module docstring), lowest first."""
    if not packed:
        return []
    width = bits // 8
    data = packed.to_bytes((packed.bit_length() + 7) // 8, "little")
    return [int.from_bytes(data[k : k + width], "little") for k in range(0, len(data), width)]
