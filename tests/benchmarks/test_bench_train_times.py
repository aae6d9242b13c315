"""benchmarks/bench_train.py's time lines: the parts of a run's time, and the wall time of its
DAgger rounds by part where progress.csv has it."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmark_scripts import load_benchmark

COLUMNS = (
    "time/network_play_seconds,time/gradients_seconds,time/labels_seconds,time/engine_seconds,"
    "time/eval_seconds,time/collect_wall_seconds,time/saving_seconds,time/buffers_seconds,"
    "time/other_seconds,time/round_wall_seconds"
)


def test_print_time_shares__sums_the_rounds_wall_time_by_part(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # two rounds of 60 s: 30 s collecting, 6 s saving, 0 s buffers, 18 s gradients, 0 s eval,
    # 6 s else; an earlier round without the wall columns counts in the first line only
    (tmp_path / "progress.csv").write_text(
        f"{COLUMNS}\n6,18,60,0,0,30,6,0,6,60\n6,18,60,0,0,30,6,0,6,60\n6,18,60,0,0,,,,,\n"
    )
    load_benchmark("bench_train").print_time_shares(tmp_path)
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith("time over 3 rounds/iterations: network (play) 0.3 min (7%)")
    assert second == (
        "wall time of 2 DAgger rounds, 2.0 min: collection 1.0 min (50%), saving 0.2 min (10%), "
        "buffers 0.0 min (0%), gradients 0.6 min (30%), eval 0.0 min (0%), other 0.2 min (10%)"
    )
