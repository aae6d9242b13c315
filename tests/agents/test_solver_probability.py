"""The solver's probability engine against brute-force enumeration of every layout."""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from positions import random_position

from agents.solver import analyse, mine_probabilities, position, probability
from agents.solver.deduce import deduce
from agents.solver.enumerate import split_regions
from agents.solver.probability import RegionCache, analyse_assuming, analyse_reveal
from mswp_gym.cells import neighbour_counts, neighbour_table
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE


def brute_force(board: np.ndarray, total_mines: int) -> np.ndarray:
    """Mine probability of every cell by listing every layout (NaN on revealed safe cells)."""
    rows, cols = board.shape
    flat = board.ravel()
    unknown = [i for i, v in enumerate(flat.tolist()) if v in (HIDDEN, FLAGGED)]
    known = {i for i, v in enumerate(flat.tolist()) if v == EXPLODED}
    table = neighbour_table(rows, cols)
    clues = [(i, int(v)) for i, v in enumerate(flat.tolist()) if v >= 0]
    hits = np.zeros(rows * cols)
    layouts = 0
    for chosen in itertools.combinations(unknown, total_mines - len(known)):
        mines = set(chosen) | known
        if all(sum(n in mines for n in table[i]) == v for i, v in clues):
            layouts += 1
            hits[list(mines)] += 1
    assert layouts > 0
    out = hits / layouts
    out[[i for i, v in enumerate(flat.tolist()) if v >= 0 or v == NO_CLUE]] = np.nan
    return out.reshape(rows, cols)


@pytest.mark.parametrize("seed", range(6))
def test_mine_probabilities__equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(60):
        board, total, _ = random_position(rng)
        expected = brute_force(board, total)
        got = mine_probabilities(board, total)
        assert got.shape == board.shape and got.dtype == np.float64
        np.testing.assert_allclose(got, expected, atol=1e-9, equal_nan=True)
        # certainty is exact, never a float accident
        hidden = np.isin(board, [HIDDEN, FLAGGED])
        assert np.array_equal(got[hidden] == 0.0, expected[hidden] == 0.0)
        assert np.array_equal(got[hidden] == 1.0, expected[hidden] == 1.0)


def test_mine_probabilities__uses_the_total_mine_count() -> None:
    # "1" sees only (0, 1), so it is a mine; the two cells off the frontier share what is left.
    board = np.array([[1, HIDDEN, HIDDEN, HIDDEN]], dtype=np.int8)
    assert mine_probabilities(board, 1)[0, 1:].tolist() == [1.0, 0.0, 0.0]
    assert mine_probabilities(board, 2)[0, 1:].tolist() == [1.0, 0.5, 0.5]
    assert mine_probabilities(board, 3)[0, 1:].tolist() == [1.0, 1.0, 1.0]


def test_mine_probabilities__codes_of_revealed_and_visible_mines() -> None:
    board = np.array([[EXPLODED, 2, HIDDEN], [NO_CLUE, HIDDEN, HIDDEN]], dtype=np.int8)
    got = mine_probabilities(board, 2)
    assert got[0, 0] == 1.0
    assert np.isnan(got[0, 1]) and np.isnan(got[1, 0])
    zeros = mine_probabilities(board, 2, revealed=0.0)
    assert zeros[0, 1] == 0.0 and zeros[1, 0] == 0.0


def test_mine_probabilities__flags_are_not_trusted() -> None:
    board = np.array([[1, FLAGGED, HIDDEN]], dtype=np.int8)
    got = mine_probabilities(board, 1)
    assert got[0, 1] == 1.0 and got[0, 2] == 0.0
    board = np.array([[FLAGGED, 1, HIDDEN]], dtype=np.int8)
    assert mine_probabilities(board, 1)[0].tolist()[::2] == [0.5, 0.5]


def test_mine_probabilities__large_board_does_not_overflow() -> None:
    rng = np.random.default_rng(3)
    rows = cols = 100
    flat_layout = np.zeros(rows * cols, dtype=bool)
    flat_layout[rng.choice(rows * cols, 2000, replace=False)] = True
    layout = flat_layout.reshape(rows, cols)
    layout[45:56, 45:56] = False
    counts = neighbour_counts(layout)
    board = np.full((rows, cols), HIDDEN, dtype=np.int8)
    board[46:55, 46:55] = counts[46:55, 46:55]
    got = mine_probabilities(board, 2000)
    hidden = board == HIDDEN
    assert np.isfinite(got[hidden]).all() and (got[hidden] >= 0).all() and (got[hidden] <= 1).all()
    # the expected number of hidden mines is the count itself
    assert got[hidden].sum() == pytest.approx(2000, rel=1e-9)


