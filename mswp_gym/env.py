"""The Gymnasium adapter around :class:`mswp_gym.board.Board`."""

from __future__ import annotations

import inspect
from typing import Any, ClassVar, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mswp_gym.board import Board, hidden_view
from mswp_gym.cells import SMALL_BOARD_CELLS, neighbour_table
from mswp_gym.choices import ObsMode
from mswp_gym.config import GameConfig
from mswp_gym.constants import FLAGGED, HIDDEN, LOST, PLAYING, WON, Outcome
from mswp_gym.encoding import encode, observation_space
from mswp_gym.generators import Generator
from mswp_gym.inputs import check_action, check_seed
from mswp_gym.masks import action_mask, clear_action_mask, update_action_mask
from mswp_gym.render.drawing import INSTALL_HINT, pygame_available
from mswp_gym.render.rgb import render_rgb
from mswp_gym.render.text import render_ansi
from mswp_gym.rewards import RewardConfig

INFO_INT_CACHE = 4096
"""Info counts below ``min(2 * rows * cols + 1, INFO_INT_CACHE)`` come from a per-env cache."""

RENDER_MODES: tuple[str, ...] = ("ansi", "rgb_array", "human")
"""Every render mode of the env; ``"human"`` needs pygame."""

GAME_ARGUMENTS: tuple[str, ...] = tuple(inspect.signature(GameConfig).parameters)
"""The envs' game arguments: :class:`GameConfig`'s, the one list (``rows``, ``cols``, ``mines``
also positionally)."""


def game_config(
    config: GameConfig | None, board: tuple[Any, ...], game: dict[str, Any]
) -> GameConfig:
    """The config of an env: ``config`` itself, or the :class:`GameConfig` of its arguments.

    ``board``: the positional game arguments; ``game``: the keyword ones (beside ``config`` only
    ``preset``, which is ignored).

    Raises:
        TypeError: an argument that is not a game argument, or a ``config`` not a GameConfig.
        ValueError: ``config`` beside game arguments, or what :class:`GameConfig` refuses.
    """
    unknown = [name for name in game if name not in GAME_ARGUMENTS]
    if unknown:
        raise TypeError(
            f"unknown argument {unknown[0]!r}; the game arguments are {', '.join(GAME_ARGUMENTS)}"
        )
    if config is None:
        return GameConfig(*board, **game)
    if not isinstance(config, GameConfig):
        raise TypeError(f"config must be a GameConfig, got {type(config).__name__}")
    given = [*GAME_ARGUMENTS[: len(board)], *(name for name in game if name != "preset")]
    if given:
        raise ValueError(
            f"give config or game arguments, not both (got config and {', '.join(given)})"
        )
    return config


