"""One frozen, validated configuration of a game and its env, shared by every entry point.

:class:`GameConfig` holds what decides a game and the options every env shares, checked once
with one-line errors; every env builds one from its keyword arguments (or takes ``config=``), so
they all accept and refuse the same things. :attr:`GameConfig.spec` is what an agent is told.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from mswp_gym.choices import ClueNoise, FirstClick, ObsMode, parse_choice
from mswp_gym.clues import ClueModel
from mswp_gym.generators import (
    MAX_CELLS,
    STOCK_GENERATORS,
    FixedLayout,
    Generator,
    check_mines,
    check_size,
    make_generator,
)
from mswp_gym.inputs import is_integer
from mswp_gym.presets import preset as find_preset
from mswp_gym.rewards import RewardConfig
from mswp_gym.spec import GameSpec

__all__ = [
    "AUTO_STEPS_PER_CELL",
    "BEGINNER_DENSITY",
    "MAX_CELLS",
    "GameConfig",
    "check_bool",
    "resolve_max_steps",
    "resolve_mine_count",
]

BEGINNER_DENSITY = 10 / 81
"""Mines per cell of the Beginner board, used when neither ``mines`` nor ``density`` is given."""

DEFAULT_SIZE = 9
"""Rows and columns when neither they, a preset nor a layout give the size."""

AUTO_STEPS_PER_CELL = 2
"""``max_steps="auto"`` (the default) truncates an episode after this many steps per cell: never
a game of legal reveals, only a policy that repeats no-ops."""


def check_bool(name: str, value: object) -> bool:
    """``value`` as a bool, refusing anything but ``True``/``False`` (NumPy's included).

    Raises:
        TypeError: naming the value: ``"no"`` or ``1`` would otherwise switch a feature on.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )


def resolve_max_steps(max_steps: int | str | None, rows: int, cols: int) -> int | None:
    """The step limit: an integer >= 1, ``"auto"`` (:data:`AUTO_STEPS_PER_CELL` per cell) or None.

    Raises:
        ValueError: anything else, naming the value.
    """
    if isinstance(max_steps, str) and max_steps == "auto":
        return AUTO_STEPS_PER_CELL * rows * cols
    if max_steps is None:
        return None
    if not is_integer(max_steps) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer >= 1, 'auto' or None, got {max_steps!r}")
    return int(max_steps)


def resolve_mine_count(rows: int, cols: int, mines: int | None, density: float | None) -> int:
    """The mine count from either ``mines`` or ``density`` (not both; neither: Beginner's density).

    Raises:
        ValueError: if both are given, or ``density`` is not a number in ``[0, 1)``.
    """
    if mines is not None and density is not None:
        raise ValueError(f"give mines or density, not both (got mines={mines}, density={density})")
    if density is not None:
        if not _is_number(density) or not 0 <= density < 1:  # NaN fails the range
            raise ValueError(f"density must be a number in [0, 1), got {density!r}")
        return round(float(density) * rows * cols)
    if mines is None:
        return min(round(BEGINNER_DENSITY * rows * cols), rows * cols - 1)
    return mines


