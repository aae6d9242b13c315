"""Imitation by DAgger: the learner plays, the expert labels, the network fits the labels.

Each round the network plays games whose labelled positions (:mod:`train.rollout`) fill a
buffer, then takes Adam steps on a masked per-cell binary cross-entropy, with random board
symmetries as augmentation.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import torch as th
from torch.nn import functional

from common.lifetime import die_with_parent
from common.workers import connect_ray, ignore_sigint, sigint_blocked, stop_pool
from mswp_gym.choices import parse_choice
from mswp_gym.spec import GameSpec
from train.dataset import ARRAYS, MOVE_NONE, PositionSet
from train.generalist import split_games
from train.network import MINE_HEAD, MOVE_HEAD, OPENING_HEAD, CellNet
from train.precision import Precision, autocast
from train.rollout import RolloutConfig, collect_positions
from train.settings import Backend, TrainSettings

_Result = TypeVar("_Result")


def _init_worker(parent: int) -> None:
    die_with_parent(parent)  # a killed run leaves no collectors behind
    ignore_sigint()  # Ctrl-C is the run's to handle: it stops the pool
    th.set_num_threads(1)


def _collect_job(
    net: CellNet | bytes, spec: GameSpec, games: int, seed: int, config: RolloutConfig
) -> tuple[PositionSet, dict[str, float]]:
    """:func:`collect_positions` with ``net`` given as itself or as :func:`pickle.dumps` bytes."""
    if isinstance(net, bytes):
        net = pickle.loads(net)
    assert isinstance(net, CellNet)
    return collect_positions(net, spec, games, np.random.default_rng(seed), config)


class Collector:
    """Runs :func:`collect_positions` split into ``workers`` jobs, on local processes or Ray.

    The jobs and their seeds depend only on ``rng`` and ``workers``, and results are joined in
    job order: the same seed gives the same positions on either backend.

    ``workers`` 1 runs in this process (local backend); ``ray_address`` None starts or reuses a
    local Ray.

    Raises:
        ValueError: an unknown backend.
        ImportError: ``ray`` asked for but not installed (with the install hint).
    """

    def __init__(
        self, workers: int, backend: str = "local", ray_address: str | None = None
    ) -> None:
        self.workers = workers
        self.backend = parse_choice(Backend, backend, "backend")
        self._pool: ProcessPoolExecutor | None = None
        self._remote: dict[Callable[..., Any], Any] = {}
        if backend == "ray":
            ray: Any = connect_ray(ray_address)
            self._ray = ray
            self._remote = {_collect_job: ray.remote(_collect_job)}
        elif workers > 1:
            self._pool = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(os.getpid(),),
            )

    def collect(
        self,
        net: CellNet,
        spec: GameSpec,
        games: int,
        rng: np.random.Generator,
        config: RolloutConfig,
    ) -> tuple[PositionSet, dict[str, float]]:
        """Play and label ``games`` games with ``net``, split over jobs seeded from ``rng``
        (stats summed)."""
        shares = split_games(games, self.workers)
        seeds = [int(s) for s in rng.integers(0, 2**63 - 1, size=self.workers)]
        # A tensor that multiprocessing pickles travels as a shared-memory file descriptor, whose
        # sharer thread prints a traceback when a worker dies mid-transfer: send plain bytes.
        sent: CellNet | bytes = net if self._pool is None else pickle.dumps(net)
        jobs = [(sent, spec, n, s, config) for n, s in zip(shares, seeds, strict=True) if n > 0]
        results = self._run(_collect_job, jobs)
        positions = PositionSet.concatenate([r[0] for r in results])
        stats = {key: sum(r[1][key] for r in results) for key in results[0][1]}
        return positions, stats

    def _run(self, job: Callable[..., _Result], jobs: list[tuple[Any, ...]]) -> list[_Result]:
        """``job`` on each argument tuple of ``jobs`` (Ray tasks, the process pool, or in this
        process), results in job order."""
        if self._remote:
            return list(self._ray.get([self._remote[job].remote(*args) for args in jobs]))
        if self._pool is None:
            return [job(*args) for args in jobs]
        with sigint_blocked():  # the workers start here
            futures = [self._pool.submit(job, *args) for args in jobs]
        return [future.result() for future in futures]

    def close(self) -> None:
        """Stop the worker processes now, idle or not (a Ray instance is left to its owner)."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def symmetries(square: bool) -> list[Callable[[th.Tensor], th.Tensor]]:
    """Board symmetries on ``(B, rows, cols)`` tensors: the 4 flips, then (``square``) the 4
    transposed flips. ``square`` False keeps a board's shape; True on a board that is not square
    gives transposed ``(B, cols, rows)`` views too, which a fully convolutional network plays as
    well (the whole minibatch takes the same view, so its boards keep one shape)."""
    flips: list[Callable[[th.Tensor], th.Tensor]] = [
        lambda x: x,
        lambda x: x.flip(1),
        lambda x: x.flip(2),
        lambda x: x.flip(1, 2),
    ]
    if not square:
        return flips
    return flips + [lambda x, f=f: f(x).transpose(1, 2) for f in flips]


