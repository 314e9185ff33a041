"""The confirmatory comparison's analysis (benchmarks/confirm/design.md, sections 4-6) from a comparison's folder
(recipes/compare.py --out): every run evaluated at the last step is one seed of its method's arm; the endpoints are
compared with the training seed as the unit (`reterm.evaluation.hierarchical`) and read by the design's decision
rules. What is still missing (runs not finished, sets not evaluated) is said first, so the report can be rewritten
after every run (recipes/compare.py --analysis-margin does that) and read as an interim one until the plan is done.

    python -m reterm.evaluation.confirm_report RUN_DIR --margin 0.05 [--out DIR] [--resamples 10000] [--seed 0]

Reads RUN_DIR/results.json (each run's method, seed, evaluations and step logs, and the plan: methods, seeds, steps)
and the start's evaluation (RUN_DIR/eval/sft/step-0.json, for the benchmarks' sizes and the start's rates). Writes
analysis.md, analysis.json and analysis.png (each seed's rate per arm per endpoint) into --out (default RUN_DIR).

The endpoints are the evaluations' named sets (recipes/compare.py --bench NAME=DIR, --heldout NAME=SPLIT): E1
recovery on the benchmark `in` (B-in), E2 pass@1 on the set `train`, E3 recovery on `out` (B-out), E4 pass@1 on
`heldout`. Superiority: the lower bounds of the hierarchical bootstrap's and of Welch's 95% interval both above 0;
non-inferiority: both above -margin (`non_inferiority`). With fewer than two seeds in an arm Welch's interval does
not exist and the test is undecided, never passed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from reterm.evaluation import design_lock
from reterm.evaluation.hierarchical import (ArmComparison, by_category, hierarchical_bootstrap, non_inferiority,
                                            seed_differences, seed_rates, seed_results)


@dataclass(frozen=True)
class Endpoint:
    key: str
    part: str  # recovery | heldout: the kind of set in the evaluations
    name: str  # the set's name (recipes/compare.py --bench NAME=DIR / --heldout NAME=SPLIT)
    what: str
    test: str  # superiority | non-inferiority


ENDPOINTS = (
    Endpoint("E1", "recovery", "in", "recovery on B-in (training-family instances)", "superiority"),
    Endpoint("E2", "heldout", "train", "pass@1 on the training-family instances", "non-inferiority"),
    Endpoint("E3", "recovery", "out", "recovery on B-out (held-out-family instances)", "superiority"),
    Endpoint("E4", "heldout", "heldout", "pass@1 on the held-out-family instances", "non-inferiority"),
)
# the arms (methods of recipes/compare.py): forking with the `+done` reward, plain GRPO with it, plain GRPO
FORKED, PLAIN_DONE, PLAIN = "reterm:first:skip+done", "plain+done", "plain"
BENCH_MINIMUM = {"states": 120, "task instances": 30, "families": 10}  # a benchmark's least size (section 4)
UNDECIDED = "undecided (Welch's interval needs two seeds an arm)"


class ReportError(Exception):
    """A run folder the analysis cannot read; the message names the file."""


@dataclass
class Runs:
    """What the comparison has finished: `finished[method][seed]` is that run's record (recipes/compare.py's
    results.json) where it was evaluated at `step`; `pending` the planned runs that were not (yet)."""
    plan: dict
    step: int
    finished: dict[str, dict[int, dict]]
    pending: list[str]
    start: dict | None


def load_runs(run_dir: Path, step: int | None = None) -> Runs:
    path = run_dir / "results.json"
    if run_dir.exists() and not run_dir.is_dir():
        raise ReportError(f"{run_dir} is a file; give a comparison's folder (recipes/compare.py --out)")
    try:
        results = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file (recipes/compare.py writes it after the first evaluation)") from None
    except (OSError, ValueError) as e:  # JSONDecodeError, UnicodeDecodeError
        raise ReportError(f"{path}: not valid JSON ({e})") from None
    runs = (results.get("runs") or {}) if isinstance(results, dict) else None
    if not isinstance(runs, dict) or not all(isinstance(r, dict) and {"method", "seed"} <= set(r)
                                             for r in runs.values()):
        raise ReportError(f"{path}: not a comparison's results (a `runs` mapping of runs with method and seed); "
                          f"recipes/compare.py writes it")
    plan = dict(results.get("plan") or {})
    if step is None:
        step = plan.get("steps") or max((int(s) for r in runs.values() for s in r.get("evals", {})), default=0)
    plan.setdefault("methods", sorted({r["method"] for r in runs.values()}))
    plan.setdefault("seeds", sorted({r["seed"] for r in runs.values()}))
    finished: dict[str, dict[int, dict]] = {}
    for name, r in runs.items():
        if str(step) not in r.get("evals", {}) or step == 0:
            continue
        mine = finished.setdefault(r["method"], {})
        if r["seed"] in mine:
            raise ReportError(f"{path}: method {r['method']} has two runs of seed {r['seed']} (runs "
                              f"{mine[r['seed']]['name']} and {name}, other learning rates?): an arm is one rate")
        mine[r["seed"]] = {**r, "name": name}
    pending = [f"{m} s{s}" for m in plan["methods"] for s in plan["seeds"] if s not in finished.get(m, {})]
    start_path = run_dir / "eval" / "sft" / "step-0.json"
    try:
        start = json.loads(start_path.read_text()) if start_path.exists() else None
    except (OSError, ValueError) as e:
        raise ReportError(f"{start_path}: not valid JSON ({e}); remove it to evaluate the start again") from None
    start = start if start is not None else next(
        (r["evals"]["0"] for r in runs.values() if "0" in r.get("evals", {})), None)
    return Runs(plan, int(step), finished, pending, start)


def arm(runs: Runs, method: str, ep: Endpoint) -> dict[int, list]:
    """One method's seeds on one endpoint: seed -> its units (`seed_results`), the seeds whose evaluation has the
    set."""
    out = {}
    for seed, r in sorted(runs.finished.get(method, {}).items()):
        ev = r["evals"][str(runs.step)]
        if ep.name in ev.get("sets", {}).get(ep.part, {}):
            out[seed] = seed_results(ev, ep.part, ep.name)
    return out


def lacking(runs: Runs) -> list[str]:
    """The finished runs whose evaluation lacks an endpoint's set (named --bench / --heldout not given?)."""
    out = []
    for method, seeds in runs.finished.items():
        for seed, r in sorted(seeds.items()):
            sets = r["evals"][str(runs.step)].get("sets", {})
            gone = [f"{ep.part} `{ep.name}` ({ep.key})" for ep in ENDPOINTS if ep.name not in sets.get(ep.part, {})]
            if gone:
                out.append(f"{method} s{seed} has no {', '.join(gone)}")
    return out


