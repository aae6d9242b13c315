"""``python benchmarks/leaderboard.py [--check]``: the README's results table and
``results/leaderboard.md``, generated from the protocol's rows in ``results/bench/*.json``.

Every figure is a ``mswp-bench`` row on the ``test`` seeds, except where no such row exists yet:
there the figure of the record (validation seeds, ``results/bench/record/validation.json``)
stays, marked with a dagger. ``--check`` writes nothing and exits 1 when either file differs.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from common.atomic import write_text_atomic
from eval.bench import BASELINES, CELLS, PRESETS, markdown, percent

ROOT = Path(__file__).resolve().parents[1]
ROWS = ROOT / "results" / "bench"
RECORD = ROWS / "record" / "validation.json"
START, END = "<!-- leaderboard:start -->", "<!-- leaderboard:end -->"
README_RULES = ("safe", "opening")

LAYOUT: list[tuple[str, dict[str, str], str]] = [
    # README row title, agent per preset (a str: the same on every preset), its record page
    ("`random`", {p: "random" for p in PRESETS}, "eval"),
    ("`local`", {p: "local" for p in PRESETS}, "eval"),
    ("`logic:global` (CS50 baseline)", {p: "logic:global" for p in PRESETS}, "learned"),
    ("`solver`", {p: "solver" for p in PRESETS}, "solver"),
    ("`net:PRESET` (the board's network)", {p: f"net:{p}" for p in PRESETS}, "learned"),
    ("`net:PRESET`, 8 views", {p: f"net:{p}:symmetries=8" for p in PRESETS}, "learned"),
    ("`net:generalist`", {p: "net:generalist" for p in PRESETS}, "learned"),
    ("`rl:beginner` (reward only, PPO on a GPU)", {"beginner": "rl:beginner"}, "rl"),
    (
        "reward only, the bandit on a CPU (its Beginner run, `rl:intermediate`, `rl:expert`)",
        {
            "beginner": "bandit-beginner-run",
            "intermediate": "rl:intermediate",
            "expert": "rl:expert",
        },
        "rl",
    ),
    (
        "the same, 8 views",
        {
            "beginner": "bandit-beginner-run:symmetries=8",
            "intermediate": "rl:intermediate:symmetries=8",
            "expert": "rl:expert:symmetries=8",
        },
        "rl",
    ),
]
"""The README table: its rows in order, and which agent fills each preset's cells."""


def load_figures(folder: Path = ROWS) -> dict[tuple[str, str], dict[str, Any]]:
    """``(agent, cell) -> win_rate`` from every test-set row in ``folder`` (the baselines' too).

    Raises:
        ValueError: a row on another seed set, or two rows with different figures for one cell.
    """
    figures: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")):
        row = json.loads(path.read_text())
        if row["seed_set"] != "test":
            raise ValueError(f"{path}: seed set {row['seed_set']!r}; published rows are on test")
        for cell in row["cells"]:
            found = [(row["agent"], cell["win_rate"])]
            found += [(b, cell[b]["win_rate"]) for b in BASELINES]
            for agent, rate in found:
                if figures.setdefault((agent, cell["cell"]), rate) != rate:
                    raise ValueError(
                        f"{path}: {agent} on {cell['cell']} disagrees with another row"
                    )
    return figures


def readme_table(figures: dict[tuple[str, str], dict[str, Any]]) -> str:
    """The README's results table (test figures; the record's, daggered, where none yet)."""
    record = json.loads(RECORD.read_text())["cells"]
    heads = [f"{p.capitalize()} `{r}`" for p in PRESETS for r in README_RULES]
    lines = [
        "| agent | N | " + " | ".join(heads) + " | record |",
        "| --- | ---: | " + " | ".join("---" for _ in heads) + " | --- |",
    ]
    for title, agents, page in LAYOUT:
        texts, sizes = [], []
        for preset in PRESETS:
            for rule in README_RULES:
                agent, cell = agents.get(preset, ""), f"{preset}-{rule}"
                if (agent, cell) in figures:
                    texts.append(percent(figures[agent, cell]))
                    sizes.append(f"{figures[agent, cell]['games']:,}")
                elif cell in record.get(agent, {}):
                    text, games = record[agent][cell]
                    texts.append(f"{text} †")
                    sizes.append(f"{games:,} †")
                else:
                    texts.append("")
        n = " / ".join(dict.fromkeys(sizes))
        link = f"[{page}](results/{page}.md)"
        lines.append(f"| {title} | {n} | " + " | ".join(texts) + f" | {link} |")
    return "\n".join(lines)


def page(figures: dict[tuple[str, str], dict[str, Any]]) -> str:
    """``results/leaderboard.md``: every measured agent on every cell, then the anchors."""
    agents = list(dict.fromkeys(agent for agent, _ in figures))
    heads = [f"{c.replace('-', ' ', 1)}" for c in CELLS]
    lines = [
        "# Leaderboard: the standard protocol on the test seeds",
        "",
        "Generated by `python benchmarks/leaderboard.py` from the rows in `bench/` (each one",
        "`mswp-bench AGENT --cells ... --json results/bench/NAME.json`; a row holds the rules, N,",
        "commit, the agent's SHA-256 and the McNemar tests against `logic:global` and `solver`).",
        "Win rate with its Wilson 95% interval; a mine ends the game; the first click is the",
        "agent's own (the row records where it went). Blank: not measured on `test` yet.",
        "",
        "| agent | " + " | ".join(heads) + " |",
        "| --- | " + " | ".join("---" for _ in heads) + " |",
    ]
    for agent in agents:
        cells = [
            f"{percent(figures[agent, c])} ({figures[agent, c]['games']:,})"
            if (agent, c) in figures
            else ""
            for c in CELLS
        ]
        lines.append(f"| `{agent}` | " + " | ".join(cells) + " |")
    lines += ["", "## The rows", ""]
    for path in sorted(ROWS.glob("*.json")):
        lines += [markdown(json.loads(path.read_text())), ""]
    anchors = json.loads((ROWS / "record" / "anchors.json").read_text())
    lines += ["## Anchors from the literature (not measured here; their own rules)", ""]
    lines += ["| source | rules | figures |", "| --- | --- | --- |"]
    lines += [f"| {a['source']} | {a['rules']} | {a['figures']} |" for a in anchors]
    return "\n".join(lines) + "\n"


def outputs() -> dict[Path, str]:
    """Each generated file and its text."""
    figures = load_figures()
    readme = (ROOT / "README.md").read_text()
    head, _, rest = readme.partition(START + "\n")
    tail = rest.partition(END)[2]
    return {
        ROOT / "README.md": f"{head}{START}\n{readme_table(figures)}\n{END}{tail}",
        ROOT / "results" / "leaderboard.md": page(figures),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the files (or, with ``--check``, exit 1 when one differs)."""
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for path, text in outputs().items():
        current = path.read_text() if path.exists() else None
        if current != text:
            stale.append(path)
            if not check:
                write_text_atomic(path, text)
    if check and stale:
        print(f"out of date: {', '.join(map(str, stale))}; run python benchmarks/leaderboard.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
