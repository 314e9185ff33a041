"""The comparison of training methods behind recipes/compare.py (its docstring says what the command does and
writes): ReTerm-GRPO against plain GRPO at an equal sampled-token budget, from one SFT checkpoint, over seeds. Here:
the methods (`method_args`: a method name -> the GRPO recipe's arguments), one training run (`train`: the recipe
under an optional launcher, stopped at each evaluation point and resumed), the evaluation of a checkpoint
(`evaluate`: recovery on a frozen benchmark, pass@1 on held-out instances), what the step logs say (`training_log`,
`tokens_at`, `group_categories`), the pooled rates and paired tests (`pooled`, `paired`, `budget_matched`), the
design written before any arm trains (`design`), the sweep's rule (`choose_lr`), and the reports (`report`)."""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from reterm.evaluation.metrics import clustered_interval, wilson_interval

# The comparison runs the checkout's GRPO recipe (recipes/ is not part of the installed package).
ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "recipes" / "reterm_grpo.py"
DEFAULT_CONFIG = ROOT / "recipes" / "configs" / "smollm2-135m" / "reterm_grpo_cpu.yaml"
FORK_POINTS = ("first", "last", "random", "final")


# changes to a method's reward, `<method>+<name>`: done = a pass counts only when the policy declares the task done
# (an attempt that fixes the task and types on to its turn limit scores as a failure)
MODIFIERS = {"done": ["--penalty_undeclared_pass", "1"]}


def method_args(method: str) -> list[str]:
    """The recipe arguments that make a method; a bad name is an error naming the choices."""
    base, *mods = method.split("+")
    bad = [m for m in mods if m not in MODIFIERS]
    if bad or len(set(mods)) < len(mods):
        raise SystemExit(f"error: method {method!r}: {'unknown change ' + repr(bad[0]) if bad else 'a repeated change'}"
                         f"; the changes are +{' +'.join(MODIFIERS)}")
    extra = [x for m in mods for x in MODIFIERS[m]]
    if base == "plain":
        return ["--fork_from", "start", *extra]
    parts = base.split(":")
    if parts[0] == "reterm" and len(parts) in (2, 3) and parts[1] in FORK_POINTS and parts[2:] in ([], ["skip"]):
        return ["--fork_from", "failure", "--fork_point", parts[1], *(["--on_success", "skip"] if parts[2:] else []),
                *extra]
    raise SystemExit(f"error: method {method!r}: use plain or reterm:<{'|'.join(FORK_POINTS)}>[:skip], then "
                     f"optionally +{' +'.join(MODIFIERS)}")


def run_name(method: str, seed: int, lr: float | None = None) -> str:
    """A run's folder: `plain-s0`, `reterm-first-skip-s1`, `reterm-first-skip-done-s0`; with a learning rate of the
    sweep, `plain-lr1e-05-s0`."""
    return method.replace(":", "-").replace("+", "-") + ("" if lr is None else f"-lr{lr:g}") + f"-s{seed}"


def reuse(a, arms: list[tuple[str, float | None]]) -> list[str]:
    """Link the finished runs of the comparison in `a.reuse` (and their evaluations, and the start's) into `a.out`,
    so that they are reported here and not trained again; returns the runs linked. The earlier comparison must have
    started from the same checkpoint and evaluated on the same frozen states with at most k attempts a state, or this
    stops with an error before anything is linked."""
    src = a.reuse.resolve()
    start = src / "eval" / "sft" / "step-0.json"
    if not start.exists():
        raise SystemExit(f"error: --reuse {a.reuse}: {start} does not exist (not a comparison's --out?)")
    ev = json.loads(start.read_text())
    if Path(ev["model"]).resolve() != a.sft.resolve():
        raise SystemExit(f"error: --reuse {a.reuse}: its start was {ev['model']}, this comparison's is {a.sft}")
    benches = getattr(a, "benches", None) or {a.bench.name: a.bench}
    theirs = ev.get("sets", {}).get("recovery") or {next(iter(benches)): ev["recovery"]}
    for name, bench in benches.items():
        per_state = theirs.get(name, {}).get("per_state", {})
        ours = sorted(p.name for p in (bench / "states").iterdir() if p.is_dir() and not p.name.startswith("."))
        if sorted(per_state) != ours or max((n for *_, n in per_state.values()), default=0) > a.k:
            raise SystemExit(f"error: --reuse {a.reuse}: evaluated on other frozen states or with more than k={a.k} "
                             f"attempts a state than --bench {name}={bench}")
    linked = []
    for part in ("runs", "eval"):
        (a.out / part).mkdir(parents=True, exist_ok=True)
    if not (a.out / "eval" / "sft").exists():
        (a.out / "eval" / "sft").symlink_to(src / "eval" / "sft", target_is_directory=True)
    for seed in a.seeds:
        for method, lr in arms:
            name = run_name(method, seed, lr)
            if not (src / "runs" / name / "DONE").exists() or (a.out / "runs" / name).exists():
                continue
            (a.out / "runs" / name).symlink_to(src / "runs" / name, target_is_directory=True)
            if (src / "eval" / name).is_dir() and not (a.out / "eval" / name).exists():
                (a.out / "eval" / name).symlink_to(src / "eval" / name, target_is_directory=True)
            linked.append(name)
    return linked


def arm_name(method: str, lr: float | None = None) -> str:
    return method if lr is None else f"{method}@lr{lr:g}"


def stops(steps: int, every: int) -> list[int]:
    """Where a run pauses to be evaluated: every `every` steps, and its last step."""
    return [*range(every, steps, every), steps]


