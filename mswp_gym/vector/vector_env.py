"""A native batched Gymnasium vector env: B Minesweeper boards stepped by whole-array NumPy ops.

``gymnasium.make_vec("Minesweeper-v0", num_envs=B, vectorization_mode="vector_entry_point")``
builds :class:`MinesweeperVectorEnv` over the batched engine (:mod:`mswp_gym.vector.batch_board`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from mswp_gym.cells import to_cell
from mswp_gym.choices import BatchFlood, FirstClick, Placement, parse_choice
from mswp_gym.config import GameConfig, resolve_max_steps
from mswp_gym.constants import HIDDEN, Outcome
from mswp_gym.encoding import encode, observation_space
from mswp_gym.env import ConfigAttributes, MinesweeperEnv, game_config
from mswp_gym.generators import STOCK_GENERATORS, layout_values
from mswp_gym.inputs import check_actions, check_seed, is_integer
from mswp_gym.masks import batch_action_mask
from mswp_gym.render.rgb import render_rgb
from mswp_gym.render.text import render_ansi
from mswp_gym.vector.batch_board import BatchBoards
from mswp_gym.vector.batch_place import block_table, place_mines
from mswp_gym.vector.batch_rng import seeds_to_uint64, stream_keys

CLUE_STREAM = 0xC1E5
"""Third word of the seed of a board's clue-draw stream (batched placement, uncertain clues)."""
PER_BOARD: frozenset[str] = frozenset({"action_masks", "render", "visible"})
"""Names :meth:`MinesweeperVectorEnv.call` splits into one result per board."""


def _equal(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))
    return bool(a == b)


MAX_BATCH_CELLS = 64_000_000
"""Most cells over all boards of one vector env (B x rows x cols; gigabytes already)."""


def check_batch_cells(num_envs: int, cells: int) -> None:
    """Refuse a vector env whose boards hold more than :data:`MAX_BATCH_CELLS` cells in all.

    Raises:
        ValueError: naming the batch, the cell count and the limit.
    """
    if num_envs * cells > MAX_BATCH_CELLS:
        raise ValueError(
            f"{num_envs} boards of {cells:,} cells are {num_envs * cells:,} cells; a vector env "
            f"holds at most {MAX_BATCH_CELLS:,} cells in all (use fewer or smaller boards)"
        )


@dataclass(frozen=True)
class BoardTruth:
    """What the boards hide, for a teacher (an auxiliary loss, a labeller), never for the player.

    Attributes:
        mines: ``(B, rows, cols)`` bool, the layouts (all False where not ``placed``).
        zeros: ``(B, rows, cols)`` bool, safe cells whose clue is 0 (False where not ``placed``).
        placed: ``(B,)`` bool, whether the board's mines are laid (by the first click, under
            ``safe`` and ``opening``).
    """

    mines: np.ndarray
    zeros: np.ndarray
    placed: np.ndarray


