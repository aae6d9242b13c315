"""Hill-style guessing: 50/50 influence and the blended next-move score, against every layout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from positions import layouts, random_position

from agents.solver import blended
from agents.solver.long_term import ENABLER_THRESHOLD, LongTermRisk
from agents.solver.probability import Analysis, RegionCache, analyse
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import HIDDEN, MINE

M, H = MINE, HIDDEN


def chance(fits: list[frozenset[int]], mines: set[int], safe: set[int]) -> float:
    return sum(1 for m in fits if mines <= m and not safe & m) / len(fits)


def small_positions(seed: int, count: int) -> list[tuple[np.ndarray, int, Analysis]]:
    """Small analysed positions with hidden cells and some visible mines (walls for would-be
    50/50s); of ``count`` drawn, those that some layout fits."""
    rng = np.random.default_rng(seed)
    found: list[tuple[np.ndarray, int, Analysis]] = []
    drawn = 0
    while drawn < count:
        board, total, _ = random_position(
            rng, max_rows=4, reveal=0.4, shown_mines=0.3, mine_code=MINE, flags=0.0
        )
        if (board == HIDDEN).sum() > 12:
            continue
        drawn += 1
        try:
            found.append((board, total, analyse(board, total)))
        except ValueError:
            continue
    return found


def test_long_term_risk__credits_the_mine_of_a_would_be_fifty_fifty() -> None:
    board = np.array(
        [
            [M, M, 2, H],
            [H, M, H, H],
            [H, M, H, H],
            [H, H, H, H],
        ],
        dtype=np.int8,
    )
    total = 8
    analysis = analyse(board, total)
    risk = LongTermRisk(analysis, board, total, RegionCache())
    fits = layouts(board, total)
    cell = 4  # (1, 0)
    # Its own pair with (2, 0) is a 50/50 with its mine on (1, 0) once (3, 0) and (3, 1) are mines
    # too ((0, 0) and (0, 1) already are). It is also the one mine that the pair (2, 0)/(3, 0)
    # still needs (every other cell beside that pair is a mine or off the board).
    own_pair = chance(fits, {4, 12, 13}, {8})
    enabled = chance(fits, {8, 4}, {12})
    p = float(analysis.probability[cell])
    assert own_pair > 0 and enabled > ENABLER_THRESHOLD
    expected = min(own_pair + enabled, p, 1 - p)
    assert expected < min(p, 1 - p)  # the cap does not hide the sum
    assert risk.influence(cell) == pytest.approx(expected, abs=1e-12)
    assert risk.factor(cell) == pytest.approx(1 + 0.9 * expected / (1 - p))


def test_long_term_risk__takes_the_larger_pair_on_each_axis_not_the_sum() -> None:
    # (0, 1) can pair with (0, 0) or with (0, 2); each needs the cell beyond the other end.
    board = np.array(
        [
            [H, H, H, H, H],
            [M, M, M, M, M],
        ],
        dtype=np.int8,
    )
    total = 8  # three mines in the top row
    analysis = analyse(board, total)
    risk = LongTermRisk(analysis, board, total, RegionCache())
    fits = layouts(board, total)
    left = chance(fits, {1, 2}, {0})  # pair (0,0)/(0,1), mine on (0,1), needs (0,2)
    right = chance(fits, {1, 0, 3}, {2})  # pair (0,1)/(0,2), mine on (0,1), needs (0,0), (0,3)
    p = float(analysis.probability[1])
    enablers = risk._enabled(1)
    assert left > 0 and right > 0
    assert risk.influence(1) == pytest.approx(min(max(left, right) + enablers, p, 1 - p))
    assert left + right + enablers < min(p, 1 - p)  # the sum would not be capped either


def test_long_term_risk__no_influence_in_the_open() -> None:
    board = np.full((5, 5), HIDDEN, dtype=np.int8)
    board[2, 2] = 1
    analysis = analyse(board, 4)
    risk = LongTermRisk(analysis, board, 4, RegionCache())
    assert risk.influence(6) == 0.0  # (1, 1): every cell beside its pairs is hidden and free
    assert risk.factor(6) == 1.0


@pytest.mark.parametrize("seed", range(3))
def test_long_term_risk__every_count_matches_the_layouts(seed: int) -> None:
    """Every pattern probability it counts equals the share of layouts; influence stays within the
    cap and the factor at least 1."""
    counted = 0
    for board, total, analysis in small_positions(seed, 60):
        fits = layouts(board, total)
        risk = LongTermRisk(analysis, board, total, RegionCache())
        for cell in analysis.position.unknown:
            p = float(analysis.probability[cell])
            influence = risk.influence(cell)
            assert 0.0 <= influence <= min(p, 1 - p) + 1e-12
            assert risk.factor(cell) >= 1.0
        for (mines, safe), value in risk._probabilities.items():
            assert value == pytest.approx(chance(fits, set(mines), set(safe)), abs=1e-9)
            counted += 1
    assert counted > 20, "the positions should contain would-be 50/50s"


def brute_weight(
    board: np.ndarray, total: int, cell: int, fits: list[frozenset[int]], factor: float
) -> float:
    """Hill's weight of ``cell`` from the layouts themselves (the module docstring's formula)."""
    rows, cols = board.shape
    table = neighbour_table(rows, cols)
    unknown = [i for i, v in enumerate(board.ravel().tolist()) if v == HIDDEN]
    safe_fits = [m for m in fits if cell not in m]
    safety = len(safe_fits) / len(fits)
    by_value: dict[int, list[frozenset[int]]] = {}
    for mines in safe_fits:
        by_value.setdefault(sum(n in mines for n in table[cell]), []).append(mines)
    others = [c for c in unknown if c != cell]
    safe_after = {}
    blends = {}
    for value, group in by_value.items():
        safeties = sorted(
            (
                sum(c not in m for m in group) / len(group)
                for c in others
                if any(c not in m for m in group)
            ),
            reverse=True,
        )
        safeties += [0.0, 0.0]
        blends[value] = (4 * safeties[0] + safeties[1]) / 5
        safe_after[value] = {c for c in others if all(c not in m for m in group)}
    linked = set.intersection(*safe_after.values())
    if len(linked) >= 2:
        return safety * (1 + 0.001 * safety)
    secondary = sum(len(g) / len(fits) * blends[v] * factor for v, g in by_value.items())
    progress = sum(len(g) / len(fits) for v, g in by_value.items() if safe_after[v] - linked)
    return secondary * (1 + 0.001 * progress)


@pytest.mark.parametrize("seed", range(3))
def test_blended_score__matches_the_layouts(seed: int) -> None:
    scored = 0
    for board, total, analysis in small_positions(seed + 10, 60):
        fits = layouts(board, total)
        cache = RegionCache()
        risk = LongTermRisk(analysis, board, total, cache)
        table = neighbour_table(*board.shape)
        legal = np.ones(board.size, dtype=bool)
        for cell in analysis.position.unknown:
            if not 0.0 < analysis.probability[cell] < 1.0:
                continue
            got = blended._score(cell, analysis, total, legal, cache, table, risk, None)
            expected = brute_weight(board, total, cell, fits, risk.factor(cell))
            assert got.weight == pytest.approx(expected, abs=1e-9)
            assert not got.pruned
            scored += 1
    assert scored > 100


@pytest.mark.parametrize("seed", range(3))
def test_blended_choice__pruning_never_changes_the_choice(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scoring stops early only for candidates that cannot win: the choice equals the one made
    with every candidate scored in full."""
    full_score: Any = blended._score

    def unpruned(*args: Any) -> blended.Scored:
        scored: blended.Scored = full_score(*args[:-1], None)
        return scored

    compared = 0
    for board, total, analysis in small_positions(seed + 20, 100):
        pool = [c for c in analysis.position.unknown if 0.0 < analysis.probability[c] < 1.0]
        if len(pool) < 2:
            continue
        legal = np.ones(board.size, dtype=bool)
        pruned, _ = blended.choose(analysis, board, total, legal, pool, RegionCache())
        with monkeypatch.context() as patch:
            patch.setattr(blended, "_score", unpruned)
            full, _ = blended.choose(analysis, board, total, legal, pool, RegionCache())
        assert pruned.cell == full.cell
        compared += 1
    assert compared > 40


