"""build: the verified demonstrations as a Hugging Face dataset (+ card), saved locally as parquet and, on request,
pushed to the Hub.

Rows: key, task_id, family, error_category (`ok` for a clean episode), perturbation, fork_turn, messages (a whole
episode: the history up to the failure and the teacher's continuation), trainable (per message), source, teacher,
attempts (teacher attempts made from that state), reward.

What is trained (`trainable`): every correct assistant turn, that is the clean reference steps before the injected
mistake and every teacher turn (the look, the recovery, the remaining steps, done); never the injected mistake, nor
the turns of a collected policy's own history.

- kept: attempts the task's tests passed in which none of the teacher's own turns failed;
- several shards make one dataset (a second round: `--attempts data/recover.jsonl data/round2/recover.jsonl`,
  the attempts recovered from a policy's own failures beside the synthesized ones); `--weights 1 3` repeats each
  shard's train rows that many times (validation holds every row once), so a small second round is not drowned;
- deduplicated on the trained text (two episodes that would teach the same replies are one row; the first shard
  named keeps it);
- balanced: at most `max_per_group` rows per (family, error category), chosen by a hash of the row (deterministic);
- split train / validation by task instance (the last instances of each family, as `heldout_instances` holds new
  seeds of the training families), or by family with `by="family"`;
- checked against the reply budget: every trained turn, tokenized as the SFT recipe renders it (the SmolLM2
  tokenizer by default), must fit `reterm.options.REPLY_TOKENS`; a row that exceeds it is dropped and counted (the
  build stops, exit 2 naming the first, only when every row does). The summary reports the longest trained turn and
  the longest row in tokens.

Everything is written to a temporary folder and renamed into place, so the output is whole or absent; a push uploads
that folder in one commit, so the Hub never holds half a dataset.

    python -m data_pipeline.build --attempts data/recover.jsonl [MORE.jsonl ...] [--weights 1 ...]
        --out data/recovery-demos [--push-to-hub user/name]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from collections import Counter, defaultdict
from pathlib import Path
from reterm import stopping

from reterm.models import DEFAULT_MODEL, load_tokenizer
from reterm.options import REPLY_TOKENS, file_in_the_way
from reterm.training.sft_data import tokenize_conversation, trained_turn_lengths

COLUMNS = ("key", "task_id", "family", "error_category", "perturbation", "fork_turn", "messages", "trainable",
           "source", "teacher", "attempts", "reward")
TRAINED = ("Trained (`trainable`): every correct assistant turn - the clean reference steps before the injected "
           "mistake and every teacher turn (a look, the recovery, the remaining steps, done) - and never the injected "
           "mistake itself, nor the turns of a collected policy's own history.")


class BudgetError(ValueError):
    """A trained turn longer than the reply budget."""


def trained_text(messages: list[dict], trainable: list[bool]) -> str:
    return "\x00".join(m["content"] for m, t in zip(messages, trainable) if t)


def shard_paths(attempts) -> list[Path]:
    """One attempts shard (a path) or several (a list of paths), as a list."""
    return [Path(attempts)] if isinstance(attempts, (str, Path)) else [Path(p) for p in attempts]


# what a kept attempt must carry (one that did not pass needs only its key and state_key)
ATTEMPT_KEYS = ("key", "state_key", "passed", "task_id", "family", "error_category", "fork_turn", "messages",
                "trainable", "source", "teacher", "reward")


def check_out(out: Path) -> None:
    """ValueError when `out` cannot take a dataset: a file, or a folder holding anything but an earlier build
    (its README.md and data/), which writing the dataset there would delete."""
    out = Path(out)
    if (blocking := file_in_the_way(out)) is not None:
        raise ValueError(f"--out {out} is a file; build writes a dataset folder" if blocking == out else
                         f"--out {out}: {blocking} is a file, not a folder")
    if out.is_dir():
        other = sorted(p.name for p in out.iterdir() if p.name not in ("README.md", "data"))
        if other or ((out / "data").is_dir() and any(not f.name.endswith(".parquet")
                                                     for f in (out / "data").iterdir())):
            raise ValueError(f"--out {out} holds files that are not an earlier dataset build "
                             f"({', '.join(other[:3]) or 'data/ holds other files'}); building there would delete "
                             f"them: give a new or empty folder")


def load_rows(attempts) -> list[dict]:
    """Verified attempts as rows, one per distinct trained text, from one shard or several (in order: a text seen
    in an earlier shard is not repeated from a later one). Each row knows its shard's position (`_shard`)."""
    rows, seen, keys = [], set(), set()
    for index, path in enumerate(shard_paths(attempts)):
        recs = []
        if Path(path).is_dir():
            raise ValueError(f"{path} is a directory; --attempts takes the shard files data_pipeline.recover wrote")
        try:
            text = Path(path).read_bytes().decode()
        except UnicodeDecodeError as e:
            raise ValueError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); re-run data_pipeline.recover")
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{n}: not a JSON line ({e.msg}); re-run data_pipeline.recover") from None
                missing = [k for k in ATTEMPT_KEYS if not isinstance(rec, dict) or k not in rec]
                if missing and not (isinstance(rec, dict) and not rec.get("passed") and "key" in rec
                                    and "state_key" in rec):
                    raise ValueError(f"{path}:{n}: not an attempt of data_pipeline.recover (missing "
                                     f"{', '.join(missing)}); re-run it")
                recs.append(rec)
        per_state = Counter(r["state_key"] for r in recs)
        for r in sorted(recs, key=lambda r: r["key"]):
            if not r.get("passed") or r.get("teacher_errors"):
                continue
            digest = hashlib.sha256(trained_text(r["messages"], r["trainable"]).encode()).hexdigest()
            if digest in seen or not any(r["trainable"]):
                continue
            seen.add(digest)
            key = r["key"] if r["key"] not in keys else f"{r['key']}@{index}"  # two collect seeds: same state ids
            keys.add(key)
            rows.append({"key": key, "task_id": r["task_id"], "family": r["family"],
                         "error_category": r["error_category"], "perturbation": r.get("perturbation"),
                         "fork_turn": r["fork_turn"], "messages": [{"role": m["role"], "content": m["content"]}
                                                                   for m in r["messages"]],
                         "trainable": r["trainable"], "source": r["source"], "teacher": r["teacher"],
                         "attempts": per_state[r["state_key"]], "reward": float(r["reward"]), "_shard": index})
    return rows


