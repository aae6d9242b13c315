"""Minesweeper with text observations and text actions, for language models."""

from __future__ import annotations

import dataclasses
import string
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mswp_gym.choices import ObsMode, parse_choice
from mswp_gym.config import GameConfig
from mswp_gym.constants import EXPLODED, LOST, WON
from mswp_gym.env import MinesweeperEnv, game_config
from mswp_gym.rewards import RewardConfig
from mswp_gym.text.protocol import (
    MAX_REPLY_CHARS,
    InvalidReply,
    Move,
    MoveKind,
    TextRules,
    check_move,
    format_move,
    parse_move,
    render_board,
    system_prompt,
)


class RewardMode(StrEnum):
    """What a move of the text env earns (the env card's Rewards)."""

    OUTCOME = "outcome"
    PER_REVEAL = "per_reveal"
    GRADED = "graded"
    CERTAIN_ONLY = "certain_only"


GRADED_MODES = (RewardMode.GRADED, RewardMode.CERTAIN_ONLY)
"""The modes that need a :class:`Grader`."""

MODE_REWARDS: dict[RewardMode, RewardConfig] = {
    RewardMode.OUTCOME: RewardConfig.sparse(),
    RewardMode.PER_REVEAL: RewardConfig.per_reveal(),
    RewardMode.GRADED: RewardConfig(progress=0.0, guess=0.0),
    RewardMode.CERTAIN_ONLY: RewardConfig(progress=0.0, guess=0.0),
}
"""The array env's rewards under each mode: win, loss (also the end by invalid replies),
invalid reply and flag; the graded modes replace a safe reveal's reward by its grade."""

CERTAIN_REWARD = 1.0
"""Graded modes: a provably safe reveal."""
MISTAKE_REWARD = -1.0
"""``certain_only``: a reveal that was not provably safe, even when it happens to be safe."""


@dataclass(frozen=True)
class Grade:
    """What a player could know about one cell before the move: exact, from the visible board."""

    p_mine: float
    """The cell's exact mine probability given the clues and the mine count."""
    safe: bool
    """The cell is provably safe."""
    mine: bool
    """The cell is provably a mine."""
    best_p_safe: float
    """The highest P(safe) of any unknown cell of the position."""

    @property
    def relative_safety(self) -> float:
        """The cell's P(safe) over the best on the board, in ``[0, 1]`` (1: no better cell)."""
        return 1.0 if self.best_p_safe <= 0 else (1.0 - self.p_mine) / self.best_p_safe


class Grader(Protocol):
    """Grades moves from the visible board only (injected; :class:`agents.grading.ExactGrader`)."""

    def reset(self) -> None:
        """A new game starts (drop per-game caches)."""
        ...

    def grade(self, board: np.ndarray, mines: int, row: int, col: int) -> Grade:
        """The :class:`Grade` of cell ``(row, col)`` on the visible ``board`` of ``mines``."""
        ...


_CHARSET = frozenset(string.printable)


