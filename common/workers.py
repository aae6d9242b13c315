"""Worker processes and Ray for train and eval: Ctrl-C while workers start, stopping a pool, the
core count, and connecting to Ray (a local one started here dies with this process, through a
reaper; a cluster given by ``--ray-address`` is not ours to stop).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from common.lifetime import start_reaper

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
