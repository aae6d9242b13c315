"""Minesweeper for language models: the text protocol and the text env."""

from __future__ import annotations

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
    "InvalidReply",
    "Move",
    "MoveKind",
    "TextRules",
    "check_move",
    "format_move",
    "parse_board",
    "parse_move",
    "render_board",
    "system_prompt",
]
