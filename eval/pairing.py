"""Coupled first-click generators: the same seed gives every agent the same board.

Under the env's own ``safe`` and ``opening`` rules the mines are placed after the first click
around it, so two agents that open on different cells meet different boards even with the same
seed. For a paired comparison the evaluation injects these generators
(``GameConfig(generator=...)``), which:

1. draw a base layout of ``mines`` mines uniformly over the whole board (from the env's RNG,
   whose state at the first click depends only on the seed), then
2. move each base mine that lies in the cleared region (the clicked cell for ``safe``, its 3x3
   block for ``opening``) to a cell drawn uniformly among those outside the region and free of
   mines.

Every agent therefore meets the identical layout unless its first click falls on a base mine
(``safe``) or near one (``opening``), and then the layouts differ by the moved mines only.

The layouts are distributed exactly as under the env's rules, uniformly among the layouts that
avoid the region: a target layout ``L'`` is produced from ``L = L' - S + T`` for every choice of
the ``k`` moved mines ``S`` in ``L'`` and their origins ``T`` in the region, each with
probability ``1/C(N, M) * 1/C(N - |region| - M + k, k)``; summed over ``k``, ``S`` and ``T``
that does not depend on ``L'``. ``tests/test_eval_pairing.py`` checks it by counting.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mswp_gym.cells import Cell, region_around

PAIRINGS: tuple[str, ...] = ("board", "seed")
"""``board``: coupled generators (same layout for all agents); ``seed``: the env's own rules."""

DEFAULT_PAIRING = "board"
"""``python -m eval``'s default ``--pairing`` (and :class:`eval.settings.Setting`'s)."""

COUPLED_RULES: tuple[str, ...] = ("safe", "opening")
"""Rules whose layout depends on the first click, and so get a coupled generator."""


@dataclass(frozen=True)
class CoupledFirstClick:
    """A first-click-safe generator whose layout depends on the click as little as possible.

    Args:
        name: ``"safe"`` (the click is cleared) or ``"opening"`` (its 3x3 block is cleared).
    """

    name: str = "safe"
    needs_first_click: bool = True

    def __post_init__(self) -> None:
        if self.name not in COUPLED_RULES:
            raise ValueError(
                f"no coupled generator for rule {self.name!r}; expected one of {COUPLED_RULES}"
            )

    def cleared(self, rows: int, cols: int, first_click: Cell) -> list[int]:
        """Flat indices of the cells the rule keeps free of mines."""
        if self.name == "safe":
            return [first_click[0] * cols + first_click[1]]
        return sorted(r * cols + c for r, c in region_around(first_click, rows, cols))

    def layout(
        self, rows: int, cols: int, mines: int, rng: np.random.Generator, first_click: Cell | None
    ) -> np.ndarray:
        """A ``(rows, cols)`` bool layout with ``mines`` mines, none in the cleared region.

        Raises:
            ValueError: no first click, or too many mines to clear the region.
        """
        if first_click is None:
            raise ValueError(f"the coupled {self.name!r} generator needs the first click")
        cells = rows * cols
        cleared = self.cleared(rows, cols, first_click)
        if mines > cells - len(cleared):
            raise ValueError(
                f"first click {first_click} clears {len(cleared)} cells, leaving "
                f"{cells - len(cleared)} for mines={mines}"
            )
        flat = np.zeros(cells, dtype=bool)
        flat[rng.permutation(cells)[:mines]] = True
        moved = int(flat[cleared].sum())
        if moved:
            flat[cleared] = False
            blocked = flat.copy()
            blocked[cleared] = True
            free = np.flatnonzero(~blocked)
            flat[rng.choice(free, size=moved, replace=False)] = True
        return flat.reshape(rows, cols)
