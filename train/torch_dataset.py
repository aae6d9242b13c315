"""A PyTorch ``Dataset`` over the labelled shards of :mod:`train.shards`.

from torch.utils.data import DataLoader
loader = DataLoader(ShardDataset("data/expert"), batch_size=256, shuffle=True)
for sample in loader:  # a LabelledPosition of batched tensors
    logits = net(sample.board.float(), mines)
    loss = masked_bce(logits[:, MINE_HEAD], sample.probabilities, sample.hidden)
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import torch as th
from torch.utils.data import Dataset

from train.shards import read_shard, shard_paths


class LabelledPosition(NamedTuple):
    """One position's tensors (``DataLoader`` batches each field along a new first axis)."""

    board: th.Tensor  # (rows, cols) int8: the visible board
    probabilities: th.Tensor  # (rows, cols) float32: exact P(mine), 0 on revealed cells
    mines: th.Tensor  # (rows, cols) bool: the true layout
    hidden: th.Tensor  # (rows, cols) bool: the cells a mine loss is taken on
    move: th.Tensor  # () int64: the solver's move, a flat cell index


class ShardDataset(Dataset[LabelledPosition]):
    """Every position of a folder's shards, held in memory, in shard order.

    Args:
        folder: a folder written by ``python -m train.dataset``.

    Raises:
        FileNotFoundError: no shard in ``folder``.
        ValueError: an unreadable shard, or shards of different boards.
    """

    def __init__(self, folder: str | Path) -> None:
        paths = shard_paths(folder)
        if not paths:
            raise FileNotFoundError(f"no shard-NNNNN.npz in {str(folder)!r}")
        shards = [read_shard(path) for path in paths]
        shapes = {shard.mines.shape[1:] for shard in shards if len(shard.mines)}
        if len(shapes) > 1:
            raise ValueError(
                f"the shards of {str(folder)!r} hold boards of shapes {sorted(shapes)}"
            )
        self.boards = th.cat([th.from_numpy(s.positions.boards) for s in shards])
        self.probabilities = th.cat([th.from_numpy(s.positions.mine_targets) for s in shards])
        self.mines = th.cat([th.from_numpy(s.mines) for s in shards])
        self.hidden = th.cat([th.from_numpy(s.positions.mine_masks) for s in shards])
        self.moves = th.cat([th.from_numpy(s.positions.move_cells).long() for s in shards])

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    def __getitem__(self, index: int) -> LabelledPosition:
        return LabelledPosition(
            self.boards[index],
            self.probabilities[index],
            self.mines[index],
            self.hidden[index],
            self.moves[index],
        )
