"""The number a game's first click showed, read back from a saved game record.

``python -m eval.compare_runs --by-first-number`` splits paired games by it: after a first click
that shows a number the next move is a guess, and many solver variants differ only there, so the
split shows where a difference between two agents comes from (e.g. a second-click rule, which
can change only the games whose first click showed a number).

A record holds its setting's label, its seed and its first cell, and the game's layout is a
function of those three and the run's ``--pairing`` (the env's seeded generator, coupled under
``board``, see :mod:`eval.pairing`; :func:`pairing_of` reads it from the run's ``run.json``). So
replaying the first click in a fresh env gives the number it showed.
"""

from __future__ import annotations

import re
from pathlib import Path

from eval.cli import build_parser
from eval.games import GameRecord
from eval.journal import MANIFEST, Manifest
from eval.pairing import DEFAULT_PAIRING
from eval.settings import Setting
from mswp_gym import MinesweeperEnv
from mswp_gym.constants import FirstClick, is_clue

LABEL = re.compile(
    r"^(?:(?P<name>\S+) )?(?P<rows>\d+)x(?P<cols>\d+)/(?P<mines>\d+) (?P<rule>\S+)"
    r"(?P<score> score)?$"
)
"""A setting's label (:attr:`eval.settings.Setting.label`): ``expert 16x30/99 safe``."""
NO_NUMBER = -1
"""The first number of a game whose first click was not a number (a mine, or no first cell)."""


def setting_of_label(label: str, pairing: str = DEFAULT_PAIRING) -> Setting:
    """The setting whose :attr:`~eval.settings.Setting.label` is ``label``.

    Raises:
        ValueError: a label that is not a setting's label.
    """
    match = LABEL.match(label)
    rules = [rule.value for rule in FirstClick]
    if match is None or match["rule"] not in rules:
        raise ValueError(
            f"setting {label!r} is not a setting label like 'expert 16x30/99 safe' "
            f"(the rule one of {rules})"
        )
    return Setting(
        rows=int(match["rows"]),
        cols=int(match["cols"]),
        mines=int(match["mines"]),
        first_click=match["rule"],
        score_mode=match["score"] is not None,
        name=match["name"] or "",
        pairing=pairing,
    )


def pairing_of(folder: Path) -> str:
    """The ``--pairing`` that made the evaluation in ``folder``: read from its ``run.json``, else
    eval's default (``board``) for a folder without one.

    Raises:
        ValueError: an unreadable ``run.json``.
    """
    if not (folder / MANIFEST).is_file():
        return DEFAULT_PAIRING
    argv = Manifest.read(folder).argv
    if argv is None:
        return DEFAULT_PAIRING
    args, _ = build_parser().parse_known_args(argv)
    return str(getattr(args, "pairing", DEFAULT_PAIRING))


class FirstNumbers:
    """Replays first clicks, one env per setting label and pairing."""

    def __init__(self) -> None:
        self._envs: dict[tuple[str, str], MinesweeperEnv] = {}

    def of(self, record: GameRecord, pairing: str = DEFAULT_PAIRING) -> int:
        """The number ``record``'s first click showed, or :data:`NO_NUMBER` if it showed none.

        Args:
            record: A saved game.
            pairing: The ``--pairing`` of the run that played it (:func:`pairing_of`).

        Raises:
            ValueError: a record whose setting label or first cell cannot be read.
        """
        if not record.first_cell:
            return NO_NUMBER
        try:
            row, col = (int(part) for part in record.first_cell.split(":"))
        except ValueError:
            raise ValueError(
                f"game {record.game}: first cell {record.first_cell!r} is not 'ROW:COL'"
            ) from None
        env = self._env(record.setting, pairing)
        observation, _ = env.reset(seed=record.seed)
        observation, *_ = env.step(row * int(observation.shape[1]) + col)
        shown = observation[row, col]
        return int(shown) if is_clue(shown) else NO_NUMBER

    def _env(self, label: str, pairing: str) -> MinesweeperEnv:
        key = (label, pairing)
        if key not in self._envs:
            env: MinesweeperEnv = setting_of_label(label, pairing).make_env()
            self._envs[key] = env
        return self._envs[key]
