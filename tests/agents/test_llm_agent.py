"""The ``llm:`` agent against a fake OpenAI-compatible endpoint on 127.0.0.1: through text it
wins exactly the solver's games when the endpoint answers the solver's moves, loses without a
crash on garbage, plays the same games at any number in flight, and reruns from its cache."""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from pathlib import Path

import pytest
from chat_server import chat_server, garbage, solver_policy

import agents
from agents.llm import EndpointError
from eval.agent_specs import AgentSpec, parse_agent_spec
from eval.cli import main
from eval.config import EvalConfig
from eval.games import GameRecord
from eval.llm import usage_rows
from eval.runner import run
from eval.settings import build_settings

BEGINNER = tuple(build_settings(None, None, None, None, None, "safe", False, "board"))


def llm_spec(url: str, cache: Path, **options: object) -> AgentSpec:
    spec = parse_agent_spec("llm:fake")
    settings = {"url": url, "cache": str(cache), "backoff": 0, **options}
    return replace(spec, options=tuple(sorted(settings.items())))


def play(specs: list[AgentSpec], games: int, in_flight: int = 4) -> list[GameRecord]:
    config = EvalConfig(tuple(specs), BEGINNER, games=games, workers=1, llm_in_flight=in_flight)
    return list(run(config).records)


def of(records: list[GameRecord], agent: str) -> list[GameRecord]:
    return [r for r in records if r.agent == agent]


def test_llm_agent__solver_replies_win_the_solvers_games(tmp_path: Path) -> None:
    with chat_server(solver_policy(), limit=5000) as server:
        records = play([AgentSpec("solver", "solver"), llm_spec(server.url, tmp_path)], 40)
    solver, text = of(records, "solver"), of(records, "llm:fake")
    assert [r.won for r in text] == [r.won for r in solver]
    assert 0 < sum(r.won for r in text) < 40
    assert [r.moves for r in text] == [r.moves for r in solver]
    assert all(r.invalid_replies == 0 and r.replies == r.moves for r in text)
    assert all(r.tokens == 105 * r.replies for r in text)


def test_llm_agent__garbage_replies_are_invalid_and_lose(tmp_path: Path) -> None:
    with chat_server(garbage, limit=200) as server:
        records = play([llm_spec(server.url, tmp_path, max_invalid=2)], 10)
    assert [(r.won, r.outcome, r.moves, r.replies, r.invalid_replies) for r in records] == [
        (False, "LOST", 0, 2, 2)
    ] * 10
    (row,) = usage_rows(records)
    assert row["invalid_replies"]["estimate"] == 1.0


def test_llm_agent__in_flight_changes_no_figure_and_a_rerun_costs_no_request(
    tmp_path: Path,
) -> None:
    with chat_server(solver_policy(), limit=5000) as server:
        one = play([llm_spec(server.url, tmp_path / "a")], 24, in_flight=1)
        many = play([llm_spec(server.url, tmp_path / "b")], 24, in_flight=16)
        asked = server.requests
        again = play([llm_spec(server.url, tmp_path / "b")], 24, in_flight=16)
        assert server.requests == asked
    assert [r.without_timing() for r in one] == [r.without_timing() for r in many]
    assert [r.without_timing() for r in again] == [r.without_timing() for r in many]
    assert [r.llm_seconds for r in again] == [r.llm_seconds for r in many]


def test_llm_agent__retries_an_overloaded_endpoint_then_fails_in_one_line(
    tmp_path: Path,
) -> None:
    with chat_server(solver_policy(), failures=2) as server:
        agent = agents.make("llm:fake", url=server.url, cache="none", retries=2, backoff=0)
        agent.reset(1, None)
        board = __import__("numpy").full((4, 4), -1, dtype="int8")
        assert agent.act(board, (board == -1).ravel()) in range(16)
        assert server.requests == 3
    with chat_server(garbage, failures=100) as server:
        agent = agents.make("llm:fake", url=server.url, cache="none", retries=1, backoff=0)
        with pytest.raises(EndpointError, match=r"after 2 tries.*503"):
            agent.act(board, (board == -1).ravel())


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_llm_cli__an_endpoint_that_does_not_answer_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    out = tmp_path / "out"
    argv = ["--agents", "llm:m:retries=0", "--llm-url", url, "--games", "2", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and url in err and "llm:m" in err
    assert not out.exists()
    assert main(["--agents", "llm:m", "--games", "2"]) == 2
    assert "--llm-url" in capsys.readouterr().err


def test_llm_cli__a_run_stopped_by_its_endpoint_resumes_to_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    common = ["--agents", "logic:global,llm:m:retries=0", "--games", "12", "--workers", "1"]
    flags = [*common, "--quiet", "--no-plots", "--llm-in-flight", "1"]
    with chat_server(solver_policy(), limit=60) as server:
        assert main([*flags, "--llm-url", server.url, "--out", str(tmp_path / "cut")]) == 1
    assert "--resume" in capsys.readouterr().err
    with chat_server(solver_policy()) as server:
        assert main(["--resume", str(tmp_path / "cut"), "--llm-url", server.url]) == 0
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh"))
        assert main([*flags, "--llm-url", server.url, "--out", str(tmp_path / "whole")]) == 0
    report = capsys.readouterr().out
    assert "language-model replies" in report and "logic:global vs llm:m:retries=0" in report
    figures = [json.loads((tmp_path / d / "results.json").read_text()) for d in ("cut", "whole")]
    for document in figures:
        for summary in document["summaries"]:
            summary.pop("ms_per_move"), summary.pop("ms_per_game")
        for row in document["llm"]:
            row.pop("seconds_per_move")
    assert figures[0]["summaries"] == figures[1]["summaries"]
    assert figures[0]["llm"] == figures[1]["llm"]
