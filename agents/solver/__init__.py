"""An exact probabilistic Minesweeper solver: the strongest reference policy of the project.

``mine_probabilities(board, total_mines)`` gives every cell's exact mine probability;
``SolverAgent`` plays by it (certain cells first, then the safest, most informative guess).
See docs/solver.md.
"""

from __future__ import annotations

from agents.solver.agent import SolverAgent
from agents.solver.probability import Analysis, analyse, mine_probabilities

__all__ = ["Analysis", "SolverAgent", "analyse", "mine_probabilities"]
