"""The main job's report: held-out pass@1 and recovery rate per category for each model, as one table (markdown,
printed) and one chart, from the `eval.json` of `reterm eval` and the `recovery.json` of `reterm recovery-bench
eval` runs it names."""

from __future__ import annotations

import json
from pathlib import Path

from reterm.evaluation.metrics import clustered_interval


def _pass_rows(ev: dict) -> dict[str, tuple[int, int, list | None]]:
    """category -> (passes, scored samples, interval) of an eval.json, 'all' first."""
    by_task = ev["by_task"]
    groups: dict[str, list[tuple[int, int]]] = {"all": []}
    for t in by_task.values():
        if t["n"]:
            groups["all"].append((t["c"], t["n"]))
            groups.setdefault(t.get("category") or "-", []).append((t["c"], t["n"]))
    return {g: (sum(c for c, _ in v), sum(n for _, n in v), clustered_interval(v)) for g, v in groups.items()}


def _recovery_rows(rec: dict) -> dict[str, tuple[int, int, list | None]]:
    """category -> (recovered, scored attempts, interval) of a recovery.json, 'all' first."""
    cats = rec["by_category"]
    out = {"all": (rec["overall"]["recovered"], sum(r["attempts"] - r["infra_errors"] for r in cats.values()),
                   rec["overall"]["ci95"])}
    out.update({c: (r["recovered"], r["attempts"] - r["infra_errors"], r["ci95"]) for c, r in cats.items()})
    return out


def _cell(v: tuple[int, int, list | None] | None) -> str:
    if v is None or not v[1]:
        return "-"
    c, n, ci = v
    return f"{c / n:.2f} ({c}/{n})" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def collect(models: dict[str, list[str]], run_dir: Path) -> tuple[dict, dict]:
    """Per model label: its pass@1 rows and its recovery rows (None where the evaluation is missing)."""
    passes, recovery = {}, {}
    for label, (ev_stage, rec_stage) in models.items():
        ev, rec = run_dir / ev_stage / "eval.json", run_dir / rec_stage / "recovery.json"
        passes[label] = _pass_rows(json.loads(ev.read_text())) if ev.exists() else None
        recovery[label] = _recovery_rows(json.loads(rec.read_text())) if rec.exists() else None
    return passes, recovery


def table(passes: dict, recovery: dict) -> str:
    labels = list(passes)
    lines = ["| measure | category | " + " | ".join(labels) + " |", "|---" * (len(labels) + 2) + "|"]
    for name, data in (("held-out pass@1", passes), ("recovery", recovery)):
        cats = []
        for rows in data.values():
            for c in rows or {}:
                if c not in cats:
                    cats.append(c)
        cats = ["all"] + sorted(c for c in cats if c != "all")
        for c in cats:
            cells = [_cell((data[m] or {}).get(c)) for m in labels]
            lines.append(f"| {name} | {'**all**' if c == 'all' else c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart(passes: dict, recovery: dict, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(passes)
    fig, axes = plt.subplots(1, 2, figsize=(15, 4.8), gridspec_kw={"width_ratios": [1, 1.4]})
    for ax, (name, data) in zip(axes, (("held-out pass@1 (per task category)", passes),
                                       ("recovery rate on the frozen states (per error category)", recovery))):
        cats = ["all"] + sorted({c for rows in data.values() for c in (rows or {}) if c != "all"})
        width = 0.8 / max(1, len(labels))
        for i, m in enumerate(labels):
            rows = data[m] or {}
            xs, ys, lo, hi = [], [], [], []
            for j, c in enumerate(cats):
                v = rows.get(c)
                if not v or not v[1]:
                    continue
                rate = v[0] / v[1]
                ci = v[2] or [rate, rate]
                xs.append(j + (i - (len(labels) - 1) / 2) * width)
                ys.append(rate)
                lo.append(max(0.0, rate - ci[0]))
                hi.append(max(0.0, ci[1] - rate))
            ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=m)
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels(cats, rotation=30, ha="right", fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_title(name, fontsize=10)
    axes[0].set_ylabel("rate (95% interval)")
    axes[1].legend(fontsize=8, loc="upper right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(models: dict[str, list[str]], run_dir: Path, folder: Path, state: dict,
                 quick: bool = False) -> tuple[str, list[Path]]:
    """Writes folder/report.md and folder/report.png (and a copy of the markdown in run_dir); returns the table and
    the paths written."""
    passes, recovery = collect(models, run_dir)
    text = table(passes, recovery)
    folder.mkdir(parents=True, exist_ok=True)
    title = "ReTerm main job" + (" (QUICK: toy sizes, not a result)" if quick else "")
    chart(passes, recovery, folder / "report.png", title)
    stages = [(name, st) for name, st in state.items() if isinstance(st, dict)]
    total = sum(st.get("seconds", 0) for _, st in stages)
    md = [f"# {title}", "",
          f"Run folder `{run_dir}`. Cells: rate (successes / scored samples) [95% interval]. Held-out pass@1: one "
          "sample per held-out instance (training families, new seeds; never trained on). Recovery: attempts from the "
          "states frozen from SFT round 1's failures on the held-out instances. Intervals: Wilson over the effective "
          "number of samples (samples of one task or one state counted by how alike they are), see "
          "reterm/evaluation/metrics.py.", "", text, "", "![report](report.png)", "",
          f"## How each figure was obtained (stage wall times: {total / 60:.1f} min in all)", ""]
    for name, st in stages:
        md.append(f"- `{name}` ({st.get('seconds', 0) / 60:.1f} min, {st.get('status')}): "
                  f"`{st.get('parts', {}).get('command', '?')}`")
    (folder / "report.md").write_text("\n".join(md) + "\n")
    (run_dir / "report.md").write_text("\n".join(md) + "\n")
    return text, [folder / "report.md", folder / "report.png"]
