"""The imitation data set: visited positions and their per-cell targets, cached as ``.npz``.

On-disk format (an ``.npz`` that ``numpy.load`` reads, deflated at :data:`COMPRESS_LEVEL`),
``N`` positions of a ``rows x cols`` board:

================== ===================== =======================================================
key                dtype, shape          meaning
================== ===================== =======================================================
``boards``         int8 (N, rows, cols)  the visible board (codes of :mod:`mswp_gym.constants`)
``mine_targets``   float32 (N, rows, cols) P(mine) per cell: the solver's exact probability, or
                                         the true layout (0/1) when labelled by truth
``mine_masks``     bool (N, rows, cols)  cells the mine loss is taken on (the hidden cells)
``open_targets``   float32 (N, rows, cols) 1 where the cell is safe with clue 0 (truth)
``open_masks``     bool (N, rows, cols)  cells the opening loss is taken on
``move_cells``     int32 (N,)            the expert's move (move labels): a flat cell index, or
                                         :data:`MOVE_ANY_SAFE` (any certainly safe cell: the
                                         hidden cells whose mine target is 0), or
                                         :data:`MOVE_NONE` (no move label)
``meta``           str (JSON)            rows, cols, mines, first_click, labels, format version
================== ===================== =======================================================
"""

from __future__ import annotations

import json
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from common.atomic import write_npz_atomic

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
COMPRESS_LEVEL = 1
"""zlib level of the saved arrays: several times faster to write than
``numpy.savez_compressed``'s level 6, for somewhat larger files."""
ARRAYS = ("boards", "mine_targets", "mine_masks", "open_targets", "open_masks", "move_cells")
"""The arrays of a :class:`PositionSet`, in field order."""
UNREADABLE = (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error)
"""What reading a damaged ``.npz`` raises."""
MOVE_ANY_SAFE = -1
"""``move_cells`` value: the expert plays any certainly safe cell (every one is as good)."""
MOVE_NONE = -2
"""``move_cells`` value: the position has no move label."""


def no_moves(count: int) -> np.ndarray:
    """``move_cells`` for ``count`` positions without move labels."""
    return np.full(count, MOVE_NONE, np.int32)


@dataclass
class PositionSet:
    """A batch of labelled positions (see the module docstring for each array)."""

    boards: np.ndarray  # (N, rows, cols) int8
    mine_targets: np.ndarray  # (N, rows, cols) float32
    mine_masks: np.ndarray  # (N, rows, cols) bool
    open_targets: np.ndarray  # (N, rows, cols) float32
    open_masks: np.ndarray  # (N, rows, cols) bool
    move_cells: np.ndarray  # (N,) int32

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    @classmethod
    def empty(cls, rows: int, cols: int) -> PositionSet:
        """A set with no positions."""
        shape = (0, rows, cols)
        return cls(
            np.zeros(shape, np.int8),
            np.zeros(shape, np.float32),
            np.zeros(shape, bool),
            np.zeros(shape, np.float32),
            np.zeros(shape, bool),
            no_moves(0),
        )

    @classmethod
    def concatenate(cls, parts: list[PositionSet]) -> PositionSet:
        """All positions of ``parts`` in order (``parts`` must not be empty)."""
        if not parts:
            raise ValueError("concatenate needs at least one PositionSet")
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in ARRAYS))

    def tail(self, limit: int) -> PositionSet:
        """The last ``limit`` positions (all of them if there are fewer)."""
        start = max(len(self) - limit, 0)
        return PositionSet(*(getattr(self, name)[start:] for name in ARRAYS))


def save_positions(
    path: str | Path,
    positions: PositionSet,
    meta: dict[str, object],
    extra: dict[str, np.ndarray] | None = None,
) -> None:
    """Write ``positions`` to ``path`` atomically (:func:`common.atomic.write_npz_atomic`);
    ``extra`` arrays are stored beside them under their own keys (:func:`load_positions` skips
    them; the labelled shards of :mod:`train.shards` keep the true mines there)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    full_meta = {"format_version": FORMAT_VERSION, **meta}
    arrays = {**(extra or {}), **{name: getattr(positions, name) for name in ARRAYS}}
    arrays["meta"] = np.asarray(json.dumps(full_meta))
    write_npz_atomic(path, arrays, COMPRESS_LEVEL)


def load_positions(path: str | Path) -> tuple[PositionSet, dict[str, object]]:
    """Read a data set written by :func:`save_positions`.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: the file is not a data set of this format (the message names the path).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no imitation data set at {str(path)!r}")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {name: data[name] for name in ARRAYS if name in data.files}
    except (KeyError, *UNREADABLE) as exc:
        raise ValueError(f"{str(path)!r} is not a readable imitation data set: {exc}") from None
    version = meta.get("format_version")
    if version not in READABLE_VERSIONS:
        raise ValueError(
            f"{str(path)!r} has format {version!r}, expected one of "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    if version == 1:
        arrays["move_cells"] = no_moves(len(arrays["boards"]))
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise ValueError(f"{str(path)!r} is not a readable imitation data set: no {missing[0]!r}")
    return PositionSet(**arrays), meta
