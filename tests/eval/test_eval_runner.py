"""The evaluation runner: same seeds for every agent, results independent of how games run."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from eval import runner
from eval.agent_specs import AgentSpec, parse_agent_list, parse_agent_spec
from eval.backends import run_local, run_serial
from eval.config import EvalConfig, game_seeds
from eval.games import GameRecord
from eval.knowledge import trace_knowledge
from eval.settings import Setting, build_settings
from eval.summary import summarise_run


def _config(agents: str = "random,local,logic", games: int = 6, workers: int = 1) -> EvalConfig:
    settings = build_settings(["beginner"], None, None, None, None, "safe", False)
    return EvalConfig(
        agents=tuple(parse_agent_list(agents)),
        settings=tuple(settings),
        games=games,
        workers=workers,
    )


def test_parse_agent_spec__shorthands_kwargs_and_paths() -> None:
    assert parse_agent_spec("logic:global") == AgentSpec(
        "logic:global", "logic", (("guess", "global"),)
    )
    assert parse_agent_spec("solver:0").kwargs == {"depth": 0}
    assert parse_agent_spec("solver:depth=1:endgame_layouts=0").kwargs == {
        "depth": 1,
        "endgame_layouts": 0,
    }
    assert parse_agent_spec("ppo:runs/a:b.zip").make_name == "ppo:runs/a:b.zip"
    assert parse_agent_spec("random").make_name == "random"


def test_parse_agent_spec__path_agents_take_trailing_options() -> None:
    spec = parse_agent_spec("ppo:runs/a:b.zip:symmetries=4:first_move=network")
    assert spec.make_name == "ppo:runs/a:b.zip"
    assert spec.kwargs == {"symmetries": 4, "first_move": "network"}
    assert spec.label == "ppo:runs/a:b.zip:symmetries=4:first_move=network"
    labelled = parse_agent_spec("s8=ppo:beginner:symmetries=8")
    assert (labelled.label, labelled.make_name, labelled.kwargs) == (
        "s8",
        "ppo:beginner",
        {"symmetries": 8},
    )
    # options only: the agent's default checkpoint
    assert parse_agent_spec("ppo:symmetries=2").make_name == "ppo"


@pytest.mark.parametrize(
    "text", ["", "random,random", ":x", "local:fast", "logic:guess=", "logic:=x"]
)
def test_parse_agent_list__rejects_bad_specs(text: str) -> None:
    with pytest.raises(ValueError):
        parse_agent_list(text)


def test_game_seeds__prefix_stable_and_distinct() -> None:
    seeds = game_seeds(3, 50)
    assert game_seeds(3, 10) == seeds[:10]
    assert len(set(seeds)) == 50
    assert game_seeds(4, 10) != seeds[:10]


def test_make_chunks__every_agent_gets_the_same_seeds() -> None:
    config = _config(games=7)
    chunks = runner.make_chunks(config, chunk_size=3)
    by_agent: dict[str, list[int]] = {}
    for chunk in chunks:
        assert len(chunk.seeds) <= 3
        by_agent.setdefault(chunk.agent.label, []).extend(chunk.seeds)
    assert all(seeds == game_seeds(0, 7) for seeds in by_agent.values())


def test_run__results_do_not_depend_on_chunking_or_workers() -> None:
    config = _config(games=8)
    serial = run_serial(runner.make_chunks(config, chunk_size=8))
    chunked = run_serial(runner.make_chunks(config, chunk_size=3))
    parallel = run_local(runner.make_chunks(config, chunk_size=2), workers=2)

    def as_rows(records: list[GameRecord]) -> list[tuple[Any, ...]]:
        return [r.without_timing() for r in sorted(records, key=lambda r: (r.agent, r.game))]

    assert as_rows(serial) == as_rows(chunked) == as_rows(parallel)


def test_run__records_sorted_and_complete() -> None:
    config = _config(games=5, workers=1)
    result = runner.run(config)
    assert [(r.agent, r.game) for r in result.records] == [
        (agent, game) for agent in ("random", "local", "logic") for game in range(5)
    ]
    for record in result.records:
        assert record.moves == record.certain_moves + record.guesses
        assert 0.0 <= record.cells_revealed <= 1.0
        assert record.won == (record.outcome == "WON")
        assert record.won == (record.cells_revealed == 1.0)


def test_run__coupled_boards_are_shared_across_agents() -> None:
    """random, local and logic open with the same seeded draw, so they meet identical boards."""
    result = runner.run(_config(games=10, workers=1))
    hashes = {
        agent: [r.board_hash for r in result.records if r.agent == agent]
        for agent in ("random", "local", "logic")
    }
    assert hashes["random"] == hashes["local"] == hashes["logic"]
    summary = summarise_run(result)
    assert all(c.same_board == 10 for c in summary.comparisons)


def test_run__pairing_board_shares_more_boards_than_env_rule() -> None:
    """The solver opens in a corner, the logic agent at random: coupled, their boards agree."""

    def same(pairing: str) -> int:
        settings = build_settings(["beginner"], None, None, None, None, "safe", False, pairing)
        config = EvalConfig(
            agents=tuple(parse_agent_list("logic,solver:0")),
            settings=tuple(settings),
            games=20,
            workers=1,
        )
        return summarise_run(runner.run(config)).comparisons[0].same_board

    assert same("board") >= 10 > same("seed")


def test_summarise_run__counts_wins_and_compares_pairs() -> None:
    result = runner.run(_config(games=12, workers=1))
    summary = summarise_run(result)
    assert [(s.agent, s.games) for s in summary.agents] == [
        ("random", 12),
        ("local", 12),
        ("logic", 12),
    ]
    for s in summary.agents:
        wins = sum(r.won for r in result.records if r.agent == s.agent)
        assert s.wins == wins
        assert s.win_rate.low <= s.win_rate.estimate <= s.win_rate.high
    assert [(c.a, c.b) for c in summary.comparisons] == [
        ("random", "local"),
        ("random", "logic"),
        ("local", "logic"),
    ]
    for c in summary.comparisons:
        assert c.wins.pairs == 12


def test_validate__unknown_agent_fails_before_any_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_chunks", no_games)
    with pytest.raises(runner.EvalSetupError, match="nosuchagent"):
        runner.run(_config("logic,nosuchagent"))
    with pytest.raises(runner.EvalSetupError, match="bogus"):
        runner.run(_config("logic:bogus"))
    with pytest.raises(runner.EvalSetupError, match="solver:abc"):
        runner.run(_config("solver:abc"))


def test_check_agent_plays__rejects_impossible_board() -> None:
    with pytest.raises(runner.EvalSetupError, match="mines=81"):
        runner.check_agent_plays(parse_agent_spec("random"), Setting(9, 9, 81))


def test_trace_knowledge__one_step_per_move_with_sentences() -> None:
    setting = build_settings(["beginner"], None, None, None, None, "safe", False)[0]
    trace = trace_knowledge(parse_agent_spec("logic"), setting, seed=5)
    assert trace.steps and all(step.sentences is not None for step in trace.steps)
    assert [s.move for s in trace.steps] == list(range(1, len(trace.steps) + 1))
    assert not trace.steps[0].certain  # the logic agent's first move is a guess
    revealed = np.array([s.revealed for s in trace.steps])
    assert (np.diff(revealed) >= 0).all()