def superiority(c: ArmComparison) -> str:
    if c.welch_ci95 is None:
        return UNDECIDED
    return "superior" if c.ci95[0] > 0 and c.welch_ci95[0] > 0 else "not superior"


def _comparison(c: ArmComparison) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(c).items()}


def contrast(runs: Runs, a: str, b: str, ep: Endpoint, margin: float, **boot) -> dict:
    """`a` minus `b` on one endpoint with the endpoint's test: {a, b, endpoint, test, result, comparison (or None
    with `missing` saying why)}."""
    row = {"a": a, "b": b, "endpoint": ep.key, "test": ep.test}
    arm_a, arm_b = arm(runs, a, ep), arm(runs, b, ep)
    if not arm_a or not arm_b:
        none = [m for m, x in ((a, arm_a), (b, arm_b)) if not x]
        return {**row, "comparison": None, "result": "missing",
                "missing": f"no finished run of {' or '.join(none)} with {ep.part} `{ep.name}`"}
    try:
        if ep.test == "non-inferiority":
            ni = non_inferiority(arm_a, arm_b, margin, **boot)
            c = ni.comparison
            result = (UNDECIDED if ni.welch_lower is None else
                      "non-inferior" if ni.noninferior else "non-inferiority not shown")
        else:
            c = hierarchical_bootstrap(arm_a, arm_b, **boot)
            result = superiority(c)
    except ValueError as e:  # no unit scored (an empty benchmark)
        return {**row, "comparison": None, "result": "missing", "missing": str(e)}
    return {**row, "comparison": _comparison(c), "result": result}


