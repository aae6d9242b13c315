"""Where games run: in this process, in a local process pool, or on a Ray cluster.

Every backend runs :func:`eval.games.play_chunk` on the same chunks; records depend only on
their seeds, so the backend and the worker count never change a figure (timings aside). Each
finished chunk goes to ``sink`` at once (``eval`` appends it to ``games.csv``), so a kill loses at
most the chunks in flight.

Workers die with their parent: local pool workers call :func:`mswp_gym.lifetime.die_with_parent`
and ignore Ctrl-C (the parent stops them). Ray's task workers die with its raylet, but a local
instance's dashboard and runtime-env agents outlived a ``kill -9`` of the driver, so a local Ray
started here gets a watchdog (:func:`mswp_gym.lifetime.start_reaper`) that kills what is left.
A cluster given by ``--ray-address`` is not ours to stop: its tasks run to their end.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from eval.games import Chunk, GameRecord, mark_pool_worker, play_chunk
from mswp_gym.lifetime import die_with_parent, start_reaper

BACKENDS: tuple[str, ...] = ("local", "ray")

Progress = Callable[[int], None]
"""Called with the number of games just finished."""
Sink = Callable[[list[GameRecord]], None]
"""Called with the records of each chunk as it finishes."""


def _finished(done: list[GameRecord], progress: Progress | None, sink: Sink | None) -> None:
    if sink is not None:
        sink(done)
    if progress is not None:
        progress(len(done))


def init_pool_worker(parent: int) -> None:
    """Pool initializer: die with ``parent``, leave Ctrl-C to it, share the cores politely."""
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    mark_pool_worker()


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (Ctrl-C, or an error)."""
    processes = list((pool._processes or {}).values())  # no public handle on the workers
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def default_workers() -> int:
    """One worker per CPU core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_serial(
    chunks: Sequence[Chunk], progress: Progress | None = None, sink: Sink | None = None
) -> list[GameRecord]:
    """Play every chunk in this process, in order."""
    records: list[GameRecord] = []
    for chunk in chunks:
        done = play_chunk(chunk)
        records.extend(done)
        _finished(done, progress, sink)
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
        futures = [pool.submit(play_chunk, chunk) for chunk in chunks]
        for future in as_completed(futures):
            done = future.result()
            records.extend(done)
            _finished(done, progress, sink)
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown()
    return records


def import_ray() -> object:
    """The ``ray`` module.

    Raises:
        ImportError: with an install hint, if Ray is not installed.
    """
    try:
        import ray
    except ImportError as exc:
        raise ImportError(
            "--backend ray needs Ray, which is not installed: pip install -e '.[ray]' "
            f"(or pip install 'ray>=2.9') ({exc})"
        ) from exc
    return ray


def run_ray(
    chunks: Sequence[Chunk],
    address: str | None = None,
    progress: Progress | None = None,
    sink: Sink | None = None,
) -> list[GameRecord]:
    """Play the chunks as Ray tasks, one task per chunk.

    Connects to ``address`` (e.g. ``"auto"`` for a running cluster); with None, starts or reuses a
    local Ray instance. Workers must be able to import ``mswp_gym``, ``agents`` and ``eval``
    (install the package on every node, or pass a ``runtime_env`` when starting Ray yourself).

    Raises:
        ImportError: Ray is not installed.
    """
    ray = import_ray()
    if not ray.is_initialized():  # type: ignore[attr-defined]
        if address is None:  # a local instance: some of its agents outlive a killed driver
            start_reaper()
        ray.init(address=address, include_dashboard=False, log_to_driver=False)  # type: ignore[attr-defined]
    remote_play = ray.remote(play_chunk)  # type: ignore[attr-defined]
    pending = [remote_play.remote(chunk) for chunk in chunks]
    records: list[GameRecord] = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)  # type: ignore[attr-defined]
        for ref in ready:
            done = ray.get(ref)  # type: ignore[attr-defined]
            records.extend(done)
            _finished(done, progress, sink)
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
