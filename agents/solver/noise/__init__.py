"""The solver for uncertain clues (the CS520 report's clue models).

* :mod:`~agents.solver.noise.probability`: mine probabilities under a clue model;
* :mod:`~agents.solver.noise.agent`: :class:`NoisySolverAgent`, the solver agent for any clue model
  (on exact clues it is :class:`~agents.solver.SolverAgent`).
"""

from __future__ import annotations

from agents.solver.noise.agent import NoisySolverAgent

__all__ = ["NoisySolverAgent"]