class MinesweeperVectorEnv(ConfigAttributes, VectorEnv):
    """Minesweeper, ``num_envs`` boards at once.

    ## Description
    The game, rules, action and observation forms, rewards and info keys of
    :class:`mswp_gym.env.MinesweeperEnv`, for B boards per ``step`` call. Every board follows the
    single env's rules exactly.

    ## Action space
    ``MultiDiscrete([n] * B)`` with ``n = rows*cols`` (``2*rows*cols`` with ``flag_actions``);
    ``single_action_space`` is ``Discrete(n)``. ``action_masks()`` gives ``(B, n)`` bool.

    ## Observation space
    The single env's space batched: ``(B, rows, cols)`` int8 for ``"board"``,
    ``(B, 13, rows, cols)`` float32 for ``"channels"``, a dict of batched arrays for ``"dict"``.

    ## Rewards
    From a :class:`~mswp_gym.rewards.RewardConfig`, as in the single env; ``float64`` ``(B,)``.

    ## Starting state and seeding
    Mines are placed by the ``first_click`` rule (``any`` at reset, ``safe``/``opening`` at each
    board's first reveal, ``fixed`` from ``layout``). ``reset(seed=s)`` gives board ``i`` the
    seed ``s + i`` (a list gives one seed per board), as ``SyncVectorEnv`` does. With
    ``placement="batched"`` (default) each board draws its layouts from its own counter-based
    stream (:mod:`mswp_gym.vector.batch_rng`), independent of the other boards;
    ``placement="generator"`` uses the single env's generator per board, so board ``i`` plays
    exactly the games ``MinesweeperEnv`` plays after ``reset(seed=s + i)``. ``reset(seed=None)``
    keeps the streams going. Seeds follow :func:`mswp_gym.inputs.check_seed`.
    ``no-guess`` boards are always placed the ``generator`` way (so they match the single env's).

    ## Episode end and autoreset
    Per board as in the single env. ``autoreset_mode`` (also in ``metadata["autoreset_mode"]``):

    * ``NEXT_STEP`` (default): the step after a board's episode ends resets that board; its
      action is ignored, its reward is 0 and terminated/truncated are False.
    * ``SAME_STEP``: a finished board is reset within the same step; the returned observation
      and info are the new episode's, and ``info["final_obs"]`` (object array, None elsewhere)
      and ``info["final_info"]`` (dict of arrays with ``_key`` masks) hold the finished ones.
    * ``DISABLED``: finished boards must be reset with ``reset(options={"reset_mask": m})``.

    ## Info
    Gymnasium's vector convention: each single-env key maps to a ``(B, ...)`` array with a
    ``(B,)`` bool ``"_key"`` mask. ``action_mask`` ``(B, n)`` int8, ``outcome``,
    ``cells_revealed``, ``mines_left``, ``steps``, ``invalid_actions`` (int64), ``is_success``
    (bool); score mode adds ``mines_exploded`` and ``mines_found``. ``"layout"`` ``(B, rows,
    cols)`` bool is present when some board's episode ended this step (the step limit too, as in
    the single env), masked by ``"_layout"``, for evaluation only; board ``i``'s 3BV is
    :func:`mswp_gym.difficulty.bbbv` of ``info["layout"][i]``. ``make_vec``'s sync and async
    modes put the step limit in a ``TimeLimit`` outside each env, so there a game cut off by it
    has no ``"layout"`` (give ``max_steps`` instead of ``max_episode_steps``). Entries
    whose mask is False are unspecified.

    ## Arguments
    ``num_envs`` (B >= 1) and the single env's arguments, checked by the same
    :class:`~mswp_gym.config.GameConfig` (``render_mode`` gives a tuple of B frames; ``generator``
    needs ``placement="generator"``; ``layout`` may also be a ``(B, rows, cols)`` stack); plus
    ``max_episode_steps`` (alias of ``max_steps``, as ``make_vec`` passes it), ``autoreset_mode``,
    ``placement`` (``batched``/``generator``) and ``flood`` (``bigint``/``dense``). Uncertain
    clues are drawn per board from the board's own stream. Actions follow
    :func:`mswp_gym.inputs.check_actions`.

    ## Version history
    * v0: first release.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium reads it as a class attribute
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": MinesweeperEnv.metadata["render_fps"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        *board: int | None,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        placement: Placement | str = Placement.BATCHED,
        flood: BatchFlood | str | None = None,
        **game: Any,
    ) -> None:
        if not is_integer(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if max_episode_steps is not None:
            # make_vec passes the registered step limit under Gymnasium's name.
            resolve_max_steps(max_episode_steps, 1, 1)
            max_steps = game.get("max_steps", "auto")
            if max_steps not in ("auto", max_episode_steps):
                raise ValueError(
                    f"max_steps={max_steps} and max_episode_steps={max_episode_steps} disagree; "
                    "give one"
                )
            game["max_steps"] = max_episode_steps
        fixed_layouts = None
        layout = game.get("layout")
        if layout is not None and not isinstance(layout, str) and np.asarray(layout).ndim == 3:
            fixed_layouts = self._check_layout_stack(np.asarray(layout), int(num_envs))
            game["layout"] = fixed_layouts[0]
            if game.get("first_click") is None:
                game["first_click"] = FirstClick.FIXED
        config = game_config(config, board, game)
        check_batch_cells(int(num_envs), config.rows * config.cols)
        if fixed_layouts is None and config.layout is not None:
            fixed_layouts = config.layout[None]
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(
                f"unknown autoreset_mode {autoreset_mode!r}; choose one of "
                f"{', '.join(m.value for m in AutoresetMode)}"
            ) from None
        placement = parse_choice(Placement, placement, "placement")
        if config.first_click == FirstClick.NO_GUESS:
            # The batched engine cannot place these: board by board, with the single env's.
            placement = Placement.GENERATOR
        if placement == Placement.BATCHED and not isinstance(config.generator, STOCK_GENERATORS):
            raise ValueError(
                f"an injected generator ({type(config.generator).__name__}) needs "
                "placement='generator'; the batched placement draws its own layouts"
            )
        self._take_config(config, render_mode)
        self.rule = config.first_click
        self.num_envs = int(num_envs)
        self.autoreset_mode = mode
        self._same_step = mode == AutoresetMode.SAME_STEP
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.placement = placement
        self.single_action_space = spaces.Discrete(self._n_actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = observation_space(
            self.obs_mode, self.rows, self.cols, self._n_actions
        )
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

        self._boards = BatchBoards(
            self.num_envs, self.rows, self.cols, score_mode=self.score_mode, flood=flood
        )
        self._fixed = None
        if fixed_layouts is not None:
            stack = np.broadcast_to(fixed_layouts, (self.num_envs, self.rows, self.cols))
            self._fixed = np.ascontiguousarray(stack).reshape(self.num_envs, self._cells)
        b = self.num_envs
        self._board_seeds = np.zeros(b, dtype=np.uint64)
        self._episodes = np.zeros(b, dtype=np.uint64)
        self._rngs: list[np.random.Generator] | None = None
        self._seeded = False
        self._started = False
        self._steps = np.zeros(b, dtype=np.int64)
        self._invalid = np.zeros(b, dtype=np.int64)
        self._reveals = np.zeros(b, dtype=np.int64)
        self._needs_reset = np.ones(b, dtype=bool)
        self._all_boards = np.arange(b)
        self._exact_clues = self.clues.exact
        self._clue_rngs: list[np.random.Generator] = [np.random.default_rng(0)] * b
        table = block_table(self.rows, self.cols)[:, 1:]
        self._around_count = (table != np.arange(self._cells)[:, None]).sum(axis=1)
        self._all_true = np.ones(b, dtype=bool)
        self._all_true.flags.writeable = False  # shared by every "_key" mask of every info
        self._mask = batch_action_mask(self._boards.visible, self.flag_actions)

    # ------------------------------------------------------------------ API
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start new games on every board (or on ``options["reset_mask"]``'s boards).

        ``seed``: None (keep the streams going), ``s`` (board ``i`` gets ``s + i``) or B seeds
        (None keeps that board's stream). Info arrays are masked to the boards reset.

        Raises:
            ValueError/TypeError: for a seed list of the wrong length or a bad reset mask.
        """
        boards = self._all_boards
        if options and "reset_mask" in options:
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
                raise TypeError(f"options['reset_mask'] must be a bool numpy array, got {mask!r}")
            if mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError(
                    f"options['reset_mask'] must be a ({self.num_envs},) bool array with a True "
                    f"entry, got shape {mask.shape}"
                )
            boards = np.flatnonzero(mask)
        self._seed_boards(boards, self._per_board_seeds(seed))
        self._start_games(boards)
        self._started = True
        self._mask = batch_action_mask(self._boards.visible, self.flag_actions)
        info = self._info()
        if boards.size != self.num_envs:
            reset = np.zeros(self.num_envs, dtype=bool)
            reset[boards] = True
            info = {k: (reset.copy() if k.startswith("_") else v) for k, v in info.items()}
        return self._observe(), info

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per board; see the class docstring for autoreset and info.

        Raises:
            ValueError: for actions of the wrong shape or outside the action space.
            RuntimeError: with ``autoreset_mode=DISABLED``, for a finished board not reset.
        """
        acts = check_actions(actions, self.num_envs, self._n_actions, (self.rows, self.cols))
        if not self._started:
            raise RuntimeError("no episode in progress (never reset): call reset() before step()")
        boards = self._boards
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        live = ~self._needs_reset
        if not live.all():
            if self.autoreset_mode == AutoresetMode.DISABLED:
                raise RuntimeError(
                    f"boards {np.flatnonzero(~live).tolist()} have ended: reset them with "
                    "reset(options={'reset_mask': ...}) before step() (autoreset_mode=DISABLED)"
                )
            # NEXT_STEP: these boards spend this step on their reset.
            self._new_episodes(np.flatnonzero(~live))
            live_boards = np.flatnonzero(live)
            live_actions = acts[live_boards]
            self._steps[live_boards] += 1
        else:
            live_boards, live_actions = self._all_boards, acts
            self._steps += 1
        reveal = live_actions < self._cells
        if reveal.all():
            self._reveal(live_boards, live_actions, rewards)
        else:
            self._reveal(live_boards[reveal], live_actions[reveal], rewards)
            flag = ~reveal
            self._toggle(live_boards[flag], live_actions[flag] - self._cells, rewards)
        terminated = boards.outcome != Outcome.PLAYING.value
        if self.max_steps is not None:
            truncated = self._steps >= self.max_steps  # with terminated too, as under TimeLimit
        else:
            truncated = np.zeros(self.num_envs, dtype=bool)
        done = terminated | truncated
        self._mask = batch_action_mask(boards.visible, self.flag_actions)
        info = self._info(ended=done)
        if self._same_step and done.any():
            info = self._same_step_reset(np.flatnonzero(done), done, info)
        else:
            self._needs_reset = done
        return self._observe(), rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions, ``(B, n)`` bool (what sb3-contrib's MaskablePPO reads, row per board).

        A board waiting for its ``NEXT_STEP`` reset ignores its action: its row is all True.
        """
        masks = self._mask.astype(bool)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._needs_reset.any():
            masks[self._needs_reset] = True
        return masks

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Gymnasium's ``VectorEnv.call``: one result per board.

        A :data:`PER_BOARD` name is evaluated once and split into B rows; anything else is
        shared, its (called) value repeated B times.

        Raises:
            AttributeError: no attribute ``name``.
        """
        value = getattr(self, name)
        if callable(value):
            value = value(*args, **kwargs)
        if name in PER_BOARD:
            return tuple(value) if value is not None else (None,) * self.num_envs
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Gymnasium's ``VectorEnv.get_attr``: :meth:`call` without arguments."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Gymnasium's ``VectorEnv.set_attr``. Attributes are shared by every board, so a list or
        tuple of values must hold B equal values; any other value is set as is.

        Raises:
            ValueError: a list of the wrong length, or of values that differ between boards.
        """
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(
                    f"set_attr({name!r}) needs {self.num_envs} values (one per board), got "
                    f"{len(values)}"
                )
            first = values[0]
            if not all(_equal(v, first) for v in values[1:]):
                raise ValueError(
                    f"attribute {name!r} is shared by all {self.num_envs} boards of the batched "
                    f"env; give one value, not different values per board"
                )
            values = first
        setattr(self, name, values)

    @property
    def visible(self) -> np.ndarray:
        """The visible boards ``(B, rows, cols)`` int8 (a copy), whatever the observation form."""
        return self._boards.visible.reshape(self.num_envs, self.rows, self.cols).copy()

    def truth(self) -> BoardTruth:
        """The current games' layouts (copies), for trainers; an agent must never read it."""
        state = self._boards
        shape = (self.num_envs, self.rows, self.cols)
        placed = state.placed.copy()
        mines = (state.mines & placed[:, None]).reshape(shape)
        zeros = ((state.counts == 0) & ~state.mines & placed[:, None]).reshape(shape)
        return BoardTruth(mines=mines, zeros=zeros, placed=placed)

    def render(self) -> tuple[Any, ...] | None:
        """One frame per board in ``render_mode``; hidden mines show on finished boards."""
        if self.render_mode is None:
            return None
        visible = self._boards.visible.reshape(self.num_envs, self.rows, self.cols)
        mines = self._boards.mines.reshape(self.num_envs, self.rows, self.cols)
        shown = self._needs_reset & self._boards.placed  # finished boards show their mines
        if self.render_mode == "ansi":
            return tuple(
                render_ansi(visible[i], mines[i] if shown[i] else None)
                for i in range(self.num_envs)
            )
        hit = (self._boards.revealed & self._boards.mines).reshape(mines.shape)
        lost = shown & (self._boards.outcome == Outcome.LOST.value)
        return tuple(
            render_rgb(
                visible[i],
                mines[i] if shown[i] else None,
                exploded=to_cell(int(np.argmax(hit[i])), self.cols) if lost[i] else None,
            )
            for i in range(self.num_envs)
        )

    # ------------------------------------------------------------ seeding
    def _per_board_seeds(self, seed: int | list[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self.num_envs:
                raise ValueError(
                    f"a seed list must have num_envs={self.num_envs} entries, got {len(seed)}"
                )
            return [check_seed(s, f"seed of board {i}") for i, s in enumerate(seed)]
        first = check_seed(seed)
        assert first is not None
        return [
            check_seed(first + i, f"seed + {i} (board {i}'s seed)") for i in range(self.num_envs)
        ]

    def _seed_boards(self, boards: np.ndarray, seeds: list[int | None]) -> None:
        if self.placement == "generator":
            if self._rngs is None:
                self._rngs = [seeding.np_random(s)[0] for s in seeds]
                return
            for i in boards:
                if seeds[i] is not None:
                    self._rngs[i] = seeding.np_random(seeds[i])[0]
            return
        if not self._seeded:
            # First reset: boards without a seed get fresh entropy (never global state).
            # numpy types ``entropy`` as int | Sequence[int]; a fresh SeedSequence holds an int.
            entropy = int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
            filled = [entropy + i if s is None else s for i, s in enumerate(seeds)]
            self._board_seeds[:] = seeds_to_uint64(filled)
            self._episodes[:] = 0
            self._seeded = True
            return
        given = np.array([seeds[i] is not None for i in boards], dtype=bool)
        reseed = boards[given]
        if reseed.size:
            self._board_seeds[reseed] = seeds_to_uint64([int(seeds[i] or 0) for i in reseed])
            self._episodes[reseed] = 0
        self._episodes[boards[~given]] += np.uint64(1)

    # ------------------------------------------------------------ internals
    @staticmethod
    def _check_layout_stack(layouts: np.ndarray, num_envs: int) -> np.ndarray:
        if layouts.shape[0] != num_envs or layouts.shape[1] < 1 or layouts.shape[2] < 1:
            raise ValueError(
                f"a layout stack must have shape (num_envs={num_envs}, rows, cols), got "
                f"{layouts.shape}"
            )
        stack = layout_values(layouts)
        counts = stack.sum(axis=(1, 2))
        if (counts != counts[0]).any():
            raise ValueError(f"every layout of the stack needs the same mine count, got {counts}")
        if stack.all(axis=(1, 2)).any():
            raise ValueError("every fixed layout needs a safe cell; one of the stack is all mines")
        return stack

    def _new_episodes(self, boards: np.ndarray) -> None:
        """Autoreset: the next game of each board's own stream."""
        if self.placement == "batched":
            self._episodes[boards] += np.uint64(1)
        self._start_games(boards)

    def _start_games(self, boards: np.ndarray) -> None:
        self._boards.clear(boards)
        if not self._exact_clues and self.placement == Placement.BATCHED:
            # Clue draws of batched placement: a stream per board and game, like its layout's.
            for b in boards.tolist():
                key = [int(self._board_seeds[b]), int(self._episodes[b]), CLUE_STREAM]
                self._clue_rngs[b] = np.random.default_rng(key)
        self._steps[boards] = 0
        self._invalid[boards] = 0
        self._reveals[boards] = 0
        self._needs_reset[boards] = False
        if not self.generator.needs_first_click:
            self._lay(boards, None)

    def _lay(self, boards: np.ndarray, clicks: np.ndarray | None) -> None:
        if self._fixed is not None:
            layouts = self._fixed[boards]
        elif self.placement == "batched":
            keys = stream_keys(self._board_seeds[boards], self._episodes[boards], self._cells)
            layouts = place_mines(keys, self.mines, clicks, self.rule, self.rows, self.cols)
        else:
            assert self._rngs is not None
            layouts = np.zeros((boards.size, self._cells), dtype=bool)
            for j, b in enumerate(boards.tolist()):
                click = None if clicks is None else to_cell(int(clicks[j]), self.cols)
                drawn = self.generator.layout(
                    self.rows, self.cols, self.mines, self._rngs[b], click
                )
                layouts[j] = drawn.reshape(self._cells)
        self._boards.lay(boards, layouts)

    def _reveal(self, boards: np.ndarray, cells: np.ndarray, rewards: np.ndarray) -> None:
        state = self._boards
        hidden = state.visible.reshape(-1)[boards * self._cells + cells] == HIDDEN
        if not hidden.all():
            blocked = boards[~hidden]
            self._invalid[blocked] += 1
            rewards[blocked] = self.rewards.invalid
            boards, cells = boards[hidden], cells[hidden]
        unplaced = ~state.placed[boards]
        if unplaced.any():
            # As the single env: the first real reveal lays the mines; a no-op (a flagged cell)
            # does not, or the first-click guarantee would protect a cell that stays hidden.
            self._lay(boards[unplaced], cells[unplaced])
        first = self._reveals[boards] == 0
        informed = np.zeros(boards.size, dtype=bool)
        later = ~first
        informed[later] = state.has_revealed_neighbour(boards[later], cells[later])
        self._reveals[boards] += 1
        shown = None if self._exact_clues else self._draw_clues(boards, cells)
        _, hit_mine = state.reveal(boards, cells, shown)
        won = state.outcome[boards] == Outcome.WON.value
        r = self.rewards
        # Lowest priority first, so each later line overrides: loss > win > first move > informed.
        earned = np.where(informed, r.progress, r.guess)
        earned[first] = r.first_move
        earned[won] = r.win
        earned[hit_mine] = r.loss
        rewards[boards] = earned

    def _draw_clues(self, boards: np.ndarray, cells: np.ndarray) -> np.ndarray:
        """The codes the clicked safe cells show under the clue model (mines: unused).

        One draw per safe reveal from the board's own generator, in click order (the single
        env's ``np_random`` with ``placement="generator"``).
        """
        flat = boards * self._cells + cells
        truth = self._boards.counts.reshape(-1)[flat]
        mine = self._boards.mines.reshape(-1)[flat]
        around = self._around_count[cells]
        shown = np.empty(boards.size, dtype=np.int8)
        rngs = self._rngs if self.placement == Placement.GENERATOR else self._clue_rngs
        assert rngs is not None
        for j, b in enumerate(boards.tolist()):
            if not mine[j]:
                shown[j] = self.clues.shown(int(truth[j]), int(around[j]), rngs[b])
        return shown

    def _toggle(self, boards: np.ndarray, cells: np.ndarray, rewards: np.ndarray) -> None:
        if boards.size == 0:
            return
        revealed = self._boards.revealed.reshape(-1)[boards * self._cells + cells]
        if revealed.any():
            self._invalid[boards[revealed]] += 1
            rewards[boards[revealed]] = self.rewards.invalid
        ok = ~revealed
        self._boards.toggle_flags(boards[ok], cells[ok])
        rewards[boards[ok]] = self.rewards.flag

    def _observe(self) -> Any:
        visible = self._boards.visible.reshape(self.num_envs, self.rows, self.cols)
        return encode(self.obs_mode, visible, self._mask)

    def _info(self, ended: np.ndarray | None = None) -> dict[str, Any]:
        state = self._boards
        outcome = state.outcome.astype(np.int64)
        flags = state.flagged.sum(axis=1) if self.flag_actions else 0
        info: dict[str, Any] = {
            "action_mask": self._mask,
            "outcome": outcome,
            "cells_revealed": state.safe_revealed.astype(np.int64),
            "mines_left": (self.mines - flags) * np.ones(self.num_envs, dtype=np.int64),
            "steps": self._steps.copy(),
            "invalid_actions": self._invalid.copy(),
            "is_success": outcome == Outcome.WON.value,
        }
        if self.score_mode:
            exploded = state.exploded.astype(np.int64)
            info["mines_exploded"] = exploded
            info["mines_found"] = self.mines - exploded
        for key in list(info):
            info[f"_{key}"] = self._all_true
        if ended is not None:
            with_layout = ended & state.placed
            if with_layout.any():
                layouts = np.zeros((self.num_envs, self._cells), dtype=bool)
                layouts[with_layout] = state.mines[with_layout]
                info["layout"] = layouts.reshape(self.num_envs, self.rows, self.cols)
                info["_layout"] = with_layout
        return info

    def _same_step_reset(
        self, finished: np.ndarray, done: np.ndarray, step_info: dict[str, Any]
    ) -> dict[str, Any]:
        ended = done.copy()
        ended.flags.writeable = False  # shared by the "_key" masks of final_info
        final_info = {
            k: (v if k == "_layout" else ended) if k.startswith("_") else v
            for k, v in step_info.items()
        }
        visible = self._boards.visible[finished].reshape(-1, self.rows, self.cols)
        final_obs = encode(self.obs_mode, visible, self._mask[finished])
        finals = np.full(self.num_envs, None, dtype=object)
        if isinstance(final_obs, dict):
            for j, i in enumerate(finished.tolist()):
                finals[i] = {k: v[j] for k, v in final_obs.items()}
        else:
            for i, obs in zip(finished.tolist(), final_obs, strict=True):
                finals[i] = obs
        self._new_episodes(finished)
        self._mask = batch_action_mask(self._boards.visible, self.flag_actions)
        info = self._info()
        info["final_obs"] = finals
        info["_final_obs"] = ended
        info["final_info"] = final_info
        info["_final_info"] = ended
        return info
