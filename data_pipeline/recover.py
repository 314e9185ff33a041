"""recover: a teacher continues from each failure state, K attempts per state in forks of its snapshot; an attempt
is kept only if the task's tests pass.

The sandbox of a synthesized state is rebuilt by replaying its steps in a fresh sandbox, snapshotted, and forked K
times; every attempt continues the state's conversation. Teachers:
- `oracle` (data_pipeline/teacher.py): the rest of a whole episode, one step per turn: sometimes a look, a short
  sentence naming the real error, the corrected step, the remaining reference steps, done. Needs no model; its
  demonstrations are as good as the reference solution. An attempt in which one of its own turns failed is not kept.
- any policy (`transformers` or `vllm` with a local HF model, `openai` for a model served by vLLM or an API): the episode loop
  continues the conversation for up to `max_turns` turns.

    python -m data_pipeline.recover --states data/synth.jsonl --out data/recover.jsonl [--teacher oracle] [-k 1]
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


from data_pipeline import add_backend_arguments, open_selected_backend
from data_pipeline import shards
from data_pipeline.shards import Shard
from data_pipeline.synthesize import STEP_TIMEOUT_S
from data_pipeline.teacher import OracleTeacher, approximate_tokens
from reterm.progress import progress_bar
from reterm import failures, stopping
from reterm.agent.episode import EpisodeConfig, run_episode
from reterm.agent.policies import make_policy
from reterm.failures.state import FailureState, load_jsonl
from reterm.models import DEFAULT_MODEL, load_tokenizer
from reterm.options import POLICIES
from reterm.sandbox import SandboxError
from reterm.tasks import TaskError, load_task
from reterm.training.sft_data import reply_tokens

log = logging.getLogger("reterm.recover")


def trainable_flags(messages: list[dict], state: FailureState) -> list[bool]:
    """Per message: True on the teacher's turns and on the clean reference steps the history holds before the
    injected mistake (a synthesized state's `broken_step`); never on the mistake itself or a policy's own turns."""
    n_hist = len(state.history)
    clean_prefix = state.broken_step if state.source == "synthesized" and state.broken_step is not None else 0
    flags, turn = [], 0
    for j, m in enumerate(messages):
        is_reply = m["role"] == "assistant"
        flags.append(is_reply and (j >= n_hist or turn < clean_prefix))
        turn += is_reply
    return flags


def recover_state(state: FailureState, backend, k: int, teacher: str, policy=None, max_turns: int = 12,
                  count_tokens=approximate_tokens) -> list[dict]:
    """K teacher attempts from one failure state; every attempt's record (kept or not)."""
    task = load_task(state.task_path)
    if state.steps is None:  # collected: restore the exported snapshot
        with state.restore(backend) as snap:
            forks = snap.fork(k)
    else:  # synthesized: replay the steps (a hang as short as synthesize let it be)
        with backend.start(task) as sb:
            for step in state.steps:
                sb.exec(step, timeout=STEP_TIMEOUT_S)
            with sb.snapshot() as snap:
                forks = snap.fork(k)
    history = state.history
    records = []
    lock = threading.Lock()

    def attempt(i_box):
        i, box = i_box
        try:
            pol = OracleTeacher(task, state, i, count_tokens) if teacher == "oracle" else policy
            turns = len(pol.replies) if teacher == "oracle" else max_turns
            traj = run_episode(pol, box, task, EpisodeConfig(max_turns=turns), history=history)
        finally:
            box.close()
        # a turn of the teacher's own that failed (a look at a path that is not there) must not be trained on
        teacher_errors = sum(t.label not in (failures.OK, failures.WRONG_OUTPUT, failures.PREMATURE_COMPLETION)
                             for t in traj.turns)
        rec = {"key": f"{state.id}:{teacher}:{i}", "state_key": state.id, "attempt": i,
               "task_id": task.id, "family": task.family, "error_category": state.category,
               "fork_turn": state.turn, "source": state.source, "teacher": teacher,
               "perturbation": state.perturbation, "messages": traj.messages,
               "trainable": trainable_flags(traj.messages, state), "teacher_errors": teacher_errors,
               "reward": traj.reward, "passed": traj.passed, "infra_error": traj.infra_error}
        with lock:
            records.append(rec)

    with ThreadPoolExecutor(k) as pool:
        list(pool.map(attempt, enumerate(forks)))
    return sorted(records, key=lambda r: r["attempt"])


def run(states_path: Path, out: Path, backend, k: int = 1, teacher: str = "oracle", policy=None,
        concurrency: int = 2, on_done=None, count_tokens=approximate_tokens) -> dict:
    states = load_jsonl(states_path)
    with Shard(out) as shard:
        todo = [s for s in states if f"{s.id}:{teacher}:0" not in shard]
        failed: list[str] = []

        def one(state):
            try:
                for rec in recover_state(state, backend, k, teacher, policy, count_tokens=count_tokens):
                    shard.append(rec)
            except (SandboxError, OSError) as e:
                # a sandbox that would not start (a loaded machine) costs this state, not the run: nothing is
                # recorded for it, so re-running the step tries it again
                log.warning("state %s: sandbox failed (%s); re-run to retry it", state.id, e)
                failed.append(state.id)
            if on_done:
                on_done(state)

        with ThreadPoolExecutor(max(1, concurrency)) as pool:
            list(pool.map(one, todo))
        recs = list(shard.records.values())
    kept = [r for r in recs if r["passed"] and not r.get("teacher_errors")]
    by_cat: dict[str, int] = {}
    for r in kept:
        by_cat[r["error_category"]] = by_cat.get(r["error_category"], 0) + 1
    return {"states": len(states), "attempts": len(recs), "kept": len(kept),
            "teacher_errors": sum(1 for r in recs if r["passed"] and r.get("teacher_errors")),
            "infra_errors": sum(1 for r in recs if r["infra_error"]), "sandbox_failures": len(failed),
            "kept_by_category": dict(sorted(by_cat.items()))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", required=True, type=Path, help="shard written by synthesize (or collect)")
    ap.add_argument("--out", required=True, type=Path, help="shard of attempts; re-running resumes it")
    ap.add_argument("--teacher", default="oracle", help="oracle, or a model for --policy")
    ap.add_argument("--policy", default="transformers", choices=POLICIES, help="how a model teacher is run")
    ap.add_argument("--base-url", default=None, help="openai policy: the endpoint's /v1 URL (or OPENAI_BASE_URL)")
    ap.add_argument("-k", type=int, default=1, help="attempts per state")
    ap.add_argument("--tokenizer", default=DEFAULT_MODEL,
                    help="oracle: the tokenizer that measures each reply against the reply budget (as SFT renders "
                         "it); `none` estimates from characters")
    add_backend_arguments(ap)
    ap.add_argument("-j", "--concurrency", type=int, default=2, help="failure states worked on at once")
    args = ap.parse_args(argv)
    if args.k < 1 or args.concurrency < 1:
        ap.error("-k and -j must be at least 1")
    if not args.states.is_file():
        what = "is a directory, not a shard file" if args.states.is_dir() else "does not exist"
        print(f"error: {args.states} {what} (run data_pipeline.synthesize first)", file=sys.stderr)
        return 2
    try:
        done = shards.check(args.out)
        states = load_jsonl(args.states)
        first = {}
        for st in states:
            if f"{st.id}:{args.teacher}:0" not in done:  # as run() skips a state already recovered
                first.setdefault(st.task_path, st.id)
        for path, sid in first.items():  # a task moved or deleted since the states were made
            try:
                load_task(path)
            except (TaskError, TypeError) as e:
                raise ValueError(f"{args.states}: the task of state {sid} does not load: {e}") from None
        backend = open_selected_backend(args)
        n = len(states)
    except (ValueError, SandboxError) as e:  # FailureStateError, ShardError and TaskError are ValueErrors
        print(f"error: {e}", file=sys.stderr)
        return 2
    count_tokens = approximate_tokens
    if args.teacher == "oracle" and args.tokenizer != "none":
        tok = load_tokenizer(args.tokenizer)
        count_tokens = functools.partial(reply_tokens, tok)
    policy = None
    if args.teacher != "oracle":
        try:
            policy = make_policy(args.policy, args.teacher, **({"base_url": args.base_url} if args.policy == "openai"
                                                                else {}))
        except (ValueError, FileNotFoundError, ImportError) as e:  # unknown model, vLLM missing or unable to run it
            print(f"error: {e}", file=sys.stderr)
            return 2
    try:
        with progress_bar() as bar:
            pid = bar.add_task("recover", total=n)
            summary = run(args.states, args.out, backend, args.k, args.teacher, policy,
                          args.concurrency, on_done=lambda s: bar.update(pid, advance=1), count_tokens=count_tokens)
    finally:
        if policy is not None:
            policy.close()
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
