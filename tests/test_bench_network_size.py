"""benchmarks/bench_network_size.py on a toy budget: a row per size, sane figures, bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, bad_input_lines_in_a_process, load_benchmark

TOY = ["--board", "5x5/3", "--train-games", "20", "--test-games", "8", "--steps", "8"]


def test_bench_network_size__a_row_per_size_with_sane_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_network_size")
    results = bench.run([*TOY, "--sizes", "4x1,8x2", "--batch-size", "16", "--games", "4"])
    printed = capsys.readouterr().out
    assert [r.size.label for r in results] == ["4x1", "8x2"]
    assert results[0].parameters < results[1].parameters
    for r in results:
        assert r.position_gradients_per_cpu_second > 0
        assert 0.0 <= r.safest.low <= r.safest.estimate <= r.safest.high <= 1.0
        assert r.safest_hits <= r.positions and r.excess_risk >= 0.0 and r.loss > 0.0
        assert 0 <= r.games_won <= r.games == 4
        assert f"{r.label:>16} {r.parameters:>8,}" in printed
    assert "choice: " in printed and "estimated training time" in printed


def test_bench_network_size__a_row_per_size_and_precision_from_the_same_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_network_size")
    argv = [*TOY, "--sizes", "4x1", "--batch-size", "16", "--precisions", "float32,bfloat16"]
    results = bench.run(argv)
    printed = capsys.readouterr().out
    assert [r.label for r in results] == ["4x1", "4x1 bfloat16"]
    assert results[0].parameters == results[1].parameters
    assert f"{'4x1 bfloat16':>16} " in printed and "for 2 rows x 8 steps" in printed
    # the same weights and minibatches; the arithmetic moves the loss a little, not a lot
    assert results[1].loss == pytest.approx(results[0].loss, rel=0.05)


def test_bench_network_size__same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("bench_network_size")
    argv = [*TOY, "--sizes", "4x1", "--batch-size", "8"]
    first, second = bench.run(argv), bench.run(argv)
    assert [(r.loss, r.safest_hits) for r in first] == [(r.loss, r.safest_hits) for r in second]


def test_bench_network_size__cheapest_within_the_best_interval() -> None:
    bench = load_benchmark("bench_network_size")
    from eval.stats import Interval

    def row(label: str, rate: float, low: float, speed: float) -> object:
        channels, blocks = (int(x) for x in label.split("x"))
        return bench.SizeResult(
            bench.NetworkSize(channels, blocks), 1, speed, 1.0, 0.5,
            Interval(rate, low, 1.0), 1, 10, 0.0, 0, 0,
        )  # fmt: skip

    rows = [row("16x2", 0.80, 0.75, 900.0), row("32x3", 0.84, 0.81, 300.0)]
    assert bench.cheapest_within_best(rows).size.label == "32x3"
    rows.append(row("24x2", 0.82, 0.78, 600.0))
    assert bench.cheapest_within_best(rows).size.label == "24x2"


def test_bench_network_size__with_games_the_win_rate_decides() -> None:
    bench = load_benchmark("bench_network_size")
    from eval.stats import Interval

    def row(label: str, rate: float, won: int, speed: float) -> object:
        channels, blocks = (int(x) for x in label.split("x"))
        return bench.SizeResult(
            bench.NetworkSize(channels, blocks), 1, speed, 1.0, 0.5,
            Interval(rate, rate - 0.01, 1.0), 1, 10, 0.0, won, 500,
        )  # fmt: skip

    # The Beginner run: 16x2 had the best safest-cell rate but won far fewer games.
    rows = [row("16x2", 0.961, 366, 5798.0), row("32x3", 0.956, 420, 1611.0)]
    assert bench.cheapest_within_best(rows).size.label == "32x3"


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--sizes", "0x2"], "'0x2'"),
        (["--sizes", "16-2"], "'16-2'"),
        (["--sizes", "8x1,8x1"], "listed twice"),
        (["--board", "3x3/20"], "'3x3/20'"),
        (["--board", "huge"], "'huge'"),
        (["--steps", "0"], "--steps must be >= 1, got 0"),
        (["--learning-rate", "nan"], "--learning-rate"),
        (["--collector", "missing.zip"], "'missing.zip'"),
        (["--precisions", "float16"], "bad precision 'float16' in --precisions; choose from"),
        (["--precisions", "bfloat16,bfloat16"], "listed twice in --precisions"),
    ],
)
def test_bench_network_size__bad_input_is_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_network_size", argv, capsys)
    assert len(lines) == 1 and named in lines[0]


def test_bench_network_size__bad_input_in_a_real_process_has_no_traceback() -> None:
    assert bad_input_lines_in_a_process("bench_network_size", ["--sizes", "0x2"]) == [
        "bench_network_size.py: error: bad size '0x2' in --sizes; "
        "channels must be in 1..512, blocks in 0..32"
    ]
