"""Mine layouts drawn exactly from a position: every layout that fits what the board shows is
equally likely (the mines are dealt uniformly at random), so this is the posterior of the hidden
layout given the position.

A layout is drawn by the chain rule: each undecided frontier cell in turn is made a mine with its
exact probability given the cells drawn before it
(:func:`~agents.solver.probability.analyse_assuming`); once the frontier is settled, the cells off
it are exchangeable and hold a known number of mines, which are scattered among them uniformly.
Small positions can instead be enumerated layout by layout (:func:`all_layouts`).

These are for measurement (what a move is worth over the layouts a position allows), not for play:
an agent never needs the hidden layout.
"""

from __future__ import annotations

import math

import numpy as np

from agents.solver.probability import Analysis, RegionCache, analyse_assuming


def draw_layout(
    analysis: Analysis, total_mines: int, rng: np.random.Generator, cache: RegionCache
) -> np.ndarray:
    """One layout drawn from the position's exact posterior.

    Args:
        analysis: The exact analysis of the position (``approximate`` must be False).
        total_mines: Mines on the whole board.
        rng: The only source of randomness.
        cache: Region cache shared between draws of the same position.

    Returns:
        ``(rows * cols,)`` bool, True where a mine lies (visible mines included).

    Raises:
        ValueError: the analysis is approximate, so its probabilities are not the posterior's.
    """
    _check_exact(analysis)
    mines: list[int] = []
    safe: list[int] = []
    current = analysis
    for cell in sorted(analysis.frontier):
        if cell in current.mines or cell in current.safe:
            continue
        if rng.random() < float(current.probability[cell]):
            mines.append(cell)
        else:
            safe.append(cell)
        current = analyse_assuming(analysis, tuple(mines), tuple(safe), total_mines, cache)
    return _complete(current, total_mines, rng)


def all_layouts(
    analysis: Analysis, total_mines: int, cache: RegionCache, limit: int
) -> list[np.ndarray] | None:
    """Every layout that fits the position, each equally likely; None if more than ``limit``.

    Args:
        analysis: The exact analysis of the position (``approximate`` must be False).
        total_mines: Mines on the whole board.
        cache: Region cache for the analyses of the branches.
        limit: The most layouts to list.

    Returns:
        ``(rows * cols,)`` bool arrays in a fixed order, or None.

    Raises:
        ValueError: the analysis is approximate.
    """
    _check_exact(analysis)
    if analysis.log_layouts > math.log(limit) + 1e-9:
        return None
    unknown = analysis.position.unknown
    found: list[np.ndarray] = []

    def walk(current: Analysis, mines: tuple[int, ...], safe: tuple[int, ...]) -> None:
        undecided = [c for c in unknown if c not in current.mines and c not in current.safe]
        if not undecided:
            found.append(_layout_of(current))
            return
        cell = undecided[0]
        for branch_mines, branch_safe in (((*mines, cell), safe), (mines, (*safe, cell))):
            walk(
                analyse_assuming(analysis, branch_mines, branch_safe, total_mines, cache),
                branch_mines,
                branch_safe,
            )

    walk(analysis, (), ())
    return found


def _check_exact(analysis: Analysis) -> None:
    if analysis.approximate:
        raise ValueError(
            "the analysis is approximate (a region was relaxed), so its probabilities are not the "
            "posterior's: layouts can be drawn from exact analyses only"
        )


def _complete(current: Analysis, total_mines: int, rng: np.random.Generator) -> np.ndarray:
    """``current``'s certain mines plus the rest scattered uniformly among its undecided cells
    (all off the frontier once every frontier cell is settled)."""
    layout = _layout_of(current)
    undecided = [
        c for c in current.position.unknown if c not in current.mines and c not in current.safe
    ]
    missing = total_mines - int(layout.sum())
    if missing:
        layout[rng.choice(np.asarray(undecided), size=missing, replace=False)] = True
    return layout


def _layout_of(current: Analysis) -> np.ndarray:
    position = current.position
    layout = np.zeros(position.rows * position.cols, dtype=bool)
    layout[list(current.mines | current.visible_mines)] = True
    return layout