def test_analyse__relaxation_never_claims_a_false_certainty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every region goes straight to the sweep, whose tiny state budget forces the relaxation
    monkeypatch.setattr(probability, "_SEARCH_FIRST_CLUES", 0)
    rng = np.random.default_rng(11)
    approximated = 0
    for _ in range(120):
        board, total, _ = random_position(rng)
        expected = brute_force(board, total).ravel()
        analysis = analyse(board, total, node_budget=3)
        approximated += analysis.approximate
        for cell in analysis.safe:
            assert expected[cell] == 0.0
        for cell in analysis.mines:
            assert expected[cell] == 1.0
        if not analysis.approximate:
            np.testing.assert_allclose(analysis.probability, expected, atol=1e-9, equal_nan=True)
    assert approximated > 0


@pytest.fixture
def sweep_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, type[BaseException] | None]]:
    """Every region goes straight to the sweep; each sweep call is recorded as its state budget
    and the exception active while it ran (None when none)."""
    monkeypatch.setattr(probability, "_SEARCH_FIRST_CLUES", 0)
    count_exact = probability._count_exact
    calls: list[tuple[int, type[BaseException] | None]] = []

    def recording(region, state_budget):  # type: ignore[no-untyped-def]
        calls.append((state_budget, sys.exc_info()[0]))
        return count_exact(region, state_budget)

    monkeypatch.setattr(probability, "_count_exact", recording)
    return calls


def test_analyse__the_relaxation_recounts_outside_the_failed_counts_handler(
    sweep_calls: list[tuple[int, type[BaseException] | None]],
) -> None:
    # while the relaxed parts are counted, no exception may be active: its traceback's frames
    # would keep the failed count's memory (a sweep's layers, gigabytes) alive at every level
    rng = np.random.default_rng(11)
    approximated = 0
    for _ in range(40):
        board, total, _ = random_position(rng)
        approximated += analyse(board, total, node_budget=3).approximate
    assert approximated > 0 and len(sweep_calls) > approximated
    assert {active for _, active in sweep_calls} == {None}


def test_deduce__single_and_pairwise_rules() -> None:
    # A 1-2-1 pattern along a wall: cells 0..2 under clues (0,1,1 mine), (0,1,2: 2 mines),
    # (1,2: 1 mine)
    found = deduce([((0, 1), 1), ((0, 1, 2), 2), ((1, 2), 1)])
    assert found.mines == {0, 2} and found.safe == {1}
    assert found.constraints == ()
    subset = deduce([((0, 1), 1), ((0, 1, 2, 3), 1)])
    assert subset.safe == {2, 3} and subset.mines == frozenset()


@pytest.mark.parametrize(
    ("board", "total", "error", "words"),
    [
        (np.zeros((2, 2), dtype=np.float64), 1, TypeError, "float64"),
        ([[0, -1]], 1, TypeError, "list"),
        (np.zeros(4, dtype=np.int8), 1, ValueError, "(4,)"),
        (np.array([[9, -1]], dtype=np.int8), 1, ValueError, "code 9"),
        (np.array([[1, -1]], dtype=np.int8), 2, ValueError, "total_mines=2"),
        (np.array([[1, -1]], dtype=np.int8), 1.0, TypeError, "float"),
        (np.array([[2, -1]], dtype=np.int8), 1, ValueError, "clue 2 at cell (0, 0)"),
        (np.array([[1, -1, 0]], dtype=np.int8), 1, ValueError, "no layout fits"),
        (np.array([[0, -1, -1]], dtype=np.int8), 2, ValueError, "total_mines=2"),
    ],
)
def test_mine_probabilities__rejects_bad_input(
    board: object, total: object, error: type, words: str
) -> None:
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        mine_probabilities(board, total)  # type: ignore[arg-type]


def test_analyse_reveal__equals_analysing_the_board_with_the_clue_written_in() -> None:
    rng = np.random.default_rng(21)
    compared = 0
    for _ in range(150):
        board, total, layout = random_position(rng)
        base = analyse(board, total)
        counts = neighbour_counts(layout)
        for r, c in np.argwhere((board == HIDDEN) & ~layout):
            cell = int(r) * board.shape[1] + int(c)
            after = analyse_reveal(base, cell, int(counts[r, c]), total, RegionCache())
            written = board.copy()
            written[r, c] = counts[r, c]
            expected = analyse(written, total)
            np.testing.assert_allclose(
                after.probability, expected.probability, atol=1e-9, equal_nan=True
            )
            assert after.safe == expected.safe and after.mines == expected.mines
            assert after.log_layouts == pytest.approx(expected.log_layouts, abs=1e-9)
            compared += 1
    assert compared > 100


