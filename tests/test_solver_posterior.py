"""Layouts drawn from a position's posterior, against brute-force enumeration of every layout."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from positions import random_position

from agents.solver import analyse
from agents.solver.posterior import all_layouts, draw_layout
from agents.solver.probability import RegionCache
from mswp_gym.cells import neighbour_table
from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN


def every_layout(board: np.ndarray, total_mines: int) -> set[bytes]:
    """Every layout that fits the board, by listing all placements (as flat bool bytes)."""
    rows, cols = board.shape
    flat = board.ravel().tolist()
    unknown = [i for i, v in enumerate(flat) if v in (HIDDEN, FLAGGED)]
    known = [i for i, v in enumerate(flat) if v == EXPLODED]
    table = neighbour_table(rows, cols)
    clues = [(i, int(v)) for i, v in enumerate(flat) if v >= 0]
    found = set()
    for chosen in itertools.combinations(unknown, total_mines - len(known)):
        mines = set(chosen) | set(known)
        if all(sum(n in mines for n in table[i]) == v for i, v in clues):
            layout = np.zeros(rows * cols, dtype=bool)
            layout[list(mines)] = True
            found.add(layout.tobytes())
    return found


def _positions(seed: int, count: int) -> list[tuple[np.ndarray, int]]:
    rng = np.random.default_rng(seed)
    return [random_position(rng, shown_mines=0.05)[:2] for _ in range(count)]


@pytest.mark.parametrize("seed", range(4))
def test_all_layouts__lists_every_layout_once(seed: int) -> None:
    for board, total in _positions(seed, 40):
        expected = every_layout(board, total)
        listed = all_layouts(analyse(board, total), total, RegionCache(), limit=len(expected))
        assert listed is not None
        assert len(listed) == len(expected) == len({a.tobytes() for a in listed})
        assert {a.tobytes() for a in listed} == expected
        if len(expected) > 1:
            assert (
                all_layouts(analyse(board, total), total, RegionCache(), len(expected) - 1) is None
            )


def test_draw_layout__each_layout_equally_often() -> None:
    # positions with several layouts and some cells off the frontier; 3,000 seeded draws each,
    # every layout's count within 5 standard errors of 3,000 / N, and only true layouts drawn
    checked = 0
    for board, total in _positions(11, 200):
        expected = every_layout(board, total)
        hidden = np.isin(board, [HIDDEN, FLAGGED]).sum()
        if not 4 <= len(expected) <= 30 or hidden < 6:
            continue
        analysis = analyse(board, total)
        rng = np.random.default_rng(checked)
        cache = RegionCache()
        draws = 3_000
        counts: dict[bytes, int] = {}
        for _ in range(draws):
            layout = draw_layout(analysis, total, rng, cache)
            assert layout.dtype == bool and int(layout.sum()) == total
            counts[layout.tobytes()] = counts.get(layout.tobytes(), 0) + 1
        assert set(counts) <= expected
        share = 1 / len(expected)
        bound = 5 * np.sqrt(draws * share * (1 - share))
        for key in expected:
            assert abs(counts.get(key, 0) - draws * share) <= bound
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_draw_layout__same_rng_same_layout() -> None:
    (board, total), *_ = [p for p in _positions(3, 50) if len(every_layout(*p)) > 3]
    analysis = analyse(board, total)
    first = [
        draw_layout(analysis, total, np.random.default_rng(7), RegionCache()) for _ in range(2)
    ]
    assert np.array_equal(first[0], first[1])


def test_draw_layout__refuses_an_approximate_analysis() -> None:
    board, total = _positions(0, 1)[0]
    analysis = analyse(board, total)
    relaxed = dataclasses.replace(analysis, approximate=True)
    with pytest.raises(ValueError, match="the analysis is approximate"):
        draw_layout(relaxed, total, np.random.default_rng(0), RegionCache())
    with pytest.raises(ValueError, match="the analysis is approximate"):
        all_layouts(relaxed, total, RegionCache(), 10)
