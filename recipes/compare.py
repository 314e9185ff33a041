"""ReTerm-GRPO against plain GRPO at an equal sampled-token budget, from one SFT checkpoint: train every method for
N steps over several seeds, evaluate every checkpoint on frozen recovery benchmarks and sets of held-out instances,
and write one table (with paired tests) and one chart.

    .venv/bin/python recipes/compare.py --sft runs/main/sft2 --bench runs/compare/bench \
        --split compare_instances --samples 4 -k 4 --out runs/compare/arms --steps 100 --eval-every 20 --seeds 0 1 \
        --methods plain reterm:first:skip [--reference plain] [--learning-rates 1e-5 3e-5 | --lr-from FILE] \
        [--policy auto|vllm|transformers] [--token-budget 3072] [--report-only]
    .venv/bin/python recipes/compare.py ... --bench in=DIR --bench out=DIR --heldout train=compare_fresh_train \
        --heldout heldout=compare_fresh_heldout --steps 100 --eval-every 100 --keep-every 50 \
        --lr-from SWEEP/chosen_lr.json --lr-per-method --rotate --analysis-margin 0.05

(recipes/configs/smollm2-135m/compare_job.yaml runs the whole experiment: benchmarks, sweep, arms; confirm_job.yaml
the confirmatory one of benchmarks/confirm/design.md. The pieces are in reterm/compare.py; this file is the command.)

Methods: `plain` is `fork_from: start` (plain multi-turn GRPO); `reterm:<fork point>` is ReTerm-GRPO forking at that
fork point (first | last | random | final); `reterm:<fork point>:skip` is the same with `on_success: skip` (a scout
that passes is replaced by another task instead of giving a group from the task start). A method may end in
`+<change>` (MODIFIERS): `reterm:first:skip+done` counts a pass only when the policy declares the task done
(`penalty_undeclared_pass` 1). Every method trains from
`--config` (default: the SmolLM2 CPU ReTerm recipe) with only `fork_from`/`fork_point`/`on_success`/`seed` changed,
the same `token_budget_per_step` (sampled tokens per step, scouts included; flat groups are refilled while it lasts)
and `refill_tries`, so the methods differ only in the rollout. `--launch "accelerate launch --config_file ..."` runs
the recipe under a launcher. `--learning-rates` makes a sweep (every method at each rate; `chosen_lr.json` names the
winner by `choose_lr`'s rule, pooled over the methods, and each method's own under `by_method`); `--lr-from` trains
at a sweep's choice, with `--lr-per-method` each method at its own.

Sets. `--bench` and `--heldout` may each be given several times, as NAME=DIR (a benchmark) and NAME=SPLIT_OR_DIR (a
split of --suite, or a folder of tasks): every checkpoint is scored on all of them, each reported apart by name in
its evaluation's `sets` (the confirmatory analysis reads them); the first of each is the one the tables and paired
tests read. One --bench DIR is named after its folder; without --heldout the one held-out set is --split of --suite.
`--eval-every` equal to `--steps` scores the last step only (the run trains straight through); `--keep-every` keeps
the (unevaluated) checkpoints every N steps as well. `--rotate` rotates the order of the methods by one each seed;
`--analysis-margin M` rewrites the confirmatory analysis (reterm.evaluation.confirm_report: analysis.md, .json, .png
in --out, non-inferiority margin M) after every run that finishes.

Resumable: rerun the same command. A finished training run (DONE marker) and an evaluated checkpoint (its JSON) are
skipped; an interrupted run resumes from its newest checkpoint, and an interrupted evaluation from what it finished
(step-N.partial/: whole states, whole episodes). An evaluation runs its recovery attempts and held-out episodes at
once on one engine (`--engine-batch` sequences at a time). Runs go seed by seed (every method's seed 0, in the
order of --methods, then seed 1; with --rotate the order moves on by one each seed). A run stops at every
--eval-every steps (`--stop_after_step`), its checkpoint is evaluated and the reports are rewritten, and it
continues exactly where it stopped: the curves grow as the runs do. Disk: while a run trains only its newest
checkpoint keeps its optimizer state (the others lose it, and go unless evaluated or kept); a finished run keeps its
evaluated and kept checkpoints' weights, the last step's as one file with the final model's; a run is refused before
it starts where the disk has less free than 8x the start model's weights, less what its folder already holds.
Evaluations use a fixed sampling seed, so every checkpoint meets the same states and tasks under the same randomness.
Outputs under --out (a method's `:` becomes `-`, as in runs/reterm-first-s0): runs/<method>-s<seed>/ (checkpoints,
trainer_state.json; a finished run's optimizer states are deleted), eval/<method>-s<seed>/step-<n>.json (with
step-<n>.attempts.jsonl, what each recovery attempt did, and step-<n>.heldout.jsonl.gz, every held-out episode),
design.md (written before the first run: what difference the paired test can detect, from the start's own per-state
rates), table.md (rows per method and step, then every method paired against the reference, --reference or the
first, on the same states and tasks), runs.md (per run: the counts, the signal and its cost, and where the groups
were flat, by category), results.json, compare.png.
`--reuse DIR` reports an earlier comparison's finished runs (DIR/runs/<run>/DONE, with their evaluations and the
start's) as this one's without training them again: a follow-up arm set beside the arms already run, at the same
settings (the start and the frozen states are checked).
Intervals are 95% intervals over attempts pooled across seeds, counting a state's attempts (a task's samples) as
alike (`clustered_interval`); the paired tests sum each unit's counts over the seeds both methods have.
"""

