"""Win rate against mine density on 16x16 for the solver and the other reference agents, as a PNG.

Every agent plays the same seeded series per density (see ``bench_solver.py``), first click safe.
Error bars are Wilson 95% intervals. The figures are also written as JSON beside the PNG.

Example::

    .venv/bin/python benchmarks/plot_density.py --games 300 --workers 2 \
        --out results/img/solver_density.png
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
)

from bench_solver import DEFAULT_SEED, run_series

from common.atomic import atomic_path, write_text_atomic

DEFAULT_AGENTS = "solver,solver:depth=0,logic,local,random"


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=16, help="board side")
    parser.add_argument(
        "--densities", default="0.05,0.075,0.1,0.125,0.15,0.175,0.2,0.225,0.25,0.275,0.3"
    )
    parser.add_argument(
        "--agents",
        default=DEFAULT_AGENTS,
        help="comma list; agents missing from the registry are skipped",
    )
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=200, help="games per (agent, density)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", default="runs/solver_density.png")
    args = parser.parse_args(argv)

    import agents as registry

    known = set(registry.available())
    size = args.size
    densities = [float(d) for d in args.densities.split(",")]
    results: dict[str, list[dict[str, object]]] = {}
    for agent in args.agents.split(","):
        if agent.split(":")[0] not in known:
            print(f"skipping {agent}: not in the registry")
            continue
        rows = []
        for density in densities:
            mines = round(density * size * size)
            summary = run_series(
                agent, size, size, mines, args.rule, args.games, args.seed, args.workers
            )
            summary["density"] = mines / (size * size)
            rows.append(summary)
            low, high = summary["wilson95"]  # type: ignore[misc]
            print(
                f"{agent:<16} {mines:>3} mines ({summary['density']:.3f})  "
                f"win {100 * summary['win_rate']:5.1f}% "
                f"[{100 * low:.1f}, {100 * high:.1f}]  N={summary['games']}",
                flush=True,
            )
        results[agent] = rows

    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_text_atomic(
        os.path.splitext(args.out)[0] + ".json",
        json.dumps({"argv": sys.argv[1:], "results": results}, indent=1),
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for agent, rows in results.items():
        x = np.array([r["density"] for r in rows], dtype=float)
        y = np.array([r["win_rate"] for r in rows], dtype=float)
        low = np.array([r["wilson95"][0] for r in rows], dtype=float)  # type: ignore[index]
        high = np.array([r["wilson95"][1] for r in rows], dtype=float)  # type: ignore[index]
        errors = np.clip(np.vstack([y - low, high - y]), 0.0, None)  # rounding can make one -1e-17
        axes.errorbar(x, 100 * y, yerr=100 * errors, marker="o", ms=3, capsize=2, label=agent)
    axes.set_xlabel(f"mine density ({size}x{size}, first click {args.rule})")
    axes.set_ylabel("win rate, % (Wilson 95%)")
    axes.set_title(f"Win rate vs density, N={args.games} games per point")
    axes.grid(alpha=0.3)
    axes.legend()
    figure.tight_layout()
    with atomic_path(args.out) as temporary:
        figure.savefig(temporary, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
