"""A labelled data set of solver play, written as seeded, resumable shards.

``python -m train.dataset --board expert --shards 10 --games-per-shard 100 --out data/expert``
has the exact solver (:class:`agents.solver.SolverAgent`) play ``games-per-shard`` games per
shard and writes every position it moves from after the first click to ``shard-00000.npz``, ...

A shard is an imitation data set file (:mod:`train.dataset`) plus ``mines`` bool
``(N, rows, cols)``, the true layout, and ``games`` int32 ``(N,)``, the game within the shard;
``meta`` adds seed, shard and games. Shard ``k`` of seed ``s`` plays seeds
``SeedSequence([s, k])``, so shards can be written in any order; a rerun skips complete shards and
refuses a folder of another seed, board or shard size, or one with a damaged shard.

``manifest.json`` maps each shard's name to its SHA-256, rewritten atomically after each shard; a
shard it lacks (written just before a kill, or by older code) is checked by its zip's CRC-32s.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.atomic import check_output_folder, remove_stale_temporaries, write_text_atomic
from common.cli import INTERRUPTED, OneLineParser, report_error
from mswp_gym.cells import neighbour_counts
from mswp_gym.choices import FirstClick
from mswp_gym.constants import is_revealed_safe, is_unknown
from mswp_gym.encoding import board_from_observation
from mswp_gym.presets import PRESETS
from mswp_gym.spec import GameSpec
from train.dataset import UNREADABLE, PositionSet, load_positions, save_positions
from train.generalist import parse_boards
from train.limits import GIB, MEMORY_LIMIT, POSITION_BYTES

PROG = "python -m train.dataset"
SHARD_NAME = "shard-{:05d}.npz"
MANIFEST = "manifest.json"
_PLAN_KEYS = ("rows", "cols", "mines", "first_click", "seed", "games")


@dataclass(frozen=True)
class ShardPlan:
    """What every shard of one data set holds: the board, the seed and the games per shard."""

    spec: GameSpec
    seed: int
    games: int
    """Games per shard."""

    def meta(self, index: int) -> dict[str, object]:
        """The JSON meta of shard ``index``."""
        board = {key: getattr(self.spec, key) for key in _PLAN_KEYS[:4]}
        return {**board, "labels": "solver", "seed": self.seed, "games": self.games, "shard": index}

    def game_seeds(self, index: int) -> list[int]:
        """The seeds of shard ``index``'s games."""
        state = np.random.SeedSequence([self.seed, index]).generate_state(self.games)
        return [int(seed) for seed in state]


@dataclass(frozen=True)
class Shard:
    """One shard read back: its positions (a :class:`~train.dataset.PositionSet`), the true
    layouts ``(N, rows, cols)`` bool, the game of each position ``(N,)`` int32, and its meta."""

    positions: PositionSet
    mines: np.ndarray
    games: np.ndarray
    meta: dict[str, object]


def play_shard(plan: ShardPlan, index: int) -> tuple[PositionSet, np.ndarray, np.ndarray]:
    """Play shard ``index``'s games; returns its positions, true layouts and game numbers."""
    from agents.beliefs import INFO_KEY, ExactBeliefs
    from agents.solver import SolverAgent
    from mswp_gym import MinesweeperEnv

    spec = plan.spec
    env = ExactBeliefs(
        MinesweeperEnv(
            rows=spec.rows, cols=spec.cols, mines=spec.mines, first_click=spec.first_click
        )
    )
    agent = SolverAgent()
    boards: list[np.ndarray] = []
    probabilities: list[np.ndarray] = []
    moves: list[int] = []
    layouts: list[np.ndarray] = []
    openings: list[np.ndarray] = []
    games: list[int] = []
    for game, seed in enumerate(plan.game_seeds(index)):
        observation, info = env.reset(seed=seed)
        agent.reset(seed, spec)
        met = 0
        done = False
        while not done:
            board = board_from_observation(observation)
            move = agent.act(board, info["action_mask"])
            if is_revealed_safe(board).any():
                boards.append(board.copy())
                probabilities.append(info[INFO_KEY])
                moves.append(move)
                met += 1
            observation, _, terminated, truncated, info = env.step(move)
            done = bool(terminated or truncated)
        layout = np.asarray(info["layout"], bool)
        layouts.extend([layout] * met)
        openings.extend([~layout & (neighbour_counts(layout) == 0)] * met)
        games.extend([game] * met)
    env.close()
    if not boards:
        return (
            PositionSet.empty(spec.rows, spec.cols),
            np.zeros((0, spec.rows, spec.cols), bool),
            np.zeros(0, np.int32),
        )
    board_array = np.stack(boards)
    mines = np.stack(layouts)
    hidden = is_unknown(board_array)
    positions = PositionSet(
        board_array,
        np.stack(probabilities).astype(np.float32),
        hidden,
        np.stack(openings).astype(np.float32),
        hidden.copy(),
        np.array(moves, np.int32),
    )
    return positions, mines, np.array(games, np.int32)


