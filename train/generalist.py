"""One network for many boards: the board mix of a generalist run and its per-board buffers.

A generalist run (``--boards``) collects games on each board of a mix every round, keeps a window
of recent positions per board, and trains on minibatches drawn from one board at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mswp_gym.choices import FirstClick
from mswp_gym.generators import max_mines
from mswp_gym.spec import GameSpec, parse_board
from train.dataset import PositionSet

MAX_MIX_CELLS = 100 * 100
"""Largest board accepted in a mix (cells); bigger boards belong to evaluation, not training."""


def parse_boards(text: str, first_click: str) -> tuple[GameSpec, ...]:
    """The boards of ``text``: comma-separated ``ROWSxCOLS/MINES`` (e.g. ``9x9/10,16x30/99``).

    Raises:
        ValueError: a malformed entry, a board too large, a mine count the first-click rule
            cannot honour, or a repeated board (each names the bad entry).
    """
    specs: list[GameSpec] = []
    for entry in text.split(","):
        try:
            spec = parse_board(entry, first_click)
        except ValueError as error:
            raise ValueError(f"{error} (in boards={text!r})") from None
        rows, cols, mines = spec.rows, spec.cols, spec.mines
        cells = spec.cells
        if rows < 1 or cols < 1 or cells > MAX_MIX_CELLS:
            raise ValueError(
                f"board {entry.strip()!r}: rows and cols must be >= 1 with at most "
                f"{MAX_MIX_CELLS} cells"
            )
        limit = max_mines(first_click, rows, cols)
        if mines < 1 or mines > limit:
            raise ValueError(
                f"board {entry.strip()!r}: mines must be in 1..{limit} "
                f"under first_click={first_click!r}"
            )
        if spec in specs:
            raise ValueError(f"board {entry.strip()!r} is listed twice in boards={text!r}")
        specs.append(spec)
    return tuple(specs)


def spec_from_meta(meta: dict[str, object], first_click: str) -> GameSpec:
    """The board a saved position file was collected on (its ``rows``, ``cols``, ``mines``).

    Raises:
        ValueError: the metadata lacks them or they are not integers.
    """
    values = [meta.get(key) for key in ("rows", "cols", "mines")]
    rows, cols, mines = (value if isinstance(value, int) else -1 for value in values)
    if min(rows, cols, mines) < 0:
        raise ValueError(f"position file metadata has no integer rows/cols/mines: {meta}")
    return GameSpec(rows, cols, mines, FirstClick(first_click))


def board_tag(spec: GameSpec) -> str:
    """``ROWSxCOLSxMINES``: :attr:`GameSpec.board` as file names can hold it."""
    return spec.board.replace("/", "x")


def split_games(games: int, parts: int) -> list[int]:
    """``games`` shared as evenly as possible over ``parts`` boards or jobs (earlier ones get the
    rest)."""
    return [games // parts + (i < games % parts) for i in range(parts)]


@dataclass
class BoardWindow:
    """The most recent positions of one board, as whole collection rounds (one file each)."""

    spec: GameSpec
    files: list[str]
    parts: list[PositionSet]

    def add(self, name: str, positions: PositionSet, limit: int) -> None:
        """Append a round's positions, then drop the oldest rounds while the newer ones alone
        hold at least ``limit`` positions."""
        self.files.append(name)
        self.parts.append(positions)
        while sum(len(part) for part in self.parts[1:]) >= limit:
            self.parts.pop(0)
            self.files.pop(0)

    def positions(self) -> PositionSet:
        """All positions in the window."""
        return PositionSet.concatenate(self.parts)


def windows_for(specs: Sequence[GameSpec]) -> dict[GameSpec, BoardWindow]:
    """An empty window per board, keyed by its spec."""
    return {spec: BoardWindow(spec, [], []) for spec in specs}
