"""build: the verified recovery demonstrations as a Hugging Face dataset (+ card), saved locally as parquet and,
on request, pushed to the Hub.

Rows: task_id, family, error_category, fork_turn, messages (history up to the failure + the recovery turns),
trainable (per message: True on the recovery's assistant turns only), source, teacher, attempts (teacher attempts
made from that state), reward. Identical conversations are kept once. Train / validation are split by task family,
so validation measures recovery on kinds of tasks never trained on.

Everything is written to a temporary folder and renamed into place, so the output is whole or absent; a push uploads
that folder in one commit, so the Hub never holds half a dataset.

    python -m data_pipeline.build --attempts data/recover.jsonl --out data/dataset [--push-to-hub user/name]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from collections import Counter
from pathlib import Path
from reterm import stopping

COLUMNS = ("task_id", "family", "error_category", "fork_turn", "messages", "trainable", "source", "teacher",
           "attempts", "reward")


def load_rows(attempts_path: Path) -> list[dict]:
    recs = [json.loads(l) for l in Path(attempts_path).read_text().splitlines() if l.strip()]
    per_state = Counter(r["state_key"] for r in recs)
    rows, seen = [], set()
    for r in sorted(recs, key=lambda r: r["key"]):
        if not r.get("passed"):
            continue
        digest = hashlib.sha256(json.dumps(r["messages"], sort_keys=True).encode()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        rows.append({"task_id": r["task_id"], "family": r["family"], "error_category": r["error_category"],
                     "fork_turn": r["fork_turn"], "messages": [{"role": m["role"], "content": m["content"]}
                                                               for m in r["messages"]],
                     "trainable": r["trainable"], "source": r["source"], "teacher": r["teacher"],
                     "attempts": per_state[r["state_key"]], "reward": float(r["reward"])})
    return rows


def split_by_family(rows: list[dict], validation_fraction: float = 0.2) -> dict[str, list[dict]]:
    families = sorted({r["family"] for r in rows})
    n_val = max(1, round(len(families) * validation_fraction)) if len(families) > 1 else 0
    val = set(families[len(families) - n_val:])
    return {"train": [r for r in rows if r["family"] not in val], "validation": [r for r in rows if r["family"] in val]}


def card(splits: dict[str, list[dict]], source: str) -> str:
    lines = ["---", "license: apache-2.0", "task_categories:", "- text-generation", "tags:", "- terminal-agents",
             "- recovery", "- reterm", "---", "", "# ReTerm recovery demonstrations", "",
             "Each row is a terminal-agent conversation that reached a failure state (a command that failed, or "
             "commands that succeeded while the task's tests failed) and a teacher's continuation from that state "
             "that the task's tests accepted. `trainable` marks the recovery turns, the only ones meant to carry "
             "loss. Failure categories come from ReTerm's classifier run on the real error output.", "",
             f"Built by `python -m data_pipeline.build` from `{source}`. Splits are by task family.", "",
             "| split | rows |", "|---|---|"]
    lines += [f"| {k} | {len(v)} |" for k, v in splits.items()]
    for key in ("error_category", "family", "teacher", "source"):
        counts = Counter(r[key] for rows in splits.values() for r in rows)
        lines += ["", f"| {key} | rows |", "|---|---|"] + [f"| {k} | {v} |" for k, v in sorted(counts.items())]
    return "\n".join(lines) + "\n"


def build(attempts_path: Path, out: Path, validation_fraction: float = 0.2) -> dict:
    from datasets import Dataset

    rows = load_rows(attempts_path)
    if not rows:
        raise ValueError(f"{attempts_path}: no verified demonstrations to build from")
    splits = split_by_family(rows, validation_fraction)
    tmp = out.with_name(out.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    for name, split_rows in splits.items():
        if split_rows:
            Dataset.from_list(split_rows).to_parquet(str(tmp / "data" / f"{name}-00000-of-00001.parquet"))
    (tmp / "README.md").write_text(card(splits, str(attempts_path)))
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)
    return {"rows": len(rows), **{name: len(r) for name, r in splits.items()},
            "by_category": dict(sorted(Counter(r["error_category"] for r in rows).items()))}


def load_dataset_dir(out: Path):
    from datasets import load_dataset

    files = {p.name.split("-")[0]: str(p) for p in sorted((out / "data").glob("*.parquet"))}
    return load_dataset("parquet", data_files=files)


def push(out: Path, repo: str, token: str | None = None, api=None) -> None:
    """Uploads the built folder as one commit. Needs a token (argument or HF_TOKEN)."""
    token = token or os.environ.get("HF_TOKEN")
    if not token:
        raise PermissionError("pushing to the Hub needs a token: set HF_TOKEN (a write token) or pass --token")
    if not (out / "README.md").is_file() or not list((out / "data").glob("*.parquet")):
        raise FileNotFoundError(f"{out} is not a built dataset (run the build first)")
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    api.create_repo(repo, repo_type="dataset", exist_ok=True)
    api.upload_folder(folder_path=str(out), repo_id=repo, repo_type="dataset",
                      commit_message="ReTerm recovery demonstrations")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--attempts", required=True, type=Path, help="shard written by data_pipeline.recover")
    ap.add_argument("--out", required=True, type=Path, help="dataset directory to write (parquet files + card)")
    ap.add_argument("--validation-fraction", type=float, default=0.2,
                    help="share of task families held out as the validation split")
    ap.add_argument("--push-to-hub", metavar="REPO", help="also upload the dataset to this Hub repo (needs HF_TOKEN)")
    args = ap.parse_args(argv)
    try:
        summary = build(args.attempts, args.out, args.validation_fraction)
        if args.push_to_hub:
            push(args.out, args.push_to_hub)
    except (ValueError, FileNotFoundError, PermissionError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
