"""The `reterm` command line."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from reterm import suites
from reterm.tasks import TaskError, load_tasks, validate_paths

console = Console(stderr=True, soft_wrap=True)  # never fold a path or an error message
EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(EXIT_BAD_INPUT)


def _terminate(signum, frame):  # SIGTERM -> SystemExit, so atexit closes every sandbox and snapshot
    raise SystemExit(128 + signum)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="reterm")
def main() -> None:
    """ReTerm: train terminal agents to recover from their own failures."""
    signal.signal(signal.SIGTERM, _terminate)


def _resolve_task_paths(paths: tuple[str, ...], suite: str | None, split: str) -> list:
    if not paths and not suite:
        suite = "basic"  # the embedded default
    try:
        tasks = load_tasks(paths) if paths else []
        if suite:
            tasks += suites.load(suite, split)
    except (TaskError, ValueError) as e:
        _fail(str(e))
    if not tasks:
        _fail("no tasks selected")
    return tasks


@main.command()
@click.argument("task_paths", nargs=-1, type=click.Path())
@click.option("--suite", help="a bundled task suite instead of (or besides) paths (default without paths: basic)")
@click.option("--split", type=click.Choice(["all", "train", "heldout"]), default="all", show_default=True,
              help="with --suite: which split of it")
@click.option("--agent", type=click.Choice(["oracle", "nop"]), default="oracle", show_default=True)
@click.option("--backend", type=click.Choice(["auto", "docker", "local"]), default="auto", show_default=True,
              help="auto = docker when a daemon answers, else local (bubblewrap)")
@click.option("--image-map", "image_map", multiple=True, metavar="SRC=DST",
              help="run tasks whose image is SRC on local image DST (repeatable; also RETERM_IMAGE_MAP=a=b,c=d)")
@click.option("--allow-internet", is_flag=True, help="let tasks that ask for network have it (off by default)")
@click.option("--concurrency", "-j", type=click.IntRange(1, 256), default=2, show_default=True)
@click.option("--output", "-o", type=click.Path(file_okay=False), default=None,
              help="run directory (default: runs/<timestamp>)")
def run(task_paths, suite, split, agent, backend, image_map, allow_internet, concurrency, output) -> None:
    """Run an agent on tasks: build, start, act, verify, close. Writes results.jsonl and summary.json."""
    from reterm.runner import run_tasks
    from reterm.sandbox import SandboxError, make_backend
    from reterm.sandbox.dockerfile import parse_image_map

    tasks = _resolve_task_paths(task_paths, suite, split)
    try:
        mapping = parse_image_map(image_map)
        be = make_backend(backend, image_map=mapping, allow_internet=allow_internet)
    except (ValueError, SandboxError) as e:
        _fail(str(e))
    out = Path(output or f"runs/{time.strftime('%Y%m%d-%H%M%S')}-{agent}")
    if (out / "results.jsonl").exists():
        _fail(f"{out / 'results.jsonl'} already exists; choose another --output so no results are overwritten")
    console.print(f"running {len(tasks)} task(s) with agent [bold]{agent}[/] on the [bold]{be.name}[/] backend "
                  f"-> {out}")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("passed {task.fields[passed]}  infra {task.fields[infra]}"), console=console) as bar:
        pid = bar.add_task("trials", total=len(tasks), passed=0, infra=0)
        counts = {"passed": 0, "infra": 0}

        def on_result(row):
            counts["passed"] += bool(row["passed"])
            counts["infra"] += bool(row["infra_error"])
            if row["infra_error"]:
                bar.console.print(f"[yellow]infra error[/] {row['task_id']}: {row['infra_error'][:300]}")
            bar.update(pid, advance=1, **counts)

        summary = run_tasks(tasks, be, agent, out, concurrency, on_result)
    click.echo(json.dumps(summary))


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
        console.print(f"[red]✗[/] {e}", highlight=False)
    console.print(f"{len(ok)} valid, {len(errors)} broken")
    if errors:
        sys.exit(EXIT_BAD_INPUT)


@tasks.command("list")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--suite")
@click.option("--split", type=click.Choice(["all", "train", "heldout"]), default="all")
def tasks_list(paths, suite, split) -> None:
    """One line per task: id, format, category, family."""
    table = Table("task", "format", "category", "family")
    for t in _resolve_task_paths(paths, suite, split):
        table.add_row(t.id, t.format, t.category or "", t.family or "")
    Console().print(table)


@main.group()
def images() -> None:
    """Docker images ReTerm builds."""


@images.command("build-base")
@click.option("--tag", default="reterm/base:bookworm", show_default=True)
@click.option("--mirror", help="Debian mirror URL (default: the one this machine's apt uses)")
@click.option("--force", is_flag=True, help="rebuild even if the image exists")
def images_build_base(tag, mirror, force) -> None:
    """Build the offline base image (debootstrap minbase + python3, pytest, procps) and import it into Docker."""
    from reterm.images import build_base

    try:
        build_base(tag, mirror, force, log=lambda m: console.print(m, highlight=False))
    except Exception as e:
        console.print(f"[bold red]error:[/] {e}", highlight=False)
        sys.exit(1)


@main.group()
def sandbox() -> None:
    """Sandbox maintenance."""


@sandbox.command("gc")
@click.option("--all-hosts", is_flag=True, help="also remove resources owned by processes on other hosts")
@click.option("--no-docker", is_flag=True, help="skip the Docker engine")
def sandbox_gc(all_hosts, no_docker) -> None:
    """Remove containers, snapshot images, state dirs and cgroups left by runs that are no longer alive."""
    from reterm.sandbox.gc import gc

    report = gc(all_hosts=all_hosts, docker=not no_docker)
    if report.docker_error and not no_docker:
        console.print(f"[yellow]docker skipped:[/] {report.docker_error}", highlight=False)
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
