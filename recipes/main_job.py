"""The main job: every stage of recipes/configs/<model>/main_job.yaml in order, resumable, then the report.

    .venv/bin/python recipes/main_job.py [--quick] [--config FILE] [--run-dir DIR] [--set NAME=VALUE ...]
    .venv/bin/python recipes/main_job.py --plan      # what would run, what is done, and why; runs nothing
    .venv/bin/python recipes/main_job.py --until sft2   # the stages up to sft2 only (the compare job's start)
    kill -INT $(cat RUN_DIR/job.pid)                 # stop a job running in the background, as Ctrl-C does

`scripts/train.sh` runs it after the set-up (QUICK=1: `--quick`); any job config runs the same way (`--config
recipes/configs/smollm2-135m/compare_job.yaml`). The runner is reterm/jobs.py, which says how stages are skipped,
continued and redone.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from reterm.jobs import run_job  # noqa: E402

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
    args = ap.parse_args(argv)
    return run_job(args.config, args.quick, args.run_dir, args.overrides, args.report_dir, args.plan, args.until)


if __name__ == "__main__":
    sys.exit(main())
