"""Where games run: in this process, in a local process pool, or on a Ray cluster.

Every backend runs :func:`eval.games.play_chunk` on the same chunks (records depend only on
their seeds), and each finished chunk goes to ``sink`` at once. Workers die with their parent
(local pool workers, and a local Ray started here through a reaper); a cluster given by
``--ray-address`` is not ours to stop.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

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


RAY_CONNECT_SECONDS = 5.0
"""How long to wait for a Ray cluster given by ``--ray-address`` to answer."""
WORKER_DIED = (
    "a worker process died (killed by a signal, e.g. by the out-of-memory killer: "
    "fewer workers need less memory)"
)
"""What a ``BrokenProcessPool`` means here: our workers never exit on their own."""


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Hold Ctrl-C back while worker processes start (they inherit the block); this process gets
    it when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ignore_sigint() -> None:
    """In a worker: ignore Ctrl-C (the parent stops the workers), dropping one held back by
    :func:`sigint_blocked`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def init_pool_worker(parent: int) -> None:
    """Pool initializer: die with ``parent``, leave Ctrl-C to it, share the cores politely."""
    die_with_parent(parent)
    ignore_sigint()
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
        with sigint_blocked():  # the workers start here
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


def check_ray_address(address: str, timeout: float = RAY_CONNECT_SECONDS) -> None:
    """Refuse a ``HOST:PORT`` (or ``ray://HOST:PORT``) address where nothing answers within
    ``timeout`` seconds; other forms (``auto``) are left to Ray.

    Raises:
        ValueError: one line naming the address and why.
    """
    host, colon, port = address.split("://", 1)[-1].rpartition(":")
    if not colon or not port.isdigit():
        return
    failure: list[str] = []

    def probe() -> None:  # a thread: name lookups ignore socket timeouts
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout).close()
        except (OSError, OverflowError) as exc:
            failure.append(getattr(exc, "strerror", None) or str(exc) or type(exc).__name__)
        else:
            failure.append("")

    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout)
    reason = failure[0] if failure else f"no answer within {timeout:g} s"
    if reason:
        raise ValueError(
            f"cannot reach a Ray cluster at --ray-address {address!r} ({reason}); start one "
            f"there (ray start --head) or give its address"
        )


def connect_ray(address: str | None) -> object:
    """The ``ray`` module, connected to ``address`` (checked first), or to a local instance
    started (or reused) here.

    Raises:
        ImportError: Ray is not installed.
        ValueError: the cluster cannot be reached (one line naming the address).
    """
    ray: Any = import_ray()
    if ray.is_initialized():
        return ray
    if address is None:
        start_reaper()
    else:
        check_ray_address(address)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, TimeoutError, RuntimeError) as exc:
        raise ValueError(
            f"cannot connect to the Ray cluster at --ray-address {address!r} ({exc})"
        ) from None
    return ray


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
            done = ray.get(ref)
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
