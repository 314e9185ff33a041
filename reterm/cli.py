"""The `reterm` command line."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from reterm import stopping, suites
from reterm.agent.formats import FORMATS
from reterm.evaluation.metrics import summarize_eval
from reterm.progress import progress_bar
from reterm.options import (BACKENDS, BASE_IMAGE, DEFAULT_MODEL, MODEL_HELP, POLICIES, REPLY_TOKENS, SPLIT_HELP,
                            SPLITS, open_backend, select_tasks)
from reterm.sandbox import SandboxError
from reterm.sandbox.images import BASE_PACKAGES, build_base
from reterm.tasks import TaskError, validate_paths

# Imported where used, so `reterm --help` stays fast: the episode loop, policies, trials and the recovery benchmark
# (they pull in the model loader and both sandbox backends), and gc (the local backend).

console = Console(stderr=True, soft_wrap=True)  # never fold a path or an error message
EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    sys.exit(EXIT_BAD_INPUT)


# Flags take dashes (--max-turns), as the scripts and job runners do; the TRL recipes take their config fields'
# names with underscores (--refill_tries). docs/cli.md is generated from this file's --help (scripts/cli_reference.py).
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="reterm")
def main() -> None:
    """ReTerm: train terminal agents to recover from their own failures."""
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero


def _resolve_task_paths(paths: tuple[str, ...], suite: str | None, split: str,
                        skip_broken: bool = False) -> list:
    broken: list | None = [] if skip_broken else None
    try:
        return select_tasks(paths, suite, split, broken)
    except (TaskError, ValueError) as e:
        _fail(str(e))
    finally:
        for e in broken or []:  # as evaluation harnesses do: report each broken task, run the rest
            console.print(f"[yellow]skipped broken task[/] {escape(str(e))}", highlight=False)


def _with(opts: list):
    """A decorator applying click decorators `opts` in the order given (so they list in that order in --help)."""
    def decorate(f):
        for opt in reversed(opts):
            f = opt(f)
        return f
    return decorate


def task_options(default_split: str):
    """Task dirs and/or a suite, as every command that runs tasks takes them (`reterm.options.select_tasks`)."""
    return _with([
        click.argument("task_paths", nargs=-1, type=click.Path()),
        click.option("--suite", help="a bundled task suite (or a directory of task dirs), instead of or besides "
                                     "paths (default without paths: basic)"),
        click.option("--split", type=click.Choice(SPLITS), default=default_split, show_default=True,
                     help=SPLIT_HELP),
    ])


skip_broken_option = click.option(
    "--skip-broken", is_flag=True, help="skip tasks that do not load (each is reported) instead of exiting 2")

# Options shared by every command that runs a model.
model_options = _with([
    click.option("--model", "-m", default=DEFAULT_MODEL, show_default=True,
                 help=MODEL_HELP),
    click.option("--policy", type=click.Choice(POLICIES), default="transformers", show_default=True,
                 help="how the model is run"),
    click.option("--base-url", help="openai policy: the endpoint's /v1 URL (or OPENAI_BASE_URL)"),
    click.option("--format", "reply_format", type=click.Choice(list(FORMATS)), default="simple", show_default=True,
                 help="reply format the model is prompted with"),
    click.option("--max-turns", type=click.IntRange(1, 1000), default=10, show_default=True),
    click.option("--max-new-tokens", type=click.IntRange(1, 32768), default=REPLY_TOKENS, show_default=True,
                 help="tokens the model may generate per turn"),
    click.option("--temperature", type=click.FloatRange(0, 5), default=0.7, show_default=True),
    click.option("--seed", type=int, default=None, help="sampling seed"),
])


def _make_model_agent(model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed,
                      concurrency):
    from reterm.agent.episode import EpisodeConfig
    from reterm.agent.policies import make_policy
    from reterm.agent.policy import SamplingConfig
    from reterm.evaluation.trials import ModelAgent

    sampling = SamplingConfig(max_new_tokens=max_new_tokens, temperature=temperature, seed=seed)
    kw = {"base_url": base_url, "concurrency": concurrency} if policy == "openai" else {}
    if policy in ("transformers", "vllm"):  # batching policies: a batch can hold every concurrent episode
        kw = {"max_batch": max(1, concurrency)}
    console.print(f"loading policy [bold]{policy}[/] model [bold]{escape(str(model))}[/]")
    try:
        pol = make_policy(policy, model, sampling, **kw)
    except (ImportError, ValueError, OSError, FileNotFoundError) as e:
        _fail(str(e))
    return ModelAgent(pol, EpisodeConfig(format=reply_format, max_turns=max_turns))


def _progress(*extra: str) -> Progress:
    """The progress bar every long command shows; `extra` are text columns over the task's fields."""
    return progress_bar(*extra, console=console)


