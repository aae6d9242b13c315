"""Labelled shards: contents against the truth, seeding, resuming, bad input, the torch Dataset
and training a network on a saved data set."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch as th
from tiny_training import TINY_IMITATION, tweak
from torch.utils.data import DataLoader

from agents.beliefs import exact_beliefs
from mswp_gym.cells import neighbour_counts
from mswp_gym.constants import HIDDEN, is_revealed
from train.shards import ShardPlan, load_shards, main, parse_board, play_shard, read_shard
from train.torch_dataset import ShardDataset

TINY = ["--board", "5x5/3", "--games-per-shard", "3"]


def test_play_shard__labels_agree_with_the_truth_and_the_exact_engine() -> None:
    plan = ShardPlan(parse_board("6x6/5", "safe"), seed=4, games=4)
    positions, mines, games = play_shard(plan, 0)
    assert len(positions) == len(mines) == len(games) > 4
    assert np.array_equal(np.unique(games), np.arange(4))
    assert (np.diff(games) >= 0).all()  # a game's positions are consecutive
    for board, probability, layout, move, opening, hidden in zip(
        positions.boards,
        positions.mine_targets,
        mines,
        positions.move_cells,
        positions.open_targets,
        positions.mine_masks,
        strict=True,
    ):
        shown = is_revealed(board)
        assert np.array_equal(hidden, ~shown)
        assert np.array_equal(opening, ~layout & (neighbour_counts(layout) == 0))
        assert shown.any() and board.flat[move] == HIDDEN  # after the first click; a legal move
        assert (board[shown] == neighbour_counts(layout)[shown]).all()  # clues of the true mines
        assert layout.sum() == 5 and not layout[shown].any()
        assert np.array_equal(probability, exact_beliefs(board, 5))
        assert (probability[layout] > 0).all()  # no true mine was ever certainly safe


def test_dataset_cli__same_seed_same_shards_and_resume_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*TINY, "--out", str(tmp_path / "a"), "--shards", "2"]) == 0
    assert main([*TINY, "--out", str(tmp_path / "b"), "--shards", "1"]) == 0
    written = (tmp_path / "a" / "shard-00001.npz").stat().st_mtime_ns
    assert main([*TINY, "--out", str(tmp_path / "b"), "--shards", "2"]) == 0
    out = capsys.readouterr().out
    assert "shard-00000.npz: complete, skipped" in out and "positions/s" in out
    for index in (0, 1):
        a, b = (read_shard(tmp_path / run / f"shard-0000{index}.npz") for run in "ab")
        assert np.array_equal(a.positions.boards, b.positions.boards)
        assert np.array_equal(a.mines, b.mines) and np.array_equal(a.games, b.games)
        assert a.meta["shard"] == index
    assert (tmp_path / "a" / "shard-00001.npz").stat().st_mtime_ns == written
    first, second = (read_shard(tmp_path / "a" / f"shard-0000{i}.npz") for i in (0, 1))
    assert not np.array_equal(first.mines[0], second.mines[0])  # shards play other games


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--board", "9x9"], "--board: bad board '9x9'"),
        (["--shards", "0"], "--shards must be >= 1, got 0"),
        (["--games-per-shard", "-1"], "--games-per-shard must be >= 1, got -1"),
        (["--first-click", "corner"], "argument --first-click: invalid choice: 'corner'"),
        (["--seed", "1"], "belongs to another data set (seed 0, this one 1)"),
        (
            ["--shards", "2", "--corrupt"],
            "shard-00001.npz' is damaged (it fails its zip (File is not a zip file))",
        ),
        (["--zero"], "shard-00000.npz' is damaged (it fails the SHA-256 manifest.json lists)"),
        (["--zero", "--unlisted"], "shard-00000.npz' is damaged (it fails its zip (Error -3"),
        (["--board", "9x9/10,16x16/40"], "--board takes one board, got 2 (9x9/10,16x16/40)"),
        (["--games-per-shard", "1000000000000"], "needs about 6,146,729 GiB, over the 16 GiB"),
    ],
)
def test_dataset_cli__bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    folder = tmp_path / "shards"
    assert main([*TINY, "--out", str(folder)]) == 0
    if "--corrupt" in argv:
        argv.remove("--corrupt")
        (folder / "shard-00001.npz").write_bytes(b"not a zip")
    if "--zero" in argv:  # 400 zeroed bytes in its data, as a failing disk leaves them
        argv.remove("--zero")
        with open(folder / "shard-00000.npz", "r+b") as shard:
            shard.seek(200)
            shard.write(bytes(400))
    if "--unlisted" in argv:  # written before the manifest was, or by older code
        argv.remove("--unlisted")
        (folder / "manifest.json").unlink()
    before = sorted(folder.iterdir())
    capsys.readouterr()
    assert exit_status([*TINY, "--out", str(folder), *argv]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("python -m train.dataset: error: ") and message in line
    assert sorted(folder.iterdir()) == before


def exit_status(argv: list[str]) -> int | str | None:
    """``main(argv)``'s status, whether it returns it or the parser exits with it."""
    try:
        return main(argv)
    except SystemExit as stopped:
        return stopped.code