def rules(table: dict, margin: float, complete: bool) -> dict[str, str]:
    """The decision rules of section 6 on the contrasts' rows (`table[(a, b)][endpoint]`)."""
    primary, p_vs_plain, pd_vs_plain = table[(FORKED, PLAIN_DONE)], table[(FORKED, PLAIN)], table[(PLAIN_DONE, PLAIN)]
    e1, e2, e3, e4 = (primary[k]["result"] for k in ("E1", "E2", "E3", "E4"))
    interim = "" if complete else " (interim: not every planned run is finished)"
    out = {}
    if e1 in ("missing", UNDECIDED):
        out["1. forking"] = f"not decidable yet: E1 is {e1}{interim}"
    elif e1 != "superior":
        out["1. forking"] = f"E1 does not succeed: no claim for forking, whatever the secondary contrasts show{interim}"
    elif e2 == "non-inferior":
        out["1. forking"] = f"forking is credited: E1 succeeds and E2 is non-inferior at margin {margin:g}{interim}"
    elif e2 in ("missing", UNDECIDED):
        out["1. forking"] = f"E1 succeeds; E2 is {e2}{interim}"
    else:
        out["1. forking"] = (f"E1 alone: a recovery gain whose pass@1 cost is not ruled out (E2 not non-inferior at "
                             f"margin {margin:g}){interim}")
    credited = out["1. forking"].startswith("forking is credited")
    if not credited:
        out["2. transfer"] = "no claim: forking is not credited (rule 1), so E3 and E4 are not tested"
    elif e3 == "superior" and e4 == "non-inferior":
        out["2. transfer"] = f"transfer is claimed: E3 superior and E4 non-inferior at margin {margin:g}{interim}"
    else:
        out["2. transfer"] = f"no transfer claim: E3 is {e3}, E4 is {e4}{interim}"
    conditions = {"(a) plain+done non-inferior to plain on E2": pd_vs_plain["E2"]["result"],
                  "(b) reterm+done non-inferior to plain on E2": p_vs_plain["E2"]["result"]}
    c = pd_vs_plain["E1"]["comparison"]
    conditions["(c) plain+done minus plain on E1 not wholly below 0"] = (
        "missing" if c is None else "holds" if c["ci95"][1] >= 0 else "fails")
    open_ = [k for k, v in conditions.items() if v in ("missing", UNDECIDED)]
    failed = [k for k, v in conditions.items() if v not in ("missing", UNDECIDED, "non-inferior", "holds")]
    if failed:
        out["3. +done default"] = f"`--penalty_undeclared_pass 1` stays a flag: {'; '.join(failed)} failed{interim}"
    elif open_:
        out["3. +done default"] = f"not decidable yet: {'; '.join(open_)} open{interim}"
    else:
        out["3. +done default"] = f"`--penalty_undeclared_pass 1` becomes the default: (a), (b) and (c) hold{interim}"
    return out


def _family(task: str) -> str:
    return task.rsplit("-", 1)[0]


def benchmarks(runs: Runs) -> list[dict]:
    """Each endpoint's set as the start was scored on it: its units, task instances, families, the start's rate, and
    for a benchmark whether it has the design's least size."""
    rows = []
    for ep in ENDPOINTS:
        part = (runs.start or {}).get("sets", {}).get(ep.part, {}).get(ep.name)
        if part is None:
            rows.append({"endpoint": ep.key, "set": ep.name, "missing": True})
            continue
        units = seed_results(runs.start, ep.part, ep.name)
        passed, attempts = sum(u.passed for u in units), sum(u.attempts for u in units)
        size = {"states" if ep.part == "recovery" else "tasks": len(units),
                "task instances": len({u.task for u in units}), "families": len({_family(u.task) for u in units})}
        row = {"endpoint": ep.key, "set": ep.name, "part": ep.part, **size,
               "start_rate": passed / attempts if attempts else None}
        if ep.part == "recovery":
            row["meets_minimum"] = all(size[k] >= v for k, v in BENCH_MINIMUM.items())
        rows.append(row)
    return rows