def _run_with_progress(tasks, be, agent, out: Path, concurrency: int, samples: int = 1) -> dict:
    from reterm.evaluation.trials import run_tasks

    with _progress("passed {task.fields[passed]}  infra {task.fields[infra]}") as bar:
        pid = bar.add_task("trials", total=len(tasks) * samples, passed=0, infra=0)
        counts = {"passed": 0, "infra": 0}

        def on_result(row):
            counts["passed"] += bool(row["passed"])
            counts["infra"] += bool(row["infra_error"])
            if row["infra_error"]:
                bar.console.print(f"[yellow]infra error[/] {row['task_id']}: {escape(row['infra_error'][:300])}")
            bar.update(pid, advance=1, **counts)

        return run_tasks(tasks, be, agent, out, concurrency, on_result, samples=samples)


def _backend_and_output(backend, image_map, allow_internet, output, default_name):
    try:
        be = open_backend(backend, image_map, allow_internet)
    except (ValueError, SandboxError) as e:
        _fail(str(e))
    out = Path(output or f"runs/{time.strftime('%Y%m%d-%H%M%S')}-{default_name}")
    if (out / "results.jsonl").exists():
        _fail(f"{out / 'results.jsonl'} already exists; choose another --output so no results are overwritten")
    return be, out


def _use_docker_hosts(ctx, param, value):
    """Validates --docker-hosts and hands it to the docker backend through its environment variable, which every
    command that makes a backend (and `sandbox gc`) reads."""
    if value:
        from reterm.sandbox.docker_engines import ENV_HOSTS, parse_docker_hosts

        try:
            parse_docker_hosts(value)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
        os.environ[ENV_HOSTS] = value
    return value


docker_hosts_option = click.option(
    "--docker-hosts", metavar="URL[=N],...", expose_value=False, callback=_use_docker_hosts,
    help="docker backend: a pool of engines (unix:///x.sock, tcp://host:2376 with DOCKER_TLS_VERIFY/"
         "DOCKER_CERT_PATH, ssh://user@host), each with room for N sandboxes (default 64); also "
         "RETERM_DOCKER_HOSTS. Default: the one engine DOCKER_HOST names")


_SANDBOX_OPTIONS = [
    docker_hosts_option,
    click.option("--backend", type=click.Choice(BACKENDS), default="auto", show_default=True,
                 help="auto = docker when a daemon answers, else local (bubblewrap)"),
    click.option("--image-map", "image_map", multiple=True, metavar="SRC=DST",
                 help="run tasks whose image is SRC on local image DST (repeatable; also RETERM_IMAGE_MAP=a=b,c=d)"),
    click.option("--allow-internet", is_flag=True, help="let tasks that ask for network have it (off by default)"),
    click.option("--concurrency", "-j", type=click.IntRange(1, 256), default=2, show_default=True),
]


def sandbox_options(output_help: str | None):
    """--docker-hosts, --backend, --image-map, --allow-internet, -j and, with `output_help`, -o/--output."""
    output = [click.option("--output", "-o", type=click.Path(file_okay=False), default=None, help=output_help)]
    return _with(_SANDBOX_OPTIONS + (output if output_help else []))


@main.command()
@task_options(default_split="all")
@click.option("--agent", type=click.Choice(["oracle", "nop", "model"]), default="oracle", show_default=True,
              help="oracle: the reference solution; nop: nothing; model: a language model (see --model)")
@skip_broken_option
@sandbox_options("run directory (default: runs/<timestamp>-<agent>)")
@model_options
def run(task_paths, suite, split, agent, skip_broken, backend, image_map, allow_internet, concurrency, output, model,
        policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed) -> None:
    """Run an agent on tasks: build, start, act, verify, close. Writes results.jsonl, summary.json, per-trial logs
    under trials/ and, for models, trajectories.jsonl."""
    tasks = _resolve_task_paths(task_paths, suite, split, skip_broken)
    be, out = _backend_and_output(backend, image_map, allow_internet, output, agent)
    agent_obj = agent if agent != "model" else _make_model_agent(
        model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed, concurrency)
    console.print(f"running {len(tasks)} task(s) with agent [bold]{agent}[/] on the [bold]{be.name}[/] backend "
                  f"-> {escape(str(out))}")
    summary = _run_with_progress(tasks, be, agent_obj, out, concurrency)
    click.echo(json.dumps(summary))