@dataclass(frozen=True, eq=False, init=False)
class GameConfig:
    """A game and its env options, validated once.

    Build it with the env's own keyword arguments, e.g. ``GameConfig(16, 30, 99,
    first_click="opening")`` or ``GameConfig(preset="expert")``; strings become enums, a reward
    ``dict`` a :class:`RewardConfig`. ``dataclasses.replace`` validates again.

    Args:
        rows: board rows, >= 1 (default: the preset's, the layout's, or 9).
        cols: board columns, >= 1; ``rows * cols`` at most :data:`MAX_CELLS`.
        mines: mine count (default: the preset's, the layout's, ``density`` times the cells, or
            the Beginner density).
        density: mines per cell in ``[0, 1)``, instead of ``mines`` (not stored: ``mines`` is).
        preset: a preset name (``beginner``, ``intermediate``, ``expert``) that gives the board
            where none is given: its size unless ``rows``/``cols``/``layout`` are given, its
            mine count only on its own size and without ``mines``/``density``. Not stored.
        first_click: ``any``, ``safe``, ``opening``, ``no-guess`` (exact clues only) or
            ``fixed`` (default: ``fixed`` with a layout, else the injected generator's rule,
            else ``safe``).
        score_mode, clue_reveal_prob, clue_noise, obs_mode, flag_actions, rewards, max_steps,
        layout, generator: see the fields.

    Raises:
        ValueError: a bad value, named with what is allowed (a board over :data:`MAX_CELLS`
            cells, a rule that cannot place the mines, a layout entry other than 0/1, ...).
        TypeError: a value of the wrong kind (``mines="ten"``, ``score_mode="false"``, ...).
    """

    rows: int
    """Board rows."""
    cols: int
    """Board columns."""
    mines: int
    """Mine count."""
    first_click: FirstClick
    """Who places the mines and what the first click is promised."""
    score_mode: bool
    """A mine does not end the game (the CS520 report's scoring)."""
    clue_reveal_prob: float
    """A revealed safe cell shows its clue with this probability, else ``NO_CLUE``."""
    clue_noise: ClueNoise
    """``exact``, ``optimistic`` (shown <= true) or ``cautious`` (shown >= true)."""
    obs_mode: ObsMode
    """``board``, ``channels`` or ``dict`` (see :mod:`mswp_gym.encoding`)."""
    flag_actions: bool
    """Add the flag half of the action space."""
    rewards: RewardConfig
    """What each kind of step earns."""
    max_steps: int | str | None
    """Truncate after this many steps: an int >= 1, ``"auto"`` (2 per cell) or None (no limit);
    kept as given (so ``replace`` with another size rescales ``"auto"``): :attr:`step_limit`
    is the number."""
    layout: np.ndarray | None
    """``(rows, cols)`` read-only bool, the mines of ``first_click="fixed"``; None otherwise.
    Given as a bool/0-1 array or a text picture (:mod:`mswp_gym.pictures`)."""
    generator: Generator
    """Who places the mines (default: built from ``first_click`` and ``layout``). Inject one to
    change how, not what: its ``name`` must be the rule (e.g. eval's coupled generators)."""

    def __init__(
        self,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        *,
        density: float | None = None,
        preset: str | None = None,
        first_click: FirstClick | str | None = None,
        score_mode: bool = False,
        clue_reveal_prob: float = 1.0,
        clue_noise: ClueNoise | str = ClueNoise.EXACT,
        obs_mode: ObsMode | str = ObsMode.BOARD,
        flag_actions: bool = False,
        rewards: RewardConfig | dict[str, float] | None = None,
        max_steps: int | str | None = "auto",
        layout: np.ndarray | str | None = None,
        generator: Generator | None = None,
    ) -> None:
        set_ = object.__setattr__
        if isinstance(generator, STOCK_GENERATORS):
            # A stock generator is what first_click and layout already say (``replace`` passes it
            # back): rebuild it from them, so that a replaced rule or layout takes effect.
            first_click = generator.name if first_click is None else first_click
            if isinstance(generator, FixedLayout) and layout is None:
                layout = generator.mines_layout
            generator = None
        rule = _rule(first_click, generator, layout)
        if generator is None:
            generator = make_generator(rule, layout)
        elif layout is not None:
            raise ValueError("give layout or generator, not both")
        fixed = getattr(generator, "mines_layout", None) if rule == FirstClick.FIXED else None
        stored_layout = None
        if fixed is not None:
            _check_layout_agrees(fixed, rows, cols, mines, density)
            rows, cols, mines = int(fixed.shape[0]), int(fixed.shape[1]), int(fixed.sum())
            stored_layout = fixed.copy()
            stored_layout.flags.writeable = False
        elif preset is not None:
            board = find_preset(preset)
            own_size = rows is None and cols is None
            rows = board.rows if rows is None else rows
            cols = board.cols if cols is None else cols
            if mines is None and density is None and own_size:
                mines = board.mines
        size = check_size(
            DEFAULT_SIZE if rows is None else rows, DEFAULT_SIZE if cols is None else cols
        )
        count = resolve_mine_count(*size, mines, density)
        check_mines(rule, *size, count)
        if not _is_number(clue_reveal_prob) or not 0.0 <= clue_reveal_prob <= 1.0:
            raise ValueError(
                f"clue_reveal_prob must be a number in [0, 1], got {clue_reveal_prob!r}"
            )
        noise = parse_choice(ClueNoise, clue_noise, "clue_noise")
        if rule == FirstClick.NO_GUESS and (clue_reveal_prob != 1.0 or noise != ClueNoise.EXACT):
            raise ValueError(
                "first_click='no-guess' promises a board solvable from exact clues; got "
                f"clue_reveal_prob={clue_reveal_prob}, clue_noise='{noise}': use "
                "clue_reveal_prob=1 and clue_noise='exact', or another first_click rule"
            )
        resolve_max_steps(max_steps, *size)
        set_(self, "rows", size[0])
        set_(self, "cols", size[1])
        set_(self, "mines", int(count))
        set_(self, "first_click", rule)
        set_(self, "score_mode", check_bool("score_mode", score_mode))
        set_(self, "clue_reveal_prob", float(clue_reveal_prob))
        set_(self, "clue_noise", noise)
        set_(self, "obs_mode", parse_choice(ObsMode, obs_mode, "obs_mode"))
        set_(self, "flag_actions", check_bool("flag_actions", flag_actions))
        set_(self, "rewards", _rewards(rewards))
        set_(self, "max_steps", int(max_steps) if isinstance(max_steps, np.integer) else max_steps)
        set_(self, "layout", stored_layout)
        set_(self, "generator", generator)

    # ------------------------------------------------------------ derived
    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def step_limit(self) -> int | None:
        """``max_steps`` as a number of steps (None: no limit)."""
        return resolve_max_steps(self.max_steps, self.rows, self.cols)

    @property
    def n_actions(self) -> int:
        """The size of the action space: ``rows*cols``, twice that with flag actions."""
        return self.cells * (2 if self.flag_actions else 1)

    @property
    def clues(self) -> ClueModel:
        """The clue model."""
        return ClueModel(reveal_prob=self.clue_reveal_prob, noise=str(self.clue_noise))

    @property
    def spec(self) -> GameSpec:
        """What an agent is told: size, mines and rules, never the layout."""
        return GameSpec(**{f.name: getattr(self, f.name) for f in fields(GameSpec)})

    @classmethod
    def from_spec(cls, spec: GameSpec, **options: Any) -> GameConfig:
        """The config of ``spec``'s game, with env ``options`` (``obs_mode``, ``rewards``, ...)."""
        return cls(**{f.name: getattr(spec, f.name) for f in fields(GameSpec)}, **options)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameConfig):
            return NotImplemented
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "layout":
                same = a is b or (a is not None and b is not None and np.array_equal(a, b))
            elif f.name == "generator" and self.first_click == FirstClick.FIXED:
                continue  # a fixed generator is its layout, compared above
            else:
                same = bool(a == b)
            if not same:
                return False
        return True

    def __hash__(self) -> int:
        layout = None if self.layout is None else self.layout.tobytes()
        shared = [
            getattr(self, f.name) for f in fields(self) if f.name not in ("layout", "generator")
        ]
        return hash((*shared, layout))


