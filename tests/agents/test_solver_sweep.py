"""The sweep (dynamic programming along a path decomposition) against brute force and the
backtracking search.
"""

from __future__ import annotations

import itertools
import sys
from math import comb

import numpy as np
import pytest
from positions import random_position

from agents.solver import sweep
from agents.solver.deduce import deduce
from agents.solver.enumerate import (
    RegionCounts,
    RegionTooLarge,
    cells_by_signature,
    count_region,
    split_regions,
)
from agents.solver.position import Constraint, read_position
from agents.solver.probability import DEFAULT_NODE_BUDGET, RegionCache, _count_with_fallback
from agents.solver.sweep import count_region_sweep
from mswp_gym.board import Board
from mswp_gym.constants import Outcome


def by_group(
    counts: RegionCounts,
) -> tuple[int, tuple[int, ...], dict[tuple[int, ...], tuple[int, ...]]]:
    """The counts with the groups' order forgotten (the two searches order groups differently)."""
    return (
        counts.min_mines,
        counts.layouts,
        dict(zip(counts.groups, counts.group_mines, strict=True)),
    )


def brute_force_counts(
    region: tuple[Constraint, ...],
) -> tuple[int, tuple[int, ...], dict[int, tuple[int, ...]]]:
    """``(min_mines, layouts, mines per cell)`` of a region, by listing every assignment of its
    cells."""
    cells = sorted({cell for cells, _ in region for cell in cells})
    layouts: dict[int, int] = {}
    per_cell: dict[int, dict[int, int]] = {cell: {} for cell in cells}
    for bits in itertools.product((0, 1), repeat=len(cells)):
        mine = dict(zip(cells, bits, strict=True))
        if all(sum(mine[c] for c in clue_cells) == need for clue_cells, need in region):
            k = sum(bits)
            layouts[k] = layouts.get(k, 0) + 1
            for cell in cells:
                per_cell[cell][k] = per_cell[cell].get(k, 0) + mine[cell]
    low, high = min(layouts), max(layouts)
    ks = range(low, high + 1)
    return (
        low,
        tuple(layouts.get(k, 0) for k in ks),
        {cell: tuple(per_cell[cell].get(k, 0) for k in ks) for cell in cells},
    )