def weigh(train: list[dict], weights: list[int] | None) -> list[dict]:
    """The train rows with each shard's rows repeated `weights[shard]` times (copies follow their row)."""
    if not weights:
        return train
    return [r for r in train for _ in range(weights[r["_shard"]])]


def balance(rows: list[dict], max_per_group: int | None) -> list[dict]:
    """At most `max_per_group` rows per (family, error category), picked by a hash of the key (deterministic)."""
    if not max_per_group:
        return rows
    groups = defaultdict(list)
    for r in rows:
        groups[(r["family"], r["error_category"])].append(r)
    keep = set()
    for group in groups.values():
        group.sort(key=lambda r: hashlib.sha256(r["key"].encode()).hexdigest())
        keep.update(r["key"] for r in group[:max_per_group])
    return [r for r in rows if r["key"] in keep]


def split_rows(rows: list[dict], validation_fraction: float = 0.2, by: str = "task") -> dict[str, list[dict]]:
    """Train / validation: the last `validation_fraction` of each family's task instances (`by="task"`), or of the
    families (`by="family"`)."""
    if by == "family":
        families = sorted({r["family"] for r in rows})
        n_val = max(1, round(len(families) * validation_fraction)) if len(families) > 1 else 0
        val = set(families[len(families) - n_val:])
        return {"train": [r for r in rows if r["family"] not in val],
                "validation": [r for r in rows if r["family"] in val]}
    if by != "task":
        raise ValueError(f"split by 'task' or 'family', not {by!r}")
    tasks = defaultdict(set)
    for r in rows:
        tasks[r["family"]].add(r["task_id"])
    val = set()
    for ids in tasks.values():
        n_val = round(len(ids) * validation_fraction) if len(ids) > 1 else 0
        val.update(sorted(ids)[len(ids) - n_val:])
    return {"train": [r for r in rows if r["task_id"] not in val], "validation": [r for r in rows if r["task_id"] in val]}