def also_reported(runs: Runs) -> dict[str, dict]:
    """Per method, over its finished seeds: the passes that declared the task done, per set (d of n), the sampled
    tokens a step and by the endpoint's step, and the training wall (means over seeds)."""
    out = {}
    for method, seeds in runs.finished.items():
        done: dict[str, list[int]] = {}
        tokens, to_step, wall = [], [], []
        for r in seeds.values():
            sets = r["evals"][str(runs.step)].get("sets", {})
            for part, named in sets.items():
                for name, counts in named.items():
                    row = done.setdefault(f"{part} `{name}`", [0, 0])
                    d, n = counts.get("declared_done", (0, 0))
                    row[0] += d
                    row[1] += n
            log = r.get("training") or {}
            if log:
                tokens.append(log["sampled_tokens_mean"])
                wall.append(log["train_wall_s"])
            if (t := (r.get("tokens_at") or {}).get(str(runs.step))) is not None:
                to_step.append(t)
        mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
        out[method] = {"seeds": sorted(seeds), "declared_done": done, "sampled_tokens_per_step": mean(tokens),
                       "sampled_tokens_to_step": mean(to_step), "train_wall_s": mean(wall)}
    return out


def analyse(run_dir: Path, margin: float, resamples: int = 10_000, seed: int = 0, step: int | None = None,
            min_category_states: int = 20, design: Path | None = None, check_design: bool = False) -> dict:
    """Everything analysis.md says, as data (analysis.json). With `check_design`, the decision rules are read only if
    `design` is the locked design the runs were bound to (reterm.evaluation.design_lock); else `design_problem` says
    why not, and every figure is exploratory."""
    if margin < 0:
        raise ValueError(f"margin is a size, >= 0; got {margin}")
    runs = load_runs(run_dir, step)
    boot = {"resamples": resamples, "seed": seed}
    pairs = [(FORKED, PLAIN_DONE), (FORKED, PLAIN), (PLAIN_DONE, PLAIN)]
    table = {(a, b): {ep.key: contrast(runs, a, b, ep, margin, **boot) for ep in ENDPOINTS} for a, b in pairs}
    categories, nested, seeds = {}, {}, {}
    methods = list(dict.fromkeys([*runs.plan["methods"], *runs.finished]))
    for ep in ENDPOINTS:
        arms = {m: arm(runs, m, ep) for m in methods}
        seeds[ep.key] = {m: {str(s): r for s, r in seed_rates(x).items()} for m, x in arms.items()}
        a, b = arms.get(FORKED), arms.get(PLAIN_DONE)
        if not a or not b:
            continue
        seeds[ep.key]["difference"] = {str(d.seed): d.difference for d in seed_differences(a, b)}
        try:
            nested[ep.key] = _comparison(hierarchical_bootstrap(a, b, paired=False, **boot))
            if ep.part == "recovery":
                categories[ep.key + "c"] = {cat: {"comparison": _comparison(c), "result": superiority(c)}
                                            for cat, c in by_category(a, b, min_category_states, **boot).items()}
        except ValueError:  # no unit scored: said in the contrasts' rows
            pass
    complete = not runs.pending and not lacking(runs)
    why = design_lock.problem(design, run_dir) if check_design else None
    toy = check_design and why is None and design_lock.draft(design)
    return {"step": runs.step, "margin": margin, "resamples": resamples, "bootstrap_seed": seed,
            "min_category_states": min_category_states, "plan": runs.plan, "complete": complete,
            "finished": {m: sorted(s) for m, s in runs.finished.items()}, "pending": runs.pending,
            "lacking": lacking(runs), "benchmarks": benchmarks(runs),
            "design": None if design is None else str(design), "design_problem": why, "design_draft": toy,
            "rules": rules(table, margin, complete) if why is None else {
                "primary analysis": f"not reported: {why}"},
            "contrasts": [{"a": a, "b": b, "role": "primary" if (a, b) == pairs[0] else "secondary",
                           "endpoints": table[(a, b)]} for a, b in pairs],
            "categories": categories, "nested": nested, "seeds": seeds, "also": also_reported(runs)}


