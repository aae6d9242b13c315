"""benchmarks/bench_views.py: its view sets, its scoring, its output and its bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

bench_views = load_benchmark("bench_views")


def test_view_set__names_pick_the_documented_views() -> None:
    sizes = {name: len(bench_views.view_set(name)) for name in bench_views.VIEW_SETS}
    assert sizes == {"1": 1, "T": 1, "4": 4, "4T": 4, "8": 8}
    assert bench_views.view_set("T")[0].transpose
    assert not any(view.transpose for view in bench_views.view_set("4"))
    assert all(view.transpose for view in bench_views.view_set("4T"))


def test_view_keys__partner_sets_name_each_network() -> None:
    assert [source for source, _ in bench_views.view_keys("8")] == ["own"] * 8
    assert [source for source, _ in bench_views.view_keys("P8")] == ["partner"] * 8
    both = bench_views.view_keys("8+P8")
    assert both == bench_views.view_keys("8") + bench_views.view_keys("P8")


def test_cross_entropy__least_at_the_exact_probabilities() -> None:
    exact = np.array([0.2, 0.5, 0.9])
    at_truth = bench_views.cross_entropy(exact, np.log(exact / (1 - exact)))
    assert at_truth < bench_views.cross_entropy(exact, np.zeros(3))
    assert at_truth == pytest.approx(
        float(np.mean(-(exact * np.log(exact) + (1 - exact) * np.log(1 - exact))))
    )


def test_paired_interval__mean_difference_inside_its_interval() -> None:
    mean, low, high = bench_views.paired_interval([1.0, 2.0, 4.0], [0.0, 1.0, 2.0])
    assert mean == pytest.approx(4 / 3) and low < mean < high


def test_main__prints_every_view_set_on_beginner(capsys: pytest.CaptureFixture[str]) -> None:
    bench_views.main(["--checkpoint", "beginner", "--board", "beginner", "--games", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("beginner on 9x9/10, first click safe, 1 games")
    assert [line.split()[0] for line in lines[2:-1]] == list(bench_views.VIEW_SETS)
    assert lines[-1].startswith("the board's own view rates its move's P(mine) below 0.0001 on")


def test_main__partner_adds_its_sets(capsys: pytest.CaptureFixture[str]) -> None:
    bench_views.main(
        ["--checkpoint", "beginner", "--partner", "beginner", "--board", "beginner", "--games", "1"]
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("beginner (partner beginner) on 9x9/10")
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:-1]}
    assert list(rows) == [*bench_views.VIEW_SETS, *bench_views.PARTNER_SETS]
    # the same network as its own partner: its sixteen views average to its eight
    assert rows["P8"] == rows["8"] == rows["8+P8"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--board", "9x9"], "bad --board '9x9'"),
        (["--games", "0"], "--games must be >= 1, got 0"),
        (["--board", "3x3/9"], "3x3"),
        (["--checkpoint", "nothing-here.zip"], "nothing-here.zip"),
        (["--partner", "elsewhere.zip"], "elsewhere.zip"),
    ],
)
def test_main__bad_input_exits_2_naming_it(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_views.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--checkpoint", "--partner"])
def test_main__another_sb3_model_exits_2_naming_it(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    path = tmp_path / "mlp.zip"
    MaskablePPO("MlpPolicy", gym.make("Minesweeper-v0"), n_steps=16, batch_size=16).save(path)
    with pytest.raises(SystemExit) as exit_info:
        bench_views.main([option, str(path), "--board", "beginner"])
    assert exit_info.value.code == 2
    assert "mlp.zip is another SB3 model" in capsys.readouterr().err


def test_view_logits__each_view_mapped_back_like_averaged_logits() -> None:
    import torch as th

    from train.symmetry import averaged_logits, board_views

    class Net(th.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = th.nn.Conv2d(1, 2, 3, padding=1)

        def forward(self, board: th.Tensor, mines: int) -> th.Tensor:
            out: th.Tensor = self.conv(board.unsqueeze(1)) + mines
            return out

    th.manual_seed(0)
    forward = Net()
    board = th.randn(1, 3, 5)
    by_view = bench_views.view_logits(forward, board, 2)
    assert len(by_view) == 8
    for count in 1, 4, 8:
        views = board_views(count)
        mean = th.stack([by_view[view] for view in views]).mean(dim=0)
        assert th.allclose(mean, averaged_logits(forward, board, 2, views), atol=1e-6)
