"""mswp-bench (the standard protocol), the generated leaderboard and the shipped lineage."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from benchmark_scripts import load_benchmark

from eval import bench
from eval.config import game_seeds


def _row(tmp_path: Path, name: str, *args: str) -> dict[str, object]:
    out = tmp_path / name
    status = bench.main([*args, "--out", str(out), "--json", str(out / "row.json"), "--quiet"])
    assert status == 0
    row: dict[str, object] = json.loads((out / "row.json").read_text())
    return row


def test_seed_sets__validation_and_test_games_are_disjoint_at_the_largest_n() -> None:
    validation = game_seeds(bench.SEED_SETS["validation"], bench.MAX_GAMES)
    test = game_seeds(bench.SEED_SETS["test"], bench.MAX_GAMES)
    assert not set(validation) & set(test)


def test_bench__same_row_whatever_the_workers_and_after_a_resume(tmp_path: Path) -> None:
    cell = ["local", "--cells", "beginner-safe", "--games", "8"]
    one = _row(tmp_path, "one", *cell)
    two = _row(tmp_path, "two", *cell, "--workers", "2")
    _row(tmp_path, "grown", "local", "--cells", "beginner-safe", "--games", "3")
    grown = _row(tmp_path, "grown", *cell)  # plays only games 3-7 of each agent
    assert one == two == grown
    figures = one["cells"][0]  # type: ignore[index]
    assert figures["win_rate"]["games"] == 8 and figures["first_click_rule"] == "safe"
    assert set(figures["solver"]["mcnemar"]) >= {"a_only", "b_only", "p_value"}
    assert one["base_seed"] == bench.SEED_SETS["test"] and one["sha256"] is None


def test_bench__same_row_on_ray(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    cell = ["local", "--cells", "beginner-safe", "--games", "4"]
    local = _row(tmp_path, "local", *cell)
    try:
        assert _row(tmp_path, "ray", *cell, "--backend", "ray") == local
    finally:
        ray.shutdown()


def test_bench__the_baselines_are_played_once_per_cell_and_seed_set(tmp_path: Path) -> None:
    _row(tmp_path, "out", "random", "--cells", "beginner-opening", "--games", "4")
    solver_games = tmp_path / "out" / "test" / "beginner-opening" / "solver" / "games.csv"
    before = solver_games.stat().st_mtime_ns
    row = _row(tmp_path, "out", "local", "--cells", "beginner-opening", "--games", "4")
    assert solver_games.stat().st_mtime_ns == before
    assert row["cells"][0]["first_click_rule"] == "opening"  # type: ignore[index]


def test_bench__scores_a_python_callable_and_a_network_file(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    made = _row(
        tmp_path, "c", "agents.baselines:RandomAgent", "--games", "2", "--cells", "beginner-safe"
    )
    assert made["agent"] == "agents.baselines:RandomAgent"
    net = _row(tmp_path, "n", "net:beginner", "--games", "2")
    from train.checkpoint import shipped_checkpoint

    digest = hashlib.sha256(shipped_checkpoint("net:beginner").read_bytes()).hexdigest()
    assert net["sha256"] == digest
    assert [c["cell"] for c in net["cells"]] == [
        "beginner-safe",
        "beginner-opening",
        "beginner-no-guess",
    ]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["local", "--cells", "beginner-any"], "unknown cell 'beginner-any'"),
        (["local", "--games", "0"], "--games must be in [1, 10000], got 0"),
        (["nosuch"], "unknown agent 'nosuch'"),
        (["nosuch.module:make"], "cannot import 'nosuch.module'"),
    ],
)
def test_bench__bad_input_is_one_line_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert bench.main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


leaderboard = load_benchmark("leaderboard")


def test_leaderboard__readme_and_page_agree_with_the_stored_rows() -> None:
    for path, text in leaderboard.outputs().items():
        assert path.read_text() == text, f"{path} is stale: run python benchmarks/leaderboard.py"


def test_leaderboard__a_changed_row_changes_the_table(tmp_path: Path) -> None:
    rows = [p for p in sorted(leaderboard.ROWS.glob("*.json")) if "net" in p.name]
    if not rows:
        pytest.skip("no stored network rows")
    for path in leaderboard.ROWS.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    row = json.loads(rows[0].read_text())
    row["cells"][0]["win_rate"]["estimate"] = 0.0
    (tmp_path / rows[0].name).write_text(json.dumps(row))
    assert leaderboard.load_figures(tmp_path) != leaderboard.load_figures()
    row["cells"][0]["solver"]["win_rate"]["wins"] += 1  # a baseline that two rows disagree on
    (tmp_path / rows[0].name).write_text(json.dumps(row))
    with pytest.raises(ValueError, match="disagrees with another row"):
        leaderboard.load_figures(tmp_path)


def test_shipped_networks__carry_their_lineage_as_json() -> None:
    pytest.importorskip("torch")
    from agents import registry
    from train.checkpoint import read_lineage

    for name in registry.shipped():
        file = registry.agent_file(name)
        assert file is not None and file.is_file(), name
        lineage = read_lineage(file)
        assert lineage is not None, name
        keys = {"algorithm", "config", "parent_sha256", "commit", "seeds", "minutes"}
        assert keys <= set(lineage) and "final_validation" in lineage, name
        parent = lineage["parent_sha256"]
        assert parent in (None, "unknown") or len(parent) == 64, name
