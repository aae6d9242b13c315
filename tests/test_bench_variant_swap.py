"""benchmarks/bench_variant_swap.py: a variant's moves at our solver's guesses, valued as in
bench_hill_swap.py; its files, its resume and its bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_scripts import bad_input_lines, load_benchmark

from agents.solver.agent import SolverAgent, rule_first_click
from eval.settings import build_settings
from mswp_gym.env import MinesweeperEnv
from mswp_gym.spec import GameSpec

OLD = {"endgame_layouts": 200, "endgame_nodes": 20_000, "endgame_cells": 40}
"""The solver's endgame limits when the variants were measured (``bench.OLD_ENDGAME``)."""


def test_bench_variant_swap__bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["--variant", "extended", "--out", str(tmp_path / "s")]
    for flag, value, least in (
        ("--games", "0", 1),
        ("--start", "-1", 0),
        ("--layouts", "0", 1),
        ("--workers", "0", 1),
    ):
        (line,) = bad_input_lines("bench_variant_swap", [*base, flag, value], capsys)
        assert line == (
            f"bench_variant_swap.py: error: {flag} must be an integer >= {least}, got {value}"
        )
    (line,) = bad_input_lines(
        "bench_variant_swap", ["--variant", "bogus", "--out", str(tmp_path)], capsys
    )
    assert line == (
        "bench_variant_swap.py: error: --variant must be one of extended, extended-first, "
        "bigend, endgame:LAYOUTS:NODES:CELLS or rollout:CANDIDATES:LAYOUTS:MARGIN[:FROM], "
        "got 'bogus'"
    )
    for limits in ("endgame:0:100:60", "endgame:10:x:60", "endgame:-1:100:60"):
        (line,) = bad_input_lines(
            "bench_variant_swap", ["--variant", limits, "--out", str(tmp_path)], capsys
        )
        assert line == (
            f"bench_variant_swap.py: error: --variant {limits!r}: the endgame limits must be "
            "integers >= 1 (endgame:LAYOUTS:NODES:CELLS)"
        )
    (line,) = bad_input_lines(
        "bench_variant_swap", ["--variant", "endgame:10:100", "--out", str(tmp_path)], capsys
    )
    assert "got 'endgame:10:100'" in line
    (line,) = bad_input_lines(
        "bench_variant_swap", ["--variant", "rollout:1:96:0", "--out", str(tmp_path)], capsys
    )
    assert line.startswith("bench_variant_swap.py: error: --variant 'rollout:1:96:0': want ")


def test_bench_variant_swap__runs_resumes_and_refuses_another_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Expert games 0-29 of seed 0: the extended rule differs from the default at one guess (game
    # 13's sixth), a chain of eight cells along the top edge at even odds
    bench = load_benchmark("bench_variant_swap")
    out = tmp_path / "s"
    argv = ["--variant", "extended", "--games", "30", "--layouts", "4", "--out", str(out)]
    bench.main(argv)
    printed = capsys.readouterr().out
    header = (out / "positions.txt").read_text().splitlines()[0]
    assert header == (
        "# expert 16x30/99 safe seed 0 games 0-29 layouts 4 player endgame_cells=40:"
        "endgame_layouts=200:endgame_nodes=20000:extended=False"
    )
    assert "its cell differs at 1, of which 0 by a symmetry of the position only" in printed
    assert "all:     1 positions" in printed
    moves = dict(line.split() for line in (out / "moves.txt").read_text().splitlines())
    assert [key for key, cell in moves.items() if cell != "-1"] == ["13.5"]
    (row,) = (out / "swaps.csv").read_text().splitlines()[1:]
    assert row.startswith("13.5,13,") and ",0.5,extended,4,False," in row
    bench.main(argv)  # resumed: nothing left to ask or value, the same summary
    again = capsys.readouterr().out
    assert "0 positions to ask the variant (92 done before)" in again
    assert "0 positions to value (1 done before)" in again
    assert printed.splitlines()[-8:-1] == again.splitlines()[-8:-1]
    with pytest.raises(SystemExit) as stopped:
        bench.main([*argv[:-2], "--games", "31", "--out", str(out)])
    assert stopped.value.code == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"bench_variant_swap.py: error: {out} holds another run (")


@pytest.mark.parametrize(
    ("player", "message"),
    [
        ("logic", "--player 'logic': expected solver or solver:KEY=VALUE[:KEY=VALUE...]"),
        ("me=solver", "--player 'me=solver': expected solver or solver:KEY=VALUE[:KEY=VALUE...]"),
        ("solver:extended=1", "--player 'solver:extended=1': extended=1 must be True or False"),
        ("solver:depth=9", "--player 'solver:depth=9': depth=9 is not implemented; expected an"),
        ("solver:bogus=1", "--player 'solver:bogus=1': unknown option 'bogus'; allowed: depth,"),
    ],
)
def test_swap_benchmarks__a_bad_player_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, player: str, message: str
) -> None:
    argv = ["--variant", "extended", "--player", player, "--out", str(tmp_path / "s")]
    (line,) = bad_input_lines("bench_variant_swap", argv, capsys)
    assert line.startswith(f"bench_variant_swap.py: error: {message}")
    assert not (tmp_path / "s").exists()


