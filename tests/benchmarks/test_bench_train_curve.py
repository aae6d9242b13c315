"""benchmarks/bench_train.py's curve points: the final evaluation is a point only when the run
went on after its last checkpoint."""

from __future__ import annotations

from pathlib import Path

from benchmark_scripts import load_benchmark

HEADER = (
    "phase,iteration,wall_seconds,env_steps,positions,gradient_samples,wins,games,win_rate,"
    "low95,high95\n"
)


def _curve(tmp_path: Path, final_steps: int) -> list[dict[str, str]]:
    (tmp_path / "curve.csv").write_text(
        HEADER
        + "ppo,0,10.0,2000,0,0,80,100,0.8,0.7,0.9\n"
        + "ppo,0,20.0,4000,0,0,85,100,0.85,0.75,0.9\n"
        + f"final,0,25.0,{final_steps},0,0,90,100,0.9,0.8,0.95\n"
    )
    rows: list[dict[str, str]] = load_benchmark("bench_train").curve_rows(tmp_path)
    return rows


def test_curve_rows__final_point_after_the_last_checkpoint_is_kept(tmp_path: Path) -> None:
    rows = _curve(tmp_path, final_steps=5000)
    assert [r["env_steps"] for r in rows] == ["2000", "4000", "5000"]
    assert {r["phase"] for r in rows} == {"ppo"}


def test_curve_rows__final_point_at_the_last_checkpoint_is_not_repeated(tmp_path: Path) -> None:
    rows = _curve(tmp_path, final_steps=4000)
    assert [r["env_steps"] for r in rows] == ["2000", "4000"]
