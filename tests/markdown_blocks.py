"""Fenced code blocks of a Markdown file, verbatim, for the docs test (``test_docs.py``).

The rule the docs follow: every fenced block runs in CI, ``python`` blocks in order in one
namespace per file (a later block may use an earlier block's names, as a reader would), ``bash``
blocks each in a fresh shell from the repository root. A block that must not run (hours of
compute, a window, another machine's paths) carries the marker ``<!-- not-run: REASON -->`` on
the line right above its opening fence; the reason is required. Blocks with another language, or
none, are text (a table, program output) and are never run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RUN_LANGUAGES = ("python", "bash")
"""Fence languages that run."""

SKIP_MARKER = re.compile(r"^<!--\s*not-run:\s*(?P<reason>.*?)\s*-->\s*$")
FENCE = re.compile(r"^(?P<fence>```+)\s*(?P<info>[^`]*)$")


@dataclass(frozen=True)
class Block:
    """One fenced block."""

    path: Path
    """The Markdown file."""
    line: int
    """1-based line of the opening fence."""
    language: str
    """The first word of the fence's info string ('' if none)."""
    code: str
    """The block's text, verbatim (with a final newline)."""
    skip_reason: str | None
    """The reason of a ``not-run`` marker right above the fence, None without a marker, '' for
    a marker without a reason (which the docs test rejects)."""

    @property
    def runs(self) -> bool:
        """Whether the docs test executes this block."""
        return self.language in RUN_LANGUAGES and self.skip_reason is None

    @property
    def where(self) -> str:
        """``file:line`` for messages and test ids."""
        return f"{self.path.name}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of ``path``, in order.

    Raises:
        ValueError: a fence that is never closed.
    """
    lines = path.read_text().splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, info = match["fence"], match["info"].strip()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"{path}:{start + 1}: unclosed code fence")
        marker = SKIP_MARKER.match(lines[start - 1]) if start > 0 else None
        found.append(
            Block(
                path=path,
                line=start + 1,
                language=info.split()[0] if info else "",
                code="\n".join(body) + "\n",
                skip_reason=marker["reason"] if marker else None,
            )
        )
        i += 1
    return found
