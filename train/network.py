"""The fully-convolutional board network: visible board in, per-cell mine and opening logits out.

One network serves imitation and PPO (its per-cell scores are the action logits). The codes are
one-hot planes (:func:`board_planes`) plus a density and an "on the board" plane; every layer is a
convolution, so the weights run on any board, with the mine count given per call.
"""

from __future__ import annotations

import torch as th
from torch import nn

from mswp_gym.constants import EXPLODED, FLAGGED, HIDDEN
from mswp_gym.encoding import CHANNEL_CODES
from train.limits import MAX_BLOCKS, MAX_CHANNELS

N_INPUT_PLANES = len(CHANNEL_CODES) + 2
"""One-hot code planes, the mine-density plane and the on-board plane."""
COMPUTE_LAYOUT = th.channels_last
"""Memory layout the trunk's convolutions run in (faster on CPU); the trunk returns features in
the default layout."""
MINE_HEAD, OPENING_HEAD, MOVE_HEAD = 0, 1, 2
"""Output channels of :class:`CellNet`: P(mine) and P(safe with clue 0) logits, and (networks with
a move head only) the logit of each cell being the expert's move."""


def board_planes(board: th.Tensor, mines: int | th.Tensor) -> th.Tensor:
    """Encode ``(B, rows, cols)`` board codes as ``(B, N_INPUT_PLANES, rows, cols)`` float32.

    ``mines``: an int or a ``(B,)`` tensor. The density plane holds ``(mines - exploded) /
    unknown cells`` (flagged cells count as unknown).
    """
    codes = board.round().to(th.int64) if board.is_floating_point() else board.to(th.int64)
    reference = th.as_tensor(CHANNEL_CODES, dtype=th.int64, device=codes.device).view(1, -1, 1, 1)
    onehot = (codes.unsqueeze(1) == reference).to(th.float32)
    unknown = ((codes == HIDDEN) | (codes == FLAGGED)).sum(dim=(1, 2)).to(th.float32)
    exploded = (codes == EXPLODED).sum(dim=(1, 2)).to(th.float32)
    total = th.as_tensor(mines, dtype=th.float32, device=codes.device)
    density = ((total - exploded) / unknown.clamp(min=1.0)).clamp(0.0, 1.0)
    density_plane = density.view(-1, 1, 1, 1).expand(-1, 1, *codes.shape[1:])
    ones = th.ones_like(density_plane)
    return th.cat((onehot, density_plane, ones), dim=1)


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: th.Tensor) -> th.Tensor:
        """``(B, C, H, W) -> (B, C, H, W)``."""
        return th.relu(x + self.conv2(th.relu(self.conv1(x))))


class BoardTrunk(nn.Module):
    """Board codes -> per-cell features ``(B, channels, rows, cols)``.

    ``blocks``: residual blocks (receptive field 5 + 4 per block).

    Raises:
        ValueError: ``channels`` or ``blocks`` outside the trainer's limits
            (:mod:`train.limits`), checked before anything is built.
    """

    def __init__(self, mines: int, channels: int = 64, blocks: int = 4) -> None:
        super().__init__()
        if not (1 <= channels <= MAX_CHANNELS and 0 <= blocks <= MAX_BLOCKS):
            raise ValueError(
                f"channels must be in [1, {MAX_CHANNELS}] and blocks in [0, {MAX_BLOCKS}], "
                f"got {channels}, {blocks}"
            )
        self.mines = int(mines)
        self.stem = nn.Conv2d(N_INPUT_PLANES, channels, 5, padding=2)
        self.blocks = nn.Sequential(*(ResidualBlock(channels) for _ in range(blocks)))

    def forward(self, board: th.Tensor, mines: int | th.Tensor | None = None) -> th.Tensor:
        """``(B, rows, cols)`` codes -> ``(B, channels, rows, cols)`` features.

        ``mines`` (an int or a ``(B,)`` tensor) overrides the stored mine count.
        """
        count = self.mines if mines is None else mines
        planes = board_planes(board, count).contiguous(memory_format=COMPUTE_LAYOUT)
        features: th.Tensor = self.blocks(th.relu(self.stem(planes)))
        return features.contiguous()


def safety_scores(cell_logits: th.Tensor, opening_weight: float) -> th.Tensor:
    """Per-cell action scores ``(B, rows*cols)`` from ``(B, 2, rows, cols)`` cell logits.

    ``log P(safe) + opening_weight * P(opening)``: the safest cell wins, and among equally safe
    cells the one likeliest to be a zero (which opens a region) wins. This is the policy's
    action logit before the temperature.
    """
    log_safe = nn.functional.logsigmoid(-cell_logits[:, MINE_HEAD])
    opening = th.sigmoid(cell_logits[:, OPENING_HEAD])
    return (log_safe + opening_weight * opening).flatten(1)


def action_scores(cell_logits: th.Tensor, opening_weight: float) -> th.Tensor:
    """The per-cell action scores ``(B, rows*cols)`` a network plays by (the policy's action logits
    before the temperature; the caller masks illegal cells).

    A network with a move head plays its move logits (it imitates the expert's moves, guesses
    included); one without plays :func:`safety_scores`.
    """
    if int(cell_logits.shape[1]) > MOVE_HEAD:  # the logits carry the move channel
        return cell_logits[:, MOVE_HEAD].flatten(1)
    return safety_scores(cell_logits, opening_weight)


class CellNet(nn.Module):
    """Trunk + per-cell head: ``(B, rows, cols)`` codes -> ``(B, 2, rows, cols)`` logits.

    The policy holds these two parts in SB3's slots; imitation and collection use them joined.
    """

    def __init__(self, trunk: BoardTrunk, cell_head: nn.Conv2d) -> None:
        super().__init__()
        self.trunk = trunk
        self.cell_head = cell_head

    def forward(self, board: th.Tensor, mines: int | th.Tensor | None = None) -> th.Tensor:
        """``(B, rows, cols)`` codes -> ``(B, 2, rows, cols)`` mine/opening logits.

        ``mines`` overrides the trunk's stored mine count (see :meth:`BoardTrunk.forward`).
        """
        logits: th.Tensor = self.cell_head(self.trunk(board, mines))
        return logits