def test_analyse_reveal_and_assuming__run_under_the_base_analysis_node_budget(
    sweep_calls: list[tuple[int, type[BaseException] | None]],
) -> None:
    # the solver's look-ahead and guess checks derive analyses from the position's own: they must
    # count under the budget the solver was given, not the default one
    rng = np.random.default_rng(5)
    derived = 0
    for _ in range(40):
        board, total, layout = random_position(rng)
        base = analyse(board, total, RegionCache(), node_budget=7)
        assert base.node_budget == 7
        counts = neighbour_counts(layout)
        for r, c in np.argwhere((board == HIDDEN) & ~layout)[:2]:
            cell = int(r) * board.shape[1] + int(c)
            after = analyse_reveal(base, cell, int(counts[r, c]), total, RegionCache())
            given = analyse_assuming(base, (), (cell,), total, RegionCache())
            assert after.node_budget == given.node_budget == 7
            derived += 1
    assert derived > 20 and sweep_calls and {budget for budget, _ in sweep_calls} == {7}


def _read_or_error(read: object, board: np.ndarray, total: int) -> object:
    try:
        return read(board, total)  # type: ignore[operator]
    except (TypeError, ValueError) as error:
        return type(error), str(error)


def _large_position(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """A position on a board of 12..24 rows and columns (read by gathering, not by the list
    walk)."""
    rows, cols = (int(n) for n in rng.integers(12, 25, size=2))
    layout = rng.random((rows, cols)) < rng.uniform(0.1, 0.3)
    counts = neighbour_counts(layout)
    board = np.where(rng.random((rows, cols)) < 0.6, counts, HIDDEN).astype(np.int8)
    board[layout] = HIDDEN
    board[(board >= 0) & (rng.random((rows, cols)) < 0.05)] = NO_CLUE
    board[layout & (rng.random((rows, cols)) < 0.1)] = int(rng.choice([EXPLODED, MINE]))
    board[(board == HIDDEN) & (rng.random((rows, cols)) < 0.1)] = FLAGGED
    assert board.size > position.LIST_WALK_CELLS
    return board, int(layout.sum())


@pytest.mark.parametrize("seed", range(3))
def test_read_position__equals_the_numpy_reference(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(300):
        board, total = (
            _large_position(rng) if rng.random() < 0.5 else random_position(rng, max_rows=12)[:2]
        )
        if rng.random() < 0.2:  # a wrong clue or mine total now and then: the same error either way
            board[tuple(rng.integers(0, board.shape))] = int(rng.integers(0, 9))
        if rng.random() < 0.1:
            total += int(rng.integers(-3, 4))
        got = _read_or_error(position.read_position, board, total)
        assert got == _read_or_error(position.read_position_reference, board, total)


@pytest.mark.parametrize("seed", range(3))
def test_combine__exact_integers_equal_the_float_combination(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    compared = 0
    for _ in range(200):
        board, total, _ = random_position(rng, max_rows=8)
        found = position.read_position(board, total)
        deduction = deduce(found.constraints)
        regions = [
            probability._count_exact(region, 10_000)
            for region in split_regions(deduction.constraints)
        ]
        frontier = {cell for region in regions for group in region.groups for cell in group}
        settled = deduction.safe | deduction.mines
        off = sum(1 for cell in found.unknown if cell not in frontier and cell not in settled)
        args = (regions, off, found.mines_left - len(deduction.mines), total)
        exact, approx = probability._combine_exact(*args), probability._combine_float(*args)
        for (p_exact, s_exact), (p_float, s_float) in zip(exact.groups, approx.groups, strict=True):
            assert s_exact == s_float
            np.testing.assert_allclose(p_exact, p_float, rtol=0, atol=1e-12)
        assert (exact.off_state, exact.log_layouts) == (
            approx.off_state,
            pytest.approx(approx.log_layouts, abs=1e-9),
        )
        assert exact.off_probability == pytest.approx(approx.off_probability, abs=1e-12)
        compared += 1
    assert compared == 200


def test_deduce__repeated_constraints_change_nothing() -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        board, total, _ = random_position(rng, max_rows=8)
        constraints = position.read_position(board, total).constraints
        doubled = constraints + constraints[::2]
        # ``changed`` names every constraint: the path that keeps the copies
        assert (
            deduce(doubled)
            == deduce(doubled, changed=list(range(len(doubled))))
            == deduce(constraints)
        )
