"""The main job's report: for each model, pass@1 on held-out instances (per task category) and on held-out families
(compositional and novel apart, intervals clustered by family), and recovery on the frozen states of each benchmark
(per error category), as tables (markdown, printed) and one chart, from the `eval.json` of `reterm eval` and the
`recovery.json` of `reterm recovery-bench eval` runs it names; then each model against the start with the family as
the unit, and the composition (families x categories) of every benchmark."""

from __future__ import annotations

import json
from pathlib import Path

from reterm.evaluation.metrics import clustered_interval, paired_comparison


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


# What a model's report entry may name: a stage whose eval.json (pass@1) or recovery.json (recovery) it reads.
MEASURES = {
    "heldout_instances": "held-out instances pass@1",
    "heldout_families": "held-out families pass@1",
    "recovery": "recovery (held-out-instance states)",
    "recovery_heldout_families": "recovery (held-out-family states)",
}


def model_stages(spec) -> dict[str, str]:
    """A model's report entry: `[eval stage, recovery stage]` (the older form) or a mapping of `MEASURES` to stages."""
    if isinstance(spec, (list, tuple)):
        return dict(zip(("heldout_instances", "recovery"), spec))
    unknown = set(spec) - set(MEASURES)
    if unknown:
        raise ValueError(f"report: unknown measure(s) {sorted(unknown)}; choose from {', '.join(MEASURES)}")
    return dict(spec)


def family_groups(suite: str = "basic") -> dict[str, str]:
    """family -> "compositional" | "novel" for the held-out families of a bundled suite."""
    from reterm.suites import suite_dir

    fams = json.loads((suite_dir(suite) / "split.json").read_text()).get("families", {})
    return {f: g for g in ("compositional", "novel") for f in fams.get(g, [])}


def _family_pass_rows(ev: dict, groups: dict[str, str]) -> dict[str, tuple[int, int, list | None]]:
    """all / compositional / novel -> (passes, scored samples, interval clustered by family)."""
    per_family: dict[str, list[int]] = {}
    for t in ev["by_task"].values():
        if t["n"]:
            v = per_family.setdefault(t.get("family") or "-", [0, 0])
            v[0] += t["c"]
            v[1] += t["n"]
    out = {}
    for g in ("all", "compositional", "novel"):
        units = [tuple(v) for f, v in per_family.items() if g == "all" or groups.get(f) == g]
        if units:
            out[g] = (sum(c for c, _ in units), sum(n for _, n in units), clustered_interval(units))
    return out


def _recovery_family_rows(rec: dict) -> dict[str, tuple[int, int, list | None]]:
    """category -> (recovered, scored attempts, interval clustered by family), 'all' first; the state-clustered rows
    when the attempts do not name their family (a recovery.json written before they did)."""
    attempts = rec.get("attempts") or []
    if not attempts or "family" not in attempts[0]:
        return _recovery_rows(rec)
    cells: dict[str, dict[str, list[int]]] = {}
    for a in attempts:
        if a.get("infra_error"):
            continue
        for key in ("all", a["category"]):
            v = cells.setdefault(key, {}).setdefault(a.get("family") or "-", [0, 0])
            v[0] += bool(a["passed"])
            v[1] += 1
    return {k: (sum(c for c, _ in u.values()), sum(n for _, n in u.values()), clustered_interval(list(u.values())))
            for k, u in sorted(cells.items(), key=lambda kv: (kv[0] != "all", kv[0]))}


def _units_by_family(data: dict | None, measure: str) -> dict[str, tuple[int, int]]:
    """(successes, samples) per family of one model's eval.json or recovery.json."""
    out: dict[str, list[int]] = {}
    if data is None:
        return {}
    if measure.startswith("recovery"):
        for a in data.get("attempts") or []:
            if not a.get("infra_error"):
                v = out.setdefault(a.get("family") or a["state"], [0, 0])
                v[0] += bool(a["passed"])
                v[1] += 1
    else:
        for t in data["by_task"].values():
            v = out.setdefault(t.get("family") or "-", [0, 0])
            v[0] += t["c"]
            v[1] += t["n"]
    return {k: (c, n) for k, (c, n) in out.items()}