def test_shard_dataset__batches_every_position(tmp_path: Path) -> None:
    assert main([*TINY, "--out", str(tmp_path), "--shards", "2"]) == 0
    positions, meta = load_shards(tmp_path)
    dataset = ShardDataset(tmp_path)
    assert len(dataset) == len(positions) and meta["rows"] == 5
    batch = next(iter(DataLoader(dataset, batch_size=len(dataset))))
    assert batch.board.shape == (len(dataset), 5, 5) and batch.board.dtype == th.int8
    assert th.equal(batch.probabilities, th.from_numpy(positions.mine_targets))
    assert batch.mines.dtype == th.bool and (batch.mines.sum(dim=(1, 2)) == 3).all()
    assert th.equal(batch.hidden, th.from_numpy(positions.mine_masks))
    assert th.equal(batch.move, th.from_numpy(positions.move_cells).long())
    with pytest.raises(FileNotFoundError, match=r"no shard-NNNNN\.npz"):
        ShardDataset(tmp_path / "empty")


def test_train__imitation_on_a_saved_dataset(tmp_path: Path) -> None:
    from train.run import train
    from train.state import read_state

    assert main([*TINY, "--out", str(tmp_path / "data"), "--shards", "2"]) == 0
    settings = tweak(
        TINY_IMITATION,
        out=str(tmp_path / "runs"),
        imitation__dataset=str(tmp_path / "data"),
        imitation__move_weight=0.0,
    )
    state = read_state(train(settings.check()))
    assert state.iteration == 1 and state.positions_seen == 0
    assert state.gradient_samples == 2 * 16
    with pytest.raises(
        ValueError, match="holds positions of 5x5/3 first_click safe, the run is on 6x6/3"
    ):
        replace(settings, rows=6, cols=6).check()
    with pytest.raises(ValueError, match="needs algo imitation or imitation\\+ppo on one board"):
        tweak(settings, imitation__boards="5x5/3,4x4/2").check()


def test_dataset_module__runs_as_a_command_with_one_line_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "train.dataset", "--out", str(tmp_path / "x"), "--board", "9x9"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("python -m train.dataset: error: --board: bad board '9x9'")
    assert not (tmp_path / "x").exists()


def test_dataset_cli__refuses_before_creating_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "new" / "shards"
    assert exit_status(["--out", str(folder), "--games-per-shard", "1000000000000"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "over the 16 GiB limit: at most 248,940" in line
    assert not (tmp_path / "new").exists()


def test_dataset_cli__rerun_clears_a_killed_writers_temporaries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*TINY, "--out", str(tmp_path)]) == 0
    (tmp_path / "shard-00001.tmp-999999.npz").write_bytes(b"half a shard")
    assert main([*TINY, "--out", str(tmp_path), "--shards", "2"]) == 0
    assert "removed what a killed run left: shard-00001.tmp-999999.npz" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "manifest.json",
        "shard-00000.npz",
        "shard-00001.npz",
    ]


def test_dataset_cli__ctrl_c_is_one_line_status_130_and_keeps_the_shards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import train.shards

    play = train.shards.play_shard

    def interrupted_at_shard_1(plan: ShardPlan, index: int) -> object:
        if index == 1:
            raise KeyboardInterrupt
        return play(plan, index)

    monkeypatch.setattr(train.shards, "play_shard", interrupted_at_shard_1)
    assert main([*TINY, "--out", str(tmp_path), "--shards", "3"]) == 130
    assert capsys.readouterr().err.strip().splitlines() == [
        "python -m train.dataset: interrupted; the complete shards are kept"
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manifest.json", "shard-00000.npz"]
    monkeypatch.undo()
    assert main([*TINY, "--out", str(tmp_path), "--shards", "3"]) == 0
    assert "shard-00000.npz: complete, skipped" in capsys.readouterr().out


def test_damaged_shard__refused_by_train_and_shard_dataset_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from train.cli import main as train_main

    data, runs = tmp_path / "data", tmp_path / "runs"
    runs.mkdir()
    assert main([*TINY, "--out", str(data), "--shards", "2"]) == 0
    shard = data / "shard-00001.npz"
    shard.write_bytes(shard.read_bytes()[:-300])  # truncated
    capsys.readouterr()
    argv = ["--rows", "5", "--cols", "5", "--mines", "3", "--algo", "imitation"]
    assert train_main([*argv, "--imitation.dataset", str(data), "--out", str(runs)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert (
        line.startswith("mswp-train: error: ") and "shard-00001.npz' is damaged (it fails" in line
    )
    assert list(runs.iterdir()) == []
    with pytest.raises(ValueError, match=r"shard-00001\.npz' is not a readable imitation data set"):
        ShardDataset(data)