def measure(rows: list[dict], tokenizer, budget: int) -> tuple[list[dict], dict]:
    """(rows kept, stats): the longest trained turn and row in tokens (as SFT renders them). A row with a trained turn
    over `budget` is dropped (no trained turn may exceed what the policy may generate in one turn) and counted, with
    its task, in the stats; raises BudgetError naming the first such row when every row is over."""
    longest_turn = longest_row = 0
    kept: list[dict] = []
    over: list[tuple[int, dict, int]] = []
    for n, r in enumerate(rows):
        encoded = tokenize_conversation(tokenizer, r["messages"], r["trainable"])
        lengths = trained_turn_lengths(encoded["assistant_masks"])
        if max(lengths) > budget:
            over.append((n, r, max(lengths)))
            continue
        kept.append(r)
        longest_turn = max(longest_turn, max(lengths))
        longest_row = max(longest_row, len(encoded["input_ids"]))
    if over and not kept:
        n, r, length = over[0]
        raise BudgetError(f"row {n} ({r['key']}, task {r['task_id']}): a trained turn is {length} tokens, over the "
                          f"reply budget of {budget} (reterm.options.REPLY_TOKENS), as is every row's; shorten the "
                          f"teacher's replies or the solution's steps (data_pipeline.synthesize.STEP_CHARS)")
    if over:
        tasks = sorted({r["task_id"] for _, r, _ in over})
        print(f"build: dropped {len(over)} of {len(rows)} rows with a trained turn over the reply budget of {budget} "
              f"tokens (tasks: {', '.join(tasks[:12])}{' ...' if len(tasks) > 12 else ''})", file=sys.stderr)
    return kept, {"longest_trained_turn_tokens": longest_turn, "longest_row_tokens": longest_row,
                  "reply_budget": budget, "dropped_over_budget": len(over),
                  "dropped_over_budget_tasks": sorted({r["task_id"] for _, r, _ in over})}


def card(splits: dict[str, list[dict]], source: str, stats: dict) -> str:
    lines = ["---", "license: apache-2.0", "task_categories:", "- text-generation", "tags:", "- terminal-agents",
             "- recovery", "- reterm", "---", "", "# ReTerm recovery demonstrations", "",
             "Each row is a whole terminal-agent episode: the reference solution one step per turn, with a mistake "
             "injected at one step (a perturbed command, an unreadable reply, or a claim of being done too early), "
             "the real error the sandbox printed, a teacher's recovery grounded in that error (a short sentence "
             "naming it, the corrected step, sometimes after a look), the remaining steps and `TASK_COMPLETE`; "
             "or a clean episode (`error_category` ok). Every row passed the task's tests. Failure categories come "
             "from ReTerm's classifier run on the real error output.", "", TRAINED, "",
             f"Built by `python -m data_pipeline.build` from {source}. Validation holds other task instances of "
             "the same families. Longest trained turn: "
             f"{stats['longest_trained_turn_tokens']} tokens (reply budget {stats['reply_budget']}; "
             f"{stats.get('dropped_over_budget', 0)} rows over it dropped); "
             f"distinct trained assistant texts: {stats['distinct_trained_texts']}.", "", "| split | rows |",
             "|---|---|"]
    lines += [f"| {k} | {len(v)} |" for k, v in splits.items()]
    for key in ("error_category", "family", "perturbation", "teacher", "source"):
        counts = Counter(str(r[key]) for rows in splits.values() for r in rows)
        lines += ["", f"| {key} | rows |", "|---|---|"] + [f"| {k} | {v} |" for k, v in sorted(counts.items())]
    return "\n".join(lines) + "\n"


