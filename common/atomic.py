"""Atomic file writes and output-folder checks: the one way train, eval and play write files.

Every file is written to a temporary name beside its target (``<stem>.tmp-<pid><suffix>``) and
moved into place with ``os.replace``; :func:`remove_stale_temporaries` deletes a killed writer's
leftovers. Append-only logs (``games.csv``, ``progress.csv``) are the exception: a reader drops a
torn last line.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np

TEMP_MARK = ".tmp"
"""Every temporary name holds this (``model.tmp-123.zip``, ``state.json.tmp``)."""


def temporary_path(path: Path) -> Path:
    """The temporary name used while ``path`` is being written (same folder, same suffix)."""
    return path.with_name(f"{path.stem}{TEMP_MARK}-{os.getpid()}{path.suffix}")


def _fsync(path: Path) -> None:
    try:
        with open(path, "rb") as handle:
            os.fsync(handle.fileno())
    except OSError:  # e.g. a file system without fsync: the rename is still atomic
        pass


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path to write ``path`` through, moved onto ``path`` if the block succeeds.

    Usage: ``with atomic_path(out / "plot.png") as tmp: fig.savefig(tmp)``. On an exception
    the temporary is deleted and ``path`` is untouched.
    """
    target = Path(path)
    temporary = temporary_path(target)
    try:
        yield temporary
        _fsync(temporary)
        os.replace(temporary, target)
    finally:
        if temporary.exists():
            temporary.unlink()


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_npz_atomic(path: str | Path, arrays: Mapping[str, np.ndarray], level: int) -> None:
    """Write ``arrays`` to ``path`` atomically as an ``.npz`` that ``numpy.load`` reads (one
    ``NAME.npy`` member per array, no pickles), each deflated at zlib ``level`` (1-9;
    ``numpy.savez_compressed`` has no level and uses zlib's default, 6)."""
    with (
        atomic_path(path) as temporary,
        zipfile.ZipFile(
            temporary, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level
        ) as archive,
    ):
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)


def remove_stale_temporaries(folder: str | Path) -> list[Path]:
    """Delete the temporaries a killed writer left in ``folder`` (not recursive); returns them."""
    removed = []
    for item in Path(folder).iterdir():
        if TEMP_MARK in item.name and item.is_file():
            item.unlink()
            removed.append(item)
    return removed


def check_output_folder(path: str | Path, what: str = "--out", *, create: bool = True) -> Path:
    """Make sure ``path`` is (or can be made) a writable folder, before any work starts.

    The folder is created if missing (with ``create=False``, nothing is created: its nearest
    existing parent must be a writable folder); nothing else is written.

    Raises:
        ValueError: one line naming ``what`` and the path: it is a file, cannot be created, or
            is not writable.
    """
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(
            f"{what} {str(folder)!r} is a file; give a folder (it is created if missing)"
        )
    if not create:
        parent = next(p for p in (folder, *folder.absolute().parents) if p.exists())
        if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
            kind = "a file" if not parent.is_dir() else "not writable"
            raise ValueError(
                f"{what} {str(folder)!r} cannot be made: {str(parent)!r} is {kind}; "
                f"give a writable folder"
            )
        return folder
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=f".probe{TEMP_MARK}"):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ValueError(
            f"{what} {str(folder)!r} cannot be written ({reason}); give a writable folder"
        ) from None
    return folder


def first_missing(path: str | Path) -> Path | None:
    """The outermost folder of ``path`` (``path`` itself included) that does not exist yet, which
    :func:`check_output_folder` would create; None when ``path`` exists."""
    missing = None
    for folder in (Path(path), *Path(path).parents):
        if folder.exists():
            break
        missing = folder
    return missing


def check_output_file(path: str | Path, what: str, suffixes: tuple[str, ...] = ()) -> Path:
    """Make sure a single output file can be written at ``path`` (its folder is created).

    Raises:
        ValueError: one line: a wrong suffix, ``path`` is a folder, or its folder is unwritable.
    """
    target = Path(path)
    if suffixes and target.suffix.lower() not in suffixes:
        raise ValueError(f"{what} {str(target)!r} must end in {' or '.join(suffixes)}")
    if target.is_dir():
        raise ValueError(f"{what} {str(target)!r} is a folder; give a file name")
    check_output_folder(target.parent if str(target.parent) else Path("."), what)
    return target