def _rate(x) -> str:
    return "-" if x is None else f"{x:.3f}"


def _signed(x) -> str:
    return "-" if x is None else f"{x:+.3f}"


def _interval(ci) -> str:
    return "-" if ci is None else f"[{ci[0]:+.3f}, {ci[1]:+.3f}]"


def markdown(res: dict) -> str:
    plan = res["plan"]
    n_planned = len(plan["methods"]) * len(plan["seeds"])
    n_done = sum(len(s) for m, s in res["finished"].items() if m in plan["methods"])
    lines = ["# The confirmatory comparison: analysis (benchmarks/confirm/design.md)", ""]
    if res.get("design_problem"):
        lines += [f"**The primary analysis is not reported**: {res['design_problem']}. Every figure below is "
                  f"exploratory.", ""]
    elif res.get("design_draft"):
        lines += [f"Read against `{res['design']}`, a **draft** locked for a toy run: its decisions are no one's "
                  f"evidence.", ""]
    elif res.get("design"):
        lines += [f"Read against the locked design `{res['design']}`.", ""]
    if res["complete"]:
        lines.append(f"**Final**: every planned run ({n_done} of {n_planned}) evaluated at step {res['step']}.")
    else:
        lines.append(f"**Interim**: {n_done} of {n_planned} planned runs evaluated at step {res['step']}; the rules "
                     f"below are read on the runs so far and are not the design's decision.")
        if res["pending"]:
            lines.append(f"Missing: {', '.join(res['pending'])}.")
        for line in res["lacking"]:
            lines.append(f"Missing set: {line}.")
    lines += ["", f"Seeds are the unit. Bootstrap: {res['resamples']:,} resamples (generator seed "
              f"{res['bootstrap_seed']}), seeds, task instances and states, paired on the same frozen units; Welch on "
              f"the seeds' rates. Superiority: both 95% lower bounds > 0; non-inferiority: both > -{res['margin']:g} "
              f"(the margin). Arms: {', '.join(plan['methods'])}; seeds planned: "
              f"{' '.join(map(str, plan['seeds']))}.", "", "## Decisions (section 6)", ""]
    lines += [f"- **{k}**: {v}" for k, v in res["rules"].items()]
    lines += ["", "## Benchmarks and task sets (the start, step 0)", "",
              "| endpoint | set | units | task instances | families | start's rate | least size (120 states, 30 "
              "instances, 10 families) |", "|---|---|---|---|---|---|---|"]
    for b in res["benchmarks"]:
        if b.get("missing"):
            lines.append(f"| {b['endpoint']} | `{b['set']}` | missing from the start's evaluation | | | | |")
            continue
        units = f"{b['states']} states" if "states" in b else f"{b['tasks']} tasks"
        least = ("-" if "meets_minimum" not in b else "met" if b["meets_minimum"] else
                 "**not met** (episodes a task to 20, once: section 4)")
        lines.append(f"| {b['endpoint']} | `{b['set']}` | {units} | {b['task instances']} | {b['families']} | "
                     f"{_rate(b['start_rate'])} | {least} |")
    head = ("| endpoint | test | A | B | A - B | bootstrap 95% | Welch 95% | p (bootstrap; Welch) | seeds (A, B) | "
            "units | result |")
    for c in res["contrasts"]:
        lines += ["", f"## {c['a']} minus {c['b']} ({c['role']})", "", head, "|" + "---|" * 11]
        for key, row in c["endpoints"].items():
            x = row["comparison"]
            if x is None:
                lines.append(f"| {key} | {row['test']} | | | | | | | | | missing: {row['missing']} |")
                continue
            welch_p = "-" if x["welch_p"] is None else f"{x['welch_p']:.3g}"
            lines.append(f"| {key} | {row['test']} | {x['rate_a']:.3f} | {x['rate_b']:.3f} | {x['difference']:+.3f} "
                         f"| {_interval(x['ci95'])} | {_interval(x['welch_ci95'])} | {x['p_value']:.3g}; {welch_p} | "
                         f"{x['seeds'][0]}, {x['seeds'][1]} | {x['tasks']} tasks, {x['states']} units | "
                         f"{row['result']} |")
    lines += ["", "Endpoints: " + "; ".join(f"{ep.key} {ep.what} (`{ep.name}`)" for ep in ENDPOINTS) + ". E3, E4 and "
              "the secondary contrasts are estimates with intervals; they make a claim only through rules 2 and 3."]
    lines += ["", f"## Per error category ({FORKED} minus {PLAIN_DONE}; categories of at least "
              f"{res['min_category_states']} states; no claim, section 5)", ""]
    if any(res["categories"].values()):
        lines += ["| endpoint | category | A - B | bootstrap 95% | Welch 95% | units | both lower bounds > 0 |",
                  "|---|---|---|---|---|---|---|"]
        for key, cats in res["categories"].items():
            for cat, v in cats.items():
                x = v["comparison"]
                lines.append(f"| {key} | {cat} | {x['difference']:+.3f} | {_interval(x['ci95'])} | "
                             f"{_interval(x['welch_ci95'])} | {x['states']} | {v['result']} |")
    else:
        lines.append("None yet (no category with enough states, or an arm missing).")
    lines += ["", "## Each seed's rate", "", "Seeds of two arms are separate runs: the same label pairs them by "
              "their sampling seed only.", ""]
    methods = list(dict.fromkeys([*res["plan"]["methods"], *res["finished"]]))
    lines += ["| endpoint | seed | " + " | ".join(methods) + f" | {FORKED} - {PLAIN_DONE} |",
              "|---|---|" + "---|" * (len(methods) + 1)]
    for key, per in res["seeds"].items():
        labels = sorted({s for m in methods for s in per.get(m, {})}, key=int)
        for s in labels:
            lines.append(f"| {key} | {s} | " + " | ".join(_rate(per.get(m, {}).get(s)) for m in methods) +
                         f" | {_signed(per.get('difference', {}).get(s))} |")
    lines += ["", f"## Nested bootstrap ({FORKED} minus {PLAIN_DONE}; each seed draws its own tasks and states: also "
              "counts the benchmark's composition as noise)", ""]
    if res["nested"]:
        lines += ["| endpoint | A - B | bootstrap 95% |", "|---|---|---|"]
        lines += [f"| {k} | {x['difference']:+.3f} | {_interval(x['ci95'])} |" for k, x in res["nested"].items()]
    else:
        lines.append("None yet.")
    lines += ["", "## Also reported (means over each arm's finished seeds)", "",
              "| arm | seeds | passes that declared done | sampled tokens a step | sampled tokens to the step | "
              "training wall |", "|---|---|---|---|---|---|"]
    for m, x in res["also"].items():
        done = ", ".join(f"{k} {d}/{n}" for k, (d, n) in x["declared_done"].items()) or "-"
        tokens, to_step, wall = x["sampled_tokens_per_step"], x["sampled_tokens_to_step"], x["train_wall_s"]
        lines.append(f"| {m} | {' '.join(map(str, x['seeds']))} | {done} | "
                     f"{'-' if tokens is None else f'{tokens:,.0f}'} | {'-' if to_step is None else f'{to_step:,.0f}'} "
                     f"| {'-' if wall is None else f'{wall / 60:,.0f} min'} |")
    lines += ["", "The paired tests of the earlier comparisons (per checkpoint, units resampled with the runs fixed) "
              "are in table.md beside this file."]
    return "\n".join(lines) + "\n"


