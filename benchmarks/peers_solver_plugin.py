"""Plugin for the peers harness (``bench_solvers.py``): our solver beside ms-toollib.

The harness drives every player with its own numpy simulator on the same seeded boards, first click
in the corner, and calls ``choose(view)`` for the list of cells to reveal now. Our players return
every certain safe cell the local rules find (else the exact analysis finds), or one guess, as the
harness's ms-toollib player returns all its P == 0 cells or one lowest-risk cell.
``mswp-solver-plain`` plays that strategy (with our tie-break and unavoidable 50/50 pairs; no
endgame search, no 50/50 chains), ``mswp-solver-d0`` adds those two, ``mswp-solver`` is the default
player (the look-ahead too).

Run (the peers venv lacks gymnasium, which ``mswp_gym/__init__`` imports, so install it once)::

    # PEERS_DIR: a checkout of the peers harness; PEERS_PY: the python of its venv
    bash "$PEERS_DIR/setup.sh" && "$PEERS_PY" -m pip install gymnasium
    cd "$PEERS_DIR" && "$PEERS_PY" bench_solvers.py \\
        --plugin "$OLDPWD/benchmarks/peers_solver_plugin.py" \\
        --only ms-toollib,mswp-solver-plain,mswp-solver-d0,mswp-solver \\
        --out peers.json
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.solver import SolverAgent
from mswp_gym.spec import GameSpec

Choose = Callable[[np.ndarray], list[tuple[int, int]]]
"""A harness player's move: the visible board (-1 hidden, 0-8) -> the cells to reveal now."""


def _player(**options: Any) -> Callable[[int, int, int, np.random.Generator], Choose]:
    """A harness player: a :class:`SolverAgent` with ``options`` (its keyword arguments)."""

    def factory(rows: int, cols: int, mines: int, rng: np.random.Generator) -> Choose:
        agent = SolverAgent(seed=int(rng.integers(2**31)), **options)
        agent.reset(spec=GameSpec(rows=rows, cols=cols, mines=mines))
        return lambda view: agent.next_cells(np.asarray(view, dtype=np.int8))

    return factory


SOLVERS: dict[str, tuple[Any, str, str]] = {
    "mswp-solver-plain": (
        _player(depth=0, endgame_layouts=0, extended=False),
        "mswp-gym",
        "exact probabilities (Python); all certain cells, else lowest risk",
    ),
    "mswp-solver-d0": (
        _player(depth=0),
        "mswp-gym",
        "exact probabilities + endgame search + 50/50 chains (Python); no look-ahead",
    ),
    "mswp-solver": (
        _player(),
        "mswp-gym",
        "exact probabilities + look-ahead + endgame search + 50/50 chains (Python): the default",
    ),
}
