"""Side-by-side recovery rate per error category and held-out pass@1 for several models, as a table and a PNG.

    .venv/bin/python benchmarks/compare_models.py --out benchmarks/recovery_compare.png \
        base=/tmp/rbench/eval-base:/tmp/evals/base-heldout sft=/tmp/rbench/eval-sft:/tmp/evals/sft-heldout ...

Each argument is NAME=RECOVERY_DIR[:HELDOUT_DIR]: RECOVERY_DIR holds the recovery.json written by
`reterm recovery-bench eval`, HELDOUT_DIR the eval.json written by `reterm eval` (optional).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def load(spec: str) -> tuple[str, dict, dict | None]:
    if "=" not in spec:
        raise SystemExit(f"error: {spec!r} is not NAME=RECOVERY_DIR[:HELDOUT_DIR]")
    name, paths = spec.split("=", 1)
    rec_dir, _, held_dir = paths.partition(":")
    rec = json.loads((Path(rec_dir) / "recovery.json").read_text())
    held = json.loads((Path(held_dir) / "eval.json").read_text()) if held_dir else None
    return name, rec, held


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    models = [load(s) for s in a.models]
    cats = sorted({c for _, rec, _ in models for c in rec["by_category"]})
    print("| model | held-out pass@1 | recovered / attempts (all states) | " + " | ".join(cats) + " |")
    print("|---|---|---|" + "---|" * len(cats))
    for name, rec, held in models:
        rows = rec["by_category"]
        tot_r = sum(r["recovered"] for r in rows.values())
        tot_a = sum(r["attempts"] - r["infra_errors"] for r in rows.values())
        cells = [f"{rows[c]['recovered']}/{rows[c]['attempts'] - rows[c]['infra_errors']}" if c in rows else "-"
                 for c in cats]
        p1 = "-" if held is None else f"{held.get('pass@1', held.get('overall', {}).get('pass@1', 0)):.3f}"
        print(f"| {name} | {p1} | {tot_r}/{tot_a} | " + " | ".join(cells) + " |")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    width = 0.8 / len(models)
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(cats) + 2), 4.2))
    for i, (name, rec, _) in enumerate(models):
        rows = rec["by_category"]
        xs = [j + (i - (len(models) - 1) / 2) * width for j in range(len(cats))]
        ys = [(rows[c]["recovery_rate"] or 0.0) if c in rows else 0.0 for c in cats]
        ax.bar(xs, ys, width, label=name)
    ax.set_xticks(range(len(cats)))
    ax.set_xticklabels(cats, rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("recovery rate")
    ax.set_title("Recovery benchmark (held-out split) per error category")
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