def chart(res: dict, path: Path) -> None:
    """One panel an endpoint: each seed's rate per arm (a dot a seed, labelled), the arm's rate (the mean of its
    seeds) as a bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = list(dict.fromkeys([*res["plan"]["methods"], *res["finished"]]))
    fig, axes = plt.subplots(1, len(ENDPOINTS), figsize=(4 * len(ENDPOINTS), 4.2), sharey=True)
    for ax, ep in zip(axes, ENDPOINTS):
        per = res["seeds"].get(ep.key, {})
        for i, m in enumerate(methods):
            rates = [(s, r) for s, r in per.get(m, {}).items() if r is not None]
            if rates:
                ax.bar(i, sum(r for _, r in rates) / len(rates), width=0.6, alpha=0.3, color=f"C{i}")
            for j, (s, r) in enumerate(rates):
                x = i + (j - (len(rates) - 1) / 2) * 0.5 / max(1, len(rates))
                ax.plot(x, r, "o", color=f"C{i}")
                ax.annotate(s, (x, r), textcoords="offset points", xytext=(3, 3), fontsize=7)
        ax.set_xticks(range(len(methods)), methods, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{ep.key}: {ep.what}", fontsize=9)
        ax.set_ylim(0, 1.05)
    axes[0].set_ylabel(f"rate at step {res['step']} (dot: a seed; bar: the arm)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(run_dir: Path, out: Path | None = None, margin: float = 0.05, **kw) -> list[Path]:
    """analysis.md, analysis.json and analysis.png in `out` (default `run_dir`); returns their paths. `kw`: analyse's
    (`design` and `check_design` among them)."""
    out = out or run_dir
    res = analyse(run_dir, margin, **kw)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "analysis.md", out / "analysis.json", out / "analysis.png"]
    for path, text in ((paths[0], markdown(res)), (paths[1], json.dumps(res, indent=1) + "\n")):
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)  # a reader never sees half a report
    chart(res, paths[2])
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="The confirmatory comparison's analysis (benchmarks/confirm/design.md) "
                                             "from a comparison's folder",
                                 epilog="The endpoints' sets and the arms' methods are the design's (ENDPOINTS, "
                                        "FORKED, PLAIN_DONE, PLAIN in this module).")
    ap.add_argument("run_dir", type=Path, help="a comparison's folder (recipes/compare.py --out)")
    ap.add_argument("--margin", type=float, required=True,
                    help="the non-inferiority margin of E2 and E4, a rate difference (the design's: 0.08)")
    ap.add_argument("--out", type=Path, default=None, help="where the report goes (default: RUN_DIR)")
    ap.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples")
    ap.add_argument("--seed", type=int, default=0, help="the bootstrap's generator seed")
    ap.add_argument("--step", type=int, default=None, help="the endpoints' step (default: the plan's last)")
    ap.add_argument("--min-category-states", type=int, default=20,
                    help="an error category is compared on its own from this many states of its benchmark")
    ap.add_argument("--design", type=Path, default=None,
                    help="the locked design (the confirm job's design/design.md): the decision rules are reported "
                         "only if it is the one the runs were bound to, unedited (exit 2 and exploratory figures "
                         "otherwise); without it the design is not checked")
    a = ap.parse_args(argv)
    if a.margin < 0 or a.resamples < 1:
        ap.error("--margin must be >= 0 and --resamples >= 1")
    if a.out is not None and a.out.exists() and not a.out.is_dir():
        ap.error(f"--out {a.out} is a file; the report is a folder's three files")
    try:
        paths = write_report(a.run_dir, a.out, a.margin, resamples=a.resamples, seed=a.seed, step=a.step,
                             min_category_states=a.min_category_states, design=a.design,
                             check_design=a.design is not None)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(paths[0].read_text())
    print("wrote " + "  ".join(map(str, paths)))
    why = json.loads(paths[1].read_text()).get("design_problem")
    if why:
        print(f"error: the primary analysis is not reported: {why}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