def _check_layout_agrees(
    fixed: np.ndarray, rows: int | None, cols: int | None, mines: int | None, density: float | None
) -> None:
    """Raise a ValueError naming any of ``mines``, ``rows``, ``cols`` that differs from the fixed
    layout, or a ``density`` given beside it."""
    layout_mines = int(fixed.sum())
    if mines is not None and mines != layout_mines:
        raise ValueError(f"mines={mines} but the layout holds {layout_mines}")
    for name, given, actual in (("rows", rows, fixed.shape[0]), ("cols", cols, fixed.shape[1])):
        if given is not None and given != actual:
            raise ValueError(f"{name}={given} but the layout has {actual} {name}")
    if density is not None:
        raise ValueError(f"density={density} beside a layout: the layout fixes the mines")


def _rule(
    given: FirstClick | str | None, generator: Generator | None, layout: np.ndarray | str | None
) -> FirstClick:
    if generator is not None:
        name = getattr(generator, "name", None)
        if not isinstance(name, str) or name not in tuple(FirstClick):
            raise ValueError(
                f"a generator needs a name among {', '.join(FirstClick)}, got {name!r}"
            )
        if given is not None and given != name:
            raise ValueError(f"first_click={given!r} but the generator's rule is {name!r}")
        return FirstClick(name)
    if given is None:
        return FirstClick.FIXED if layout is not None else FirstClick.SAFE
    return parse_choice(FirstClick, given, "first_click rule")


def _rewards(rewards: object) -> RewardConfig:
    if isinstance(rewards, RewardConfig):
        return rewards
    if rewards is None:
        return RewardConfig()
    if isinstance(rewards, dict):
        return RewardConfig.from_dict(rewards)
    raise TypeError(f"rewards must be a RewardConfig or a dict, got {type(rewards).__name__}")
