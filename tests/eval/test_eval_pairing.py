"""Coupled first-click generators: the env's layout distribution, shared across first clicks."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from eval.pairing import CoupledFirstClick
from mswp_gym.cells import region_around

CHI2_999 = {9: 27.88, 27: 55.48}
"""99.9% quantiles of the chi-square distribution for the degrees of freedom used below."""


def _chi_square(
    counts: Counter[tuple[int, ...]], expected_cells: list[tuple[int, ...]], draws: int
) -> float:
    expected = draws / len(expected_cells)
    assert set(counts) <= set(expected_cells)
    return sum((counts.get(cells, 0) - expected) ** 2 / expected for cells in expected_cells)


@pytest.mark.parametrize(
    ("rule", "rows", "cols", "mines", "click", "dof"),
    [("safe", 2, 3, 2, (0, 0), 9), ("opening", 3, 4, 2, (0, 0), 27)],
)
def test_coupled_first_click__uniform_over_layouts_avoiding_the_region(
    rule: str, rows: int, cols: int, mines: int, click: tuple[int, int], dof: int
) -> None:
    generator = CoupledFirstClick(rule)
    rng = np.random.default_rng(1234)
    cleared = {
        r * cols + c
        for r, c in (region_around(click, rows, cols) if rule == "opening" else [click])
    }
    allowed = [i for i in range(rows * cols) if i not in cleared]
    layouts = list(combinations(allowed, mines))
    assert len(layouts) == dof + 1
    draws = 1000 * len(layouts)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(draws):
        layout = generator.layout(rows, cols, mines, rng, click)
        assert layout.sum() == mines
        counts[tuple(int(i) for i in np.flatnonzero(layout))] += 1
    assert _chi_square(counts, layouts, draws) < CHI2_999[dof]


def test_coupled_first_click__same_layout_when_clicks_miss_the_base_mines() -> None:
    generator = CoupledFirstClick("safe")
    base = np.random.default_rng(7).permutation(81)[:10]
    safe_cells = [i for i in range(81) if i not in set(base.tolist())]
    a = generator.layout(9, 9, 10, np.random.default_rng(7), divmod(safe_cells[0], 9))
    b = generator.layout(9, 9, 10, np.random.default_rng(7), divmod(safe_cells[-1], 9))
    np.testing.assert_array_equal(a, b)
    hit = generator.layout(9, 9, 10, np.random.default_rng(7), divmod(int(base[0]), 9))
    assert not hit[divmod(int(base[0]), 9)]
    assert int((hit != a).sum()) == 2  # one mine moved


def test_coupled_first_click__rejects_bad_rules_and_overfull_boards() -> None:
    with pytest.raises(ValueError, match="'any'"):
        CoupledFirstClick("any")
    with pytest.raises(ValueError, match="mines=6"):
        CoupledFirstClick("opening").layout(3, 3, 6, np.random.default_rng(0), (1, 1))
    with pytest.raises(ValueError, match="first click"):
        CoupledFirstClick("safe").layout(3, 3, 1, np.random.default_rng(0), None)