def write_shard(folder: Path, plan: ShardPlan, index: int) -> int:
    """Play and write shard ``index`` into ``folder`` atomically; returns its positions."""
    positions, mines, games = play_shard(plan, index)
    save_positions(
        folder / SHARD_NAME.format(index),
        positions,
        plan.meta(index),
        extra={"mines": mines, "games": games},
    )
    return len(positions)


def read_shard(path: str | Path) -> Shard:
    """A shard written by :func:`write_shard`.

    Raises:
        FileNotFoundError, ValueError: no file, or not a shard (the message names the path).
    """
    positions, meta = load_positions(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            return Shard(positions, data["mines"], data["games"], meta)
    except KeyError:
        raise ValueError(f"{str(path)!r} is an imitation data set, not a labelled shard") from None
    except UNREADABLE as exc:
        raise ValueError(f"{str(path)!r} is not a readable shard: {exc}") from None


def shard_paths(folder: str | Path) -> list[Path]:
    """The shard files of ``folder``, in index order."""
    return sorted(Path(folder).glob("shard-[0-9][0-9][0-9][0-9][0-9].npz"))


def load_shards(folder: str | Path) -> tuple[PositionSet, dict[str, object]]:
    """Every position of ``folder``'s shards, in shard order, and the first shard's meta.

    Raises:
        FileNotFoundError: ``folder`` holds no shard.
        ValueError: an unreadable shard, or shards of different boards.
    """
    paths = shard_paths(folder)
    if not paths:
        raise FileNotFoundError(f"no shard-NNNNN.npz in {str(folder)!r}")
    parts, first = [], None
    for path in paths:
        positions, meta = load_positions(path)
        board = [meta.get(key) for key in ("rows", "cols", "mines")]
        if first is None:
            first = meta
        elif board != [first.get(key) for key in ("rows", "cols", "mines")]:
            raise ValueError(f"{str(path)!r} holds another board ({board}) than the first shard")
        parts.append(positions)
    assert first is not None
    return PositionSet.concatenate(parts), first


def check_dataset(folder: str, algo: str, boards: str, spec: GameSpec) -> None:
    """Raise a ValueError unless ``folder`` holds shards of ``spec``'s board and first-click
    rule, for an imitation run (``algo``) on one board (no generalist ``boards``); only the first
    shard's meta is read."""
    if not algo.startswith("imitation") or boards:
        mix = f", imitation.boards {boards!r}" if boards else ""
        raise ValueError(
            f"imitation.dataset={folder!r} needs algo imitation or imitation+ppo on one board, "
            f"got algo '{algo}'{mix}"
        )
    paths = shard_paths(folder)
    if not paths:
        raise ValueError(f"dataset {folder!r} holds no shard-NNNNN.npz")
    sound_shards(Path(folder))
    meta = read_shard(paths[0]).meta
    found = tuple(meta.get(key) for key in _PLAN_KEYS[:4])
    wanted = (spec.rows, spec.cols, spec.mines, spec.first_click)
    if found != wanted:
        raise ValueError(
            f"dataset {folder!r} holds positions of {found[0]}x{found[1]}/{found[2]} first_click "
            f"{found[3]}, the run is on {spec.board} first_click {spec.first_click}"
        )


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file's bytes, in hex."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def sound_shards(folder: Path) -> dict[str, str]:
    """Every shard of ``folder`` checked (see the module docstring); returns their manifest.

    Raises:
        ValueError: one line naming the first damaged shard, or an unreadable manifest.
    """
    path = folder / MANIFEST
    try:
        listed = json.loads(path.read_text()) if path.is_file() else {}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(path)!r} is unreadable ({exc}); delete it") from None
    manifest = {}
    for shard in shard_paths(folder):
        digest = file_sha256(shard)
        try:
            with zipfile.ZipFile(shard) as archive:  # CRC-32s, for a shard the manifest lacks
                bad = "" if shard.name in listed else archive.testzip() and "a CRC-32"
        except UNREADABLE as exc:
            bad = f"its zip ({exc})"
        if bad or listed.get(shard.name, digest) != digest:
            raise ValueError(
                f"{str(shard)!r} is damaged (it fails {bad or f'the SHA-256 {MANIFEST} lists'}); "
                f"delete it and rerun python -m train.dataset with the same flags"
            )
        manifest[shard.name] = digest
    return manifest