def move_targets(positions: PositionSet, index: np.ndarray) -> np.ndarray:
    """The move-label distributions ``(B, rows, cols)`` float32 of ``positions[index]``.

    A labelled cell is one-hot; :data:`~train.dataset.MOVE_ANY_SAFE` spreads evenly over the
    certainly safe hidden cells (mine target 0); :data:`~train.dataset.MOVE_NONE` is all zero.
    """
    cells = positions.move_cells[index]
    mine_t = positions.mine_targets[index]
    targets = ((mine_t == 0.0) & positions.mine_masks[index]).astype(np.float32)
    targets[cells == MOVE_NONE] = 0.0
    chosen = np.flatnonzero(cells >= 0)
    flat = targets.reshape(len(index), -1)
    flat[chosen] = 0.0
    flat[chosen, cells[chosen]] = 1.0
    totals = flat.sum(axis=1, keepdims=True)
    normalised: np.ndarray = (flat / np.maximum(totals, 1.0)).reshape(targets.shape)
    return normalised


def move_cross_entropy(logits: th.Tensor, targets: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """Mean cross-entropy of the move distributions ``targets`` under the softmax of ``logits``
    over the cells where ``masks`` is True, over the positions that have a move label."""
    flat = logits.flatten(1).masked_fill(~masks.flatten(1), -1e9)
    log_p = functional.log_softmax(flat, dim=1)
    target = targets.flatten(1)
    labelled = target.sum(dim=1) > 0
    losses = -(target * log_p).sum(dim=1)
    return (losses * labelled).sum() / labelled.sum().clamp(min=1)


def guess_positions(positions: PositionSet) -> np.ndarray:
    """``(N,)`` bool: the positions where no hidden cell is certainly safe (mine target 0), so
    the player must guess."""
    certain = (positions.mine_targets == 0.0) & positions.mine_masks
    guessing: np.ndarray = ~certain.reshape(len(positions), -1).any(axis=1)
    return guessing


def masked_bce(logits: th.Tensor, targets: th.Tensor, masks: th.Tensor) -> th.Tensor:
    """Mean binary cross-entropy over the cells where ``masks`` is True."""
    losses = functional.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    weight = masks.to(losses.dtype)
    return (losses * weight).sum() / weight.sum().clamp(min=1.0)


@dataclass(frozen=True)
class BoardBuffer:
    """The training positions of one board, with the board's mine count (the density plane)."""

    mines: int
    positions: PositionSet


def train_steps(
    net: CellNet,
    optimizer: th.optim.Optimizer,
    buffers: PositionSet | list[BoardBuffer],
    steps: int,
    batch_size: int,
    rng: np.random.Generator,
    move_weight: float = 0.0,
    precision: Precision = Precision.FLOAT32,
) -> float:
    """``steps`` Adam steps on random minibatches; returns the mean loss.

    ``buffers``: one board's positions, or several boards' (each minibatch from one board,
    picked in proportion to its positions). ``move_weight``: of the move loss beside the mine
    and opening losses. ``precision``: of the forward pass (losses are float32).

    Raises:
        ValueError: ``move_weight`` > 0 for a network without a move head.
    """
    if move_weight > 0 and net.cell_head.out_channels <= MOVE_HEAD:
        raise ValueError("move_weight > 0 needs a network with a move head")
    net.train()
    device = next(net.parameters()).device
    if isinstance(buffers, PositionSet):
        buffers = [BoardBuffer(net.trunk.mines, buffers)]
    sizes = np.array([len(b.positions) for b in buffers], dtype=np.float64)
    total = 0.0
    for _ in range(steps):
        which = 0 if len(buffers) == 1 else int(rng.choice(len(buffers), p=sizes / sizes.sum()))
        buffer = buffers[which].positions
        index = rng.integers(0, len(buffer), size=batch_size)
        transforms = symmetries(buffer.boards.shape[1] == buffer.boards.shape[2])
        transform = transforms[int(rng.integers(len(transforms)))]
        arrays = [getattr(buffer, name)[index] for name in ARRAYS[:5]]
        if move_weight > 0:
            arrays.append(move_targets(buffer, index))
        tensors = [transform(th.as_tensor(array, device=device)) for array in arrays]
        boards, mine_t, mine_m, open_t, open_m = tensors[:5]
        with autocast(precision, device):
            logits = net(boards.to(th.float32), buffers[which].mines)
        logits = logits.float()
        loss = masked_bce(logits[:, MINE_HEAD], mine_t, mine_m) + masked_bce(
            logits[:, OPENING_HEAD], open_t, open_m
        )
        if move_weight > 0:
            loss = loss + move_weight * move_cross_entropy(logits[:, MOVE_HEAD], tensors[5], mine_m)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch's Tensor.backward has no annotations
        optimizer.step()
        total += loss.item()
    net.eval()
    return total / max(steps, 1)


def train_round(
    settings: TrainSettings,
    iteration: int,
    spent: float,
    net: CellNet,
    optimizer: th.optim.Optimizer,
    buffers: PositionSet | list[BoardBuffer],
    rng: np.random.Generator,
) -> float:
    """Round ``iteration``'s :func:`train_steps` with ``settings.rounds``, at its ``learning_rate``
    decayed linearly to 10% by whichever of the rounds and the budget (``spent``) is further
    along."""
    rounds = settings.rounds
    fraction = min(max((iteration - 1) / max(rounds.rounds - 1, 1), spent), 1.0)
    for group in optimizer.param_groups:
        group["lr"] = rounds.learning_rate * (1.0 - 0.9 * fraction)
    move_weight = settings.imitation.move_weight if settings.move_head else 0.0
    steps, batch = rounds.gradient_steps, rounds.batch_size
    return train_steps(net, optimizer, buffers, steps, batch, rng, move_weight, rounds.precision)
