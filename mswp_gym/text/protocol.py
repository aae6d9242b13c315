"""The text protocol: a board rendered for a language model, and its reply parsed into a move.

Pure functions of NumPy arrays and strings. :func:`render_board` and :func:`parse_board` are a
pair (a rendered grid parses back to the same board); :func:`parse_move` gives every string a
defined outcome, a :class:`Move` or an :class:`InvalidReply` with a short reason for the model,
and never raises. Cells are 0-based inside; :attr:`TextRules.one_based` sets what the prompt
states and the parser expects.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

import numpy as np

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN, MINE, NO_CLUE

MAX_REPLY_CHARS: Final[int] = 100_000
"""A longer reply is invalid unread: parsing work stays bounded."""

_CODE_ORDER = (HIDDEN, FLAGGED, EXPLODED, NO_CLUE, MINE, *range(9))
SYMBOLS: Final = dict(zip(_CODE_ORDER, "#FX?*.12345678", strict=True))
"""The character of each visible code."""
_CODES: Final[dict[str, int]] = {s: code for code, s in SYMBOLS.items()}

LEGEND: Final[str] = (
    "Legend: # hidden, F flagged, . revealed with no adjacent mine, 1-8 revealed with that many "
    "adjacent mines, ? revealed without its number, X exploded mine, * mine."
)


class MoveKind(StrEnum):
    """What a move does to its cell."""

    REVEAL = "reveal"
    FLAG = "flag"
    """Toggle a flag (a note for the player; it never changes the game)."""


@dataclass(frozen=True)
class Move:
    """A parsed move; ``row`` and ``col`` are always 0-based."""

    kind: MoveKind
    row: int
    col: int


@dataclass(frozen=True)
class InvalidReply:
    """A reply that is not a legal move; ``reason`` is short feedback for the model."""

    reason: str


@dataclass(frozen=True)
class TextRules:
    """How a model is told the board and must reply."""

    one_based: bool = False
    """The indexing the prompt states and the parser expects (inside, cells are 0-based)."""
    max_invalid: int = 3
    """Invalid replies in an episode before it ends as a loss."""
    allow_flags: bool = True
    """Whether ``flag R C`` is a move."""

    def __post_init__(self) -> None:
        if type(self.max_invalid) is not int or self.max_invalid < 1:
            raise ValueError(f"max_invalid must be an integer >= 1, got {self.max_invalid!r}")

    @property
    def base(self) -> int:
        """The number of the first row and column: 1 or 0."""
        return 1 if self.one_based else 0


def render_board(observation: np.ndarray, mines: int, rules: TextRules) -> str:
    """The visible board as text: a header line, the grid with row and column numbers, a legend.

    ``mines`` is the board's mine count; the header states the mines left (mines minus flags).
    Deterministic; :func:`parse_board` reads the grid back.
    """
    board = np.asarray(observation)
    rows, cols = board.shape
    base = rules.base
    width = len(str(max(rows, cols) - 1 + base))
    flags = int(np.count_nonzero(board == FLAGGED))
    lines = [
        f"Board {rows}x{cols}, {mines} mines, mines left (mines minus flags): {mines - flags}.",
        " " * width + " |" + "".join(f" {c + base:>{width}}" for c in range(cols)),
        "-" * (width + 1) + "+" + "-" * ((width + 1) * cols),
    ]
    for r in range(rows):
        cells = "".join(f" {SYMBOLS.get(int(code), '?'):>{width}}" for code in board[r])
        lines.append(f"{r + base:>{width}} |{cells}")
    lines.append(LEGEND)
    return "\n".join(lines)


_ROW_LINE = re.compile(r"^ *([0-9]+) \|((?: +\S)+) *$", re.MULTILINE)


def parse_board(text: str) -> np.ndarray:
    """The ``(rows, cols)`` int8 board of the first grid :func:`render_board` drew in ``text``.

    Raises:
        ValueError: no grid, rows of different lengths, or an unknown cell symbol.
    """
    found = [m.group(2).split() for m in _ROW_LINE.finditer(text)]
    if not found:
        raise ValueError("no board grid found in the text")
    cols = len(found[0])
    grid = []
    for cells in found:
        if len(cells) != cols:
            break  # the grid ends where a line of another width begins
        unknown = [s for s in cells if s not in _CODES]
        if unknown:
            raise ValueError(f"unknown cell symbol {unknown[0]!r}; known: {''.join(_CODES)}")
        grid.append([_CODES[s] for s in cells])
    return np.array(grid, dtype=np.int8)


def system_prompt(rows: int, cols: int, mines: int, first_click: str, rules: TextRules) -> str:
    """The rules of the game and of replying, stating the indexing and the accepted formats."""
    base = rules.base
    first = {
        "any": "The first reveal can hit a mine.",
        "safe": "The first reveal is never a mine.",
        "opening": "The first reveal is never a mine and opens an area (a '.' cell).",
        "no-guess": (
            "The first reveal opens an area, and from there the whole board can be solved by "
            "logic alone, without guessing."
        ),
    }.get(str(first_click), "The mines are fixed in advance.")
    flag = (
        " To mark a cell you think is a mine, reply `flag ROW COL` (flags are notes; a second "
        "flag removes it)."
        if rules.allow_flags
        else ""
    )
    return (
        f"You are playing Minesweeper on a {rows}x{cols} board with {mines} hidden mines. "
        "Reveal a cell: if it is a mine you lose; otherwise it shows how many of its 8 "
        "neighbours are mines, and a cell with none opens its neighbours for you. Reveal every "
        f"safe cell to win. {first}\n"
        f"Rows are numbered {base}-{rows - 1 + base} from the top and columns "
        f"{base}-{cols - 1 + base} from the left ({'1' if rules.one_based else '0'}-based).\n"
        f"{LEGEND}\n"
        f"Reply with one move per turn: `reveal ROW COL`.{flag} Also accepted: `(ROW, COL)` "
        'to reveal, or JSON such as {"action": "reveal", "row": ROW, "col": COL}. You may think '
        "first and put the move inside <answer>...</answer> (the last answer block counts). "
        f"An invalid reply changes nothing; after {rules.max_invalid} invalid replies you lose."
    )


MAX_MOVE_CHARS: Final[int] = 200
"""The move itself (the reply, or its answer block) is at most this long: a move is short."""

_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_OPEN, _CLOSE = re.compile(r"<answer>", re.IGNORECASE), re.compile(r"</answer>", re.IGNORECASE)
_FENCE = re.compile(r"^```[a-z]*\s*|\s*```$", re.IGNORECASE)
_PLAIN = re.compile(
    r"(?:(reveal|flag)\s*)?[(\[]?\s*([0-9]{1,6})\s*(?:,\s*|\s+)([0-9]{1,6})\s*[)\]]?\.?",
    re.IGNORECASE | re.ASCII,
)


def parse_move(reply: str, rows: int, cols: int, rules: TextRules) -> Move | InvalidReply:
    """The move a reply names, or why it names none. Never raises on any ``str``.

    The reply (or the last ``<answer>...</answer>`` block in it; anything up to a ``</think>``
    is dropped) must be exactly one move: ``reveal R C``, ``flag R C``, ``(R, C)`` (a reveal),
    or a JSON object ``{"action": "reveal"|"flag", "row": R, "col": C}``; case, a code fence
    and a final full stop are forgiven. Digits are ASCII only. Replies over
    :data:`MAX_REPLY_CHARS` are refused, and a move over :data:`MAX_MOVE_CHARS`: the work is
    linear in the reply.
    """
    if not isinstance(reply, str):
        return InvalidReply(f"the reply must be text, got {type(reply).__name__}")
    if len(reply) > MAX_REPLY_CHARS:
        return InvalidReply(f"reply too long ({len(reply)} characters; at most {MAX_REPLY_CHARS})")
    text = _answer(reply)
    if len(text) > MAX_MOVE_CHARS:
        return InvalidReply("no move found: put only the move in the reply or its answer block")
    text = _FENCE.sub("", text).strip()
    if text.startswith("{"):
        parsed = _parse_json(text)
    elif match := _PLAIN.fullmatch(text):
        word, r, c = match.groups()
        parsed = MoveKind((word or "reveal").lower()), int(r), int(c)
    else:
        parsed = InvalidReply(f"no move found; reply `reveal ROW COL`{_range(rows, cols, rules)}")
    if isinstance(parsed, InvalidReply):
        return parsed
    kind, row, col = parsed
    if kind == MoveKind.FLAG and not rules.allow_flags:
        return InvalidReply("flags are off in this game; reply `reveal ROW COL`")
    base = rules.base
    if not (base <= row < rows + base and base <= col < cols + base):
        return InvalidReply(f"cell ({row}, {col}) is off the board{_range(rows, cols, rules)}")
    return Move(kind, row - base, col - base)


def _answer(reply: str) -> str:
    """The text after the last ``</think>``, or its last ``<answer>`` block, stripped; linear."""
    ends = [m.end() for m in _THINK_END.finditer(reply)]
    text = reply[ends[-1] :] if ends else reply
    closes = [m.start() for m in _CLOSE.finditer(text)]
    if closes:
        opens = [m.end() for m in _OPEN.finditer(text, 0, closes[-1])]
        if opens:
            text = text[opens[-1] : closes[-1]]
    return text.strip()


def _range(rows: int, cols: int, rules: TextRules) -> str:
    b = rules.base
    return f" (rows {b}-{rows - 1 + b}, columns {b}-{cols - 1 + b})"


def _parse_json(text: str) -> tuple[MoveKind, int, int] | InvalidReply:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return InvalidReply("the JSON does not parse")
    if not isinstance(value, dict):
        return InvalidReply('the JSON must be an object {"action": ..., "row": ..., "col": ...}')
    action, row, col = value.get("action", "reveal"), value.get("row"), value.get("col")
    if not isinstance(action, str) or action.lower() not in tuple(MoveKind):
        return InvalidReply(f"unknown action {str(action)[:20]!a}; use reveal or flag")
    if not all(type(n) is int for n in (row, col)):
        return InvalidReply('"row" and "col" must be whole numbers')
    assert isinstance(row, int) and isinstance(col, int)
    return MoveKind(action.lower()), row, col


def check_move(move: Move, observation: np.ndarray, rules: TextRules) -> Move | InvalidReply:
    """``move`` if it changes the board ``observation``, else why not (a revealed cell, a reveal
    of a flagged cell)."""
    code = int(observation[move.row, move.col])
    cell = f"cell {move.row + rules.base} {move.col + rules.base}"
    if code == FLAGGED and move.kind == MoveKind.REVEAL:
        return InvalidReply(f"{cell} is flagged; flag it again to remove the flag first")
    if code not in (HIDDEN, FLAGGED):
        return InvalidReply(f"{cell} is already revealed; choose a hidden (#) cell")
    return move


def format_move(move: Move, rules: TextRules) -> str:
    """The canonical reply for ``move``: ``reveal R C`` (or ``flag R C``) in the rules' indexing."""
    return f"{move.kind.value} {move.row + rules.base} {move.col + rules.base}"
