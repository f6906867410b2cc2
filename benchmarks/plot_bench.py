"""Plots baseskin-bench's JSON: deformation points/s against point count, one line per method and backend.

Usage: plot_bench.py BENCH.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")  # headless: no display needed
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    with open(source) as f:
        rows = json.load(f)
    lines = {}
    for row in rows:
        lines.setdefault((row["method"], row["backend"]), []).append((row["points"], row["deform_points_per_s"]))
    fig, ax = plt.subplots(figsize=(8, 5))
    for (method, backend), values in sorted(lines.items()):
        values.sort()
        ax.plot([v[0] for v in values], [v[1] for v in values], marker="o",
                linestyle="-" if backend == "cpu" else "--", label=f"{method} ({backend})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("points")
    ax.set_ylabel("deformed points per second")
    ax.set_title("baseskin-bench: deformation throughput")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(target, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
