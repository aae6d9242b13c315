"""The trunk's compute layout (train.network.COMPUTE_LAYOUT): faster, same values, same output."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

from mswp_gym.constants import HIDDEN
from train import network
from train.network import BoardTrunk


def test_layout__changes_no_value_and_returns_the_default_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    th.manual_seed(0)
    trunk = BoardTrunk(mines=12, channels=8, blocks=2)
    codes = np.random.default_rng(1).choice([HIDDEN, 0, 1, 2, 3], size=(3, 7, 11))
    boards = th.as_tensor(codes, dtype=th.float32)
    assert th.channels_last == network.COMPUTE_LAYOUT
    with th.no_grad():
        fast = trunk(boards)
        monkeypatch.setattr(network, "COMPUTE_LAYOUT", th.contiguous_format)
        plain = trunk(boards)
    assert fast.shape == (3, 8, 7, 11) and fast.is_contiguous()
    assert th.allclose(fast, plain, atol=1e-5, rtol=1e-5)
    assert fast.view(3, -1).shape == (3, 8 * 77)  # callers may view it without a copy


def test_layout__gradients_match_the_default_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    th.manual_seed(0)
    trunk = BoardTrunk(mines=12, channels=8, blocks=2)
    boards = th.as_tensor(
        np.random.default_rng(2).choice([HIDDEN, 0, 1, 2], size=(4, 6, 9)), dtype=th.float32
    )
    grads = []
    for layout in (th.channels_last, th.contiguous_format):
        monkeypatch.setattr(network, "COMPUTE_LAYOUT", layout)
        trunk.zero_grad()
        trunk(boards).pow(2).mean().backward()
        grads.append([p.grad.clone() for p in trunk.parameters() if p.grad is not None])
    assert len(grads[0]) == len(grads[1]) > 0
    assert all(th.allclose(a, b, atol=1e-5, rtol=1e-4) for a, b in zip(*grads, strict=True))
