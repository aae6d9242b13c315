"""benchmarks/bench_threads.py on a toy budget: a row per thread count, sane figures, bad input."""

from __future__ import annotations

import pytest
from benchmark_scripts import bad_input_lines, bad_input_lines_in_a_process, load_benchmark

TOY = ["--board", "5x5/3", "--size", "4x1", "--games", "6", "--steps", "2", "--batch-size", "8"]


def test_bench_threads__a_row_per_thread_count_with_its_repeats(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load_benchmark("bench_threads")
    rows = bench.run([*TOY, "--threads", "1,2", "--repeats", "2", "--precision", "float32"])
    printed = capsys.readouterr().out
    assert [row.threads for row in rows] == [1, 2]
    for row in rows:
        assert len(row.position_gradients_per_second) == len(row.ratios) == 2
        assert all(speed > 0 for speed in row.position_gradients_per_second)
        assert f"{row.threads:>7}  {row.median_speed:>29,.0f}" in printed
    assert rows[0].ratios == (1.0, 1.0)  # the first count is the reference of each repeat
    one, two = (row.position_gradients_per_second for row in rows)
    assert rows[1].ratios == pytest.approx(tuple(b / a for a, b in zip(one, two, strict=True)))
    assert "positions from 6 games" in printed and "4x1, float32" in printed


def test_bench_threads__thread_count_is_restored() -> None:
    import torch as th

    before = th.get_num_threads()
    load_benchmark("bench_threads").run([*TOY, "--threads", "2", "--repeats", "1"])
    assert th.get_num_threads() == 1  # the benchmark runs its collection on one thread
    th.set_num_threads(before)


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["--threads", "0"], "thread count 0 in --threads must be in 1..64"),
        (["--threads", "1,x"], "bad thread count 'x' in --threads"),
        (["--threads", "2,2"], "thread count 2 is listed twice in --threads"),
        (["--size", "4x1,8x2"], "--size takes one CHANNELSxBLOCKS"),
        (["--precision", "float32,bfloat16"], "--precision takes one name"),
        (["--precision", "half"], "bad precision 'half'"),
        (["--repeats", "0"], "--repeats must be >= 1, got 0"),
    ],
)
def test_bench_threads__bad_input_is_one_line_exit_2(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = bad_input_lines("bench_threads", argv, capsys)
    assert len(lines) == 1 and named in lines[0]


def test_bench_threads__bad_input_in_a_real_process_has_no_traceback() -> None:
    assert bad_input_lines_in_a_process("bench_threads", ["--threads", "0"]) == [
        "bench_threads.py: error: thread count 0 in --threads must be in 1..64"
    ]
