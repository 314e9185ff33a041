"""recover: a teacher continues from each failure state, K attempts per state in forks of its snapshot; an attempt
is kept only if the task's tests pass.

The sandbox of a synthesized state is rebuilt by replaying its steps in a fresh sandbox, snapshotted, and forked K
times; every attempt continues the state's conversation. Teachers:
- `oracle`: writes a short diagnosis of the observed error, then carries out the task's reference solution from the
  failure state, then says it is done. Needs no model; its demonstrations are as good as the reference solution.
- any policy (`transformers` with a local HF model, `openai` for a model served by vLLM or an API): the episode loop
  continues the conversation for up to `max_turns` turns.

    python -m data_pipeline.recover --states data/synth.jsonl --out data/recover.jsonl [--teacher oracle] [-k 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.progress import Progress

from data_pipeline import add_backend_arguments, open_selected_backend
from data_pipeline.shards import Shard
from reterm.agent.episode import EpisodeConfig, run_episode
from reterm.agent.formats import DONE_MARKER
from reterm.agent.policy import Generation, Policy, make_policy
from reterm.failures.state import FailureState, load_jsonl
from reterm.sandbox import SandboxError
from reterm.tasks import load_task
from reterm import stopping


class OracleTeacher(Policy):
    """Diagnosis of the last observation, then the reference solution, then done."""

    name = "oracle"
    model_name = "oracle"

    def __init__(self, task, category: str, error_output: str):
        self.solution = task.solution.read_text() if task.solution else None
        self.category = category
        self.evidence_text = error_output

    def _evidence(self, history: list[dict]) -> str:
        # the failing command's own error, else (wrong output: every command "succeeded") the last observation
        text = self.evidence_text or history[-1]["content"]
        lines = [l.strip() for l in text.strip().splitlines() if l.strip() and not l.startswith(("[exit code",
                                                                                                  "$ "))]
        return lines[-1][:200] if lines else "the result is not what the task asks for"

    def generate(self, messages: list[dict], prompt_ids=None) -> Generation:
        teacher_turns = sum(1 for m in messages if m["role"] == "assistant") - self._history_turns
        if teacher_turns == 0 and self.solution is not None:
            body = "\n".join(l for l in self.solution.splitlines() if not l.startswith("#!")).strip()
            what = self.category.replace("_", " ")
            text = (f"The last step failed ({what}): `{self._evidence(messages)}`. That approach does not work as it stands, so "
                    f"I will redo the task from this state with a working sequence of commands.\n"
                    f"```bash\n{body}\n```")
            return Generation(text)
        return Generation(DONE_MARKER)

    def start(self, history: list[dict]) -> "OracleTeacher":
        self._history_turns = sum(1 for m in history if m["role"] == "assistant")
        return self


def recover_state(state: FailureState, backend, k: int, teacher: str, policy=None, max_turns: int = 6) -> list[dict]:
    """K teacher attempts from one failure state; every attempt's record (kept or not)."""
    task = load_task(state.task_path)
    if state.steps is None:  # collected: restore the exported snapshot
        with state.restore(backend) as snap:
            forks = snap.fork(k)
    else:  # synthesized: replay the steps
        with backend.start(task) as sb:
            for step in state.steps:
                sb.exec(step, timeout=60)
            with sb.snapshot() as snap:
                forks = snap.fork(k)
    history = state.history
    records = []
    lock = threading.Lock()

    def attempt(i_box):
        i, box = i_box
        try:
            pol = OracleTeacher(task, state.category, state.evidence).start(history) \
                if teacher == "oracle" else policy
            traj = run_episode(pol, box, task, EpisodeConfig(max_turns=max_turns), history=history)
        finally:
            box.close()
        n_hist = len(history)
        rec = {"key": f"{state.id}:{teacher}:{i}", "state_key": state.id, "attempt": i,
               "task_id": task.id, "family": task.family, "error_category": state.category,
               "fork_turn": state.turn, "source": state.source, "teacher": teacher,
               "messages": traj.messages, "trainable": [m["role"] == "assistant" and j >= n_hist
                                                         for j, m in enumerate(traj.messages)],
               "reward": traj.reward, "passed": traj.passed, "infra_error": traj.infra_error}
        with lock:
            records.append(rec)

    with ThreadPoolExecutor(k) as pool:
        list(pool.map(attempt, enumerate(forks)))
    return sorted(records, key=lambda r: r["attempt"])


def run(states_path: Path, out: Path, backend, k: int = 1, teacher: str = "oracle", policy=None,
        concurrency: int = 2, on_done=None) -> dict:
    states = load_jsonl(states_path)
    with Shard(out) as shard:
        todo = [s for s in states if f"{s.id}:{teacher}:0" not in shard]

        def one(state):
            for rec in recover_state(state, backend, k, teacher, policy):
                shard.append(rec)
            if on_done:
                on_done(state)

        with ThreadPoolExecutor(max(1, concurrency)) as pool:
            list(pool.map(one, todo))
        recs = list(shard.records.values())
    kept = [r for r in recs if r["passed"]]
    by_cat: dict[str, int] = {}
    for r in kept:
        by_cat[r["error_category"]] = by_cat.get(r["error_category"], 0) + 1
    return {"states": len(states), "attempts": len(recs), "kept": len(kept),
            "infra_errors": sum(1 for r in recs if r["infra_error"]), "kept_by_category": dict(sorted(by_cat.items()))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--states", required=True, type=Path, help="shard written by synthesize (or collect)")
    ap.add_argument("--out", required=True, type=Path, help="shard of attempts; re-running resumes it")
    ap.add_argument("--teacher", default="oracle", help="oracle, or a model for --policy")
    ap.add_argument("--policy", default="transformers", choices=["transformers", "openai"],
                    help="how a model teacher is run")
    ap.add_argument("--base-url", default=None, help="openai policy: the endpoint's /v1 URL (or OPENAI_BASE_URL)")
    ap.add_argument("-k", type=int, default=1, help="attempts per state")
    add_backend_arguments(ap)
    ap.add_argument("-j", "--concurrency", type=int, default=2, help="failure states worked on at once")
    args = ap.parse_args(argv)
    if not args.states.is_file():
        print(f"error: {args.states} does not exist (run data_pipeline.synthesize first)", file=sys.stderr)
        return 2
    try:
        backend = open_selected_backend(args)
        n = len(load_jsonl(args.states))
    except (ValueError, SandboxError) as e:  # FailureStateError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        return 2
    policy = None
    if args.teacher != "oracle":
        policy = make_policy(args.policy, args.teacher, **({"base_url": args.base_url} if args.policy == "openai"
                                                            else {}))
    with Progress() as bar:
        pid = bar.add_task("recover", total=n)
        summary = run(args.states, args.out, backend, args.k, args.teacher, policy,
                      args.concurrency, on_done=lambda s: bar.update(pid, advance=1))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
