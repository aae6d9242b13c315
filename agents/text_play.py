"""Play any array agent through the text protocol: what a language model sees and writes.

Each turn the agent reads the board parsed back from the env's text (never the array), its move
is written as the canonical reply, and the text env parses and plays that reply. The same agent
wins exactly the same games this way as through arrays (a test on 500 Beginner seeds).
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.base import Agent
from mswp_gym.masks import action_mask
from mswp_gym.text.env import TextMinesweeperEnv
from mswp_gym.text.protocol import Move, MoveKind, format_move, parse_board


@dataclass(frozen=True)
class TextGame:
    """How a game played through text went."""

    won: bool
    moves: int
    """Replies sent."""
    invalid: int
    """Replies the env refused (0 for a sound agent)."""


def play_text_episode(env: TextMinesweeperEnv, agent: Agent, seed: int | None) -> TextGame:
    """Play one game of ``agent`` in ``env`` from ``env.reset(seed=seed)``, through text only.

    The agent is reset with ``seed`` and the env's spec; each turn it chooses on
    :func:`~mswp_gym.text.protocol.parse_board` of the observation, with the mask of that board.
    """
    text, info = env.reset(seed=seed)
    agent.reset(seed, env.game_spec)
    rows, cols = env.config.rows, env.config.cols
    moves, done = 0, False
    while not done:
        board = parse_board(text)
        action = int(agent.act(board, action_mask(board, env.rules.allow_flags)))
        kind = MoveKind.FLAG if action >= rows * cols else MoveKind.REVEAL
        row, col = divmod(action % (rows * cols), cols)
        text, _, terminated, truncated, info = env.step(
            format_move(Move(kind, row, col), env.rules)
        )
        moves += 1
        done = terminated or truncated
    return TextGame(bool(info["is_success"]), moves, int(info["invalid_replies"]))