@main.command("eval")
@task_options(default_split="heldout")
@click.option("-k", "k", type=click.IntRange(1, 1000), default=1, show_default=True, help="samples per task")
@skip_broken_option
@sandbox_options("run directory (default: runs/<timestamp>-eval)")
@model_options
def eval_cmd(task_paths, suite, split, k, skip_broken, backend, image_map, allow_internet, concurrency, output, model,
             policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed) -> None:
    """pass@1 and unbiased pass@k of a model over K samples per task, per family and category."""
    tasks = _resolve_task_paths(task_paths, suite, split, skip_broken)
    be, out = _backend_and_output(backend, image_map, allow_internet, output, "eval")
    agent_obj = _make_model_agent(model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature,
                                  seed, concurrency)
    console.print(f"evaluating {escape(str(model))} on {len(tasks)} task(s) x {k} sample(s) on the {be.name} backend "
                  f"-> {escape(str(out))}")
    _run_with_progress(tasks, be, agent_obj, out, concurrency, samples=k)
    report = _write_eval(out, model, policy, reply_format, k)
    cols = ["pass@1"] + ([f"pass@{k}"] if k > 1 else [])
    table = Table("group", "name", "tasks", *cols, "pass@1 95% CI", "infra")
    fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    rows = [("overall", "", report["overall"])] + [(g[3:], name, agg) for g in ("by_category", "by_family")
                                                   for name, agg in report[g].items()]
    for group, name, agg in rows:
        table.add_row(group, name, str(agg["tasks"]), *(fmt(agg[c]) for c in cols), _interval(agg["pass@1_ci95"]),
                      str(agg["infra_errors"]))
    Console().print(table)
    click.echo(json.dumps({"model": model, **report["overall"], "k": k, "output": str(out)}))


def _write_eval(out: Path, model, policy, reply_format, k: int, rows: list[dict] | None = None) -> dict:
    """OUT/eval.json from the trials' rows (OUT/results.jsonl unless given): pass@1 (and pass@k) overall, per category
    and per family."""
    if rows is None:
        rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    report = {"model": model, "policy": policy, "format": reply_format, **summarize_eval(rows, k)}
    (out / "eval.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def _write_recovery(out: Path, model, bench: Path, report: dict, k: int) -> dict:
    """OUT/recovery.json and OUT/recovery.png from a recovery benchmark's evaluation."""
    out.mkdir(parents=True, exist_ok=True)
    report = {"model": model, "bench": str(bench), **report}
    (out / "recovery.json").write_text(json.dumps(report, indent=2) + "\n")
    from reterm.evaluation import recovery_bench as rb

    rb.plot(report, out / "recovery.png", f"recovery rate per error category: {Path(model).name} (k={k})")
    return report


def _interval(ci: list[float] | None) -> str:
    """A report's 95% interval as a table cell."""
    return "-" if ci is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


@main.group("recovery-bench")
def recovery_bench() -> None:
    """Frozen failure states, and how often a policy recovers from each kind."""


@recovery_bench.command("build")
@task_options(default_split="heldout")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False), help="benchmark directory")
@click.option("--max-states-per-episode", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="keep at most this many error states from one episode (distinct categories first)")
@click.option("--samples", type=click.IntRange(1, 64), default=1, show_default=True,
              help="episodes per task (a strong policy fails rarely: more episodes give more states)")
@click.option("--max-family-share", type=click.FloatRange(0, 1, min_open=True), default=None,
              help="no family keeps more than this share of the states (e.g. 0.2); the rest are dropped, spread "
                   "over each family's task instances")
