"""Minesweeper for language models: the text protocol and the text env."""

from __future__ import annotations

from mswp_gym.text.env import Grade, Grader, RewardMode, TextMinesweeperEnv
from mswp_gym.text.protocol import (
    InvalidReply,
    Move,
    MoveKind,
    TextRules,
    check_move,
    format_move,
    parse_board,
    parse_move,
    render_board,
    system_prompt,
)

__all__ = [
    "Grade",
    "Grader",
    "InvalidReply",
    "Move",
    "MoveKind",
    "RewardMode",
    "TextMinesweeperEnv",
    "TextRules",
    "check_move",
    "format_move",
    "parse_board",
    "parse_move",
    "render_board",
    "system_prompt",
]