def train(a, method: str, seed: int, lr: float | None = None, until: int | None = None) -> Path:
    """One training run up to step `until` (default: its last; skipped when done, resumed from its newest checkpoint
    when interrupted). A run stopped before its last step keeps `checkpoint-<until>` and the schedule of --steps: the
    next call continues it exactly, as after an interruption."""
    run = a.out / "runs" / run_name(method, seed, lr)
    until = a.steps if until is None else until
    if (run / "DONE").exists() or (until < a.steps and (run / f"checkpoint-{until}" / "trainer_state.json").exists()):
        return run
    argv = ["--config", str(a.config), "--model_name_or_path", str(a.sft), "--output_dir", str(run),
            *method_args(method), "--seed", str(seed), "--max_steps", str(a.steps), "--save_strategy", "steps",
            "--save_steps", str(a.save_every or a.eval_every), "--save_total_limit", str(a.steps + 1),
            "--report_to", "none",
            "--resume_from_checkpoint", "true", "--refill_tries", str(a.refill_tries),
            *(["--token_budget_per_step", str(a.token_budget)] if a.token_budget else []), *a.recipe_args,
            *(["--learning_rate", f"{lr:g}"] if lr is not None else []),
            *(["--stop_after_step", str(until)] if until < a.steps else [])]
    cmd = [*shlex.split(a.launch), str(RECIPE), *argv] if a.launch else [sys.executable, str(RECIPE), *argv]
    check_disk(run, Path(a.sft))
    print(f"train {run.name}: {shlex.join(cmd)}", flush=True)
    done = threading.Event()

    def pruning():  # superseded checkpoints go as the run saves new ones (prune_superseded)
        while not done.wait(20):
            try:
                prune_superseded(run, a.steps, a.eval_every, getattr(a, "keep_every", None))
            except OSError:
                pass

    pruner = threading.Thread(target=pruning, name="reterm-prune", daemon=True)
    pruner.start()
    try:
        subprocess.run(cmd, check=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    finally:
        done.set()
        pruner.join()
    if until == a.steps:
        (run / "DONE").write_text("")
    return run


def check_disk(run: Path, model: Path) -> None:
    """Refuses to start (or continue) a training run where the disk cannot hold what it writes while it trains: two
    checkpoints with their optimizer states at once (the newest, and the next being written: 3x the weights each with
    AdamW), a kept one and the final model: 8x the start model's weights at its peak, less what the run's folder
    holds already (a resumed run). A run that fills the disk mid-save leaves a torn newest checkpoint."""
    weights = sum(f.stat().st_size for f in model.glob("*.safetensors")) if model.is_dir() else 0
    held, seen = 0, set()
    for f in (run.rglob("*") if run.is_dir() else ()):
        st = f.lstat()
        if f.is_file() and not f.is_symlink() and (st.st_dev, st.st_ino) not in seen:  # a hard link counts once
            seen.add((st.st_dev, st.st_ino))
            held += st.st_size
    need = max(0, 8 * weights - held)
    where = run if run.exists() else next(p for p in run.parents if p.exists())
    free = shutil.disk_usage(where).free
    if free < need:
        raise RuntimeError(f"{where}: {free / 1e9:.1f} GB free on its disk, and training {run.name} needs about "
                           f"{need / 1e9:.1f} GB more while it runs (at its peak two checkpoints with optimizer "
                           f"states, a kept one and the final model: 8x its {weights / 1e6:.0f} MB of weights, less "
                           f"the {held / 1e9:.1f} GB its folder holds); nothing was started: free space (old run "
                           f"folders, /tmp) and run the same command again, which continues")


def saved_checkpoints(run: Path) -> dict[int, Path]:
    """step -> checkpoint-<step> folder: every checkpoint the Trainer saved (or began to save) in `run`."""
    found = {int(p.name.split("-")[1]): p for p in run.glob("checkpoint-*") if p.name.split("-")[1].isdigit()}
    return dict(sorted(found.items()))


def kept(step: int, steps: int, every: int | None, keep_every: int | None = None) -> bool:
    """Whether a finished run keeps step `step`'s weights: evaluated (every `every` steps and the last) or kept
    (every `keep_every` steps)."""
    return not every or step % every == 0 or step == steps or bool(keep_every and step % keep_every == 0)


def checkpoints(run: Path, steps: int, every: int | None = None) -> dict[int, Path]:
    """step -> model dir: every saved checkpoint at a multiple of `every` (all of them without it), and the final
    model when no checkpoint holds the last step."""
    found = {s: p for s, p in saved_checkpoints(run).items() if not every or s % every == 0 or s == steps}
    if steps not in found and (run / "config.json").exists():
        found[steps] = run
    return dict(sorted(found.items()))


def run_record(a, run: Path, method: str, seed: int, lr: float | None, start: dict, settings: dict, heldout) -> dict:
    """What the reports read of one run so far: every evaluated checkpoint (evaluated now where it is not yet; step 0
    is the start), its step logs' signal and cost, where its groups were flat, and the tokens it had spent by each
    step."""
    evals = {0: start} | {step: evaluate(a, d, a.out / "eval" / run.name / f"step-{step}.json", settings, heldout)
                          for step, d in checkpoints(run, a.steps, a.eval_every).items()}
    return {"method": method, "arm": arm_name(method, lr), "lr": lr, "seed": seed, "evals": evals,
            "training": training_log(run), "groups": group_categories(run), "tokens_at": tokens_at(run)}


def eval_settings(config: Path, recipe_args: list[str]) -> dict:
    """The per-turn reply budget, format and turn limits the recipe trains with, so evaluation uses the same."""
    from reterm.training.config import parse_grpo_args

    with tempfile.TemporaryDirectory() as tmp:
        args, _ = parse_grpo_args(["--config", str(config), *recipe_args, "--output_dir", tmp, "--report_to", "none"])
    return {"max_new_tokens": args.max_new_tokens_per_turn, "format": args.agent_format,
            "recovery_turns": args.max_recovery_turns, "task_turns": args.max_scout_turns + args.max_recovery_turns,
            "observation_tokens": args.observation_tokens, "max_context_tokens": args.max_context_tokens,
            "command_timeout_s": args.command_timeout_s, "temperature": args.temperature}


def evaluate(a, model_dir: Path, out: Path, settings: dict, heldout) -> dict:
    """Recovery on every frozen benchmark (`a.benches`, name -> dir; `a.bench` alone before there were several) and
    pass@1 on every held-out set (`heldout`: name -> tasks, or one task list) of one checkpoint (cached). Each set's
    counts, by name, are under `sets` (`recovery` and `heldout`, each name -> its part, with per-state / per-task
    counts and `declared_done`); the first of each kind is also the evaluation's own `recovery` and `heldout` (what
    the tables and paired tests read), and its attempts and episodes go beside `out` as before
    (step-N.attempts.jsonl, step-N.heldout.jsonl.gz); every other set's as step-N.<name>.attempts.jsonl and
    step-N.<name>.heldout.jsonl.gz.

    The recovery attempts and the held-out episodes run at once, on one engine (`a.engine_batch` sequences at a time,
    default the larger of 16 and `a.concurrency`), so that no set's last episodes, nor episodes waiting on their
    sandboxes, leave it idle. What an interrupted evaluation finished (whole states, whole episodes) is kept in
    step-N.partial/ and not run again by the next call with the same settings; the folder goes once the result is
    written."""
    if out.exists():
        cached = json.loads(out.read_text())
        if "declared_done" not in cached and (done := declared_done_from(out)):  # evaluated before it was counted
            cached["declared_done"] = done
        return cached
    from concurrent.futures import ThreadPoolExecutor

    from reterm.agent.episode import EpisodeConfig
    from reterm.agent.policies import make_policy
    from reterm.agent.policy import SamplingConfig
    from reterm.evaluation import recovery_bench as rb
    from reterm.evaluation.metrics import summarize_eval
    from reterm.evaluation.trials import ModelAgent, atomic_write, finished_trials, jsonl_rows, run_tasks
    from reterm.options import open_backend
    from reterm.progress import progress_bar

    benches = getattr(a, "benches", None) or {a.bench.name: a.bench}
    held_sets = heldout if isinstance(heldout, dict) else {"heldout": heldout}
    s = settings
    bench_states = {n: rb.load_states(b) for n, b in benches.items()}
    partial = _partial_dir(out, {"model": str(model_dir), "k": a.k, "samples": a.samples, "eval_seed": a.eval_seed,
                                 "policy": a.policy, "backend": a.backend, "settings": s,
                                 "benches": {n: [str(b), sorted(x.id for x in bench_states[n])]
                                             for n, b in benches.items()},
                                 "heldout": {n: sorted(t.id for t in ts) for n, ts in held_sets.items()}})
    sampling = SamplingConfig(max_new_tokens=s["max_new_tokens"], temperature=s["temperature"], seed=a.eval_seed)
    print(f"evaluate {model_dir} -> {out}", flush=True)
    engine_batch = getattr(a, "engine_batch", None) or max(16, a.concurrency)
    policy = make_policy(a.policy, str(model_dir), sampling, max_batch=engine_batch)
    backend = open_backend(a.backend)

    def episodes(turns: int) -> EpisodeConfig:
        return EpisodeConfig(format=s["format"], max_turns=turns, observation_tokens=s["observation_tokens"],
                             max_context_tokens=s["max_context_tokens"], command_timeout_s=s["command_timeout_s"])

    n_states = sum(map(len, bench_states.values()))
    started = time.monotonic()
    recoveries, held_rows, held_trajectories = {}, {}, {}
    lock = threading.Lock()
    from reterm import stopping
    try:
        with progress_bar("passed {task.fields[passed]}") as bar:  # in a log file: a line every 30 s
            rec = bar.add_task("recovery attempts", total=n_states * a.k, passed=0)
            held = bar.add_task("held-out episodes", total=sum(map(len, held_sets.values())) * a.samples, passed=0)
            passed = {rec: 0, held: 0}

            def done(bar_id, row, log=None, state_rows=None):
                with lock:
                    if log is not None and not stopping.STOP.is_set():  # a stopped attempt is not a result
                        rows = state_rows.setdefault(row["state"], [])
                        rows.append(row)
                        if len(rows) == a.k:  # a state's attempts kept together, for a resumed evaluation
                            log.write("".join(json.dumps(r) + "\n" for r in rows))
                            log.flush()
                    passed[bar_id] += bool(row["passed"])
                    bar.update(bar_id, advance=1, passed=passed[bar_id])

            def earlier(bar_id, rows):  # what a resumed evaluation finished before, on the bar
                with lock:
                    passed[bar_id] += sum(bool(r["passed"]) for r in rows)
                    bar.update(bar_id, advance=len(rows), passed=passed[bar_id])

            def recovery_sets():
                for name, bench in benches.items():
                    path = partial / f"recovery-{name}.jsonl"
                    ids = {x.id for x in bench_states[name]}
                    previous = [r for rows in rb.finished_states(jsonl_rows(path), a.k).values() for r in rows
                                if r["state"] in ids]
                    atomic_write(path, "".join(json.dumps(r) + "\n" for r in previous))  # whole states only
                    earlier(rec, previous)
                    pending: dict[str, list] = {}  # attempts of states not finished yet
                    with path.open("a") as log:
                        recoveries[name] = rb.evaluate(policy, bench, backend, a.k, episodes(s["recovery_turns"]),
                                                       a.concurrency, lambda row: done(rec, row, log, pending),
                                                       previous)

            def heldout_sets():
                for name, tasks in held_sets.items():
                    where = partial / f"heldout-{name}"
                    earlier(held, finished_trials(where / "results.jsonl"))
                    run_tasks(tasks, backend, ModelAgent(policy, episodes(s["task_turns"])), where, a.concurrency,
                              lambda row: done(held, row), samples=a.samples, resume=True)
                    held_rows[name] = [json.loads(line) for line in (where / "results.jsonl").read_text().splitlines()]
                    traj = where / "trajectories.jsonl"
                    held_trajectories[name] = traj.read_bytes() if traj.exists() else b""

            if getattr(a, "sets_in_turn", False):  # one set after another, as before (benchmarks/eval_checkpoint.py)
                recovery_sets()
                heldout_sets()
            else:
                with ThreadPoolExecutor(2, thread_name_prefix="reterm-eval") as pool:
                    parts = [pool.submit(recovery_sets), pool.submit(heldout_sets)]
                    for part in parts:
                        part.result()
    finally:
        policy.close()
    # where this call's time went: the engine's steps, batch and tokens (what a resumed evaluation ran only)
    engine = {"wall_s": round(time.monotonic() - started, 1), "engine_batch": engine_batch,
              "concurrency": a.concurrency, **{k: round(v, 1) if isinstance(v, float) else v
                                                for k, v in getattr(policy, "stats", {}).items()}}
    sets = {"recovery": {name: _recovery_part(r) for name, r in recoveries.items()},
            "heldout": {name: _heldout_part(rows, summarize_eval) for name, rows in held_rows.items()}}
    first_rec, first_held = next(iter(benches)), next(iter(held_sets))
    result = {"model": str(model_dir),
              "recovery": {k: v for k, v in sets["recovery"][first_rec].items() if k != "declared_done"},
              "heldout": {k: v for k, v in sets["heldout"][first_held].items() if k != "declared_done"},
              "declared_done": {"recovery": sets["recovery"][first_rec]["declared_done"],
                                "heldout": sets["heldout"][first_held]["declared_done"]},
              "sets": sets, "engine": engine}
    out.parent.mkdir(parents=True, exist_ok=True)
    # what every recovery attempt did (commands, why it ended), to read beside the counts; the counts stay in `out`
    for name, r in recoveries.items():
        path = out.with_suffix(".attempts.jsonl") if name == first_rec else _beside(out, name, "attempts.jsonl")
        path.write_text("".join(json.dumps(x) + "\n" for x in r["attempts"]))
    # and every held-out episode (messages, commands, tokens), to read why a task family's pass@1 moved
    for name, data in held_trajectories.items():
        path = out.with_suffix(".heldout.jsonl.gz") if name == first_held else _beside(out, name, "heldout.jsonl.gz")
        path.write_bytes(gzip.compress(data))
    atomic_write(out, json.dumps(result, indent=1) + "\n")  # never a half-written result that a rerun would trust
    shutil.rmtree(partial, ignore_errors=True)
    return result


def _partial_dir(out: Path, key: dict) -> Path:
    """step-N.partial/ beside `out`, holding what an interrupted evaluation with these settings (`key`) finished; one
    left by other settings is discarded, with a line saying so."""
    partial = out.with_suffix(".partial")
    key_file = partial / "key.json"
    if partial.exists():
        try:
            same = json.loads(key_file.read_text()) == json.loads(json.dumps(key))
        except (OSError, json.JSONDecodeError):
            same = False
        if not same:
            print(f"{partial}: left by an evaluation with other settings; starting afresh", flush=True)
            shutil.rmtree(partial)
    if not partial.exists():
        partial.mkdir(parents=True)
        key_file.write_text(json.dumps(key, indent=1) + "\n")
    elif any(p.name != "key.json" for p in partial.iterdir()):
        print(f"{partial}: resuming the evaluation that stopped (what it finished is not run again)", flush=True)
    return partial


def _beside(out: Path, name: str, suffix: str) -> Path:
    return out.parent / f"{out.stem}.{name}.{suffix}"


def _recovery_part(recovery: dict) -> dict:
    """One benchmark's counts: the recovery report less its attempts, each state's [category, recovered, scored]
    (what the intervals and `hierarchical.seed_results` count), and [passes that declared done, passes]."""
    per_state: dict[str, list] = {}
    for att in recovery["attempts"]:
        row = per_state.setdefault(att["state"], [att["category"], 0, 0])
        if not att["infra_error"]:
            row[1] += bool(att["passed"])
            row[2] += 1
    return {**{k: v for k, v in recovery.items() if k != "attempts"}, "per_state": per_state,
            "declared_done": _done_of_passed(recovery["attempts"])}


def _heldout_part(rows: list[dict], summarize_eval) -> dict:
    """One held-out set's counts: passed and scored (infra failures left out), each task's [passed, scored], the
    summary's overall rates, and [passes that declared done, passes]."""
    per_task: dict[str, list[int]] = {}
    for r in rows:
        if not r.get("infra_error"):
            per_task.setdefault(r["task_id"], [0, 0])
            per_task[r["task_id"]][0] += bool(r["passed"])
            per_task[r["task_id"]][1] += 1
    return {"passed": sum(bool(r["passed"]) for r in rows if not r.get("infra_error")),
            "scored": sum(not r.get("infra_error") for r in rows), "per_task": per_task,
            **summarize_eval(rows, 1)["overall"], "declared_done": _done_of_passed(rows)}


def _done_of_passed(rows) -> list[int]:
    """[passing rows that ended by the policy declaring the task done, passing rows] (infra failures left out)."""
    ok = [r for r in rows if r.get("passed") and not r.get("infra_error")]
    return [sum(r.get("stop_reason") == "done" for r in ok), len(ok)]


def declared_done_from(out: Path) -> dict | None:
    """`declared_done` of an evaluation cached before it was counted, from the files beside it (what every recovery
    attempt and held-out episode did); None when they are missing."""
    att, held = out.with_suffix(".attempts.jsonl"), out.with_suffix(".heldout.jsonl.gz")
    if not (att.exists() and held.exists()):
        return None
    return {"recovery": _done_of_passed(json.loads(x) for x in att.read_text().splitlines() if x.strip()),
            "heldout": _done_of_passed(json.loads(x) for x in gzip.decompress(held.read_bytes()).splitlines()
                                       if x.strip())}


def _log_history(run: Path) -> list[dict]:
    """The per-step rollout logs of a run, from its trainer_state.json (the newest checkpoint's if the run's own is
    missing)."""
    states = [run / "trainer_state.json", *sorted(run.glob("checkpoint-*/trainer_state.json"),
                                                  key=lambda p: int(p.parent.name.split("-")[1]), reverse=True)]
    state = next((p for p in states if p.exists()), None)
    if state is None:
        return []
    return [h for h in json.loads(state.read_text())["log_history"] if "reterm/sampled_tokens" in h]


RATE = "reterm/recovery_rate/"


def _mixed(rate: float) -> bool:
    return 0.0 < rate < 1.0


def training_log(run: Path) -> dict:
    """Per-step budget used and signal: the mean and largest sampled tokens a step, the fraction of steps with a
    non-flat group, and of steps where a group forked from a failure state (any category but `start`) was mixed, the
    scouts run and passed, and the training wall (sum of step times)."""
    hist = _log_history(run)
    if not hist:
        return {}
    scouts = [h.get("reterm/scouts", 0.0) for h in hist]
    return {"steps": len(hist),
            "sampled_tokens_mean": sum(h["reterm/sampled_tokens"] for h in hist) / len(hist),
            "sampled_tokens_max": max(h["reterm/sampled_tokens"] for h in hist),
            "steps_with_signal": sum(h.get("reterm/flat_group_fraction", 1.0) < 1.0 for h in hist) / len(hist),
            "steps_with_forked_signal": sum(any(_mixed(v) for k, v in h.items() if k.startswith(RATE)
                                                and k != RATE + "start") for h in hist) / len(hist),
            "scouts": sum(scouts),
            "scouts_passed": sum(n * h.get("reterm/scout_pass_rate", 0.0) for n, h in zip(scouts, hist)),
            "train_wall_s": sum(h.get("reterm/time_step_s", 0.0) for h in hist)}


def tokens_at(run: Path) -> dict[int, float]:
    """The sampled tokens a run had spent by the end of each step (cumulative), from its step logs: what a checkpoint
    cost, for comparing arms at the same budget rather than the same step."""
    out, total = {}, 0.0
    for h in _log_history(run):
        total += h["reterm/sampled_tokens"]
        if "step" in h:
            out[int(h["step"])] = total
    return out


def group_categories(run: Path) -> dict[str, dict[str, int]]:
    """Where the groups were flat: for each category a step's groups were drawn from (`start` = from the task start),
    the steps whose attempts in it all failed, were mixed, or all passed (the step log keeps one rate a category a
    step, so two groups of one category in a step count once)."""
    out: dict[str, dict[str, int]] = {}
    for h in _log_history(run):
        for key, rate in h.items():
            if key.startswith(RATE):
                row = out.setdefault(key[len(RATE):], {"steps": 0, "all_fail": 0, "mixed": 0, "all_pass": 0})
                row["steps"] += 1
                row["all_fail" if rate <= 0.0 else "all_pass" if rate >= 1.0 else "mixed"] += 1
    return dict(sorted(out.items()))


def runs_table(per_run: dict, steps: int) -> str:
    """One row a run at its last evaluated step: recovery and pass@1 counts, and the training log's signal and cost;
    then, per run, where its groups were flat (category: steps drawn / all-fail / mixed / all-pass)."""
    head = ["run", "step", "recovery", "held-out pass@1", "steps with signal", "steps with a mixed forked group",
            "sampled tokens/step (mean; max)", "scouts (passed)", "training wall"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in per_run.items():
        step = max(s for s in r["evals"] if s <= steps)
        ev, log = r["evals"][step], r["training"]
        rec = ev["recovery"]["by_category"].values()
        k = sum(c["recovered"] for c in rec)
        n = sum(c["attempts"] - c["infra_errors"] for c in rec)
        lines.append("| " + " | ".join([
            name, str(step), f"{k}/{n}", f"{ev['heldout']['passed']}/{ev['heldout']['scored']}",
            *([f"{log['steps_with_signal']:.0%}", f"{log['steps_with_forked_signal']:.0%}",
               f"{log['sampled_tokens_mean']:,.0f}; {log['sampled_tokens_max']:,.0f}",
               f"{log['scouts']:.0f} ({log['scouts_passed']:.0f})", f"{log['train_wall_s']:,.0f} s"]
              if log else ["-"] * 5)]) + " |")
    lines += ["", "| run | category: steps drawn / all-fail / mixed / all-pass |", "|---|---|"]
    for name, r in per_run.items():
        cats = r.get("groups", {})
        lines.append(f"| {name} | " + ", ".join(
            f"{c}: {v['steps']}/{v['all_fail']}/{v['mixed']}/{v['all_pass']}" for c, v in cats.items()) + " |")
    return "\n".join(lines) + "\n"


def pooled(results: list[dict]) -> dict:
    """Counts pooled over seeds -> rates with 95% intervals, per category and overall, and pass@1. The attempts from
    one frozen state (and the samples of one task) are alike, over seeds too: the intervals count them in clusters
    (`clustered_interval`); results cached before the per-state counts were kept get Wilson over attempts."""
    cats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        for cat, row in r["recovery"]["by_category"].items():
            cats[cat][0] += row["recovered"]
            cats[cat][1] += row["attempts"] - row["infra_errors"]
    overall = [sum(c[0] for c in cats.values()), sum(c[1] for c in cats.values())]
    held = [sum(r["heldout"]["passed"] for r in results), sum(r["heldout"]["scored"] for r in results)]
    states: dict[str, list] = {}
    tasks: dict[str, list[int]] = {}
    clustered = all("per_state" in r["recovery"] and "per_task" in r["heldout"] for r in results)
    for r in results if clustered else []:
        for st, (cat, c, n) in r["recovery"]["per_state"].items():
            row = states.setdefault(st, [cat, 0, 0])
            row[1] += c
            row[2] += n
        for t, (c, n) in r["heldout"]["per_task"].items():
            tasks.setdefault(t, [0, 0])
            tasks[t][0] += c
            tasks[t][1] += n

    def rate(k_n, clusters=None):
        k, n = k_n
        ci = clustered_interval(clusters) if clusters is not None else wilson_interval(k, n)
        return {"k": k, "n": n, "rate": k / n if n else None, "ci95": ci}

    def of(cat=None):
        return [(c, n) for ct, c, n in states.values() if cat is None or ct == cat] if clustered else None

    done = ({part: [sum(r["declared_done"][part][i] for r in results) for i in (0, 1)]
             for part in ("recovery", "heldout")} if results and all("declared_done" in r for r in results) else None)
    return {"seeds": len(results), "recovery": {c: rate(v, of(c)) for c, v in sorted(cats.items())},
            "overall": rate(overall, of()), "pass@1": rate(held, list(map(tuple, tasks.values())) if clustered
                                                           else None),
            **({"declared_done": done} if done else {})}


def table(rows: list[dict]) -> str:
    cats = sorted({c for r in rows for c in r["recovery"]})
    def fmt(x):
        return "-" if x["rate"] is None else f"{x['rate']:.3f} [{x['ci95'][0]:.2f}, {x['ci95'][1]:.2f}]"

    def done(r, part):
        d, n = r.get("declared_done", {}).get(part, (0, 0))
        return f"{d}/{n}" if n else "-"

    head = ["method", "step", "seeds", "recovery overall", *cats, "held-out pass@1", "sampled tokens/step",
            "steps with signal", "passes that declared done (recovery; held-out)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        log = r.get("training", {})
        lines.append("| " + " | ".join([
            r["method"], str(r["step"]), str(r["seeds"]), fmt(r["overall"]),
            *(fmt(r["recovery"][c]) if c in r["recovery"] else "-" for c in cats), fmt(r["pass@1"]),
            f"{log['sampled_tokens_mean']:.0f}" if log else "-",
            f"{log['steps_with_signal']:.0%}" if log else "-", f"{done(r, 'recovery')}; {done(r, 'heldout')}"]) + " |")
    return "\n".join(lines) + "\n"


def chart(rows: list[dict], path: Path, seed_rows: list[dict] = ()) -> list[str]:
    """Recovery and pass@1 against step: each method's seeds pooled, with their 95% intervals, and each seed's own
    curve (`seed_rows`, rows of one run each; drawn for a method with two seeds or more) as a thin line in the
    method's colour, so a band that hides two seeds which disagree shows it. Returns the legend's labels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    methods = [m for m in dict.fromkeys(r["method"] for r in rows) if m != "sft"]
    span = max(r["step"] for r in rows) or 1
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, title in ((axes[0], "overall", "recovery rate (frozen benchmark)"),
                           (axes[1], "pass@1", "pass@1 (held-out instances)")):
        for i, method in enumerate(methods):
            pts = [r for r in rows if r["method"] in (method, "sft") and r[key]["rate"] is not None]
            shift = (i - (len(methods) - 1) / 2) * 0.012 * span  # methods side by side: equal values stay visible
            xs, ys = [r["step"] + shift for r in pts], [r[key]["rate"] for r in pts]
            err = [[y - r[key]["ci95"][0] for y, r in zip(ys, pts)], [r[key]["ci95"][1] - y for y, r in zip(ys, pts)]]
            bars = ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=method)
            seeds = sorted({r["seed"] for r in seed_rows if r["method"] == method})
            for j, seed in enumerate(seeds if len(seeds) > 1 else ()):  # one seed's curve is the pooled one
                own = sorted((r["step"] + shift, r[key]["rate"]) for r in seed_rows
                             if r["method"] == method and r["seed"] == seed and r[key]["rate"] is not None)
                ax.plot([x for x, _ in own], [y for _, y in own], color=bars[0].get_color(), alpha=0.4, lw=1,
                        ls=":", label=None if j else f"{method}, each seed")
        ax.set_title(title)
        ax.set_xlabel("GRPO step (0 = SFT start)")
        ax.set_ylim(0, 1.05)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    labels = [t.get_text() for t in axes[0].get_legend().get_texts()]
    plt.close(fig)
    return labels


def sweep_choice(path: Path, error) -> float:
    """The learning rate a sweep chose: its chosen_lr.json, or a YAML record of it (compare_lr.yaml); `error` is
    called with a message naming the file and key when it is missing or not a positive number."""
    import yaml

    try:
        rec = yaml.safe_load(path.read_text())  # JSON is YAML
    except (OSError, yaml.YAMLError) as e:
        error(f"--lr-from {path}: {e}")
    try:
        rate = float(rec["learning_rate"])
    except (TypeError, KeyError, ValueError):
        rate = 0.0
    if not rate > 0:
        error(f"--lr-from {path}: `learning_rate` must be a positive number; got "
              f"{rec.get('learning_rate') if isinstance(rec, dict) else rec!r}")
    return rate


def sweep_choices(path: Path, methods: list[str], error) -> dict[str, float]:
    """Each method's own learning rate from a sweep's chosen_lr.json (`by_method.<method>.learning_rate`, written by
    `choose_lr_by_method`); `error` is called with a message naming the file and key when one is missing."""
    import yaml

    try:
        rec = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        error(f"--lr-from {path}: {e}")
    by = rec.get("by_method") if isinstance(rec, dict) else None
    rates = {}
    for m in methods:
        try:
            rate = float(by[m]["learning_rate"])
        except (TypeError, KeyError, ValueError):
            rate = 0.0
        if not rate > 0:
            error(f"--lr-from {path}: `by_method.{m}.learning_rate` must be a positive number (a sweep of {m} by "
                  f"recipes/compare.py --learning-rates writes it); the file has "
                  f"{sorted(by) if isinstance(by, dict) else 'no by_method'}")
        rates[m] = rate
    return rates


def paired(per_run: dict, ref: str, arm: str, step: int, ref_step: int | None = None) -> dict | None:
    """`arm` at `step` against `ref` at `ref_step` (the same step unless given), paired on the same frozen states
    (recovery) and the same tasks (pass@1): each unit's counts summed over the seeds both arms have evaluated at those
    steps (`paired_comparison`). The interval and p resample units with the trained runs held fixed, so they say
    nothing of how another seed would train; each measure's `by_seed` (seed s of the arm against seed s of `ref`, the
    mean difference over units) shows that variation."""
    from reterm.evaluation.metrics import paired_comparison, unit_differences

    ref_step = step if ref_step is None else ref_step

    def runs(name, at):
        return {r["seed"]: r["evals"][at] for r in per_run.values() if r["arm"] == name and at in r["evals"]}

    a, b = runs(arm, step), runs(ref, ref_step)
    seeds = sorted(a.keys() & b.keys())
    if not seeds or not all("per_state" in e["recovery"] for e in [*a.values(), *b.values()]):
        return None

    def units(evals, part, key):
        out: dict[str, list[int]] = {}
        for e in evals:
            for unit, counts in e[part][key].items():
                c, n = counts[-2:]
                row = out.setdefault(unit, [0, 0])
                row[0] += c
                row[1] += n
        return {u: tuple(v) for u, v in out.items()}

    def measures(ea, eb, compare):
        sa, sb = units(ea, "recovery", "per_state"), units(eb, "recovery", "per_state")
        return {"recovery": compare(sa, sb), "recovery by task": compare(by_task(sa), by_task(sb)),
                "pass@1": compare(units(ea, "heldout", "per_task"), units(eb, "heldout", "per_task"))}

    def mean_difference(x, y):
        diffs = unit_differences(x, y)
        return round(sum(diffs) / len(diffs), 4) if diffs else None

    out = measures([a[s] for s in seeds], [b[s] for s in seeds], paired_comparison)
    for seed in seeds:
        for measure, diff in measures([a[seed]], [b[seed]], mean_difference).items():
            out[measure].setdefault("by_seed", {})[seed] = diff
    return {"arm": arm, "against": ref, "step": step, **({"ref_step": ref_step} if ref_step != step else {}),
            "seeds": seeds, **out}


def state_task(state_id: str) -> str:
    """The task a frozen state came from: its id less `-t<turn>` and, with several episodes a task, `-s<sample>`."""
    return re.sub(r"(-s\d+)?-t\d+$", "", state_id)


def by_task(per_state: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """Per-state counts summed per task: the states of one task instance (several episodes of it) are alike, so the
    test over tasks is the conservative one."""
    out: dict[str, list[int]] = {}
    for state, (c, n) in per_state.items():
        row = out.setdefault(state_task(state), [0, 0])
        row[0] += c
        row[1] += n
    return {t: tuple(v) for t, v in out.items()}


def budget_matched(per_run: dict, ref: str, arm: str) -> list[dict]:
    """`arm` against `ref` at no more sampled tokens: for each step `ref` was evaluated at, `arm`'s latest evaluated
    step whose cumulative sampled tokens (mean over the seeds both have there) are at most `ref`'s. Equal steps are
    not equal budgets when one arm samples more a step (a group once started finishes, so the budget a step is met
    on the mean by neither exactly); this pairing takes that advantage away from the arm."""
    def spent(name, step, seeds):
        vals = [r.get("tokens_at", {}).get(step) for r in per_run.values()
                if r["arm"] == name and r["seed"] in seeds and step in r["evals"]]
        return sum(vals) / len(vals) if vals and None not in vals else None

    def seeds_at(name, step):
        return {r["seed"] for r in per_run.values() if r["arm"] == name and step in r["evals"] and r.get("tokens_at")}

    ref_steps = sorted({s for r in per_run.values() if r["arm"] == ref for s in r["evals"] if s})
    arm_steps = sorted({s for r in per_run.values() if r["arm"] == arm for s in r["evals"] if s})
    tests = []
    for rs in ref_steps:
        best = None
        for s in arm_steps:
            seeds = seeds_at(ref, rs) & seeds_at(arm, s)
            budget, used = spent(ref, rs, seeds), spent(arm, s, seeds)
            if seeds and budget is not None and used is not None and used <= budget:
                best = (s, used, budget)
        if best and (t := paired(per_run, ref, arm, best[0], rs)):
            tests.append({**t, "ref_step": rs, "tokens": [round(best[1]), round(best[2])]})
    return tests


def paired_table(tests: list[dict]) -> str:
    budget = any("tokens" in t for t in tests)
    head = ["arm", "against", "step" + (" (arm / against)" if budget else ""), "seeds",
            *(["sampled tokens (arm / against)"] if budget else []), "measure", "units", "difference [95% CI]",
            "arm better / worse", "paired p", "by seed"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for t in tests:
        step = f"{t['step']} / {t.get('ref_step', t['step'])}" if budget else str(t["step"])
        tokens = [f"{t['tokens'][0]:,} / {t['tokens'][1]:,}"] if budget else []
        for measure, unit in (("recovery", "states"), ("recovery by task", "tasks"), ("pass@1", "tasks")):
            if measure not in t:
                continue
            r = t[measure]
            diff = ("-" if r["difference"] is None else
                    f"{r['difference']:+.3f} [{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}]")
            lines.append("| " + " | ".join([t["arm"], t["against"], step, ",".join(map(str, t["seeds"])), *tokens,
                                            measure, f"{r['units']} {unit}", diff,
                                            f"{r['a_better']} / {r['b_better']}",
                                            "-" if r["p_value"] is None else f"{r['p_value']:.3g}",
                                            by_seed(r.get("by_seed", {}))]) + " |")
    return "\n".join(lines) + "\n"


def by_seed(diffs: dict) -> str:
    """Each seed's own difference, as `s0 +0.250, s1 +0.481` (results.json read back has the seeds as strings)."""
    return ", ".join(f"s{s} " + ("-" if d is None else f"{d:+.3f}") for s, d in diffs.items()) or "-"


def design(a, start: dict, arms: int) -> str:
    """What the comparison can detect, written once before any arm trains: from the start's own per-state recovery
    rates (each (c + 0.5) / (n + 1), so a state seen 0 of 4 is not certain) and per-task pass rates, the chance that
    the paired test finds p < 0.05 for a given difference, with k attempts a state (samples a task) in each of the
    seeds."""
    from reterm.evaluation.metrics import paired_power

    attempts, samples = a.k * len(a.seeds), a.samples * len(a.seeds)
    lines = [f"# What this comparison can detect (written before the runs, {arms} arms)", "",
             f"Paired test on the same units; each arm pools {len(a.seeds)} seed(s): {a.k} attempts a frozen state "
             f"and {a.samples} sample(s) a held-out task a seed. Power = the chance of p < 0.05 (two-sided) when the "
             "arm's rate on every unit is shifted by the difference on the log-odds scale; rates from the start.", "",
             "| measure | units | start's rate | " + " | ".join(f"+{d:.0%}" for d in DESIGN_DIFFS) + " |",
             "|---|---|---|" + "---|" * len(DESIGN_DIFFS)]
    per_state = {k: tuple(v[-2:]) for k, v in start["recovery"].get("per_state", {}).items()}
    tasks = by_task(per_state)
    for measure, counts, n in (("recovery", per_state.values(), attempts),
                               ("recovery by task", tasks.values(), None),
                               ("pass@1", [tuple(v[-2:]) for v in start["heldout"].get("per_task", {}).values()],
                                samples)):
        units = [(c, m) for c, m in counts if m > 0]
        if not units:
            continue
        rates = [(c + 0.5) / (m + 1) for c, m in units]
        mean = sum(c for c, _ in units) / sum(m for _, m in units)
        # a task's states pooled: its attempts a seed (k x its states, on average), in every seed
        n = n or max(1, round(a.k * len(per_state) / len(units))) * len(a.seeds)
        power = [paired_power(rates, n, d) for d in DESIGN_DIFFS]
        lines.append(f"| {measure} | {len(units)} | {mean:.3f} | " + " | ".join(f"{p:.2f}" for p in power) + " |")
    return "\n".join(lines) + "\n"


DESIGN_DIFFS = (0.03, 0.05, 0.08, 0.10, 0.15)


def choose_lr(rows: list[dict], lrs: list[float]) -> dict:
    """The sweep's choice, a rule fixed before it ran: for each learning rate, the mean over the methods of
    (recovery + pass@1) / 2 at the last evaluated step on the validation slice; the highest wins, and of equal
    scores the larger rate (the one that moves the policy more)."""
    last = max(r["step"] for r in rows)
    scores = {}
    for lr in lrs:
        at = [r for r in rows if r.get("lr") == lr and r["step"] == last]
        vals = [(r["overall"]["rate"] + r["pass@1"]["rate"]) / 2 for r in at
                if r["overall"]["rate"] is not None and r["pass@1"]["rate"] is not None]
        if vals:
            scores[f"{lr:g}"] = round(sum(vals) / len(vals), 4)
    best = max(scores.items(), key=lambda kv: (kv[1], float(kv[0])))[0] if scores else None
    return {"learning_rate": None if best is None else float(best), "step": last, "scores": scores,
            "rule": choose_lr.__doc__.split(": ", 1)[1].replace("\n    ", " ").strip()}


def choose_lr_by_method(rows: list[dict], lrs: list[float], methods: list[str]) -> dict[str, dict]:
    """`choose_lr` on each method's own rows (benchmarks/confirm/design.md section 3: each method's rate chosen on
    its own), by method; a method with no evaluated row is left out."""
    out = {}
    for method in methods:
        own = [r for r in rows if r["method"] in {arm_name(method, lr) for lr in lrs}]
        if own:
            chosen = choose_lr(own, lrs)
            out[method] = {**chosen, "rule": chosen["rule"].replace("the mean over the methods of ",
                                                                    f"{method}'s own ")}
    return out


PAIRED_NOTE = ("Each arm minus the reference on the same units, each unit's attempts summed over the seeds paired. "
               "The interval and p resample the units with the trained runs held fixed: they measure the evaluation's "
               "noise, not how another seed would train; `by seed` is each seed's own difference (seed s against "
               "seed s), the variation between training runs.\n\n")


def report(a, start: dict, per_run: dict, arms: list[tuple[str, float | None]], final: bool = True) -> str:
    """table.md (rows per arm and step, pooled over seeds; then the paired tests of every arm against the reference,
    --reference or the first), runs.md, results.json and compare.png from what is evaluated so far; a sweep's
    chosen_lr.json only when every run of it is (`final`)."""
    rows = [{"method": "sft", "step": 0, **pooled([start])}]
    for method, lr in arms:
        runs = [r for r in per_run.values() if r["arm"] == arm_name(method, lr)]
        if not runs:
            continue
        for step in sorted(set().union(*(set(r["evals"]) for r in runs)) - {0}):
            at = [r for r in runs if step in r["evals"]]
            logs = [r["training"] for r in at if r["training"]]
            training = {k: sum(x[k] for x in logs) / len(logs) for k in logs[0]} if logs else {}
            rows.append({"method": arm_name(method, lr), "lr": lr, "step": step,
                         **pooled([r["evals"][step] for r in at]), "training": training})
    reference = getattr(a, "reference", None)
    first = next((arm for arm in arms if arm[0] == reference), arms[0])
    ref = arm_name(*first)
    tests = [t for method, lr in arms if (method, lr) != first
             for step in sorted({r["step"] for r in rows if r["step"]})
             if (t := paired(per_run, ref, arm_name(method, lr), step))]
    matched = [t for method, lr in arms if (method, lr) != first
               for t in budget_matched(per_run, ref, arm_name(method, lr))]
    md = table(rows) + ("\n## Paired tests\n\n" + PAIRED_NOTE + paired_table(tests) if tests else "")
    if matched:
        md += ("\n## Paired tests at no more sampled tokens\n\nEach step of the reference against the arm's latest "
               "evaluated step that had sampled no more tokens (cumulative, mean over the seeds paired).\n\n"
               + paired_table(matched))
    (a.out / "table.md").write_text(md)
    (a.out / "runs.md").write_text(runs_table(per_run, a.steps))
    # what the comparison was set to run (what the confirmatory analysis counts as missing until it is there)
    plan = {"steps": a.steps, "methods": list(getattr(a, "methods", None) or dict.fromkeys(m for m, _ in arms)),
            "seeds": list(getattr(a, "seeds", None) or sorted({r["seed"] for r in per_run.values()}))}
    results = {"plan": plan, "rows": rows, "paired": tests, "paired_at_budget": matched, "runs": per_run}
    if a.learning_rates and final:
        results["chosen"] = {**choose_lr(rows, a.learning_rates),
                             "by_method": choose_lr_by_method(rows, a.learning_rates, plan["methods"])}
        (a.out / "chosen_lr.json").write_text(json.dumps(results["chosen"], indent=1) + "\n")
    (a.out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    seed_rows = [{"method": r["arm"], "seed": r["seed"], "step": step, **pooled([r["evals"][step]])}
                 for r in per_run.values() for step in r["evals"]]
    chart(rows, a.out / "compare.png", seed_rows)
    return md


def prune(run: Path, steps: int, every: int, keep_every: int | None = None) -> None:
    """A finished and evaluated run keeps its evaluated checkpoints' weights (to evaluate again), and those every
    `keep_every` steps (`--keep-every`), but not their optimizer states, which only resuming needs (about 2/3 of a
    checkpoint), nor the checkpoints saved only to resume from (`--save-every`)."""
    if not (run / "DONE").exists():
        return
    for step, ckpt in saved_checkpoints(run).items():
        if not kept(step, steps, every, keep_every):
            shutil.rmtree(ckpt)
    for f in run.glob("checkpoint-*/optimizer.pt"):
        f.unlink()
    _share_final_weights(run)


def _share_final_weights(run: Path) -> None:
    """A kept checkpoint whose weights are the final model's (the last step's) holds them as a second name of the same
    file, not a copy (538 MB a run for SmolLM2)."""
    import filecmp

    final = run / "model.safetensors"
    if not final.is_file():
        return
    for weights in run.glob("checkpoint-*/model.safetensors"):
        try:
            if weights.stat().st_ino == final.stat().st_ino or weights.stat().st_size != final.stat().st_size \
                    or not filecmp.cmp(weights, final, shallow=False):
                continue
            tmp = weights.with_name(weights.name + ".link")
            tmp.unlink(missing_ok=True)
            os.link(final, tmp)
            os.replace(tmp, weights)
        except OSError:  # a filesystem without hard links keeps the copy
            continue


def prune_superseded(run: Path, steps: int, every: int, keep_every: int | None = None,
                     settle_s: float = 30.0) -> None:
    """While a run trains (`train` calls it every 20 s): every saved checkpoint but the newest whole one (what a
    resume reads) loses its optimizer state, and those neither evaluated nor kept (`prune`'s rule) go, so that a run
    saving every few steps holds one optimizer state at a time, not one a checkpoint (1.08 GB each for SmolLM2). A
    checkpoint being written (no trainer_state.json yet) and the newest whole one are never touched, and nothing is
    until the newest whole one's trainer_state.json is `settle_s` old: the Trainer lists and dates the checkpoints
    right after writing it (its rotation), and a folder going in between would fail its save."""
    whole = [(step, p) for step, p in saved_checkpoints(run).items() if (p / "trainer_state.json").exists()]
    if len(whole) < 2 or time.time() - (whole[-1][1] / "trainer_state.json").stat().st_mtime < settle_s:
        return
    for step, ckpt in whole[:-1]:
        if kept(step, steps, every, keep_every):
            (ckpt / "optimizer.pt").unlink(missing_ok=True)
        else:
            shutil.rmtree(ckpt, ignore_errors=True)