@skip_broken_option
@sandbox_options(None)  # the benchmark goes to --out
@model_options
def recovery_bench_build(task_paths, suite, split, out_dir, max_states_per_episode, samples, max_family_share,
                         skip_broken, backend, image_map, allow_internet, concurrency, model, policy, base_url,
                         reply_format, max_turns, max_new_tokens, temperature, seed) -> None:
    """Run a policy on tasks and freeze the error states of its failed episodes into OUT."""
    from reterm.evaluation import recovery_bench as rb

    tasks = _resolve_task_paths(task_paths, suite, split, skip_broken)
    out = Path(out_dir)
    if (out / "manifest.json").exists():
        _fail(f"{out} already holds a recovery benchmark; choose another --out")
    be, _ = _backend_and_output(backend, image_map, allow_internet, None, "unused")
    agent = _make_model_agent(model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed,
                              concurrency)
    with _progress("states {task.fields[states]}") as bar:
        pid = bar.add_task("episodes", total=len(tasks) * samples, states=0)
        n = {"states": 0}

        def on_episode(traj, states):
            n["states"] += len(states)
            bar.update(pid, advance=1, states=n["states"])

        summary = rb.build(agent.policy, tasks, be, out, agent.config, concurrency, on_episode,
                           max_states_per_episode, samples, max_family_share)
    click.echo(json.dumps({k: summary[k] for k in ("episodes", "states", "dropped_for_balance", "by_family",
                                                   "by_category")}))


@recovery_bench.command("thin")
@click.argument("bench_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--max-states", type=click.IntRange(1), required=True,
              help="states kept: families in turn, then each family's task instances in turn, by state id only")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="the smaller benchmark (replaced if it holds an earlier thinning)")
def recovery_bench_thin(bench_dir, max_states, out_dir) -> None:
    """A smaller benchmark from a frozen one, chosen by state ids alone (no outcome is read), every family kept."""
    from reterm.evaluation import recovery_bench as rb

    try:
        summary = rb.thin(Path(bench_dir), Path(out_dir), max_states)
    except (OSError, ValueError) as e:  # a missing or bad source, an out that is not ours to replace
        _fail(str(e))
    click.echo(json.dumps({k: summary[k] for k in ("states", "thinned_from", "by_family", "by_category")}))


@recovery_bench.command("eval")
@click.argument("bench_dir", type=click.Path(exists=True, file_okay=False))
@click.option("-k", "k", type=click.IntRange(1, 64), default=4, show_default=True, help="attempts per state")
@sandbox_options("where the attempts and their report go (default: BENCH_DIR/eval-<model name>-<timestamp>)")
@model_options
def recovery_bench_eval(bench_dir, k, backend, image_map, allow_internet, concurrency, output, model, policy,
                        base_url, reply_format, max_turns, max_new_tokens, temperature, seed) -> None:
    """Continue every frozen state K times; recovery rate per error category (table, JSON, PNG)."""
    from reterm.evaluation import recovery_bench as rb
    from reterm.evaluation import sets as es

    bench = Path(bench_dir)
    try:  # checked before the model loads: a folder that is no benchmark, no states, states another backend made
        states = es.load_bench(bench, "recovery-bench eval")
        backend = es.restore_backend(states, backend, str(bench))
    except ValueError as e:
        _fail(str(e))
    be, _ = _backend_and_output(backend, image_map, allow_internet, None, "unused")
    out = Path(output or bench / f"eval-{Path(model).name}-{time.strftime('%Y%m%d-%H%M%S')}")
    if (out / "recovery.json").exists():
        _fail(f"{out / 'recovery.json'} already exists; choose another --output")
    agent = _make_model_agent(model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed,
                              concurrency)
    with _progress() as bar:
        pid = bar.add_task("attempts", total=len(states) * k)
        try:
            report = rb.evaluate(agent.policy, bench, be, k, agent.config, concurrency,
                                 lambda row: bar.update(pid, advance=1), states=states)
        except ValueError as e:
            _fail(str(e))
    report = _write_recovery(out, model, bench, report, k)
    table = Table("error category", "states", "attempts", "recovered", "infra", "recovery rate", "95% CI")
    for cat, row in report["by_category"].items():
        rate = "-" if row["recovery_rate"] is None else f"{row['recovery_rate']:.3f}"
        table.add_row(cat, str(row["states"]), str(row["attempts"]), str(row["recovered"]),
                      str(row["infra_errors"]), rate, _interval(row["ci95"]))
    Console().print(table)
    click.echo(json.dumps({"model": model, **report["overall"], "output": str(out)}))


@main.command("eval-sets")
@click.option("--tasks", "task_items", multiple=True, metavar="NAME=WHERE",
              help="a task set, pass@1 over its episodes: WHERE is a folder of task dirs (or a suite folder) or "
                   "SUITE:SPLIT of a bundled suite (repeatable)")
@click.option("--recovery", "recovery_items", multiple=True, metavar="NAME=BENCH[:K]",
              help="a frozen recovery benchmark (`recovery-bench build --out`), K attempts a state (repeatable)")
@click.option("-k", "k", type=click.IntRange(1, 64), default=4, show_default=True,
              help="attempts a state where a --recovery set gives no K")
