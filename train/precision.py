"""The arithmetic of a training step's forward pass: float32, or bfloat16 autocast.

Under :attr:`Precision.BFLOAT16` convolutions and matrix products run in bfloat16
(``torch.autocast``); weights, Adam's state and losses stay float32. Play always runs in float32.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from enum import StrEnum

import torch as th


class Precision(StrEnum):
    """How a training step computes its forward pass."""

    FLOAT32 = "float32"
    """Everything in float32 (the runs before this option)."""
    BFLOAT16 = "bfloat16"
    """Convolutions and matrix products in bfloat16 (autocast); weights and losses in float32."""


def autocast(precision: Precision, device: th.device) -> AbstractContextManager[None]:
    """A context for the forward pass under ``precision`` on ``device`` (a no-op for float32)."""
    return th.autocast(
        device_type=device.type, dtype=th.bfloat16, enabled=precision == Precision.BFLOAT16
    )