def test_bench_variant_swap__the_default_player_already_takes_the_chains(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # with the default solver (which takes the chains; here with the endgame search of its day,
    # which leaves game 13's sixth guess to the chains) the extended rule's cell there is the
    # player's own: nothing differs; the header names the player's options
    bench = load_benchmark("bench_variant_swap")
    out = tmp_path / "s"
    first = ["--variant", "extended", "--games", "1", "--start", "13", "--layouts", "4"]
    player = "solver:" + ":".join(f"{key}={value}" for key, value in OLD.items())
    bench.main([*first, "--player", player, "--out", str(out)])
    assert "its cell differs at 0," in capsys.readouterr().out
    header, *lines = (out / "positions.txt").read_text().splitlines(keepends=True)
    assert header == (
        "# expert 16x30/99 safe seed 0 games 13-13 layouts 4 player endgame_cells=40:"
        "endgame_layouts=200:endgame_nodes=20000\n"
    )
    ours = {p.key: p.ours for p in load_benchmark("bench_hill_swap").read_positions("".join(lines))}
    moves = dict(line.split() for line in (out / "moves.txt").read_text().splitlines())
    assert moves["13.5"] != "-1" and int(moves["13.5"]) == ours["13.5"]


def test_bench_variant_swap__bigend_plays_where_only_the_larger_search_decides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Expert game 17 of seed 0: at its first three guesses the default's endgame search does not
    # decide (the player takes a forced pair, then looks ahead) and the 10x larger one does, at the
    # first two with another cell. Its cell is the one SolverAgent plays with the larger limits.
    bench = load_benchmark("bench_variant_swap")
    swap = load_benchmark("bench_hill_swap")
    out = tmp_path / "s"
    player = "solver:endgame_layouts=200:endgame_nodes=20000:endgame_cells=40"  # as measured
    argv = ["--variant", "bigend", "--player", player, "--start", "17", "--games", "1"]
    bench.main([*argv, "--layouts", "2", "--out", str(out)])
    assert "its cell differs at 2," in capsys.readouterr().out
    moves = dict(line.split() for line in (out / "moves.txt").read_text().splitlines())
    decided = {key: int(cell) for key, cell in moves.items() if cell != "-1"}
    assert sorted(decided) == sorted(moves) == ["17.0", "17.1", "17.2"]
    _, lines = (out / "positions.txt").read_text().split("\n", 1)
    positions = {p.key: p for p in swap.read_positions(lines)}
    (setting,) = build_settings(["expert"], None, None, None, None, "safe", False)
    spec = GameSpec(16, 30, 99, "safe")
    dealt = load_benchmark("bench_hill").deals(setting, rule_first_click(spec), 0, 18)
    deal = dealt[17]
    layouts, nodes, cells = bench.BIG_ENDGAME
    for key, cell in decided.items():
        env = MinesweeperEnv(layout=deal.layout, max_steps=None)
        env.reset(seed=deal.seed)
        for click in positions[key].clicks:
            env.step(click)
        default = SolverAgent(**OLD)
        big = SolverAgent(endgame_layouts=layouts, endgame_nodes=nodes, endgame_cells=cells)
        for agent in (default, big):
            agent.reset(deal.seed, spec)
        assert default.act(env.visible, env.action_masks()) == positions[key].ours
        assert default.explain().move.reason != "endgame"
        assert big.act(env.visible, env.action_masks()) == cell
        assert big.explain().move.reason == "endgame"
    assert [decided[key] != positions[key].ours for key in sorted(decided)] == [True, True, False]
    # the same limits given as numbers ask the same search, with the same answers
    numbers = tmp_path / "n"
    argv[1] = "endgame:{}:{}:{}".format(*bench.BIG_ENDGAME)
    bench.main([*argv, "--layouts", "2", "--out", str(numbers)])
    assert "its cell differs at 2," in capsys.readouterr().out
    assert (numbers / "moves.txt").read_text() == (out / "moves.txt").read_text()
    # where the default's own search decides (game 11's last two guesses) the variant is silent
    env = MinesweeperEnv(layout=dealt[11].layout, max_steps=None)
    env.reset(seed=dealt[11].seed)
    default = SolverAgent(**OLD)
    default.reset(dealt[11].seed, spec)
    endgames, terminated = 0, False
    while not terminated:
        move = default.act(env.visible, env.action_masks())
        if default.explain().move.reason == "endgame":
            old = bench.OLD_ENDGAME
            assert bench.larger_endgame_move(env.visible, env.action_masks(), spec, old) is None
            endgames += 1
        _, _, terminated, _, _ = env.step(move)
    assert endgames == 2
