"""Every code block of README.md and docs/*.md runs, verbatim (rules: ``markdown_blocks.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_blocks import Block, blocks

ROOT = Path(__file__).resolve().parents[1]
MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ALL_BLOCKS = [block for path in MARKDOWN for block in blocks(path)]
RUNNABLE_FILES = [path for path in MARKDOWN if any(b.runs for b in blocks(path))]


def _run_bash(block: Block, cwd: Path) -> None:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),  # this checkout's code, whatever is installed
    }
    out = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block.code],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, f"{block.where} failed:\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}"


@pytest.mark.parametrize("path", RUNNABLE_FILES, ids=lambda p: p.name)
def test_docs__blocks_run_in_order(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a reader would: python blocks share one namespace, and every block (python or bash)
    runs in one scratch folder, so a command may use a file an earlier snippet saved."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for block in blocks(path):
        if not block.runs:
            continue
        if block.language == "python":
            exec(compile(block.code, block.where, "exec"), namespace)  # the docs are trusted code
        else:
            _run_bash(block, tmp_path)


def test_docs__every_not_run_marker_gives_a_reason() -> None:
    missing = [b.where for b in ALL_BLOCKS if b.skip_reason == ""]
    assert not missing, f"not-run markers without a reason: {missing}"


def test_docs__the_readme_has_runnable_python() -> None:
    readme = [b for b in blocks(ROOT / "README.md") if b.language == "python"]
    assert readme and all(b.runs for b in readme)


def test_markdown_blocks__reads_fences_languages_and_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "text\n```python\nx = 1\n```\n<!-- not-run: an hour of compute -->\n```bash\nsleep 3600\n"
        "```\n```\nplain output\n```\n<!-- not-run: -->\n```python\ny = 2\n```\n"
    )
    found = blocks(page)
    assert [(b.line, b.language, b.runs, b.skip_reason) for b in found] == [
        (2, "python", True, None),
        (6, "bash", False, "an hour of compute"),
        (9, "", False, None),
        (13, "python", False, ""),
    ]
    assert found[0].code == "x = 1\n"
    page.write_text("```python\nnever closed\n")
    with pytest.raises(ValueError, match="unclosed code fence"):
        blocks(page)


def test_docs__the_readme_first_snippet_prints_the_outcome_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = next(b for b in blocks(ROOT / "README.md") if b.language == "python")
    exec(compile(first.code, "README.md", "exec"), {})
    outcome, _, rest = capsys.readouterr().out.partition(" ")
    assert outcome in ("WON", "LOST") and rest.endswith("of the safe cells\n")
