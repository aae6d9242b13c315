"""Agents that play Minesweeper from what a player sees, behind one interface.

``agents.make(name, **kwargs)`` builds any of them by name (``agents.available()`` lists the
names); ``agents.play_episode(env, agent, seed)`` plays one seeded game. ``Sentence`` and
``MinesweeperAI`` are the CS50 AI Minesweeper classes with that course's API.
"""

from __future__ import annotations

from agents.base import Agent, Explanation, MoveNote, MoveReason
from agents.baselines import LocalRulesAgent, RandomAgent
from agents.episode import EpisodeResult, MoveRecord, play_episode
from agents.logic.agent import LogicAgent
from agents.logic.cs50 import MinesweeperAI, Sentence
from agents.logic.guessing import GUESS_POLICIES
from agents.logic.indexed import InconsistentKnowledge, IndexedMinesweeperAI
from agents.observe import ObservationFeeder
from agents.registry import available, make, register

__all__ = [
    "GUESS_POLICIES",
    "Agent",
    "EpisodeResult",
    "Explanation",
    "InconsistentKnowledge",
    "IndexedMinesweeperAI",
    "LocalRulesAgent",
    "LogicAgent",
    "MinesweeperAI",
    "MoveNote",
    "MoveReason",
    "MoveRecord",
    "ObservationFeeder",
    "RandomAgent",
    "Sentence",
    "available",
    "make",
    "play_episode",
    "register",
]
