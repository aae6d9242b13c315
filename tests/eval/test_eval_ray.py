"""The Ray backend gives the same records as local processes (only if Ray is installed)."""

from __future__ import annotations

import pytest

from eval.agent_specs import parse_agent_list
from eval.backends import run_chunks
from eval.config import EvalConfig
from eval.games import GameRecord
from eval.runner import make_chunks
from eval.settings import build_settings


def test_run_ray__same_records_as_local() -> None:
    ray = pytest.importorskip("ray")
    settings = build_settings(["beginner"], None, None, None, None, "safe", False)
    config = EvalConfig(
        agents=tuple(parse_agent_list("random,logic")), settings=tuple(settings), games=6
    )
    chunks = make_chunks(config, chunk_size=2)
    local = run_chunks(chunks, "local", workers=1)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_chunks(chunks, "ray")
    finally:
        ray.shutdown()

    def key(record: GameRecord) -> tuple[str, int]:
        return (record.agent, record.game)

    assert [r.without_timing() for r in sorted(remote, key=key)] == [
        r.without_timing() for r in sorted(local, key=key)
    ]


def test_run_chunks__ray_missing_is_a_clear_import_error() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed")
    with pytest.raises(ImportError, match=r"pip install"):
        run_chunks([], "ray")