@click.option("--samples", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="episodes a task in the task sets")
@click.option("--recovery-turns", type=click.IntRange(1, 1000), default=3, show_default=True,
              help="turns of a recovery attempt (--max-turns is a task episode's)")
@click.option("--engine-batch", type=click.IntRange(1, 1024), default=64, show_default=True,
              help="sequences the engine runs at once (transformers and vllm policies; with openai, requests in "
                   "flight)")
@sandbox_options("the folder that holds a folder per set (required)")
@model_options
def eval_sets(task_items, recovery_items, k, samples, recovery_turns, engine_batch, backend, image_map,
              allow_internet, concurrency, output, model, policy, base_url, reply_format, max_turns, max_new_tokens,
              temperature, seed) -> None:
    """One model on several task sets and recovery benchmarks at once, on one engine: each set's files in
    OUT/<name>/, as `reterm eval` and `reterm recovery-bench eval` write them alone, and OUT/eval-sets.json (each set's
    overall figures, the wall, the engine's account). -j is each set's tasks or states in flight."""
    from reterm.agent.episode import EpisodeConfig
    from reterm.evaluation import sets as es

    if not output:
        _fail("eval-sets: give --output / -o, the folder that holds a folder per set")
    out = Path(output)
    try:
        task_sets = es.parse_task_sets(task_items, lambda suite, split: select_tasks((), suite, split))
        recovery_sets = es.parse_recovery_sets(recovery_items, k)
        es.check_names(task_sets, recovery_sets, out)
        backend = es.backend_for(recovery_sets, backend)
    except (TaskError, ValueError) as e:
        _fail(str(e))
    try:
        be = open_backend(backend, image_map, allow_internet)
    except (ValueError, SandboxError) as e:
        _fail(str(e))
    agent = _make_model_agent(model, policy, base_url, reply_format, max_turns, max_new_tokens, temperature, seed,
                              engine_batch)
    recovery_config = EpisodeConfig(format=reply_format, max_turns=recovery_turns)
    totals = {s.name: len(s.tasks) * samples for s in task_sets}
    for s in recovery_sets:
        totals[s.name] = len(s.states) * s.k
    console.print(f"evaluating {escape(str(model))} on {len(totals)} set(s) at once ({', '.join(totals)}) on the "
                  f"{be.name} backend -> {escape(str(out))}")
    started = time.monotonic()
    try:
        with _progress("passed {task.fields[passed]}  infra {task.fields[infra]}") as bar:
            ids = {name: bar.add_task(name, total=n, passed=0, infra=0) for name, n in totals.items()}
            counts = {name: [0, 0] for name in totals}
            lock = threading.Lock()

            def on_row(name, row):
                with lock:
                    counts[name][0] += bool(row["passed"])
                    counts[name][1] += bool(row["infra_error"])
                    bar.update(ids[name], advance=1, passed=counts[name][0], infra=counts[name][1])

            results = es.run(agent.policy, be, task_sets, recovery_sets, agent.config, recovery_config, concurrency,
                             out, samples, on_row)
    finally:
        agent.policy.close()
    if stopping.STOP.is_set():  # a set cut short is not a result: nothing is written beside its trials
        raise stopping.stopped()
    for s in task_sets:
        if results[s.name][0] == "tasks":
            _write_eval(out / s.name, model, policy, reply_format, samples, results[s.name][1])
    for s in recovery_sets:
        if results[s.name][0] == "recovery":
            _write_recovery(out / s.name, model, s.bench, results[s.name][1], s.k)
    summary = es.summary(results, model, time.monotonic() - started, engine_batch, concurrency,
                         getattr(agent.policy, "stats", {}) or {})
    (out / "eval-sets.json").write_text(json.dumps(summary, indent=2) + "\n")
    click.echo(json.dumps(summary))
    failed = {name: data for name, (kind, data) in results.items() if kind == "error"}
    for name, e in failed.items():
        console.print(f"[bold red]error:[/] set {name} failed: {type(e).__name__}: {escape(str(e))}", highlight=False)
    if failed:  # the other sets' files are written; the failed ones' trials stay for a look
        sys.exit(1)


@main.group()
def tasks() -> None:
    """Inspect and check task directories."""