class TextMinesweeperEnv(gym.Env[str, str]):
    """Minesweeper for language models: the board as text, a move as a reply.

    ## Description
    The game of :class:`~mswp_gym.env.MinesweeperEnv` (which it wraps, built from the same
    :class:`~mswp_gym.config.GameConfig`: the same seed gives the same board), spoken through
    :mod:`mswp_gym.text.protocol`.

    ## Action space
    ``Text``: any string, the model's reply. :func:`~mswp_gym.text.protocol.parse_move` reads
    ``reveal R C``, ``flag R C`` (when ``rules.allow_flags``), ``(R, C)``, JSON, or these inside
    ``<answer>...</answer>``. A reply that is no legal move (unparseable, off the board, a revealed
    cell, a reveal under a flag, too long, another script's digits) changes nothing, earns the
    mode's ``invalid`` reward and counts toward ``rules.max_invalid``.

    ## Observation space
    ``Text`` (printable ASCII): after ``reset``, the system prompt and the board; after a step, a
    line of feedback (the move played, or why the reply was invalid) and the board, drawn by
    :func:`~mswp_gym.text.protocol.render_board` (``parse_board`` reads it back).

    ## Rewards
    ``reward_mode`` (:class:`RewardMode`); the values are :data:`MODE_REWARDS` and the constants
    beside it. ``outcome``: +1 win, -1 loss, else 0. ``per_reveal``: as the array env's
    ``RewardConfig.per_reveal()`` (+0.3 a safe reveal, -0.3 an invalid reply). ``graded``: a
    reveal that hits a mine -1; a provably safe one +1; another safe one its P(safe) over the
    best P(safe) on the board (the winning reveal earns its grade too). ``certain_only`` (for
    ``no-guess`` boards): a provably safe reveal +1, any other reveal -1, even when it happens
    to be safe. In the graded modes an invalid reply earns -0.3 and a flag 0. The end by too
    many invalid replies earns -1 in every mode. The first reveal under ``safe``/``opening``/
    ``no-guess`` is provably safe (the rule says so). Grades come from the injected ``grader``
    (``agents.grading.ExactGrader``: exact mine probabilities of the visible board, every
    consistent layout equally likely, never the true layout); ``mswp_gym`` imports nothing from
    ``agents``, so the graded modes need ``grader=ExactGrader()``, also through ``gym.make``.

    ## Starting state, Episode end
    As the array env. Besides: after ``rules.max_invalid`` invalid replies the episode terminates
    as a loss (``info["outcome"]`` is ``LOST``).

    ## Info
    The array env's info (``action_mask``, ``outcome``, ...) and ``observation`` (the visible
    ``(rows, cols)`` int8 board), ``move`` (the :class:`~mswp_gym.text.protocol.Move` played, or
    None), ``invalid_reason`` (str or None), ``invalid_replies`` (this episode's count). With a
    grader, a valid move adds ``p_mine`` (its cell's exact P(mine) before the move), ``certain``
    (provably safe for a reveal, provably a mine for a flag) and ``best_p_safe``.

    ## Arguments
    Every game argument of the array env (``rows``, ``cols``, ``mines``/``density``, ``preset``,
    ``first_click`` including ``no-guess``, ``layout``, ``max_steps``, ...) or ``config``; not
    ``obs_mode``, ``flag_actions`` or ``rewards``, which the text env sets. ``rules``
    (:class:`~mswp_gym.text.protocol.TextRules`: indexing, ``max_invalid``, flags),
    ``reward_mode``, ``grader``, ``render_mode`` (``ansi``: the board text).

    ## Version history
    * v0: first release.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        *board: int | None,
        config: GameConfig | None = None,
        rules: TextRules | None = None,
        reward_mode: RewardMode | str = RewardMode.OUTCOME,
        grader: Grader | None = None,
        render_mode: str | None = None,
        **game: Any,
    ) -> None:
        fixed = [name for name in ("obs_mode", "flag_actions", "rewards") if name in game]
        if fixed:
            raise TypeError(f"the text env sets {fixed[0]} itself; leave it out")
        self.rules = TextRules() if rules is None else rules
        if not isinstance(self.rules, TextRules):
            raise TypeError(f"rules must be a TextRules, got {type(self.rules).__name__}")
        self.reward_mode = parse_choice(RewardMode, reward_mode, "reward_mode")
        if self.reward_mode in GRADED_MODES and grader is None:
            raise ValueError(
                f"reward_mode {self.reward_mode.value!r} needs a grader: pass "
                "grader=agents.grading.ExactGrader()"
            )
        if render_mode not in (None, "ansi"):
            raise ValueError(f"unknown render_mode {render_mode!r}; choose ansi or None")
        config = dataclasses.replace(
            game_config(config, board, game),
            obs_mode=ObsMode.BOARD,
            flag_actions=self.rules.allow_flags,
            rewards=MODE_REWARDS[self.reward_mode],
        )
        if grader is not None and config.clue_noise != "exact":
            raise ValueError(f"grading needs exact clues; clue_noise='{config.clue_noise}'")
        self.config, self.grader, self.render_mode = config, grader, render_mode
        self.game_spec = config.spec
        self._array = MinesweeperEnv(config=config)
        self.prompt = system_prompt(
            config.rows, config.cols, config.mines, config.first_click, self.rules
        )
        longest = len(self.prompt) + 400 + len(render_board(self._array.visible, 0, self.rules))
        self.observation_space = spaces.Text(longest, min_length=1, charset=_CHARSET)
        self.action_space = spaces.Text(MAX_REPLY_CHARS, min_length=0, charset=_CHARSET)
        self._text = ""
        self._last_info: dict[str, Any] = {}
        self._invalid = 0
        self._reveals = 0
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start a new game (``seed`` gives the array env's board); the text opens with the
        system prompt."""
        super().reset(seed=seed)
        board, info = self._array.reset(seed=seed, options=options)
        self._last_info = info
        if self.grader is not None:
            self.grader.reset()
        self._invalid = self._reveals = 0
        self._done = False
        self._text = f"{self.prompt}\n\n{self._board_text(board)}"
        return self._text, self._info(board, info, None, None)

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the reply ``action`` (see the class docstring)."""
        if self._done:
            raise RuntimeError("no episode in progress: call reset() before step()")
        env, rules = self._array, self.rules
        before = env.visible
        move = parse_move(action, env.rows, env.cols, rules)
        if isinstance(move, Move):
            move = check_move(move, before, rules)
        if isinstance(move, InvalidReply):
            return self._invalid_reply(before, move)
        grade = self._grade(before, move)
        index = move.row * env.cols + move.col + (env.rows * env.cols) * (move.kind == "flag")
        board, reward, terminated, truncated, info = env.step(index)
        self._last_info = info
        if move.kind == MoveKind.REVEAL:
            self._reveals += 1
            hit = info["outcome"] == LOST or board[move.row, move.col] == EXPLODED
            if grade is not None and not hit:
                reward = self._graded(grade, float(reward))
        self._done = terminated or truncated
        said = "Won!" if info["outcome"] == WON else "Lost: a mine." if terminated else "Go on."
        said = "Out of moves: the game stops here." if truncated and not terminated else said
        self._text = f"You played: {format_move(move, rules)}. {said}\n{self._board_text(board)}"
        info = self._info(board, info, move, None)
        if grade is not None:
            info["p_mine"], info["best_p_safe"] = grade.p_mine, grade.best_p_safe
            info["certain"] = grade.safe if move.kind == MoveKind.REVEAL else grade.mine
        return self._text, reward, terminated, truncated, info

    def render(self) -> str | None:
        """The current text (``ansi``)."""
        return self._text if self.render_mode == "ansi" else None

    # ------------------------------------------------------------ internals
    def _board_text(self, board: np.ndarray) -> str:
        return render_board(board, self.config.mines, self.rules)

    def _grade(self, board: np.ndarray, move: Move) -> Grade | None:
        if self.grader is None:
            return None
        first = self._reveals == 0 and move.kind == MoveKind.REVEAL
        if first and self.config.first_click.safe_start:
            return Grade(0.0, True, False, 1.0)  # the rule promises a safe first reveal
        return self.grader.grade(board, self.config.mines, move.row, move.col)

    def _graded(self, grade: Grade, reward: float) -> float:
        if self.reward_mode == RewardMode.CERTAIN_ONLY:
            return CERTAIN_REWARD if grade.safe else MISTAKE_REWARD
        if self.reward_mode == RewardMode.GRADED:
            return CERTAIN_REWARD if grade.safe else grade.relative_safety
        return reward

    def _invalid_reply(
        self, board: np.ndarray, why: InvalidReply
    ) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        self._invalid += 1
        limit = self.rules.max_invalid
        ended = self._invalid >= limit
        rewards = self.config.rewards
        self._done = ended
        end = " That was the last one: you lose." if ended else ""
        self._text = (
            f"Invalid reply ({self._invalid} of {limit}): {why.reason}.{end}\n"
            f"{self._board_text(board)}"
        )
        info = self._info(board, self._last_info, None, why.reason)
        if ended:
            info["outcome"], info["is_success"] = np.int64(LOST), False
        return self._text, rewards.loss if ended else rewards.invalid, ended, False, info

    def _info(
        self, board: np.ndarray, info: dict[str, Any], move: Move | None, reason: str | None
    ) -> dict[str, Any]:
        return {
            **{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in info.items()},
            "observation": board.copy(),
            "move": move,
            "invalid_reason": reason,
            "invalid_replies": self._invalid,
        }
