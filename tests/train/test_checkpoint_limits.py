"""Hostile checkpoints are refused from their zip directory and settings, before anything large
is read or built: one line through every loader, nothing created, and no run folder names a file
outside itself."""

from __future__ import annotations

import json
import pickle
import re
import struct
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from tiny_training import TINY_IMITATION

import agents
from eval.agent_specs import parse_agent_spec
from eval.cli import main as eval_main
from eval.gui.choices import build_agent
from train.checkpoint import SHIPPED_BEGINNER, read_model
from train.cli import main as train_main
from train.state import RunState, commit_state

CENTRAL = b"PK\x01\x02"
"""Signature of a zip's central directory record (the sizes ``zipfile`` reads)."""


def _rewrite(target: Path, entries: dict[str, bytes]) -> Path:
    """A copy of the shipped Beginner zip with ``entries`` replaced."""
    with zipfile.ZipFile(SHIPPED_BEGINNER) as old, zipfile.ZipFile(target, "w") as new:
        for name in old.namelist():
            new.writestr(name, entries.get(name, old.read(name)))
    return target


def _declaring(target: Path, member: str, size: int) -> Path:
    """A copy of the shipped zip whose directory declares ``member`` as ``size`` bytes: what a
    small deflated file of that size declares, built in a millisecond."""
    raw = bytearray(_rewrite(target, {}).read_bytes())
    at = raw.find(CENTRAL)
    while at >= 0:
        length = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46 : at + 46 + length] == member.encode():
            struct.pack_into("<I", raw, at + 24, size)
        at = raw.find(CENTRAL, at + 4)
    target.write_bytes(bytes(raw))
    return target


def _settings(target: Path, **extractor: int) -> Path:
    """A copy of the shipped zip whose settings ask for another network."""
    with zipfile.ZipFile(SHIPPED_BEGINNER) as archive:
        data = json.loads(archive.read("data"))
    data["policy_kwargs"]["features_extractor_kwargs"].update(extractor)
    return _rewrite(target, {"data": json.dumps(data).encode()})


HOSTILE: dict[str, tuple[Callable[[Path], Path], str]] = {
    "huge data": (
        lambda folder: _declaring(folder / "huge.zip", "data", 0xF000_0000),
        "its data declares 4,026,531,840 bytes, over 67,108,864",
    ),
    "huge weights": (
        lambda folder: _declaring(folder / "weights.zip", "policy.pth", 0xF000_0000),
        "declares policy.pth of 4,026,531,840 bytes, where a checkpoint of its kind holds",
    ),
    "20000 blocks": (
        lambda folder: _settings(folder / "blocks.zip", blocks=20_000),
        "network settings that cannot be built: channels must be in .1, 1024. and blocks in "
        ".0, 64., got 48, 20000",
    ),
    "plain pickle": (
        lambda folder: _rewrite(
            folder / "pickle.zip", {"policy.pth": pickle.dumps({"a": b"x" * 770_000})}
        ),
        "its weights hold objects other than tensors, which could run code",
    ),
}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    (tmp_path / "out").mkdir()
    return tmp_path / "out"


def _one_line(status: int, err: str, message: str) -> None:
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, err
    assert "error:" in lines[0] and re.search(message, lines[0]), lines[0]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_read_model__refuses_a_hostile_zip_in_one_line_without_warnings(
    hostile: str, tmp_path: Path
) -> None:
    build, message = HOSTILE[hostile]
    with warnings.catch_warnings(record=True) as seen, pytest.raises(ValueError, match=message):
        warnings.simplefilter("always")
        read_model(build(tmp_path))
    assert seen == []


@pytest.mark.parametrize("hostile", HOSTILE)
def test_loaders__refuse_a_hostile_zip_in_one_line(
    hostile: str, tmp_path: Path, out: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build, message = HOSTILE[hostile]
    path = build(tmp_path)
    for make in (agents.make, lambda text: build_agent(parse_agent_spec(text))):
        with pytest.raises(ValueError, match=message) as caught:
            make(f"ppo:{path}")
        assert "\n" not in str(caught.value)
    status = eval_main(["--agents", f"ppo:{path}", "--games", "2", "--out", str(out / "e")])
    _one_line(status, capsys.readouterr().err, message)
    status = train_main(["--rows", "5", "--cols", "5", "--mines", "3", "--init", str(path)])
    _one_line(status, capsys.readouterr().err, message)
    assert list(out.iterdir()) == []


def test_train_resume__refuses_a_run_whose_model_is_hostile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    _declaring(run / "model-1.zip", "data", 0xF000_0000)
    settings = replace(TINY_IMITATION, out=str(tmp_path))
    commit_state(run, RunState(name="run", settings=settings.to_dict(), model_file="model-1.zip"))
    before = sorted(p.name for p in run.iterdir())
    _one_line(train_main(["--resume", str(run)]), capsys.readouterr().err, "its data declares")
    assert sorted(p.name for p in run.iterdir()) == before


@pytest.mark.parametrize("named", ["/etc/passwd", "../../x.zip", "..", "sub/../../x.zip"])
def test_run_folder__naming_a_file_outside_it_is_refused(
    named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "a" / "run"
    run.mkdir(parents=True)
    _rewrite(tmp_path / "x.zip", {})
    state = RunState(name="run", settings=TINY_IMITATION.to_dict(), model_file=named)
    (run / "state.json").write_text(state.to_json())
    message = f"names '{named}', a file outside its run folder"
    with pytest.raises(ValueError, match=message):
        agents.make(f"ppo:{run}")
    _one_line(train_main(["--resume", str(run)]), capsys.readouterr().err, message)
    with pytest.raises(ValueError, match=message):  # nor is a file outside it ever deleted
        commit_state(run, RunState(name="run", settings={}))
    assert (tmp_path / "x.zip").is_file() and sorted(p.name for p in run.iterdir()) == [
        "state.json"
    ]