def build(attempts_path, out: Path, validation_fraction: float = 0.2, tokenizer=None,
          max_per_group: int | None = None, by: str = "task", budget: int | None = None,
          weights: list[int] | None = None) -> dict:
    """Builds the dataset folder `out` from one attempts shard or a list of them (see the module docstring);
    `weights` (one positive integer per shard) repeats each shard's train rows; `budget` defaults to
    reterm.options.REPLY_TOKENS: rows with a trained turn over it are dropped and counted. Raises ValueError
    (BudgetError when every row is over the budget) saying what to fix."""
    from datasets import Dataset

    paths = shard_paths(attempts_path)
    check_out(out)
    if not 0 <= validation_fraction < 1:
        raise ValueError(f"--validation-fraction must be at least 0 and below 1, not {validation_fraction}")
    if max_per_group is not None and max_per_group < 1:
        raise ValueError(f"--max-per-group must be at least 1, not {max_per_group}")
    if weights is not None and (len(weights) != len(paths) or any(int(w) != w or w < 1 for w in weights)):
        raise ValueError(f"--weights: one positive integer per --attempts shard ({len(paths)}), not {weights}")
    rows = balance(load_rows(paths), max_per_group)
    if not rows:
        raise ValueError(f"{', '.join(map(str, paths))}: no verified demonstrations to build from")
    if tokenizer is None or isinstance(tokenizer, str):  # a name: loaded once the input is known to be good
        tokenizer = load_tokenizer(tokenizer or DEFAULT_MODEL)
    rows, stats = measure(rows, tokenizer, budget or REPLY_TOKENS)
    texts = {m["content"] for r in rows for m, t in zip(r["messages"], r["trainable"]) if t}
    stats["distinct_trained_texts"] = len(texts)
    splits = split_rows(rows, validation_fraction, by)
    shard_rows = Counter(r["_shard"] for r in rows)
    splits["train"] = weigh(splits["train"], weights)
    for split in splits.values():
        for r in split:
            r.pop("_shard", None)
    sources = [f"`{p}`" + (f" (x{weights[i]}: train rows repeated)" if weights and weights[i] != 1 else "")
               for i, p in enumerate(paths)]
    tmp = out.with_name(out.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        (tmp / "data").mkdir(parents=True)
        for name, split_rows_ in splits.items():
            if split_rows_:
                Dataset.from_list(split_rows_).to_parquet(str(tmp / "data" / f"{name}-00000-of-00001.parquet"))
        (tmp / "README.md").write_text(card(splits, ", ".join(sources), stats))
    except BaseException:  # a dataset not wholly written is not left beside --out
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if out.exists():  # the earlier build (check_out made sure it is one)
        shutil.rmtree(out)
    os.replace(tmp, out)
    summary = {"rows": len(rows), **{name: len(r) for name, r in splits.items()}, **stats,
               "by_category": dict(sorted(Counter(r["error_category"] for r in rows).items()))}
    if len(paths) > 1:
        summary["rows_per_shard"] = [shard_rows.get(i, 0) for i in range(len(paths))]
    return summary


def load_dataset_dir(out: Path):
    from datasets import load_dataset

    files = {p.name.split("-")[0]: str(p) for p in sorted((out / "data").glob("*.parquet"))}
    return load_dataset("parquet", data_files=files)


def push(out: Path, repo: str, token: str | None = None, api=None) -> None:
    """Uploads the built folder as one commit. Needs a token (argument or HF_TOKEN)."""
    token = token or os.environ.get("HF_TOKEN")
    if not token:
        raise PermissionError("pushing to the Hub needs a token: set HF_TOKEN (a write token)")
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
    ap.add_argument("--attempts", required=True, type=Path, nargs="+",
                    help="shard(s) written by data_pipeline.recover; several make one dataset (a second round)")
    ap.add_argument("--weights", type=int, nargs="+", default=None,
                    help="one per --attempts shard: how many times its train rows appear (validation: once)")
    ap.add_argument("--out", required=True, type=Path, help="dataset directory to write (parquet files + card)")
    ap.add_argument("--validation-fraction", type=float, default=0.2,
                    help="share of each family's task instances (or of the families) held out as validation")
    ap.add_argument("--split-by", choices=("task", "family"), default="task",
                    help="validation holds other instances of the training families (task), or other families")
    ap.add_argument("--max-per-group", type=int, default=None,
                    help="at most this many rows per (family, error category), to balance them")
    ap.add_argument("--tokenizer", default=DEFAULT_MODEL,
                    help="the tokenizer that measures trained turns against the reply budget, as SFT renders them")
    ap.add_argument("--push-to-hub", metavar="REPO", help="also upload the dataset to this Hub repo (needs HF_TOKEN)")
    args = ap.parse_args(argv)
    try:
        summary = build(args.attempts, args.out, args.validation_fraction, args.tokenizer,
                        args.max_per_group, args.split_by, weights=args.weights)
        if args.push_to_hub:
            push(args.out, args.push_to_hub)
    except (ValueError, OSError) as e:  # BudgetError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    if not summary.get("validation"):
        how = ("a --validation-fraction above 0" if args.validation_fraction == 0 else
               "more task instances a family, or --split-by family" if args.split_by == "task" else
               "more families, or a larger --validation-fraction")
        of = "each family's task instances" if args.split_by == "task" else "the families"
        print(f"note: {args.out} has no validation split (--validation-fraction {args.validation_fraction:g} of {of} "
              f"rounds to none), which the SFT recipe's default evaluation needs: build with {how}, or train with "
              f"--eval_strategy no --load_best_model_at_end false", file=sys.stderr)
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
