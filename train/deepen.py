"""Deepening a trained network: a run with more residual blocks than its ``--init`` network.

The new blocks go after the old ones and start as the identity (their second convolution is
zero), so the deeper network plays exactly as the one it grew from until it trains: a way to add
depth and receptive field (4 cells per block) without starting over.
"""

from __future__ import annotations

import re

import torch as th
from torch import nn

BLOCK_KEY = re.compile(r"(?:^|\.)blocks\.(\d+)\.")
"""Where a residual block's index sits in a parameter name."""


def added_blocks(missing_keys: list[str], source: dict[str, th.Tensor]) -> list[str]:
    """The missing parameters that belong to residual blocks past the source's last one.

    A run with more ``blocks`` than its ``--init`` network appends blocks after the old ones;
    every other missing parameter is a shape mismatch.
    """
    have = {int(m.group(1)) for key in source if (m := BLOCK_KEY.search(key))}
    if not have:
        return []
    return [
        key
        for key in missing_keys
        if (m := BLOCK_KEY.search(key)) is not None and int(m.group(1)) > max(have)
    ]


def block_count(keys: list[str]) -> int:
    """How many distinct blocks the parameters ``keys`` belong to."""
    return len({int(m.group(1)) for key in keys if (m := BLOCK_KEY.search(key))})


def start_as_identity(policy: nn.Module, keys: list[str]) -> None:
    """Zero the second convolution of each new block named in ``keys``.

    A block computes ``relu(x + conv2(relu(conv1(x))))`` on ``x >= 0`` (a ReLU's output), so with
    ``conv2`` zero it returns ``x``: the deeper network plays exactly as the old one until it
    trains, and ``conv2``'s gradient is not zero, so the block does train.
    """
    params = policy.state_dict(keep_vars=True)
    with th.no_grad():
        for key in keys:
            if ".conv2." in key:
                params[key].zero_()