@tasks.command("validate")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
def tasks_validate(paths) -> None:
    """Check every task under PATHS; exit 2 if any is broken (each error names the file and line)."""
    try:
        ok, errors = validate_paths(paths)
    except TaskError as e:
        _fail(str(e))
    for e in errors:
        console.print(f"[red]✗[/] {escape(str(e))}", highlight=False)
    console.print(f"{len(ok)} valid, {len(errors)} broken")
    if errors:
        sys.exit(EXIT_BAD_INPUT)


@tasks.command("list")
@task_options(default_split="all")
def tasks_list(task_paths, suite, split) -> None:
    """One line per task: id, family, its kind of work, split, category, format. A bundled task's split comes from
    its task.toml (`split`, and `heldout` = compositional or novel for a held-out family)."""
    header = ("task", "family", "kind", "split", "category", "format")
    rows = []
    for t in _resolve_task_paths(task_paths, suite, split):
        where = t.metadata.get("split", "")
        if t.metadata.get("heldout"):
            where += f" ({t.metadata['heldout']})"
        rows.append(tuple(str(x) for x in (t.id, t.family or "", t.metadata.get("kind", ""), where,
                                            t.category or "", t.format)))
    out = Console()
    if not out.is_terminal:  # piped or redirected: one tab-separated line a task, for grep, cut and sort
        for row in [header, *rows]:
            click.echo("\t".join(row))
        return
    table = Table(*header)
    for row in rows:
        table.add_row(*row)
    out.print(table)


@main.group()
def images() -> None:
    """Docker images ReTerm builds."""


@images.command("build-base")
@click.option("--tag", default=BASE_IMAGE, show_default=True)
@click.option("--mirror", help="Debian mirror URL (default: the one this machine's apt uses)")
@click.option("--force", is_flag=True, help="rebuild even if the image exists")
@click.option("--packages", default=None, metavar="PKG,PKG,...",
              help="Debian packages to install (default: python3 as python, pytest, pip, git, gcc/g++/make, openssl, "
                   "curl, wget, sqlite3, jq and other everyday tools); '+PKG,...' adds to the default set")
def images_build_base(tag, mirror, force, packages) -> None:
    """Build the offline base image (debootstrap minbase + everyday tools) and import it into Docker; prints its
    size."""
    repo, colon, version = tag.partition(":")
    if not repo or not colon or not version or "/" in version:
        _fail(f"--tag {tag}: give NAME:VERSION, e.g. {BASE_IMAGE}")
    pkgs = BASE_PACKAGES
    if packages:
        extra = tuple(p.strip() for p in packages.lstrip("+").split(",") if p.strip())
        if not extra or any(not re.fullmatch(r"[a-z0-9][a-z0-9+.-]*", p) for p in extra):
            _fail(f"--packages {packages}: Debian package names, comma-separated (lowercase letters, digits, + . -)")
        pkgs = BASE_PACKAGES + extra if packages.startswith("+") else extra
    try:
        build_base(tag, mirror, force, log=lambda m: console.print(m, highlight=False, markup=False), packages=pkgs)
    except Exception as e:
        console.print(f"[bold red]error:[/] {escape(str(e))}", highlight=False)
        sys.exit(1)


@main.group()
def sandbox() -> None:
    """Sandbox maintenance."""


@sandbox.command("gc")
@click.option("--all-hosts", is_flag=True, help="also remove resources owned by processes on other hosts (every "
                                                "engine of the pool is always cleaned)")
@docker_hosts_option
@click.option("--no-docker", is_flag=True, help="skip the Docker engine")
def sandbox_gc(all_hosts, no_docker) -> None:
    """Remove containers, snapshot images, state dirs and cgroups left by runs that are no longer alive, on every
    engine of the docker pool."""
    from reterm.sandbox.gc import gc

    try:
        report = gc(all_hosts=all_hosts, docker=not no_docker)
    except ValueError as e:  # a bad RETERM_DOCKER_HOSTS (the option itself is checked by click)
        _fail(str(e))
    if report.docker_error and not no_docker:
        console.print(f"[yellow]docker skipped:[/] {escape(str(report.docker_error))}", highlight=False)
    click.echo(json.dumps({"containers": len(report.containers), "images": len(report.images),
                           "state_dirs": len(report.state_dirs), "cgroups": report.cgroups}))


@main.group("suite")
def suite_cmd() -> None:
    """Bundled task suites."""


@suite_cmd.command("path")
@click.argument("name", default="basic")
def suite_path(name) -> None:
    """Print where a bundled suite's tasks are."""
    try:
        click.echo(suites.tasks_dir(name))
    except ValueError as e:
        _fail(str(e))


if __name__ == "__main__":
    main()
