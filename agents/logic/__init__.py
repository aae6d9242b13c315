"""The logic agent and its inference engines (CS50 AI's Minesweeper knowledge base): the plain
:mod:`~agents.logic.cs50`, the :mod:`~agents.logic.indexed` one, :mod:`~agents.logic.bounded` for
uncertain clues, the guess policies (:mod:`~agents.logic.guessing`) and :class:`LogicAgent`.
"""

from __future__ import annotations

from agents.logic.agent import LogicAgent

__all__ = ["LogicAgent"]
