"""Every file the project writes goes through :mod:`common.atomic` (a temporary moved into
place), so a kill never leaves a half-written result: a scan of the source for direct writes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mswp_gym", "agents", "common", "train", "eval", "benchmarks")
DIRECT_WRITE = re.compile(
    r"open\([^)]*[\"'](w|wb|x)[\"']"
    r"|\.savefig\("
    r"|np\.save(z|z_compressed)?\("
    r"|\.write_(text|bytes)\("
    r"|(torch|th)\.save\("
)
# The atomic helpers themselves. (The games journal appends complete lines, mode "a", to a file it
# first makes whole: eval/journal.py cuts a torn last line on resume.)
ALLOWED = {"common/atomic.py"}


def direct_writes(path: Path, root: Path = ROOT) -> list[str]:
    """Lines of ``path`` (named relative to ``root``) that write a file other than through a
    temporary of ``atomic_path``."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        code = line.split("#", 1)[0]
        call = code + (lines[number] if number < len(lines) else "")  # arguments may wrap
        if DIRECT_WRITE.search(code) and "temporary" not in call:
            found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_direct_writes__the_scan_finds_one(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        'with open("out.json", "w") as handle:\n    pass\n'
        "with atomic_path(out) as temporary:\n    figure.savefig(\n        temporary)\n",
        encoding="utf-8",
    )
    assert direct_writes(sample, tmp_path) == ['sample.py:1: with open("out.json", "w") as handle:']


def test_source__writes_files_only_through_atomic_helpers() -> None:
    found = [
        hit
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in ALLOWED
        for hit in direct_writes(path)
    ]
    assert found == []


def test_write_npz_atomic__numpy_loads_it_and_a_failed_write_leaves_nothing(tmp_path: Path) -> None:
    import numpy as np
    import pytest

    from common.atomic import write_npz_atomic

    arrays = {"boards": np.arange(24, dtype=np.int8).reshape(2, 3, 4), "meta": np.asarray("{}")}
    target = tmp_path / "set.npz"
    write_npz_atomic(target, arrays, 1)
    with np.load(target, allow_pickle=False) as loaded:
        assert sorted(loaded.files) == ["boards", "meta"]
        assert np.array_equal(loaded["boards"], arrays["boards"]) and str(loaded["meta"]) == "{}"
    with pytest.raises(ValueError):  # an object array cannot be written without pickles
        write_npz_atomic(tmp_path / "bad.npz", {"x": np.array([None], dtype=object)}, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set.npz"]