def load(models: dict, run_dir: Path) -> dict[str, dict[str, dict | None]]:
    """measure -> model label -> its eval.json / recovery.json (None where the stage has not written it)."""
    raw: dict[str, dict[str, dict | None]] = {m: {} for m in MEASURES}
    for label, spec in models.items():
        for measure, stage in model_stages(spec).items():
            f = run_dir / stage / ("recovery.json" if measure.startswith("recovery") else "eval.json")
            raw[measure][label] = json.loads(f.read_text()) if f.exists() else None
    return {m: v for m, v in raw.items() if v}


def collect(models: dict, run_dir: Path, groups: dict[str, str] | None = None) -> dict[str, dict]:
    """measure -> model label -> its rows (None where the evaluation is missing)."""
    groups = family_groups() if groups is None else groups
    rows_of = {"heldout_instances": _pass_rows, "heldout_families": lambda ev: _family_pass_rows(ev, groups),
               "recovery": _recovery_rows, "recovery_heldout_families": _recovery_family_rows}
    return {m: {label: (rows_of[m](d) if d is not None else None) for label, d in per.items()}
            for m, per in load(models, run_dir).items()}


def contrasts(models: dict, run_dir: Path) -> str:
    """Each model against the first (the start), and the last against the one before it, with the family as the
    unit (a family's rate pooled over its tasks or states): mean difference, 95% paired bootstrap interval over
    families, sign-flip p."""
    labels = list(models)
    pairs = [(b, labels[0]) for b in labels[1:]]
    if len(labels) > 2:
        pairs.append((labels[-1], labels[-2]))
    lines = ["| measure | comparison | families | difference [95% CI over families] | p |", "|---|---|---|---|---|"]
    for measure, per in load(models, run_dir).items():
        if measure == "recovery":
            continue  # states of a few held-out instances: see the table above
        for a, b in pairs:
            ua, ub = _units_by_family(per.get(a), measure), _units_by_family(per.get(b), measure)
            if not ua or not ub:
                continue
            r = paired_comparison(ua, ub)
            if r["difference"] is None:
                continue
            lines.append(f"| {MEASURES[measure]} | {a} - {b} | {r['units']} | {r['difference']:+.3f} "
                         f"[{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}] | {r['p_value']:.3g} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def composition(models: dict, run_dir: Path) -> str:
    """What each benchmark is made of: per family, its tasks (pass@1 sets) or its states by error category."""
    seen: set = set()
    out = []
    for measure, per in load(models, run_dir).items():
        data = next((d for d in per.values() if d is not None), None)
        if data is None or measure in seen:
            continue
        seen.add(measure)
        if measure.startswith("recovery"):
            states = {a["state"]: (a.get("family") or "-", a["category"]) for a in data.get("attempts") or []}
            cats = sorted({c for _, c in states.values()})
            fams = sorted({f for f, _ in states.values()})
            out += [f"**{MEASURES[measure]}**: {len(states)} states, {len(fams)} families, {len(cats)} categories", "",
                    "| family | " + " | ".join(cats) + " | states | share |", "|---" * (len(cats) + 3) + "|"]
            for f in fams:
                n = [sum(1 for v in states.values() if v == (f, c)) for c in cats]
                out.append(f"| {f} | " + " | ".join(str(x or "") for x in n) +
                           f" | {sum(n)} | {sum(n) / len(states):.0%} |")
        else:
            fams: dict[str, int] = {}
            for t in data["by_task"].values():
                fams[t.get("family") or "-"] = fams.get(t.get("family") or "-", 0) + 1
            out += [f"**{MEASURES[measure]}**: {sum(fams.values())} tasks from {len(fams)} families: " +
                    ", ".join(f"{f} {n}" for f, n in sorted(fams.items()))]
        out.append("")
    return "\n".join(out)


def table(rows: dict[str, dict]) -> str:
    """One table: a row per (measure, category or group), a column per model."""
    labels = list(next(iter(rows.values()))) if rows else []
    lines = ["| measure | category | " + " | ".join(labels) + " |", "|---" * (len(labels) + 2) + "|"]
    for measure, data in rows.items():
        cats = []
        for r in data.values():
            for c in r or {}:
                if c not in cats:
                    cats.append(c)
        head = [c for c in ("all", "compositional", "novel") if c in cats]
        cats = head + sorted(c for c in cats if c not in head)
        for c in cats:
            cells = [_cell((data.get(m) or {}).get(c)) for m in labels]
            lines.append(f"| {MEASURES[measure]} | {'**all**' if c == 'all' else c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart(rows: dict[str, dict], path: Path, title: str) -> None:
    """One panel per measure: a bar per model and category (or group), with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measures = list(rows)
    if not measures:
        return
    labels = list(rows[measures[0]])
    fig, axes = plt.subplots(1, len(measures), figsize=(6.5 * len(measures), 4.8), squeeze=False)
    for ax, measure in zip(axes[0], measures):
        data = rows[measure]
        present = {c for r in data.values() for c in (r or {})}
        head = [c for c in ("all", "compositional", "novel") if c in present]
        cats = head + sorted(present - set(head))
        width = 0.8 / max(1, len(labels))
        for i, m in enumerate(labels):
            r = data.get(m) or {}
            xs, ys, lo, hi = [], [], [], []
            for j, c in enumerate(cats):
                v = r.get(c)
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
        ax.set_title(MEASURES[measure], fontsize=10)
    axes[0][0].set_ylabel("rate (95% interval)")
    axes[0][-1].legend(fontsize=8, loc="upper right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(models: dict, run_dir: Path, folder: Path, state: dict, quick: bool = False,
                 notes: str = "", groups: dict[str, str] | None = None) -> tuple[str, list[Path]]:
    """Writes folder/report.md and folder/report.png (and a copy of the markdown in run_dir); returns the table and
    the paths written. `notes` (markdown) says how the tasks were chosen, e.g. a sample of instances per family."""
    rows = collect(models, run_dir, groups)
    text = table(rows)
    folder.mkdir(parents=True, exist_ok=True)
    title = "ReTerm main job" + (" (QUICK: toy sizes, not a result)" if quick else "")
    chart(rows, folder / "report.png", title)
    stages = [(name, st) for name, st in state.items() if isinstance(st, dict)]
    total = sum(st.get("seconds", 0) for _, st in stages)
    md = [f"# {title}", "",
          f"Run folder `{run_dir}`. Cells: rate (successes / scored samples) [95% interval]. Held-out instances: new "
          "seeds of the training families, never trained on (intervals count a task's samples by how alike they "
          "are). Held-out families: families never trained on, compositional (two trained skills combined) and novel "
          "(a kind of work no training family does); their intervals count each family's samples by how alike they "
          "are (the family is the cluster). Recovery: attempts from frozen failure states; on held-out-family states "
          "the family is the cluster. Intervals: Wilson over the effective number of samples (Kish's design effect), "
          "see reterm/evaluation/metrics.py.", ""]
    if notes:
        md += [notes.strip(), ""]
    md += [text, "", "![report](report.png)", ""]
    diff = contrasts(models, run_dir)
    if diff:
        md += ["## Differences, the family as the unit", "",
               "A family's rate is pooled over its tasks (or states); the interval resamples families, the p-value "
               "flips the sign of each family's difference (reterm.evaluation.metrics.paired_comparison).", "",
               diff, ""]
    comp = composition(models, run_dir)
    if comp:
        md += ["## What each benchmark is made of", "", comp]
    md += [f"## How each figure was obtained (stage wall times: {total / 60:.1f} min in all)", ""]
    for name, st in stages:
        md.append(f"- `{name}` ({st.get('seconds', 0) / 60:.1f} min, {st.get('status')}): "
                  f"`{st.get('parts', {}).get('command', '?')}`")
    (folder / "report.md").write_text("\n".join(md) + "\n")
    (run_dir / "report.md").write_text("\n".join(md) + "\n")
    return text, [folder / "report.md", folder / "report.png"]
