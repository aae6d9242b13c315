"""Where games run: in this process, in a local process pool, or on a Ray cluster.

Every backend runs :func:`eval.games.play_chunk` on the same chunks (records depend only on
their seeds), and each finished chunk goes to ``sink`` at once. Workers die with their parent
(local pool workers, and a local Ray started here through a reaper); a cluster given by
``--ray-address`` is not ours to stop.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from common.lifetime import die_with_parent
from common.workers import connect_ray, ignore_sigint, sigint_blocked, stop_pool
from eval.games import Chunk, GameRecord, mark_pool_worker, play_chunk

BACKENDS: tuple[str, ...] = ("local", "ray")

Progress = Callable[[int], None]
"""Called with the number of games just finished."""
Sink = Callable[[list[GameRecord]], None]
"""Called with the records of each chunk as it finishes."""


def collect(
    records: list[GameRecord], done: list[GameRecord], progress: Progress | None, sink: Sink | None
) -> None:
    """Add a finished chunk's records ``done`` to ``records``, hand them to ``sink``, then count
    them in ``progress``."""
    records.extend(done)
    if sink is not None:
        sink(done)
    if progress is not None:
        progress(len(done))


def init_pool_worker(parent: int) -> None:
    """Pool initializer: die with ``parent``, leave Ctrl-C to it, share the cores politely."""
    die_with_parent(parent)
    ignore_sigint()
    mark_pool_worker()


def run_serial(
    chunks: Sequence[Chunk], progress: Progress | None = None, sink: Sink | None = None
) -> list[GameRecord]:
    """Play every chunk in this process, in order."""
    records: list[GameRecord] = []
    for chunk in chunks:
        collect(records, play_chunk(chunk), progress, sink)
    return records


def run_local(
    chunks: Sequence[Chunk],
    workers: int,
    progress: Progress | None = None,
    sink: Sink | None = None,
) -> list[GameRecord]:
    """Play the chunks over ``workers`` local processes (spawn start method); 1 means inline.

    Raises:
        ValueError: ``workers < 1``.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if workers == 1 or len(chunks) <= 1:
        return run_serial(chunks, progress, sink)
    records: list[GameRecord] = []
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(chunks)),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=init_pool_worker,
        initargs=(os.getpid(),),
    )
    try:
        with sigint_blocked():  # the workers start here
            futures = [pool.submit(play_chunk, chunk) for chunk in chunks]
        for future in as_completed(futures):
            collect(records, future.result(), progress, sink)
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
    return records


def run_ray(
    chunks: Sequence[Chunk],
    address: str | None = None,
    progress: Progress | None = None,
    sink: Sink | None = None,
) -> list[GameRecord]:
    """Play the chunks as Ray tasks, one task per chunk.

    ``address`` as :func:`connect_ray` takes it; workers must be able to import ``mswp_gym``,
    ``agents`` and ``eval``.

    Raises:
        ImportError: Ray is not installed.
    """
    ray: Any = connect_ray(address)
    remote_play = ray.remote(play_chunk)
    pending = [remote_play.remote(chunk) for chunk in chunks]
    records: list[GameRecord] = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            collect(records, ray.get(ref), progress, sink)
    return records


def run_chunks(
    chunks: Sequence[Chunk],
    backend: str = "local",
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
    sink: Sink | None = None,
) -> list[GameRecord]:
    """Play ``chunks`` on ``backend`` and return the records (in completion order).

    Raises:
        ValueError: an unknown backend or a bad worker count.
        ImportError: ``backend="ray"`` without Ray installed.
    """
    if backend == "local":
        return run_local(chunks, workers, progress, sink)
    if backend == "ray":
        return run_ray(chunks, ray_address, progress, sink)
    raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