from __future__ import annotations

import argparse
import importlib.util
import threading
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from reterm.compare import (DEFAULT_CONFIG, design, evaluate, eval_settings, method_args, prune,  # noqa: E402
                            report, reuse, run_name, run_record, stops, sweep_choice, sweep_choices, train)
import yaml  # noqa: E402

from reterm import stopping  # noqa: E402
from reterm.evaluation import recovery_bench as rb  # noqa: E402
from reterm.training.common import RecipeError  # noqa: E402
from reterm.suites import SPLITS  # noqa: E402


# Flags: this driver, like the `reterm` CLI and the scripts, takes dashes (`--refill-tries`, `--eval-every`); the
# arguments after `--` go to the GRPO recipe unchanged, which takes TRL's field names with underscores
# (`--max_recovery_turns 6`), as its YAML keys are written.
def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="ReTerm-GRPO against plain GRPO (and other methods) at an equal "
                                 "sampled-token budget from one SFT checkpoint: train, evaluate, compare")
    ap.add_argument("--sft", type=Path, required=True, help="the SFT checkpoint every method starts from")
    ap.add_argument("--bench", action="append", required=True, metavar="[NAME=]DIR",
                    help="a frozen recovery benchmark (reterm recovery-bench build); again for another, each scored "
                         "and reported apart by NAME (default: the folder's name)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="the GRPO recipe YAML every method shares")
    ap.add_argument("--methods", nargs="+", default=["plain", "reterm:first"],
                    help="the methods, in the order each seed trains them")
    ap.add_argument("--reference", default=None,
                    help="the method every other is paired against (default: the first of --methods)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--eval-every", type=int, default=5,
                    help="evaluate every N steps and the last (equal to --steps: the last step only)")
    ap.add_argument("--save-every", type=int, default=None,
                    help="checkpoint this often to resume from (default: --eval-every); only every --eval-every "
                         "steps is evaluated, and the others are deleted when the run ends (but --keep-every's)")
    ap.add_argument("--keep-every", type=int, default=None,
                    help="also keep the checkpoints every N steps, not evaluated (a multiple of --save-every, which "
                         "defaults to the greatest common divisor of this and --eval-every)")
    ap.add_argument("--token-budget", type=int, default=None, help="token_budget_per_step for every method")
    ap.add_argument("--refill-tries", type=int, default=4)
    ap.add_argument("--suite", default="basic")
    ap.add_argument("--split", default=None, help="held-out split for pass@1 (default: heldout_instances)")
    ap.add_argument("--heldout", action="append", default=[], metavar="NAME=SPLIT_OR_DIR",
                    help="a held-out set for pass@1, a split of --suite or a folder of tasks, in place of --split; "
                         "again for another, each scored and reported apart by NAME")
    ap.add_argument("--max-heldout", type=int, default=None, help="first N tasks of each held-out set only")
    ap.add_argument("--samples", type=int, default=1, help="samples per held-out task")
    ap.add_argument("-k", type=int, default=4, help="attempts per frozen state")
    ap.add_argument("--backend", default="local")
    ap.add_argument("--concurrency", type=int, default=4,
                    help="frozen states (each with its -k attempts) and held-out episodes in flight, each")
    ap.add_argument("--engine-batch", type=int, default=None,
                    help="sequences the evaluation's engine runs at once (default: the larger of 16 and "
                         "--concurrency)")
    ap.add_argument("--policy", choices=("auto", "vllm", "transformers"), default="auto",
                    help="the engine of the evaluations (auto: vLLM where installed)")
    ap.add_argument("--learning-rates", type=float, nargs="+", default=None,
                    help="a sweep: every method at each rate; chosen_lr.json says which won (see choose_lr)")
    ap.add_argument("--lr-from", type=Path, default=None,
                    help="train at the rate a sweep chose (its chosen_lr.json, or a YAML record of it)")
    ap.add_argument("--lr-per-method", action="store_true",
                    help="with --lr-from: each method at the rate the sweep chose on its own rows (by_method)")
    ap.add_argument("--rotate", action="store_true",
                    help="the order of the methods moves on by one each seed (seed i starts with the i-th method)")
    ap.add_argument("--analysis-margin", type=float, default=None, metavar="M",
                    help="after every run that finishes, rewrite the confirmatory analysis in --out "
                         "(reterm.evaluation.confirm_report, non-inferiority margin M)")
    ap.add_argument("--design", type=Path, default=None,
                    help="a locked confirmatory design (python -m reterm.evaluation.design_lock lock): --out is bound "
                         "to it before its first run (a folder bound to another, or with runs started unbound, is "
                         "refused), and --analysis-margin's analysis reports its decision rules only against it")
    ap.add_argument("--report-only", action="store_true", help="train nothing: report the finished runs")
    ap.add_argument("--reuse", type=Path, default=None,
                    help="an earlier comparison's --out: its finished runs of these methods and seeds are reported "
                         "here, not trained again (a follow-up arm beside the arms already run)")
    ap.add_argument("--eval-seed", type=int, default=1234)
    ap.add_argument("--launch", default="", help="launcher prefix, e.g. 'accelerate launch --config_file X'")
    ap.add_argument("recipe_args", nargs="*", help="after --: more recipe arguments for every method")
    a = ap.parse_args(argv)
    if a.steps < 1 or a.eval_every < 1 or not a.seeds:
        ap.error("--steps and --eval-every must be >= 1, and at least one seed is needed")
    if a.save_every is not None and (a.save_every < 1 or a.eval_every % a.save_every):
        ap.error(f"--save-every {a.save_every} must divide --eval-every {a.eval_every}: a run stops at each "
                 f"evaluation and resumes exactly only from a checkpoint its schedule has")
    if a.keep_every is not None:
        if a.keep_every < 1:
            ap.error(f"--keep-every must be >= 1, got {a.keep_every}")
        a.save_every = a.save_every or math.gcd(a.eval_every, a.keep_every)
        if a.keep_every % a.save_every:
            ap.error(f"--keep-every {a.keep_every} must be a multiple of --save-every {a.save_every}: only saved "
                     f"checkpoints can be kept")
    a.benches = {k: Path(v) for k, v in named_sets(a.bench, "--bench", ap.error, lambda v: Path(v).name).items()}
    a.bench = next(iter(a.benches.values()))
    if a.heldout and a.split:
        ap.error("--split and --heldout exclude each other (--heldout NAME=SPLIT names the split)")
    a.heldout = named_sets(a.heldout, "--heldout", ap.error)
    for m in a.methods:
        method_args(m)
    if a.reference is not None and a.reference not in a.methods:
        ap.error(f"--reference {a.reference} is not one of --methods ({' '.join(a.methods)})")
    if a.learning_rates and a.lr_from:
        ap.error("--learning-rates (a sweep) and --lr-from (a sweep's choice) exclude each other")
    if a.lr_per_method and not a.lr_from:
        ap.error("--lr-per-method reads a sweep's choice: give --lr-from")
    if a.lr_from:
        a.lr_from_rate = sweep_choice(a.lr_from, ap.error)
        a.lr_from_rates = sweep_choices(a.lr_from, a.methods, ap.error) if a.lr_per_method else None
    if a.k < 1 or a.samples < 1 or (a.max_heldout is not None and a.max_heldout < 1):
        ap.error(f"-k, --samples and --max-heldout must be >= 1; got {a.k}, {a.samples}, {a.max_heldout}")
    if a.split is not None and a.split not in SPLITS:
        ap.error(f"--split {a.split}: not a split; choose {', '.join(SPLITS)}")
    from reterm import suites

    if a.suite not in suites.names() and not Path(a.suite).is_dir():
        ap.error(f"--suite {a.suite}: neither a bundled suite ({', '.join(suites.names())}) nor a folder of tasks")
    if a.concurrency < 1 or (a.engine_batch is not None and a.engine_batch < 1):
        ap.error(f"--concurrency and --engine-batch must be >= 1; got {a.concurrency}, {a.engine_batch}")
    if a.analysis_margin is not None and a.analysis_margin < 0:
        ap.error(f"--analysis-margin is a size, >= 0; got {a.analysis_margin}")
    if a.policy == "auto":
        a.policy = "vllm" if importlib.util.find_spec("vllm") is not None else "transformers"
    for p, what in ((a.sft, "--sft"), *((b / "states", "--bench") for b in a.benches.values()),
                    (a.config, "--config")):
        if not p.exists():
            ap.error(f"{what}: {p} does not exist")
    if not a.report_only and not (a.sft / "config.json").is_file():
        ap.error(f"--sft: {a.sft} is not a model checkpoint (no config.json; an SFT stage's output folder is one)")
    for name, spec in a.heldout.items():
        if spec not in SPLITS and not Path(spec).is_dir():
            ap.error(f"--heldout {name}={spec}: neither a split of a bundled suite ({', '.join(SPLITS)}) nor a "
                     f"folder")
    return a


def named_sets(values: list[str], flag: str, error, default_name=None) -> dict[str, str]:
    """NAME=VALUE items (a bare VALUE named by `default_name`, where one is allowed) -> {name: value}, in order; a
    bad or repeated name is an `error` naming the flag."""
    out: dict = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            if default_name is None:
                error(f"{flag} {item}: expected NAME=VALUE (NAME: letters, digits, _ . -)")
            name, value = default_name(item), item
        if not value or name in out:
            error(f"{flag} {item}: {'an empty value' if not value else f'the name {name} is given twice'}")
        out[name] = value
    return out


def heldout_sets(a) -> dict[str, list]:
    """The held-out task sets by name: each --heldout (a split of --suite or a folder), or --split of --suite named
    after the split (a folder --suite after the folder); the first --max-heldout tasks of each."""
    from reterm import suites
    from reterm.options import select_tasks

    if a.heldout:
        return {name: select_tasks((), a.suite if spec in SPLITS else spec, spec if spec in SPLITS else "all")
                [:a.max_heldout] for name, spec in a.heldout.items()}
    split = a.split or "heldout_instances"
    name = split if a.suite in suites.names() else Path(a.suite).name
    return {name: select_tasks((), a.suite, split)[:a.max_heldout]}


def main(argv=None) -> int:
    a = parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        stopping.install()  # Ctrl-C / SIGTERM: sandboxes closed, what is finished kept, out within seconds
    try:  # every input read before anything is written
        heldout = heldout_sets(a)
        for name, bench in a.benches.items():
            rb.load_states(bench)
    except ValueError as e:  # TaskError, FailureStateError
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        settings = eval_settings(a.config, a.recipe_args)
    except (ValueError, RecipeError, yaml.YAMLError) as e:
        print(f"error: --config {a.config} (and the recipe arguments after --): {e}", file=sys.stderr)
        return 2
    lrs: list[float | None] = list(a.learning_rates) if a.learning_rates else [None]
    if a.lr_from and a.lr_per_method:
        arms = [(m, a.lr_from_rates[m]) for m in a.methods]
        print(f"learning rates, each method's own choice in the sweep ({a.lr_from}): "
              + ", ".join(f"{m} {lr:g}" for m, lr in arms), flush=True)
    else:
        if a.lr_from:
            lrs = [a.lr_from_rate]
            print(f"learning rate {lrs[0]:g}, chosen by the sweep ({a.lr_from})", flush=True)
        arms = [(m, lr) for lr in lrs for m in a.methods]
    a.out.mkdir(parents=True, exist_ok=True)
    if a.design is not None and not a.report_only:
        from reterm.evaluation.design_lock import DesignError, bind

        runs_dir = a.out / "runs"
        try:
            bound = bind(a.design, a.out, sorted(p for p in runs_dir.iterdir()) if runs_dir.is_dir() else [])
        except DesignError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"design: {a.design} (SHA-256 {bound['sha256'][:12]}, bound {bound['bound_at']})", flush=True)
    if a.reuse:
        linked = reuse(a, arms)
        print(f"reusing from {a.reuse}: {', '.join(linked) or 'no finished run of these methods and seeds'}",
              flush=True)
    start = evaluate(a, a.sft, a.out / "eval" / "sft" / "step-0.json", settings, heldout)
    if not (a.out / "design.md").exists():
        text = design(a, start, len(arms))
        (a.out / "design.md").write_text(text)
        print(text, flush=True)
    per_run = {}
    for i, seed in enumerate(a.seeds):  # seed by seed: after each, every arm has a comparable run
        turn = i % len(arms) if a.rotate else 0
        for method, lr in arms[turn:] + arms[:turn]:
            run = a.out / "runs" / run_name(method, seed, lr)
            if a.report_only and not (run / "DONE").exists():
                continue
            # trained to each evaluation point and evaluated there before it goes on: the curve grows as the run
            # does, and a run cut off (a machine stopped or lost) has its evaluated steps reported
            for until in ([a.steps] if a.report_only else stops(a.steps, a.eval_every)):
                train(a, method, seed, lr, until)
                per_run[run.name] = run_record(a, run, method, seed, lr, start, settings, heldout)
                report(a, start, per_run, arms, final=False)  # partial results as each evaluation ends
            prune(run, a.steps, a.eval_every, a.keep_every)
            if a.analysis_margin is not None and not a.report_only:
                analysis(a)
    md = report(a, start, per_run, arms, final=not a.report_only)
    if a.analysis_margin is not None:
        analysis(a)
    print(md)
    print(f"wrote {a.out / 'table.md'}, {a.out / 'runs.md'}, {a.out / 'results.json'}, {a.out / 'compare.png'}"
          + (f", {a.out / 'chosen_lr.json'}" if a.learning_rates else "")
          + (f", {a.out / 'analysis.md'}" if a.analysis_margin is not None else ""))
    return 0


def analysis(a) -> None:
    """The confirmatory analysis of what is finished so far, rewritten in --out. A failure here is said and the runs
    go on: the analysis can be written again at any time (python -m reterm.evaluation.confirm_report)."""
    from reterm.evaluation.confirm_report import write_report

    try:
        paths = write_report(a.out, a.out, margin=a.analysis_margin, design=a.design,
                             check_design=a.design is not None)
    except Exception as e:  # noqa: BLE001 - hours of training must not stop on the report
        print(f"analysis not written: {type(e).__name__}: {e}", flush=True)
        return
    print("analysis: " + "  ".join(map(str, paths)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