def corner_one(size: int) -> tuple[np.ndarray, Analysis, list[int]]:
    """A 1 in the corner of a ``size`` x ``size`` board with 3 mines: its three neighbours have
    risk 1/3, the cells away from it less."""
    board = np.full((size, size), HIDDEN, dtype=np.int8)
    board[0, 0] = 1
    analysis = analyse(board, 3)
    order = sorted(
        (c for c in analysis.position.unknown if 0 < analysis.probability[c] < 1),
        key=lambda c: float(analysis.probability[c]),
    )
    return board, analysis, order


def test_candidates__every_off_frontier_cell_when_few_and_none_of_the_riskier_frontier() -> None:
    board, analysis, order = corner_one(5)
    off_risk = float(analysis.probability[24])
    assert blended.CUT_OFF * (1 - off_risk) > 1 - 1 / 3  # the frontier is below the cut-off
    chosen = blended.candidates(analysis, board, order, {c: 8 for c in order})
    assert sorted(chosen) == [c for c in range(25) if c not in (0, 1, 5, 6)]
    assert len(chosen) < blended.FEW_OFF_FRONTIER


def test_candidates__when_many_off_frontier_cells_only_promising_ones() -> None:
    board, analysis, order = corner_one(6)
    openness = {c: 8 for c in order}
    openness[35] = 3  # as if the far corner had only three unknown neighbours
    chosen = blended.candidates(analysis, board, order, openness)
    # two steps from the clue at (0, 0): (0, 2) and (2, 0); then the cell with 2-3 unknown around
    assert chosen == [12, 2, 35]


