"""``train.soup``: the weighted mean of networks' weights, written as one checkpoint."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch as th

from agents import make
from mswp_gym.constants import HIDDEN
from mswp_gym.spec import GameSpec
from train.agent import checkpoint_path
from train.checkpoint import load_model
from train.soup import Ingredient, average_weights, check_ingredients, main, make_soup


def _weights(source: str | Path) -> dict[str, th.Tensor]:
    return dict(load_model(checkpoint_path(str(source))).policy.state_dict())


def test_soup__is_the_weighted_mean_of_every_weight(tmp_path: Path) -> None:
    out = make_soup([Ingredient("expert", 3.0), Ingredient("generalist", 1.0)], tmp_path / "s.zip")
    soup, expert, generalist = _weights(out), _weights("expert"), _weights("generalist")
    assert soup.keys() == expert.keys()
    moved = 0
    for key, tensor in soup.items():
        expected = 0.75 * expert[key].double() + 0.25 * generalist[key].double()
        assert th.allclose(tensor.double(), expected, atol=1e-6), key
        moved += not th.equal(tensor, expert[key])
    assert moved > len(soup) // 2  # the two networks differ, so the soup is neither of them


def test_soup__of_a_network_with_itself_plays_as_it_does(tmp_path: Path) -> None:
    out = make_soup([Ingredient("expert", 1.0), Ingredient("expert", 2.0)], tmp_path / "s.zip")
    spec = GameSpec(16, 30, 99)
    board = np.full((spec.rows, spec.cols), HIDDEN, np.int8)
    board[0, :4] = (0, 1, 2, 1)
    board[1, :3] = (1, 2, 3)
    legal = (board == HIDDEN).ravel()
    moves = []
    for name in ("ppo:expert", f"ppo:{out}"):
        agent = make(name)
        agent.reset(0, spec)
        moves.append(int(agent.act(board, legal)))
        risk = agent.explain().risk
        assert risk is not None
        moves.append(float(risk[board == HIDDEN].sum()))
    assert moves[0] == moves[2]
    assert moves[1] == pytest.approx(moves[3], abs=1e-5)


def test_soup__refuses_networks_of_two_architectures(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="are different networks: tensor"):
        make_soup([Ingredient("expert", 1.0), Ingredient("beginner", 1.0)], tmp_path / "s.zip")
    assert not (tmp_path / "s.zip").exists()


def test_average_weights__keeps_equal_integer_tensors_and_refuses_unequal_ones() -> None:
    first = {"w": th.tensor([1.0, 2.0]), "n": th.tensor([3])}
    second = {"w": th.tensor([3.0, 6.0]), "n": th.tensor([3])}
    mean = average_weights([first, second], [1.0, 1.0], ["a", "b"])
    assert th.equal(mean["w"], th.tensor([2.0, 4.0]))
    assert th.equal(mean["n"], th.tensor([3]))
    with pytest.raises(ValueError, match="'b' and 'a' differ in tensor 'n'"):
        average_weights([first, {**second, "n": th.tensor([4])}], [1.0, 1.0], ["a", "b"])
    with pytest.raises(ValueError, match=r"sum to more than 0, got \[0.0, 0.0\]"):
        average_weights([first, second], [0.0, 0.0], ["a", "b"])


@pytest.mark.parametrize(
    ("ingredients", "message"),
    [
        ([Ingredient("expert", 1.0)], "at least two checkpoints to average, got 1"),
        ([Ingredient("expert", -1.0), Ingredient("generalist", 1.0)], "weight -1.0 of 'expert'"),
        ([Ingredient("expert", float("nan")), Ingredient("generalist", 1.0)], "weight nan"),
        ([Ingredient("expert", 0.0), Ingredient("generalist", 0.0)], "the weights sum to 0"),
    ],
)
def test_check_ingredients__names_the_bad_value(
    ingredients: list[Ingredient], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        check_ingredients(ingredients)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["expert"], "at least two checkpoints"),
        (["expert", "generalist", "--weights", "1"], "--weights has 1 values for 2 checkpoints"),
        (["expert", "generalist", "--weights", "1,x"], "--weights must be numbers"),
        (["expert", "no_such.zip"], "no checkpoint at 'no_such.zip'"),
        (["expert", "beginner"], "are different networks"),
    ],
)
def test_soup_cli__bad_input_is_one_line_and_exit_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.zip"
    assert main([*args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    ("out", "message"), [(".", "is a folder"), ("missing/s.zip", "no folder 'missing'")]
)
def test_soup_cli__refuses_an_out_it_cannot_write(
    out: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["expert", "generalist", "--out", out]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "missing").exists()


def test_soup_cli__writes_the_soup_and_prints_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.zip"
    assert main(["expert", "generalist", "--weights", "1,1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    soup, expert, generalist = _weights(out), _weights("expert"), _weights("generalist")
    key = next(iter(soup))
    assert th.allclose(soup[key].double(), (expert[key].double() + generalist[key].double()) / 2)
