"""benchmarks/bench_hill_path.py's Python side: Hill's traced games read back, his guess positions,
our games and moves there, the whole run with his drivers replaced, and its bad input (the Java
side needs a JDK and Hill's sources, which CI has not)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from agents.solver.agent import SolverAgent, rule_first_click
from eval.settings import build_settings
from mswp_gym.constants import HIDDEN
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

SPEC = GameSpec(9, 9, 10, "safe")


def test_read_trace__games_read_back_a_torn_line_dropped_a_bad_one_refused() -> None:
    bench = load_benchmark("bench_hill_path")
    text = "4 1 0:1:1.0:BOOK,10:0:0.8:PROBABILITY_ENGINE,11:1:1.0:LOCAL\n5 0 0:1:1.0:BO"
    (path,) = bench.read_trace(text).values()
    assert path.game == 4 and path.won
    assert path.steps[1] == bench.HillStep(10, False, 0.8, "PROBABILITY_ENGINE")
    assert [s.certain for s in path.steps] == [True, False, True]
    with pytest.raises(ValueError, match=r"trace\.txt line 2 is not 'game won cell:certain"):
        bench.read_trace("4 1 0:1:1.0:BOOK\n5 0 0:1\n6 0 0:1:1.0:BOOK\n")


def test_hill_path_guesses__each_guess_after_the_first_click_with_the_clicks_before_it() -> None:
    bench = load_benchmark("bench_hill_path")
    text = "7 0 0:0:0.9:BOOK,3:1:1.0:LOCAL,40:0:0.7:GUESS,41:1:1.0:LOCAL,50:0:0.6:GUESS\n"
    (path,) = bench.read_trace(text).values()
    guesses = list(path.guesses())
    # the first click is never a guess here, even when his solver calls it uncertain
    assert [(key, clicks, step.cell) for key, clicks, step in guesses] == [
        ("7.0", (0, 3), 40),
        ("7.1", (0, 3, 40, 41), 50),
    ]


def test_read_ours__lines_round_trip_none_written_as_a_dash() -> None:
    bench = load_benchmark("bench_hill_path")
    games = [
        bench.OurGame(3, True, {"3.0": bench.OurMove(12, False), "3.1": bench.OurMove(5, True)}),
        bench.OurGame(4, False, {}),
    ]
    text = "".join(bench.our_line(g) for g in games)
    assert text.splitlines()[1] == "4 0 -"
    assert bench.read_ours(text + "5 1 5.0:") == {3: games[0], 4: games[1]}
    with pytest.raises(ValueError, match=r"ours\.txt line 1 is not 'game won key:cell:certain"):
        bench.read_ours("3 1 3.0:12\n")


def _deals(bench: ModuleType, games: int, spec: GameSpec = SPEC) -> tuple[Any, list[Any]]:
    (setting,) = build_settings(["beginner"], None, None, None, None, spec.first_click, False)
    return setting, load_benchmark("bench_hill").deals(setting, rule_first_click(spec), 0, games)


def _our_trace(deal: Any, spec: GameSpec = SPEC) -> tuple[bool, list[tuple[int, bool]]]:
    """Our default solver's own game on ``deal``: whether it won and its moves with their
    certainty, as the fake Hill of these tests plays."""
    env = MinesweeperEnv(layout=deal.layout, max_steps=None)
    env.reset(seed=deal.seed)
    agent = SolverAgent()
    agent.reset(deal.seed, spec)
    moves = []
    terminated = False
    info: dict[str, object] = {}
    while not terminated:
        move = agent.act(env.visible, env.action_masks())
        moves.append((move, agent.last_move_certain))
        _, _, terminated, _, info = env.step(move)
    return bool(info["is_success"]), moves


def test_our_move__what_our_solver_plays_at_a_position_of_its_own_game() -> None:
    bench = load_benchmark("bench_hill_path")
    _, dealt = _deals(bench, 12)
    checked = 0
    for deal in dealt:
        _, moves = _our_trace(deal)
        for index in range(1, len(moves)):
            clicks = tuple(cell for cell, _ in moves[:index])
            move = bench.our_move(deal.layout, SPEC, deal.seed, clicks, ())
            if not moves[index][1]:  # a guess: the same cell (certain cells may come in any order)
                assert move == bench.OurMove(moves[index][0], False)
                checked += 1
            else:
                assert move.certain
    assert checked > 0


def _fake_hill(dealt: list[Any], swap_game: int | None, spec: GameSpec = SPEC) -> Any:
    """A fake ``java``: HillTrace plays our solver's own games (in game ``swap_game`` it leaves
    them at the first guess for another hidden cell, and stops there), HillMove answers his
    in-game move."""

    traces = {}
    for deal in dealt:
        won, moves = _our_trace(deal, spec)
        steps = [f"{cell}:{int(certain)}:0.5:GUESS" for cell, certain in moves]
        if deal.game == swap_game:
            first_guess = next(i for i, (_, certain) in enumerate(moves) if i > 0 and not certain)
            env = MinesweeperEnv(layout=deal.layout, max_steps=None)
            env.reset(seed=deal.seed)
            for cell, _ in moves[:first_guess]:
                env.step(cell)
            hidden = np.flatnonzero(env.visible.ravel() == HIDDEN).tolist()
            other = next(c for c in reversed(hidden) if c != moves[first_guess][0])
            steps = [*steps[:first_guess], f"{other}:0:0.5:GUESS"]
            won = False
        traces[deal.game] = f"{deal.game} {int(won)} {','.join(steps)}\n"

    def java(command: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        if "hillrun.HillTrace" in command:
            games = [int(line.split()[0]) for line in Path(command[-2]).read_text().splitlines()]
            Path(command[-1]).write_text("".join(traces[g] for g in games))
        else:
            assert "hillrun.HillMove" in command
            lines = []
            for line in Path(command[-2]).read_text().splitlines()[1:]:
                field = line.split()
                lines.append(f"{field[0]} {field[-1]} 0 0.5 GUESS\n")
            Path(command[-1]).write_text("".join(lines))
        return subprocess.CompletedProcess(command, 0)

    return java


def _without_jdk_checks(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    bench = load_benchmark("bench_hill_path")
    monkeypatch.setattr(bench, "check_inputs", lambda *_: None)
    monkeypatch.setattr(bench, "compile_driver", lambda *_: None)
    return bench


@pytest.mark.parametrize("rule", ["safe", "opening"])
def test_bench_hill_path__our_own_games_as_his_show_no_gap_and_no_differing_move(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    rule: str,
) -> None:
    bench = _without_jdk_checks(monkeypatch)
    spec = GameSpec(9, 9, 10, rule)
    _, dealt = _deals(bench, 6, spec)
    monkeypatch.setattr(subprocess, "run", _fake_hill(dealt, None, spec))
    out = tmp_path / "p"
    argv = ["--hill", str(tmp_path), "--preset", "beginner", "--first-click", rule]
    argv += ["--games", "6", "--out", str(out)]
    bench.main(argv)
    printed = capsys.readouterr().out
    assert f"beginner 9x9/10 {rule}" in (out / "run.txt").read_text()
    won = sum(_our_trace(d, spec)[0] for d in dealt)
    assert f"6 games: Hill's solver won {won}, ours {won} on the same boards (Hill +0;" in printed
    assert "won only by his 0, only by ours 0" in printed
    assert "our solver's move differs at 0 (0 where ours is certainly safe)" in printed
    assert "another as safe at 0, one of another safety at 0" in printed
    bench.main(argv)  # resumed: nothing left to do, the same summary
    assert f"Hill's solver won {won}, ours {won}" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        bench.main([*argv[:-4], "--games", "5", "--out", str(out)])
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"bench_hill_path.py: error: {out} holds another run (")


def test_bench_hill_path__a_move_of_his_that_differs_is_valued(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = _without_jdk_checks(monkeypatch)
    _, dealt = _deals(bench, 8)
    swap_game = next(
        d.game
        for d in dealt
        if any(i > 0 and not certain for i, (_, certain) in enumerate(_our_trace(d)[1]))
    )
    monkeypatch.setattr(subprocess, "run", _fake_hill(dealt, swap_game))
    out = tmp_path / "p"
    bench.main(
        [
            "--hill",
            str(tmp_path),
            "--preset",
            "beginner",
            "--games",
            "8",
            "--layouts",
            "4",
            "--out",
            str(out),
            "--by-rule",
        ]
    )
    printed = capsys.readouterr().out
    assert "our solver's move differs at 1 (0 where ours is certainly safe)" in printed
    valued = (out / "swaps.csv").read_text().splitlines()[1:]
    mirrored = (out / "mirrored.txt").read_text().split()
    assert [row.split(",")[0] for row in valued] + mirrored == [f"{swap_game}.0"]
    # --by-rule: our solver's rule at the valued position, as its own game named it
    (row,) = valued
    _, moves = _our_trace(dealt[swap_game])
    first_guess = next(i for i, (_, certain) in enumerate(moves) if i > 0 and not certain)
    agent = SolverAgent()
    agent.reset(dealt[swap_game].seed, SPEC)
    env = MinesweeperEnv(layout=dealt[swap_game].layout, max_steps=None)
    env.reset(seed=dealt[swap_game].seed)
    for cell, _ in moves[:first_guess]:
        env.step(cell)
    assert agent.act(env.visible, env.action_masks()) == moves[first_guess][0]
    rule = agent.explain().move.reason
    assert (out / "rules.txt").read_text() == f"{swap_game}.0 {rule}\n"
    assert "by the rule that chose our move (--by-rule), all positions:" in printed
    value = float(row.split(",")[-1]) - float(row.split(",")[-2])
    assert f"ours {rule}:     1 positions, Hill's moves win {value / 4:+.2f} games" in printed


def test_read_rules__a_torn_line_dropped_a_bad_one_refused() -> None:
    bench = load_benchmark("bench_hill_path")
    assert bench.read_rules("3.0 guess\n3.1 endgame\n4.0 for") == {"3.0": "guess", "3.1": "endgame"}
    with pytest.raises(ValueError, match=r"rules\.txt line 2 is not 'key rule': '3\.1 luck'"):
        bench.read_rules("3.0 guess\n3.1 luck\n")


def test_bench_hill_path__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--hill", str(tmp_path), "--out", str(tmp_path / "p")]
    (line,) = bad_input_lines("bench_hill_path", [*base, "--games", "0"], capsys)
    assert line == "bench_hill_path.py: error: --games must be an integer >= 1, got 0"
    (line,) = bad_input_lines("bench_hill_path", [*base, "--first-click", "any"], capsys)
    assert "--first-click: invalid choice: 'any' (choose from 'safe', 'opening')" in line
    (line,) = bad_input_lines("bench_hill_path", base, capsys)
    assert "this benchmark needs a JDK" in line or "is not a checkout of" in line


def test_bench_hill_path__a_java_failure_is_one_line_and_keeps_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = _without_jdk_checks(monkeypatch)
    monkeypatch.setattr(
        subprocess, "run", lambda command, check: subprocess.CompletedProcess(command, 1)
    )
    out = tmp_path / "p"
    with pytest.raises(SystemExit) as stopped:
        bench.main(
            ["--hill", str(tmp_path), "--preset", "beginner", "--games", "2", "--out", str(out)]
        )
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == (
        f"bench_hill_path.py: error: java stopped with status 1 (its message is above); the games "
        f"it played are kept in {out / 'trace.txt'}: run the same command again to go on"
    )


def test_fresh_line__counts_the_same_cell_an_equally_safe_one_and_another() -> None:
    bench = load_benchmark("bench_hill_path")
    text = "2 0 0:1:1.0:BOOK,10:0:0.8:GUESS,11:0:0.7:GUESS,12:0:0.6:GUESS\n"
    paths = bench.read_trace(text)
    fresh = {
        "2.0": bench.OtherMove("2.0", 10, False, 0.8, "GUESS"),  # the same cell
        "2.1": bench.OtherMove("2.1", 20, False, 0.7, "GUESS"),  # another, as safe
        "2.2": bench.OtherMove("2.2", 30, False, 0.9, "GUESS"),  # another, safer
    }
    assert bench.fresh_line(paths, fresh).endswith(
        "played in the game at 1, another as safe at 1, one of another safety at 1"
    )
