"""Extended 50/50s: chains of cells whose two alternating fillings no reveal can ever tell apart.

A chain ``t0 .. t(n-1)`` (``n`` even, at least 4) splits into ``A`` (even places) and ``B`` (odd
places). It is an *extended 50/50* when (1) every cell outside it that could ever show a number
has as many neighbours in ``A`` as in ``B``, and (2) a cell ``x`` of the chain can be a mine only
when the chain holds exactly ``A`` or exactly ``B``. Then the two fillings are equally likely and
one guess among the chain at even odds is due anyway, so ``x`` is guessed at once at no extra
risk, as the pairs of :mod:`agents.solver.unavoidable` (the case ``n == 2``).

Chains are proposed as David Hill's ``PseudoHelper.findPseudo5050`` (JSMinesweeper) finds them,
as paths through *links* (two cells of a constraint that needs one more mine), and each is then
checked exactly: (1) by counting, (2) with :func:`agents.solver.probability.analyse_assuming`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from agents.solver.probability import Analysis, RegionCache, analyse_assuming
from agents.solver.unavoidable import mute_cells
from mswp_gym.cells import neighbour_sets

MAX_CHAIN_CELLS = 12
"""Longest chain searched."""
MAX_PATHS = 400
"""Most partial chains one position's search extends (the search stops after them)."""


@dataclass(frozen=True)
class ExtendedChain:
    """An extended 50/50 chain found in a position.

    Attributes:
        chain: Its cells in chain order (the fillings are the even and the odd places).
        cells: Its cells that may be guessed at no extra risk (condition (2)), best first in the
            caller's order; never empty.
    """

    chain: tuple[int, ...]
    cells: tuple[int, ...]


def extended_choice(
    analysis: Analysis, board: np.ndarray, order: list[int], total_mines: int, cache: RegionCache
) -> ExtendedChain | None:
    """The first chain found that holds cells which may be guessed at no extra risk, with all
    of them (arguments as for
    :func:`agents.solver.unavoidable.unavoidable_guess`); None if no chain qualifies."""
    rank = {cell: place for place, cell in enumerate(order)}
    for chain in extended_chains(analysis, board, order):
        cells = tuple(
            cell
            for cell in sorted(chain, key=rank.__getitem__)
            if _mine_only_in_its_filling(cell, chain, analysis, total_mines, cache)
        )
        if cells:
            return ExtendedChain(chain, cells)
    return None


def extended_chains(
    analysis: Analysis, board: np.ndarray, order: list[int]
) -> Iterator[tuple[int, ...]]:
    """Chains of at least 4 cells (an even number, at most :data:`MAX_CHAIN_CELLS`) of ``order``'s
    undecided cells that meet condition (1) of the module docstring, each yielded once (a chain
    and its reverse count as one), in the order the search finds them.
    """
    position = analysis.position
    rows, cols = position.rows, position.cols
    probability = analysis.probability
    live = {c for c in order if 0.0 < float(probability[c]) < 1.0}
    links = _links(analysis, live, cols)
    if not links:
        return
    mute = mute_cells(analysis, board)
    around = neighbour_sets(rows, cols)
    seen: set[tuple[int, ...]] = set()
    budget = MAX_PATHS
    for start in sorted(links):
        for second in sorted(links[start]):
            if not _closed_end(start, second, mute, around):
                continue
            stack: list[tuple[int, ...]] = [(start, second)]
            while stack and budget > 0:
                path = stack.pop()
                budget -= 1
                if len(path) >= 4 and len(path) % 2 == 0:
                    key = min(path, path[::-1])
                    if key not in seen and _balanced(path, mute, around):
                        seen.add(key)
                        yield path
                if len(path) < MAX_CHAIN_CELLS:
                    for nxt in sorted(links[path[-1]], reverse=True):
                        if nxt not in path:
                            stack.append((*path, nxt))


def _links(analysis: Analysis, live: set[int], cols: int) -> dict[int, set[int]]:
    """For each live cell, the live cells it shares a link with (see the module docstring)."""
    links: dict[int, set[int]] = {}

    def add(a: int, b: int) -> None:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for cells, mines in analysis.reduced:
        if mines != 1:
            continue
        inside = [c for c in cells if c in live]
        if len(inside) != len(cells):
            continue
        if len(inside) == 2:
            add(inside[0], inside[1])
            continue
        members = set(inside)
        for a in inside:
            if a + 1 in members and (a + 1) % cols != 0:
                add(a, a + 1)
            if a + cols in members:
                add(a, a + cols)
    return links


def _closed_end(
    end: int, next_cell: int, mute: frozenset[int], around: tuple[frozenset[int], ...]
) -> bool:
    """Whether every neighbour of ``end`` that is not next to ``next_cell`` can never show a
    number (Hill's closed end of a link)."""
    return around[end] - around[next_cell] - {next_cell} <= mute


def _balanced(
    chain: tuple[int, ...], mute: frozenset[int], around: tuple[frozenset[int], ...]
) -> bool:
    """Condition (1): every cell outside ``chain`` that can show a number sees as many of its
    even-place cells as of its odd-place cells."""
    evens, odds = set(chain[0::2]), set(chain[1::2])
    members = evens | odds
    watchers = set().union(*(around[c] for c in chain)) - members - mute
    return all(len(around[w] & evens) == len(around[w] & odds) for w in watchers)


def _mine_only_in_its_filling(
    cell: int, chain: tuple[int, ...], analysis: Analysis, total_mines: int, cache: RegionCache
) -> bool:
    """Condition (2): in every layout with a mine on ``cell``, the chain's cells at ``cell``'s
    places (even or odd) are all mines and the others all safe."""
    place = chain.index(cell) % 2
    same, other = chain[place::2], chain[1 - place :: 2]
    try:
        given = analyse_assuming(analysis, (cell,), (), total_mines, cache)
    except ValueError:  # cell cannot be a mine at all
        return False
    if given.approximate:
        return False
    return all(c in given.mines or c == cell for c in same) and all(c in given.safe for c in other)
