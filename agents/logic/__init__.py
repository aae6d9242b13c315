"""The logic agent and its inference engines (CS50 AI's Minesweeper knowledge base).

* :mod:`~agents.logic.cs50`: ``Sentence`` and ``MinesweeperAI``, the course's plain engine;
* :mod:`~agents.logic.indexed`: ``IndexedMinesweeperAI``, the same conclusions from indexed
  sentences (:mod:`~agents.logic.sentence_index`);
* :mod:`~agents.logic.bounded`: ``BoundedKnowledge``, sentences with bounds for uncertain clues;
* :mod:`~agents.logic.guessing`: the guess policies;
* :mod:`~agents.logic.agent`: :class:`LogicAgent`, which plays from observations with one of them.
"""

from __future__ import annotations

from agents.logic.agent import LogicAgent

__all__ = ["LogicAgent"]
