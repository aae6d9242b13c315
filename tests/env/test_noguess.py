"""first_click="no-guess": every board is won with certain moves only, the same seed gives the same
board through every entry point, and the rule's limits and errors."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

import mswp_gym  # noqa: F401 - registers the ids
from mswp_gym import GameConfig, MinesweeperEnv
from mswp_gym.cells import region_around
from mswp_gym.deduction import solves
from mswp_gym.generators import NoGuessFirstClick, make_generator
from mswp_gym.vector import MinesweeperVectorEnv
from mswp_gym.vector.sb3_vec import MinesweeperSB3VecEnv

CLICK = 2 * 9 + 2  # (2, 2) on Beginner, the solver's first click under no-guess


@pytest.mark.parametrize(
    ("preset", "seeds"), [("beginner", 30), ("intermediate", 20), ("expert", 5)]
)
def test_no_guess__every_board_is_won_with_certain_moves_only(preset: str, seeds: int) -> None:
    env = MinesweeperEnv(preset=preset, first_click="no-guess")
    play_certain = load_benchmark("bench_noguess").play_certain
    assert [s for s in range(seeds) if not play_certain(env, s)] == []


@pytest.mark.parametrize("click", [(0, 0), (4, 4), (8, 3), (0, 8)])
def test_no_guess_generator__opens_a_zero_and_is_solvable_from_any_click(
    click: tuple[int, int],
) -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        layout = NoGuessFirstClick().layout(9, 9, 10, rng, click)
        assert layout.sum() == 10
        assert not any(layout[cell] for cell in region_around(click, 9, 9))
        assert solves(layout, click)


def _first_layout(env: gym.Env, seed: int, action: int = CLICK) -> np.ndarray:
    env.reset(seed=seed)
    env.step(action)
    return env.unwrapped._board.mines.copy()


def test_no_guess__same_seed_same_board_through_every_entry_point() -> None:
    single = MinesweeperEnv(preset="beginner", first_click="no-guess")
    expected = [_first_layout(single, s) for s in (5, 6, 7)]
    assert not np.array_equal(expected[0], expected[1])
    made = gym.make("Minesweeper-Beginner-v0", first_click="no-guess")
    assert np.array_equal(_first_layout(made, 5), expected[0])
    for placement in ("batched", "generator"):
        venv = MinesweeperVectorEnv(
            3, preset="beginner", first_click="no-guess", placement=placement
        )
        venv.reset(seed=5)
        venv.step(np.full(3, CLICK))
        assert venv.placement == "generator"
        for i in range(3):
            assert np.array_equal(venv.truth().mines[i], expected[i])
    sb3 = MinesweeperSB3VecEnv(3, preset="beginner", first_click="no-guess")
    sb3.seed(5)
    sb3.reset()
    sb3.step(np.full(3, CLICK))
    for i in range(3):
        assert np.array_equal(sb3.venv.truth().mines[i], expected[i])


def test_no_guess__accepted_by_the_config_and_eval() -> None:
    from eval.settings import Setting

    setting = Setting(9, 9, 10, "no-guess")
    assert isinstance(setting.game_config().generator, NoGuessFirstClick)
    assert GameConfig(preset="expert", first_click="no-guess").spec.first_click == "no-guess"


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (
            {"rows": 9, "cols": 9, "mines": 25},
            "at most 24 mines on 9x9; got mines=25 \\(density 0.31",
        ),
        ({"rows": 200, "cols": 200, "density": 0.5}, "at most 12000 mines on 200x200"),
        ({"rows": 1000, "cols": 1000, "density": 0.4}, "at most 300000 mines on 1000x1000"),
        ({"rows": 1, "cols": 30, "mines": 20}, "at least 3 rows and 3 cols .* on 1x30"),
        ({"rows": 2, "cols": 4, "mines": 1}, "at most 0 mines on 2x4"),
    ],
)
def test_no_guess__a_board_too_dense_or_thin_is_refused_when_built(
    board: dict[str, float], message: str
) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        GameConfig(first_click="no-guess", **board)  # type: ignore[arg-type]
    assert "\n" not in str(refused.value)
    assert GameConfig(9, 9, 24, first_click="no-guess").mines == 24


@pytest.mark.parametrize(
    "clues", [{"clue_reveal_prob": 0.9}, {"clue_noise": "optimistic"}, {"clue_noise": "cautious"}]
)
def test_no_guess__uncertain_clues_are_refused(clues: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="no-guess' promises a board solvable from exact clues"):
        MinesweeperEnv(preset="beginner", first_click="no-guess", **clues)  # type: ignore[arg-type]


def test_no_guess_generator__gives_up_with_a_clear_error_where_no_board_exists() -> None:
    # 2x4 with one mine, clicked in a corner: the mine always ends in a 50/50 of the far column.
    with pytest.raises(RuntimeError, match="no no-guess layout of 1 mines on 2x4"):
        make_generator("no-guess").layout(2, 4, 1, np.random.default_rng(0), (0, 0))


def test_no_guess_generator__gives_up_when_its_work_bound_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 30x30 at 0.45 fails for most seeds; a bound of 50 solves ends the search in the first draws.
    monkeypatch.setattr("mswp_gym.generators.NO_GUESS_WORK", 50 * 900)
    with pytest.raises(RuntimeError) as gave_up:
        NoGuessFirstClick().layout(30, 30, 405, np.random.default_rng(0), (15, 15))
    message = str(gave_up.value)
    assert message.startswith("no no-guess layout of 405 mines on 30x30") and "\n" not in message
    assert "45,000 cell-solves); use fewer mines" in message
    draws = int(message.split(" in ")[1].split()[0])
    assert draws < 50


@pytest.mark.parametrize("command", ["eval", "train"])
def test_cli__a_board_no_guess_cannot_deal_is_one_line_exit_2_nothing_created(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ["--first-click", "no-guess", "--rows", "1", "--cols", "30", "--mines", "20"]
    out = tmp_path / "run"
    if command == "eval":
        from eval.cli import main

        argv = ["--agents", "random", *board, "--games", "2", "--quiet", "--out", str(out)]
    else:
        pytest.importorskip("sb3_contrib")
        from train.cli import main

        argv = [*board, "--channels", "4", "--blocks", "1", "--out", str(out)]
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert "at most 0 mines on 1x30; got mines=20" in line
    assert list(tmp_path.iterdir()) == []


def test_bench_noguess__bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert bad_input_lines("bench_noguess", ["--parts", "proof,speed"], capsys) == [
        "bench_noguess.py: error: unknown part 'speed'; choose from proof, timing, bias, bbbv "
        "(see bench_noguess.py --help)"
    ]
    (line,) = bad_input_lines("bench_noguess", ["--proof-boards", "0"], capsys)
    assert "--proof-boards must be >= 1, got 0" in line


def test_bench_noguess__proof_and_bias_parts_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--parts", "proof,bias", "--presets", "beginner", "--proof-boards", "3"]
    load_benchmark("bench_noguess").main([*argv, "--bias-boards", "5"])
    proof, bias = capsys.readouterr().out.split("== bias ==")
    assert proof.splitlines()[-2].split() == ["beginner", "3", "0"]  # games, needing a guess
    assert [line.split()[1] for line in bias.strip().splitlines()[2:]] == [
        "safe",
        "opening",
        "no-guess",
    ]


def test_train__an_imitation_run_on_no_guess_boards_trains_on_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tiny_training import TINY_IMITATION

    from train import run as run_module
    from train.checkpoint import read_lineage

    boards = []
    layout = NoGuessFirstClick.layout

    def counted(self: NoGuessFirstClick, *args: object, **kwargs: object) -> np.ndarray:
        boards.append(1)
        return layout(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(NoGuessFirstClick, "layout", counted)
    settings = replace(TINY_IMITATION, first_click="no-guess", out=str(tmp_path)).check()
    run_dir = run_module.train(settings)
    assert (
        len(boards) >= settings.imitation.games_per_round
    )  # every training game was a no-guess board
    lineage = read_lineage(run_dir / "model-final.zip")
    assert lineage is not None and lineage["config"]["first_click"] == "no-guess"
    assert lineage["algorithm"] == "imitation" and lineage["parent_sha256"] is None