def regions_of_play(
    rng: np.random.Generator, rows: int, cols: int, positions: int
) -> list[tuple[Constraint, ...]]:
    """The regions left after the local rules, on positions made by random safe reveals (flood
    fill)."""
    found = []
    for _ in range(positions):
        mines = int(rng.integers(rows * cols // 8, rows * cols // 3))
        flat = np.zeros(rows * cols, dtype=bool)
        flat[rng.choice(rows * cols, mines, replace=False)] = True
        board = Board(flat.reshape(rows, cols))
        for cell in rng.permutation(np.flatnonzero(~flat))[
            : int(rng.integers(1, rows * cols // 3))
        ].tolist():
            if board.outcome == Outcome.PLAYING and not board.revealed.flat[cell]:
                board.reveal(*divmod(cell, cols))
        if board.outcome != Outcome.PLAYING:
            continue
        reduced = deduce(read_position(board.visible, mines).constraints).constraints
        found.extend(split_regions(reduced))
    return found


@pytest.mark.parametrize("seed", range(3))
def test_count_region_sweep__equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(80):
        board, total, _ = random_position(rng)
        reduced = deduce(read_position(board, total).constraints).constraints
        for region in split_regions(reduced):
            if len({cell for cells, _ in region for cell in cells}) > 14:
                continue
            got = count_region_sweep(region)
            low, layouts, per_cell = brute_force_counts(region)
            assert (got.min_mines, got.layouts) == (low, layouts)
            for group, mines in zip(got.groups, got.group_mines, strict=True):
                assert mines == tuple(len(group) * m for m in per_cell[group[0]])
            checked += 1
    assert checked > 30


@pytest.mark.parametrize("many", [False, True])
def test_count_region_sweep__equals_backtracking_on_positions_of_play(
    many: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # many=True: every region tries all candidate orders (each must give the same counts)
    monkeypatch.setattr(sweep, "_MANY_ORDERS_FROM", 0 if many else 10**9)
    rng = np.random.default_rng(5)
    checked = 0
    for region in regions_of_play(rng, 10, 12, 40):
        try:
            expected = count_region(region, node_budget=50_000)
        except RegionTooLarge:
            continue
        assert by_group(count_region_sweep(region)) == by_group(expected)
        checked += 1
    assert checked > 40


def test_count_region_sweep__keeping_every_kth_layer_gives_the_same_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every sweep is made to keep only every k-th forward layer, as past its memory budget: the
    # backward sweep recomputes the others a segment at a time and must count the same
    forward = sweep._forward
    keeps = []

    def over_memory_unless_thinned(*args, keep_every=1):  # type: ignore[no-untyped-def]
        if keep_every == 1:
            raise sweep._OverMemory("as if past the budget")
        # the retry runs outside the handler: the failed pass's layers must be freed by then
        assert sys.exc_info()[0] is None
        keeps.append(keep_every)
        return forward(*args, keep_every=keep_every)

    rng = np.random.default_rng(5)
    expected = {}
    regions = [r for r in regions_of_play(rng, 10, 12, 40) if len(r) > 1]
    for region in regions:
        expected[region] = by_group(count_region_sweep(region))
    monkeypatch.setattr(sweep, "_forward", over_memory_unless_thinned)
    for region in regions:
        assert by_group(count_region_sweep(region)) == expected[region]
    assert len(keeps) == len(regions) and max(keeps) >= 4


def test_count_region_sweep__fits_a_memory_budget_too_small_for_every_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a long region: all its layers' counts need more than the budget, every k-th layer's and
    # one segment's fewer, so it is counted exactly where it used to raise RegionTooLarge (the
    # states weigh one byte each here, so the counts decide)
    monkeypatch.setattr(sweep, "_STATE_BYTES", 1)
    rng = np.random.default_rng(11)
    region = max(regions_of_play(rng, 12, 24, 30), key=len)
    signatures = list(cells_by_signature(region))
    assert len(signatures) >= 16
    expected = count_region_sweep(region)
    by_sig = cells_by_signature(region)
    order = sweep.candidate_orders(signatures, len(region), many=False)[0]
    steps = sweep._plan(
        tuple(signatures[g] for g in order), [len(by_sig[signatures[g]]) for g in order], region
    )
    cells = sum(len(by_sig[sig]) for sig in signatures)
    bits = 8 * ((cells + cells.bit_length() + 8) // 8)  # as count_region_sweep packs them
    forward, every_layer = sweep._forward(steps, bits, 10**9, 10**12)
    assert all(layer is not None for layer in forward)
    got = count_region_sweep(region, memory_budget=every_layer * 3 // 4)
    assert by_group(got) == by_group(expected)
    with pytest.raises(RegionTooLarge):
        count_region_sweep(region, memory_budget=every_layer // 20)


def test_count_region_sweep__long_thin_frontier_in_linear_work() -> None:
    # A 2 x n board: the bottom row is revealed and shows the true counts of a random top row. Far
    # beyond the backtracking search's reach on no mine budget; checked against a transfer matrix.
    rng = np.random.default_rng(8)
    n = 300
    top = rng.random(n) < 0.3
    clues = [int(top[max(0, i - 1) : i + 2].sum()) for i in range(n)]
    region = tuple(
        sorted((tuple(c for c in (i - 1, i, i + 1) if 0 <= c < n), clues[i]) for i in range(n))
    )
    got = count_region_sweep(region, state_budget=50)
    # transfer matrix over (mine at i-1, mine at i) after deciding cells 0..i (no cell -1: 0),
    # polynomials in the number of mines; deciding cell i+1 completes clue i
    table: dict[tuple[int, int], dict[int, int]] = {(0, a): {a: 1} for a in (0, 1)}
    for i in range(n - 1):
        following: dict[tuple[int, int], dict[int, int]] = {}
        for (before, at), poly in table.items():
            for nxt in (0, 1):
                if before + at + nxt == clues[i]:
                    target = following.setdefault((at, nxt), {})
                    for k, w in poly.items():
                        target[k + nxt] = target.get(k + nxt, 0) + w
        table = following
    expected: dict[int, int] = {}
    for (before, at), poly in table.items():
        if before + at == clues[n - 1]:
            for k, w in poly.items():
                expected[k] = expected.get(k, 0) + w
    low = min(k for k, w in expected.items() if w)
    assert got.min_mines == low
    assert got.layouts == tuple(expected.get(k, 0) for k in range(low, low + len(got.layouts)))
    assert sum(got.layouts) == sum(expected.values())
    assert got.layouts[int(top.sum()) - low] > 0


def test_count_region_sweep__group_sizes_weigh_by_binomials() -> None:
    # one clue over five cells needing two mines: C(5, 2) layouts, each cell a mine in 2/5 of them
    got = count_region_sweep((((0, 1, 2, 3, 4), 2),))
    assert (got.min_mines, got.layouts, got.group_mines) == (2, (comb(5, 2),), ((2 * comb(5, 2),),))


def test_count_region_sweep__over_a_budget_raises_region_too_large() -> None:
    region = ((tuple(range(8)), 4),)  # one step with up to 5 states
    with pytest.raises(RegionTooLarge):
        count_region_sweep(
            ((tuple(range(4)), 2), ((2, 3, 4, 5, 6, 7), 3), ((6, 7, 8, 9), 2)), state_budget=1
        )
    assert count_region_sweep(region, state_budget=1).layouts == (comb(8, 4),)
    with pytest.raises(RegionTooLarge):
        count_region_sweep(region, memory_budget=100)


def test_count_region_sweep__impossible_region_raises_value_error() -> None:
    with pytest.raises(ValueError, match="no layout"):
        count_region_sweep((((0, 1), 2), ((1, 2), 0)))


def test_count_with_fallback__exact_where_the_backtracking_search_runs_out_of_nodes() -> None:
    # the first region of these positions that the backtracking search cannot count in 20,000 nodes
    regions = regions_of_play(np.random.default_rng(7), 16, 16, 10)
    hard = []
    for region in regions:
        try:
            count_region(region, node_budget=20_000)
        except RegionTooLarge:
            hard.append(region)
    assert hard
    region = hard[0]
    counted, exact = _count_with_fallback(region, RegionCache(), DEFAULT_NODE_BUDGET)
    assert exact and len(counted) == 1
    assert by_group(counted[0]) == by_group(count_region(region, node_budget=2_000_000))
