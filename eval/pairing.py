"""Coupled first-click generators: the same seed gives every agent the same board.

These generators draw a base layout over the whole board, then move each mine of the cleared
region (the click, or its 3x3 block) to a uniform free cell outside it: agents meet the same
layout unless they click on or near a base mine, and layouts follow the env's distribution.
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
    """A ``"safe"`` or ``"opening"`` generator whose layout depends on the click as little as
    possible."""

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