def test_candidates__frontier_within_the_cut_off_and_off_frontier_only_when_nearly_best() -> None:
    kept = dropped = off_kept = off_dropped = 0
    for board, _, analysis in small_positions(30, 300):
        order = sorted(
            (c for c in analysis.position.unknown if 0 < analysis.probability[c] < 1),
            key=lambda c: float(analysis.probability[c]),
        )
        if not order:
            continue
        chosen = set(blended.candidates(analysis, board, order, {c: 8 for c in order}))
        best = max(1 - float(analysis.probability[c]) for c in order)
        off = [c for c in order if c not in analysis.frontier]
        for cell in order:
            safety = 1 - float(analysis.probability[cell])
            if cell in analysis.frontier:
                wanted = safety >= blended.CUT_OFF * best
                kept, dropped = kept + wanted, dropped + (not wanted)
            else:  # fewer than FEW_OFF_FRONTIER here: all or none of them
                wanted = safety > blended.OFF_FRONTIER_CUT_OFF * best
                off_kept, off_dropped = off_kept + wanted, off_dropped + (not wanted)
            assert (cell in chosen) == wanted
        assert len(off) < blended.FEW_OFF_FRONTIER
    assert min(kept, dropped, off_kept, off_dropped) > 0


@pytest.mark.parametrize("seed", range(3))
def test_long_term_risk__enabler_term_equals_the_board_sweep(seed: int) -> None:
    """``E(c)`` looked up around ``c`` equals Hill's sweep: every pair and 2x2 block of the board
    whose one missing enabler is ``c``, above the threshold, summed."""
    nonzero = 0
    for board, total, analysis in small_positions(seed + 40, 400):
        risk = LongTermRisk(analysis, board, total, RegionCache())
        cols = board.shape[1]
        swept: dict[int, float] = {}
        for cell in range(board.size):
            row, col = divmod(cell, cols)
            for found, own in (
                (risk._pair(cell, (row, col + 1), 1), 1),
                (risk._pair(cell, (row + 1, col), 1), 1),
                (risk._block(row, col, cell, 1), 2),
            ):
                if found is None or len(found[0]) != own + 1:
                    continue
                probability = risk._probability(found)
                if probability > ENABLER_THRESHOLD:
                    swept[found[0][-1]] = swept.get(found[0][-1], 0.0) + probability
        for cell in analysis.position.unknown:
            assert risk._enabled(cell) == pytest.approx(swept.get(cell, 0.0), abs=1e-12)
        nonzero += len(swept)
    assert nonzero > 10
