"""Board settings of an evaluation: size, mine count, first-click rule and scoring."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from eval.pairing import COUPLED_RULES, DEFAULT_PAIRING, PAIRINGS, CoupledFirstClick
from mswp_gym.choices import FirstClick
from mswp_gym.config import GameConfig, resolve_mine_count
from mswp_gym.presets import preset
from mswp_gym.spec import GameSpec

DEFAULT_PRESET = "beginner"


@dataclass(frozen=True)
class Setting(GameSpec):
    """One board and its rules (a :class:`GameSpec`) that every agent plays the same seeds on."""

    name: str = field(default="", kw_only=True)
    """A preset name, or empty for a custom board."""
    pairing: str = field(default=DEFAULT_PAIRING, kw_only=True)
    """``board``: coupled generators, all agents meet the same layout (:mod:`eval.pairing`);
    ``seed``: the env's own generator (always so for ``no-guess``)."""

    @property
    def label(self) -> str:
        """``beginner 9x9/10 safe`` style, unique within one evaluation."""
        head = f"{self.name} " if self.name else ""
        tail = " score" if self.score_mode else ""
        return f"{head}{self.board} {self.first_click}{tail}"

    def game_config(self) -> GameConfig:
        """The validated game of this setting (with :mod:`eval.pairing`'s generator under
        ``pairing="board"``).

        Raises:
            ValueError: an impossible board (the config's one-line error).
        """
        generator = None
        if self.pairing == "board" and self.first_click in COUPLED_RULES:
            generator = CoupledFirstClick(self.first_click)
        return GameConfig.from_spec(self, generator=generator)

    def make_env(self) -> Any:
        """A fresh env for this setting (raises the config's ValueError for impossible boards)."""
        from mswp_gym import MinesweeperEnv

        return MinesweeperEnv(config=self.game_config())

    def as_dict(self) -> dict[str, Any]:
        """Every field plus label and density, for JSON."""
        return {**asdict(self), "label": self.label, "density": self.density}


def parse_float_list(text: str, what: str) -> list[float]:
    """Comma-separated floats, e.g. ``"0.1,0.15"``.

    Raises:
        ValueError: naming ``what`` and the bad item.
    """
    values = []
    for part in text.split(","):
        try:
            value = float(part)
        except ValueError:
            raise ValueError(f"{what}: {part.strip()!r} is not a number (in {text!r})") from None
        if not math.isfinite(value):
            raise ValueError(f"{what}: {part.strip()!r} is not finite")
        values.append(value)
    return values


def build_settings(
    presets: list[str] | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    densities: list[float] | None,
    first_click: str,
    score_mode: bool,
    pairing: str = DEFAULT_PAIRING,
) -> list[Setting]:
    """Every setting of an evaluation, validated by building its env.

    Boards come from ``presets`` or from ``rows``/``cols`` (not both); the mine count from the
    preset, ``mines``, or each of ``densities`` in turn (a sweep).

    Raises:
        ValueError: conflicting or missing arguments, a bad density, or a board the env refuses.
    """
    if pairing not in PAIRINGS:
        raise ValueError(f"unknown pairing {pairing!r}; choose one of {', '.join(PAIRINGS)}")
    _check_board_arguments(presets, rows, cols, mines, densities)
    settings: list[Setting] = []
    for name, r, c, m in _boards(presets, rows, cols, mines):
        counts = [resolve_mine_count(r, c, None, d) for d in densities] if densities else [m]
        for count in counts:
            assert count is not None
            rule = FirstClick(first_click)
            setting = Setting(r, c, count, rule, score_mode, name=name, pairing=pairing)
            if setting not in settings:
                settings.append(setting)
    for setting in settings:
        setting.game_config()  # validates: an impossible or oversized board fails here
    return settings


def _check_board_arguments(
    presets: list[str] | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    densities: list[float] | None,
) -> None:
    """Raise a ValueError for conflicting, missing or negative board arguments."""
    custom = rows is not None or cols is not None
    if presets and custom:
        raise ValueError("give --preset or --rows/--cols, not both")
    if custom and (rows is None or cols is None):
        raise ValueError(
            f"a custom board needs both --rows and --cols (got rows={rows}, cols={cols})"
        )
    if mines is not None and densities:
        raise ValueError(
            f"give --mines or --density, not both (got mines={mines}, density={densities})"
        )
    if custom:
        for name, value in (("--rows", rows), ("--cols", cols)):
            if value is not None and value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value}")
    if mines is not None and mines < 0:
        raise ValueError(f"--mines must be >= 0, got {mines}")
    if custom and mines is None and not densities:
        raise ValueError("a custom board needs --mines or --density")


def _boards(
    presets: list[str] | None, rows: int | None, cols: int | None, mines: int | None
) -> list[tuple[str, int, int, int | None]]:
    """``(preset name or "", rows, cols, mines)`` of each board: the custom one, or each preset
    (``mines`` overriding the preset's count)."""
    if rows is not None and cols is not None:
        return [("", rows, cols, mines)]
    boards: list[tuple[str, int, int, int | None]] = []
    for name in presets or [DEFAULT_PRESET]:
        board = preset(name)
        count = mines if mines is not None else board.mines
        boards.append((board.name, board.rows, board.cols, count))
    return boards