class ConfigAttributes:
    """What the single and the vector env read from their :class:`GameConfig`, as attributes."""

    metadata: dict[str, Any]

    def _take_config(self, config: GameConfig, render_mode: str | None) -> None:
        """Set the attributes, refusing a ``render_mode`` that ``metadata`` does not list."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; choose one of "
                f"{', '.join(self.metadata['render_modes'])}"
            )
        self.config = config
        self.generator: Generator = config.generator
        self.clues = config.clues
        self.rows, self.cols, self.mines = config.rows, config.cols, config.mines
        self.game_spec = config.spec
        self.rewards: RewardConfig = config.rewards
        self.obs_mode = config.obs_mode
        self.flag_actions = config.flag_actions
        self.score_mode = config.score_mode
        self.render_mode = render_mode
        self.max_steps = config.step_limit
        self._cells = self.rows * self.cols
        self._n_actions = config.n_actions


class MinesweeperEnv(ConfigAttributes, gym.Env[Any, int]):
    """Minesweeper.

    ## Description
    A ``rows x cols`` board hides ``mines`` mines. Each step reveals one cell; a revealed cell
    shows how many of its eight neighbours are mines, and a zero opens its neighbours for you
    (flood fill). Reveal every safe cell to win; reveal a mine and you lose (in score mode the
    mine is shown and the game goes on).

    ## Action space
    ``Discrete(rows * cols)``: action ``a`` reveals cell ``(a // cols, a % cols)``. With
    ``flag_actions=True`` the space is ``Discrete(2 * rows * cols)`` and action
    ``rows * cols + a`` toggles the flag on that cell. Actions outside the space raise a
    ValueError; a legal-looking action that changes nothing (a revealed or flagged cell) is a
    no-op that earns ``rewards.invalid`` and is counted in ``info["invalid_actions"]``.
    ``env.action_masks()`` (bool) and ``info["action_mask"]`` (int8) say which actions are legal;
    on a live game the mask is never all False.

    ## Observation space
    ``obs_mode="board"`` (default): ``Box(-5, 8, (rows, cols), int8)``, the visible board with
    clues ``0..8`` and the codes ``HIDDEN``, ``FLAGGED``, ``EXPLODED``, ``NO_CLUE`` of
    :mod:`mswp_gym.constants`. ``"channels"``: ``(13, rows, cols)`` float32 one-hot planes for
    CNNs. ``"dict"``: ``{"board", "revealed", "action_mask"}``. See :mod:`mswp_gym.encoding`.

    ## Rewards
    From a frozen :class:`mswp_gym.rewards.RewardConfig`: ``win`` (+1), ``loss`` (-1), ``progress``
    (+0.3, a safe reveal next to revealed cells), ``guess`` (-0.3, a blind safe reveal),
    ``invalid`` (-0.3), ``flag`` (0), ``first_move`` (0).

    ## Starting state
    Every cell hidden. Where the mines go is decided by the ``first_click`` rule: ``any`` places
    them at reset, ``safe``, ``opening`` and ``no-guess`` at the first real reveal (never under it
    / never around it / never around it and solvable from it without a guess; a no-op reveal of a
    flagged cell places nothing), ``fixed`` uses ``layout``. One RNG: ``reset(seed=s)`` fixes
    the whole game.

    ## Episode end
    Terminated on a win or a loss (score mode: when every safe cell is revealed). Truncated after
    ``max_steps`` steps (``"auto"``: ``2 * rows * cols``, which legal reveals never reach; None:
    no limit); a game that ends on the limit is both, as under ``TimeLimit``. ``info`` then
    carries ``"layout"``, the true mine layout, for evaluation only (its 3BV:
    :func:`mswp_gym.difficulty.bbbv`). A game cut off by a ``TimeLimit`` wrapper
    (``gym.make``'s ``max_episode_steps``) ends outside the env, without it: pass ``max_steps``.

    ## Info
    ``action_mask`` (int8), ``outcome`` (an :class:`~mswp_gym.constants.Outcome` value),
    ``cells_revealed`` (safe cells revealed), ``mines_left`` (mines minus flags), ``steps``,
    ``invalid_actions`` (these as ``np.int64``), ``is_success`` (a Python bool); score mode adds
    ``mines_exploded`` and ``mines_found`` (mines never stepped on).

    ## Arguments
    ``rows``, ``cols`` (>= 1, at most :data:`~mswp_gym.generators.MAX_CELLS` = 1,000,000 cells);
    ``mines`` or ``density`` (default: the Beginner density); ``preset`` (the board where none is
    given; the registered ids pass theirs, so every other argument works through ``gym.make``);
    ``first_click`` (``any``/``safe``/``opening``/``fixed``, a :class:`~mswp_gym.choices.FirstClick`
    or its string; default ``safe``, or ``fixed`` with ``layout``); ``rewards`` (RewardConfig or
    dict); ``obs_mode``; ``flag_actions``; ``score_mode``; ``render_mode`` (``ansi``,
    ``rgb_array``, ``human``); ``layout`` (bool or 0/1 array, or text picture, for ``fixed``);
    ``generator`` (who places the mines, injected; its ``name`` is the rule); ``max_steps`` (an
    int, ``"auto"`` or None); ``clue_reveal_prob`` (a revealed safe cell shows its clue with this
    probability, else ``NO_CLUE``) and ``clue_noise`` (``exact``, ``optimistic``: shown <= true,
    ``cautious``: shown >= true), the CS520 report's uncertain clues (see :mod:`mswp_gym.clues`;
    under any uncertainty there is no flood fill). Or ``config``: a
    :class:`~mswp_gym.config.GameConfig` holding all of these but ``render_mode`` (not both),
    which checks every argument.

    ## Version history
    * v0: first release.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium reads it as a class attribute
        # "human" only where pygame is installed: Gymnasium's check_env builds the env in every
        # advertised mode, so advertising a mode that cannot work fails a minimal install.
        "render_modes": [m for m in RENDER_MODES if m != "human" or pygame_available()],
        "render_fps": 8,
    }

    def __init__(
        self,
        *board: int | None,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        **game: Any,
    ) -> None:
        config = game_config(config, board, game)
        if render_mode == "human" and not pygame_available():
            raise ImportError(f"render_mode='human' is unavailable: {INSTALL_HINT}")
        self._take_config(config, render_mode)
        self.action_space = spaces.Discrete(self._n_actions)  # type: ignore[assignment]  # Env types it Space[ActType]
        self.observation_space = observation_space(
            self.obs_mode, self.rows, self.cols, self._n_actions
        )
        small = self._cells <= SMALL_BOARD_CELLS
        self._neighbours = neighbour_table(self.rows, self.cols) if small else None
        self._viewer: Any = None
        self._board: Board | None = None
        self._all_hidden = hidden_view(self.rows, self.cols)
        self._all_hidden.flags.writeable = False
        self._pre_visible = self._all_hidden.copy()
        self._visible = self._pre_visible
        # Every game starts all hidden, so every game starts with this mask. The live mask is an
        # int8 array over a bytearray: NumPy for copies and fancy updates, bytes for fast reads.
        self._start_mask = action_mask(self._pre_visible, self.flag_actions).tobytes()
        self._mask_bytes = bytearray(self._start_mask)
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8)
        self._board_obs = self.obs_mode == ObsMode.BOARD
        self._np_ints = tuple(np.int64(i) for i in range(min(2 * self._cells + 1, INFO_INT_CACHE)))
        self._steps = 0
        self._invalid = 0
        self._reveals = 0
        self._flags = 0
        self._done = True

    # ------------------------------------------------------------------ API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a new game; ``seed`` fixes its layout (and everything else random)."""
        super().reset(seed=check_seed(seed))
        self._steps = self._invalid = self._reveals = self._flags = 0
        self._done = False
        if self.generator.needs_first_click:
            self._board = None
            self._pre_visible = self._all_hidden.copy()
            self._visible = self._pre_visible
        else:
            self._new_board(None)
        # The mask is kept up to date cell by cell from here on (see _reveal, _toggle_flag).
        self._mask_bytes[:] = self._start_mask
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """Reveal (or flag) one cell. See the class docstring for rewards and the episode end."""
        if type(action) is int and 0 <= action < self._n_actions:  # the common case, fast
            index = action
        else:
            index = check_action(action, self._n_actions, (self.rows, self.cols))
        if self._done:
            raise RuntimeError(
                "no episode in progress (never reset, or ended): call reset() before step()"
            )
        self._steps += 1
        if index < self._cells:
            reward = self._reveal(index)
        else:
            reward = self._toggle_flag(index - self._cells)
        board = self._board
        terminated = board is not None and board.outcome != PLAYING
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        obs = self._visible.copy() if self._board_obs else self._observation()
        return obs, reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions as a bool array (what sb3-contrib's MaskablePPO calls)."""
        return self._mask.astype(bool)

    @property
    def visible(self) -> np.ndarray:
        """The visible board (a copy): what the player sees, whatever the observation form."""
        return self._visible.copy()

    def render(self) -> str | np.ndarray | None:
        """Draw the board in ``render_mode``; after the game, hidden mines are shown."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode to the env")
            return None
        mines = self._board.mines if (self._done and self._board is not None) else None
        if self.render_mode == "ansi":
            return render_ansi(self._visible, mines)
        exploded = None
        if mines is not None and self._board is not None and self._board.outcome == Outcome.LOST:
            hit = np.argwhere(self._board.revealed & self._board.mines)
            exploded = (int(hit[0][0]), int(hit[0][1])) if len(hit) else None
        frame = render_rgb(self._visible, mines, exploded=exploded)
        if self.render_mode == "rgb_array":
            return frame
        if self._viewer is None:
            from mswp_gym.render.viewer import HumanViewer

            self._viewer = HumanViewer()
        self._viewer.show(frame, self.metadata["render_fps"])
        return None

    def close(self) -> None:
        """Close the window, if any."""
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_viewer"] = None
        del state["_mask"]  # a view of _mask_bytes, rebuilt on unpickling
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8)

    # ------------------------------------------------------------ internals
    def _observation(self) -> Any:
        if self._board_obs:
            return self._visible.copy()
        return encode(self.obs_mode, self._visible, self._mask)

    def _new_board(self, first_click: tuple[int, int] | None) -> Board:
        layout = self.generator.layout(
            self.rows, self.cols, self.mines, self.np_random, first_click
        )
        board = Board(layout, score_mode=self.score_mode, clues=self.clues, rng=self.np_random)
        if self._board is None and first_click is not None and self._flags:
            flagged = self._pre_visible == FLAGGED
            board.flagged |= flagged
            board.visible[flagged] = FLAGGED
        self._board = board
        self._visible = board.visible
        return board

    def _reveal(self, index: int) -> float:
        cols = self.cols
        row, col = index // cols, index % cols
        if not self._mask_bytes[index]:  # the mask's reveal rule: the cell is not HIDDEN
            self._invalid += 1
            return self.rewards.invalid
        board = self._board
        if board is None:
            # Only a real reveal places the mines: a no-op (a flagged cell) must not spend the
            # first-click guarantee on a cell that stays hidden.
            board = self._new_board((row, col))
        first = self._reveals == 0
        informed = not first and self._is_informed(board, index)
        self._reveals += 1
        exploded_before = board.exploded
        opened = board.reveal(row, col)
        if opened == 1:
            if self.flag_actions:
                update_action_mask(self._mask, self._visible, index, True)
            elif board.outcome != LOST:
                # update_action_mask's rule, inlined: the cell now shows a clue (or EXPLODED); only
                # the mine that lost the game stays drawn as HIDDEN.
                self._mask_bytes[index] = 0
        elif opened:
            clear_action_mask(self._mask, board.last_opened, self._cells, self.flag_actions)
        if board.outcome == LOST or board.exploded > exploded_before:
            return self.rewards.loss
        if board.outcome == WON:
            return self.rewards.win
        if first:
            return self.rewards.first_move
        return self.rewards.progress if informed else self.rewards.guess

    def _is_informed(self, board: Board, index: int) -> bool:
        """Whether cell ``index`` touches a revealed cell (a reveal there is not a blind guess)."""
        if self._neighbours is not None and not self.flag_actions:
            # _has_revealed_neighbour's common case, from the mask: without flags, a cell of a
            # live game is revealed exactly when its reveal is illegal.
            legal = self._mask_bytes
            for n in self._neighbours[index]:  # noqa: SIM110 - a plain loop, as below
                if not legal[n]:
                    return True
            return False
        return self._has_revealed_neighbour(board, index)

    def _has_revealed_neighbour(self, board: Board, index: int) -> bool:
        if self._neighbours is not None:
            revealed = board.revealed.tobytes()  # bytes: fast element reads
            # A plain loop: any() over a generator is ~2x slower on this per-move path.
            for n in self._neighbours[index]:  # noqa: SIM110
                if revealed[n]:
                    return True
            return False
        row, col = divmod(index, self.cols)
        return bool(board.revealed[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2].any())

    def _toggle_flag(self, index: int) -> float:
        row, col = divmod(index, self.cols)
        if self._board is None:
            code = self._pre_visible[row, col]
            self._pre_visible[row, col] = HIDDEN if code == FLAGGED else FLAGGED
            self._flags += 1 if code == HIDDEN else -1
        elif self._board.revealed[row, col]:
            self._invalid += 1
            return self.rewards.invalid
        else:
            self._flags += 1 if self._board.toggle_flag(row, col) else -1
        update_action_mask(self._mask, self._visible, index, self.flag_actions)
        return self.rewards.flag

    def _info(self) -> dict[str, Any]:
        # Counts as NumPy scalars, not Python ints: readers such as TorchRL's take ``.dtype`` of
        # the values they read. np.int64() costs ~0.25 us a call, so small counts come from a cache.
        board = self._board
        if board is None:
            outcome, revealed, flags = PLAYING, 0, self._flags
        else:
            outcome, revealed = board.outcome, board.safe_revealed
            flags = board.flags if self.flag_actions else 0
        ints = self._np_ints
        n = len(ints)
        mines_left, steps, invalid = self.mines - flags, self._steps, self._invalid
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "outcome": ints[outcome],
            "cells_revealed": ints[revealed] if revealed < n else np.int64(revealed),
            "mines_left": ints[mines_left] if 0 <= mines_left < n else np.int64(mines_left),
            "steps": ints[steps] if steps < n else np.int64(steps),
            "invalid_actions": ints[invalid] if invalid < n else np.int64(invalid),
            # A Python bool: Gymnasium's vector envs batch np.bool_ values into object arrays.
            "is_success": outcome == WON,
        }
        if self.score_mode:
            exploded = board.exploded if board is not None else 0
            info["mines_exploded"] = np.int64(exploded)
            info["mines_found"] = np.int64(self.mines - exploded)
        if self._done and board is not None:
            info["layout"] = board.mines.copy()
        return info


class _EnvCreator:
    """The registered ids' entry point: ``make_env(**arguments)`` builds ``MinesweeperEnv``.

    Not the class itself, so that ``gym.make`` hands ``"human"`` to the env (without pygame it
    fails with :data:`~mswp_gym.render.drawing.INSTALL_HINT`), and with ``metadata`` of its own,
    so that ``gym.make(render_mode="rgb_array_list")`` (or ``"ansi_list"``) wraps the env in
    Gymnasium's ``RenderCollection``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": MinesweeperEnv.metadata["render_fps"],
    }

    def __call__(self, **arguments: Any) -> MinesweeperEnv:
        return MinesweeperEnv(**arguments)


make_env = _EnvCreator()
