"""Where a network runs: the training device (``--device``) and a learned agent's (``device=``)."""

from __future__ import annotations

from enum import StrEnum

import torch as th


class Device(StrEnum):
    """Where torch runs a network."""

    AUTO = "auto"
    """A CUDA GPU when torch sees one, else the CPU."""
    CPU = "cpu"
    CUDA = "cuda"
    """A CUDA GPU; an error on a machine without one."""


DEVICES: tuple[str, ...] = tuple(device.value for device in Device)
"""Every allowed device name, for settings checks and messages."""


def resolve_device(device: Device | str) -> str:
    """``auto`` -> ``cuda`` when torch sees a GPU, else ``cpu``; ``cpu`` and ``cuda`` unchanged.

    Raises:
        ValueError: not one of :data:`DEVICES`, or ``cuda`` on a machine without a CUDA GPU (the
            message names the value and what is allowed).
    """
    try:
        chosen = Device(device)
    except ValueError:
        allowed = ", ".join(repr(name) for name in DEVICES)
        raise ValueError(f"device must be one of {allowed}, got {device!r}") from None
    if chosen == Device.AUTO:
        return Device.CUDA.value if th.cuda.is_available() else Device.CPU.value
    if chosen == Device.CUDA and not th.cuda.is_available():
        raise ValueError("device 'cuda' asked for, but torch sees no CUDA GPU; use auto or cpu")
    return chosen.value
