"""An evaluation's files while it runs: ``run.json`` (how to redo it) and ``games.csv`` (appended).

Chunks are appended as they finish, so ``mswp-eval --resume DIR`` plays only the missing games; a
completed run's ``games.csv`` is rewritten in the canonical order.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO

from common.atomic import write_text_atomic
from eval.games import GameRecord

MANIFEST = "run.json"
GAMES = "games.csv"
PLOTS: tuple[str, ...] = (
    "win_rate.png",
    "win_rate_vs_density.png",
    "win_rate_by_3bv.png",
    "knowledge.png",
)
"""Every PNG an evaluation may write (removed when a rerun does not write them)."""


@dataclass(frozen=True)
class Manifest:
    """What ``run.json`` holds."""

    argv: list[str] | None
    """The command's arguments (None when not started from the command line: not resumable)."""
    games: int
    """Games in the whole run (settings x agents x games per pair)."""
    complete: bool = False
    """Whether every game was played and the results written."""

    def write(self, folder: Path) -> None:
        """Write ``folder/run.json`` atomically."""
        write_text_atomic(folder / MANIFEST, json.dumps(asdict(self), indent=1) + "\n")

    @classmethod
    def read(cls, folder: Path) -> Manifest:
        """The manifest of ``folder``.

        Raises:
            FileNotFoundError: no folder or no ``run.json`` (one line).
            ValueError: an unreadable one.
        """
        path = folder / MANIFEST
        if not folder.is_dir():
            raise FileNotFoundError(f"no evaluation folder at {str(folder)!r}")
        if not path.is_file():
            raise FileNotFoundError(
                f"{str(folder)!r} has no {MANIFEST}: not an evaluation "
                f"written by mswp-eval --out, nothing to resume"
            )
        try:
            data: Any = json.loads(path.read_text())
            return cls(data["argv"], int(data["games"]), bool(data["complete"]))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{str(path)!r} is not a valid evaluation manifest ({exc})") from None


def csv_text(records: Sequence[GameRecord], header: bool = True) -> str:
    """``records`` as ``games.csv`` text."""
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=GameRecord.field_names())
    if header:
        writer.writeheader()
    for record in records:
        writer.writerow(record.as_dict())
    return buffer.getvalue()


class GameLog:
    """``games.csv``, appended one chunk at a time (see the module docstring)."""

    def __init__(self, folder: Path, fresh: bool) -> None:
        """Open ``folder/games.csv``: a new file with its header (``fresh``), else for appending
        after the complete lines already there."""
        self.path = folder / GAMES
        if fresh or not self.path.is_file():
            write_text_atomic(self.path, csv_text([]))
        else:
            text = self.path.read_text(encoding="utf-8")
            if text and not text.endswith("\n"):  # torn by a kill: keep the complete lines
                write_text_atomic(self.path, text[: text.rfind("\n") + 1] or csv_text([]))
        self._handle: TextIO | None = self.path.open("a", newline="", encoding="utf-8")

    def append(self, records: list[GameRecord]) -> None:
        """Append ``records`` and push them to disk."""
        assert self._handle is not None
        self._handle.write(csv_text(records, header=False))
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def read_games(path: Path) -> list[GameRecord]:
    """The records of a ``games.csv`` (complete lines only; the last of duplicates wins).

    Raises:
        ValueError: a file whose rows are not game records.
    """
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    try:
        rows = [GameRecord.from_row(row) for row in csv.DictReader(io.StringIO(text, newline=""))]
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{str(path)!r} holds a row that is not a game record ({exc})") from None
    return list({(r.setting, r.agent, r.game): r for r in rows}.values())
