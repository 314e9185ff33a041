"""The main job: every stage of recipes/configs/<model>/main_job.yaml in order, resumable, then the report.

    .venv/bin/python recipes/main_job.py [--quick] [--config FILE] [--run-dir DIR] [--set NAME=VALUE ...]
    .venv/bin/python recipes/main_job.py --plan      # what would run, what is done, and why; runs nothing
    .venv/bin/python recipes/main_job.py --until sft2   # the stages up to sft2 only (the compare job's start)
    kill -INT $(cat RUN_DIR/job.pid)                 # stop a job running in the background, as Ctrl-C does
    .venv/bin/python recipes/main_job.py --pin ...   # run the commit checked out now, now and on every resume

`scripts/train.sh` runs it after the set-up (QUICK=1: `--quick`); any job config runs the same way (`--config
recipes/configs/smollm2-135m/compare_job.yaml`). The runner is reterm/jobs.py, which says how stages are skipped,
continued and redone. A job whose config says `pin_code: true` (the confirmatory comparison), or one started with
`--pin`, runs the commit it first started with from a clone in its run folder, whatever the checkout holds later
(reterm/code_pin.py).
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from reterm import code_pin  # noqa: E402
from reterm.jobs import PINNED_CODE as CODE  # noqa: E402
from reterm.jobs import JobError, job_home, refuse_if_running, run_job  # noqa: E402

DEFAULT_CONFIG = ROOT / "recipes/configs/smollm2-135m/main_job.yaml"


# Flags: this driver, like the `reterm` CLI and the scripts, takes dashes (`--run-dir`); the training recipes it runs
# take TRL's field names with underscores (`--max_steps`), as their YAML keys are written.
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG,
                    help=f"the job's stages (default: {DEFAULT_CONFIG.relative_to(ROOT)})")
    ap.add_argument("--quick", action="store_true", help="every stage at toy size, in the config's quick_run_dir")
    ap.add_argument("--run-dir", help="where the stages write (default: the config's run_dir, or RETERM_RUN_DIR)")
    ap.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE",
                    help="override a setting of the config (model, engine, python, ...)")
    ap.add_argument("--report-dir", type=Path, help="where report.md and report.png go (default: runs/<date>, "
                                                   "runs/<date>-quick with --quick)")
    ap.add_argument("--plan", action="store_true", help="say what would run and why; run nothing")
    ap.add_argument("--until", metavar="STAGE", help="stop after this stage (the stages before it run as usual; no "
                                                     "report), e.g. --until sft2 for another job's start")
    ap.add_argument("--pin", action="store_true", help="run the checkout's current commit from a clone in the run "
                                                       "folder, now and whenever the job continues (as the config's "
                                                       "pin_code: true); a pinned run folder stays pinned")
    ap.add_argument("--repin", action="store_true", help="move a pinned run folder to the checkout's current commit "
                                                         "(finished stages stay as they are; code.json keeps the "
                                                         "earlier pin)")
    args = ap.parse_args(argv)
    try:
        rd, pin = job_home(args.config, args.quick, args.run_dir, args.overrides)
        rd = rd.resolve()
        record = code_pin.pinned(rd)
        if args.plan and not args.repin and (record is None or not code_pin.copy_ready(rd)):
            # a plan writes nothing: it says what a start would pin or make, and plans from this checkout
            if record is None and (args.pin or pin):
                print(f"code: a start pins this checkout's commit {code_pin.head(ROOT) or '(none: not a git checkout)'}"
                      f" and runs from {rd / CODE}")
            elif record is not None:
                print(f"code: pinned to commit {record['commit'][:12]}; a start makes {rd / CODE} again from it")
        elif args.pin or args.repin or pin or record is not None:
            if not args.plan:  # before anything is pinned or made: a running job's copy is its code
                refuse_if_running(rd)
            return _run_pinned(args, rd)
    except JobError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return run_job(args.config, args.quick, args.run_dir, args.overrides, args.report_dir, args.plan, args.until)


def _run_pinned(args, run_dir: Path) -> int:
    """The job from its pinned code (reterm/code_pin.py): this process goes on as the pinned copy of this program
    when it is not that copy already."""
    if ROOT.resolve() == (run_dir / CODE).resolve():
        code_pin.ensure(run_dir, ROOT)  # the copy as committed, at the pinned commit
        return run_job(args.config, args.quick, str(run_dir), args.overrides, args.report_dir, args.plan, args.until)
    config = args.config.resolve()
    inside = ROOT.resolve() in config.parents  # the job's own config: run as the pinned commit holds it
    code, record, action = (code_pin.repin if args.repin else code_pin.ensure)(run_dir, ROOT)
    commit, here = record["commit"], code_pin.head(ROOT)
    if inside:
        config = code / config.relative_to(ROOT.resolve())
        if not config.is_file():
            raise JobError(f"{args.config}: not in the pinned commit {commit[:12]} (added since?); a pinned job runs "
                           f"its config as that commit holds it (--repin moves the pin to this checkout's commit)")
    what = {"pinned": f"pinned now, at its first start, to this checkout's commit {commit[:12]}",
            "repinned": f"pinned again, now, to this checkout's commit {commit[:12]} (until now "
                        f"{record['earlier'][-1]['commit'][:12] if record.get('earlier') else '?'})",
            "remade": f"pinned {record['pinned_at']} to commit {commit[:12]}, its copy made again",
            "kept": f"pinned {record['pinned_at']} to commit {commit[:12]}"}[action]
    also = "" if here == commit else f"; this checkout is at {here[:12] if here else 'no commit'}, which does not run"
    line = f"code: {what}{also}: the job runs from {code}"
    print(line, flush=True)
    if not args.plan:
        with open(run_dir / "job.log", "a") as log:
            log.write(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} {line}\n")
    argv = [sys.executable, str(code / "recipes/main_job.py"), "--config", str(config), "--run-dir", str(run_dir)]
    argv += ["--report-dir", str(args.report_dir.resolve())] if args.report_dir else []
    argv += ["--quick"] * args.quick + ["--plan"] * args.plan + (["--until", args.until] if args.until else [])
    for item in args.overrides:
        argv += ["--set", item]
    os.execve(sys.executable, argv, code_pin.exec_env(code, ROOT.resolve()))


if __name__ == "__main__":
    sys.exit(main())
