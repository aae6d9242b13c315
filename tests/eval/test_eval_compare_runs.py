"""``python -m eval.compare_runs``: agents of separate evaluations paired game by game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.cli import main as eval_main
from eval.compare_runs import (
    compare_settings,
    first_games,
    main,
    paired_records,
    read_saved_agents,
)
from eval.games import GameRecord
from eval.journal import GAMES, csv_text

SETTING = "beginner 9x9/10 safe"


def _record(agent: str, game: int, won: bool, seed: int | None = None) -> GameRecord:
    return GameRecord(
        setting=SETTING,
        agent=agent,
        game=game,
        seed=1000 + game if seed is None else seed,
        outcome="WON" if won else "LOST",
        won=won,
        moves=10,
        certain_moves=5,
        guesses=5,
        cells_revealed=1.0 if won else 0.5,
        mines=10,
        mines_exploded=0 if won else 1,
        mines_found=0,
        first_cell="0:0",
        board_hash="abc",
        wall_time=0.01,
        agent_time=0.005,
    )


def _folder(root: Path, name: str, records: list[GameRecord]) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / GAMES).write_text(csv_text(records))
    return folder


def _eval(folder: Path, agents: str, *options: str) -> None:
    argv = ["--agents", agents, "--preset", "beginner", "--games", "6", "--seed", "5", *options]
    assert eval_main([*argv, "--workers", "1", "--quiet", "--no-plots", "--out", str(folder)]) == 0


def test_compare_runs__agents_run_apart_pair_as_in_one_run(tmp_path: Path) -> None:
    _eval(tmp_path / "joint", "local,logic")
    _eval(tmp_path / "first", "local")
    _eval(tmp_path / "second", "logic")
    joint = json.loads((tmp_path / "joint" / "results.json").read_text())["comparisons"][0]
    apart = compare_settings(read_saved_agents([tmp_path / "first", tmp_path / "second"]))
    assert len(apart) == 1 and len(apart[0].comparisons) == 1
    comparison = apart[0].comparisons[0]
    assert (comparison.a, comparison.b) == ("local", "logic")
    assert comparison.wins.as_dict() == joint["wins"]
    assert comparison.same_board == joint["same_board"]


def test_compare_runs__pairs_only_the_games_both_played(tmp_path: Path) -> None:
    a = _folder(tmp_path, "a", [_record("a", g, won=True) for g in range(5)])
    b = _folder(tmp_path, "b", [_record("b", g, won=g % 2 == 0) for g in range(2, 9)])
    (item,) = compare_settings(read_saved_agents([a, b]))
    (comparison,) = item.comparisons
    assert comparison.wins.pairs == 3  # games 2, 3, 4
    assert (comparison.wins.a_only, comparison.wins.both) == (1, 2)
    first, second = item.agents
    assert sorted(first.games) == [0, 1, 2, 3, 4] and sorted(second.games) == list(range(2, 9))


def test_compare_runs__a_label_in_two_folders_is_named_by_folder(tmp_path: Path) -> None:
    a = _folder(tmp_path, "a", [_record("solver", g, won=True) for g in range(3)])
    b = _folder(tmp_path, "b", [_record("solver", g, won=False) for g in range(3)])
    labels = [agent.label for agent in read_saved_agents([a, b])]
    assert labels == ["a/solver", "b/solver"]
    (item,) = compare_settings(read_saved_agents([a, b]), ["b/solver", "a/solver"])
    assert [agent.label for agent in item.agents] == ["b/solver", "a/solver"]
    assert item.comparisons[0].wins.b_only == 3


def test_compare_runs__refuses_games_of_different_seeds(tmp_path: Path) -> None:
    a = _folder(tmp_path, "a", [_record("a", 0, won=True)])
    b = _folder(tmp_path, "b", [_record("b", 0, won=True, seed=7)])
    first, second = read_saved_agents([a, b])
    with pytest.raises(ValueError, match=r"game 0 .* different seeds \(1000 vs 7\)"):
        paired_records(first, second)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing"], "'missing' has no games.csv"),
        (["a", "--agents", "nobody"], "no agent 'nobody' in these folders"),
        (["a", "--agents", ","], "names no agent"),
        (["a", "b"], "different seeds"),
        (["a", "--games", "0"], "--games must be >= 1, got 0"),
    ],
)
def test_compare_runs__bad_input_is_one_line_and_status_2(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _folder(tmp_path, "a", [_record("a", 0, won=True)])
    _folder(tmp_path, "b", [_record("b", 0, won=True, seed=7)])
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("python -m eval.compare_runs: error:") and error.count("\n") == 1
    assert message in error


def test_compare_runs__prints_each_agent_and_the_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _folder(tmp_path, "a", [_record("a", g, won=True) for g in range(4)])
    b = _folder(tmp_path, "b", [_record("b", g, won=g == 0) for g in range(4)])
    assert main([str(a), str(b)]) == 0
    printed = capsys.readouterr().out
    assert f"== {SETTING}" in printed and "a vs b" in printed
    assert "100.0%" in printed and "25.0%" in printed


def test_compare_runs__games_keeps_the_first_games_for_every_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a run stopped at 3 games while its other worker had played games 4 and 6 already
    a = _folder(tmp_path, "a", [_record("a", g, won=True) for g in (0, 1, 2, 4, 6)])
    b = _folder(tmp_path, "b", [_record("b", g, won=g == 0) for g in range(8)])
    first, second = first_games(read_saved_agents([a, b]), 3)
    assert sorted(first.games) == sorted(second.games) == [0, 1, 2]
    assert main([str(a), str(b), "--games", "3"]) == 0
    printed = capsys.readouterr().out
    assert "33.3%" in printed  # b won 1 of its first 3, not 1 of 8
    assert "12.5%" not in printed
    assert first_games(read_saved_agents([a]), 10)[0].games.keys() == {0, 1, 2, 4, 6}