def complete_shards(folder: Path, plan: ShardPlan) -> set[int]:
    """The indices of ``folder``'s shards, all checked to belong to ``plan``.

    Raises:
        ValueError: a shard that cannot be read or belongs to another plan (named).
    """
    done = set()
    for path in shard_paths(folder):
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
        except UNREADABLE as error:
            raise ValueError(f"{str(path)!r} is not a readable shard: {error}") from error
        index = int(path.stem.split("-")[1])
        expected = plan.meta(index)
        wrong = [key for key in (*_PLAN_KEYS, "shard") if meta.get(key) != expected[key]]
        if wrong:
            raise ValueError(
                f"{str(path)!r} belongs to another data set ({wrong[0]} {meta.get(wrong[0])!r}, "
                f"this one {expected[wrong[0]]!r}); give another --out"
            )
        done.add(index)
    return done


def parse_board(text: str, first_click: str) -> GameSpec:
    """A preset name or ``ROWSxCOLS/MINES``.

    Raises:
        ValueError: neither (naming the text and what is allowed).
    """
    found = PRESETS.get(text.lower())
    if found is not None:
        return GameSpec(found.rows, found.cols, found.mines, FirstClick(first_click))
    try:
        specs = parse_boards(text, first_click)
    except ValueError as error:
        raise ValueError(f"--board: {error}; or one of {', '.join(PRESETS)}") from None
    if len(specs) != 1:
        raise ValueError(f"--board takes one board, got {len(specs)} ({text}): one data set each")
    return specs[0]


def check_shard_size(plan: ShardPlan) -> None:
    """Refuse (one line) a shard whose positions may not fit :data:`~train.limits.MEMORY_LIMIT`:
    at most one position per safe cell a game, ``POSITION_BYTES + 1`` bytes a cell each."""
    cells = plan.spec.rows * plan.spec.cols
    each = (cells - plan.spec.mines) * cells * (POSITION_BYTES + 1)
    if plan.games * each > MEMORY_LIMIT:
        raise ValueError(
            f"--games-per-shard {plan.games} needs about {plan.games * each / GIB:,.0f} GiB, "
            f"over the {MEMORY_LIMIT // GIB} GiB limit: at most {MEMORY_LIMIT // each:,}"
        )


def build_parser() -> OneLineParser:
    """The command line of ``python -m train.dataset``."""
    parser = OneLineParser(
        prog=PROG,
        description="Write seeded, resumable shards of solver play: each position's board, "
        "exact mine probabilities, true mines and the solver's move (see train/shards.py).",
    )
    parser.add_argument("--out", type=Path, required=True, help="folder of the shards")
    parser.add_argument("--board", default="beginner", help="a preset or ROWSxCOLS/MINES")
    parser.add_argument("--first-click", default="safe", choices=FirstClick.drawn())
    parser.add_argument("--shards", type=int, default=1, help="shards 0..N-1 (default 1)")
    parser.add_argument("--games-per-shard", type=int, default=100, help="default 100")
    parser.add_argument("--seed", type=int, default=0, help="the data set's seed (default 0)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Write the missing shards, printing each one's positions per second; returns the exit
    status (2 for bad input, before anything is written)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    parser.require_at_least(args, 1, "shards", "games_per_shard")
    parser.require_at_least(args, 0, "seed")
    try:
        plan = ShardPlan(parse_board(args.board, args.first_click), args.seed, args.games_per_shard)
        check_shard_size(plan)
        folder = check_output_folder(args.out, create=False)
        manifest = sound_shards(folder)
        done = complete_shards(folder, plan)
    except ValueError as error:
        return report_error(PROG, error)
    folder.mkdir(parents=True, exist_ok=True)
    if removed := remove_stale_temporaries(folder):
        print(f"removed what a killed run left: {', '.join(p.name for p in removed)}")
    total_positions, started = 0, time.perf_counter()
    try:
        for index in range(args.shards):
            name = SHARD_NAME.format(index)
            if index in done:
                print(f"{name}: complete, skipped", flush=True)
                continue
            tick = time.perf_counter()
            count = write_shard(folder, plan, index)
            manifest[name] = file_sha256(folder / name)
            write_text_atomic(folder / MANIFEST, json.dumps(manifest, indent=1))
            seconds = time.perf_counter() - tick
            total_positions += count
            print(
                f"{name}: {count:,} positions of {plan.games} games in {seconds:.1f} s "
                f"({count / seconds:,.0f} positions/s)",
                flush=True,
            )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; the complete shards are kept", file=sys.stderr)
        return INTERRUPTED
    seconds = time.perf_counter() - started
    if total_positions:
        print(
            f"wrote {total_positions:,} positions in {seconds:.1f} s "
            f"({total_positions / seconds:,.0f} positions/s) to {folder}"
        )
    return 0
