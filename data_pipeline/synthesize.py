"""synthesize: cheap, diverse failure states without a policy.

Each task's reference solution is split into steps and perturbed (a typo in a command name, a wrong path, a skipped
step, two steps swapped); the perturbed steps run one at a time in a real sandbox until one fails. That state is
kept, labelled with the category the *classifier* gives the real error (not the perturbation's intent). When every
step succeeds but the tests fail, the state after the last step is kept as `wrong_output`; a perturbation that
still solves the task is dropped.

A state is a `FailureState` (reterm/failures/state.py) holding the steps to replay (deterministic, fast) and the
conversation an agent would have had up to it (simple format: one ```bash block per turn, the observation after it),
so `recover` can rebuild the sandbox, snapshot it and fork teacher attempts from it.

    python -m data_pipeline.synthesize --out data/synth.jsonl [--suite basic --split train] [--variants 4]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.progress import Progress

from data_pipeline import add_backend_arguments, add_task_arguments, tasks_and_backend
from data_pipeline.shards import Shard
from reterm import failures
from reterm.agent.formats import SimpleFormat, render_result
from reterm.agent.episode import instruction_message
from reterm.failures.state import EVIDENCE_CHARS, FailureState, load_jsonl
from reterm.verifier import verify
from reterm import stopping

PERTURBATIONS = ("typo_command", "wrong_path", "skip_step", "swap_steps", "wrong_flag", "drop_env_prefix",
                 "truncate_heredoc")
_BAD_FLAGS = ("--recursive-all", "--verbose-mode", "-Z", "--in-place", "--count-only", "-k9")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")


def solution_steps(script: str) -> list[str]:
    """The commands of a solve.sh, one per step: heredocs and backslash continuations stay whole."""
    steps: list[str] = []
    lines = script.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        s = line.strip()
        if not s or s.startswith("#") or re.fullmatch(r"set -\w+( -\w+)*", s):
            continue
        block = [line]
        while block[-1].rstrip().endswith("\\") and i < len(lines):
            block.append(lines[i])
            i += 1
        m = _HEREDOC.search(block[-1])
        if m:
            while i < len(lines):
                block.append(lines[i])
                i += 1
                if block[-1].strip() == m.group(1):
                    break
        steps.append("\n".join(block).strip())
    return steps


def _pick_in_first_lines(steps: list[str], pattern: str, rng: random.Random):
    """A random (step index, match) of `pattern` in the first line of a step (never inside a heredoc body); match
    offsets are valid in the whole step, since the first line is its prefix."""
    candidates = [(i, m) for i, s in enumerate(steps) for m in re.finditer(pattern, s.split("\n")[0])]
    return rng.choice(candidates) if candidates else None


def perturb(steps: list[str], kind: str, rng: random.Random) -> list[str] | None:
    """A perturbed copy of `steps`, or None when `kind` does not apply."""
    steps = list(steps)
    if kind == "typo_command":
        i = rng.randrange(len(steps))
        words = steps[i].split(" ", 1)
        name = words[0]
        if len(name) < 3 or not name.isalnum():
            return None
        j = rng.randrange(len(name) - 1)
        words[0] = name[:j] + name[j + 1] + name[j] + name[j + 2:]
        if words[0] == name:
            return None
        steps[i] = " ".join(words)
        return steps
    if kind == "wrong_path":
        hit = _pick_in_first_lines(steps, r"/app/[\w./-]+", rng)
        if hit is None:
            return None
        i, m = hit
        parts = m.group(0).rstrip("/").split("/")
        j = rng.randrange(2, len(parts)) if len(parts) > 2 else len(parts) - 1
        name = parts[j]
        how = rng.choice(["drop", "case", "plural"])
        if how == "drop" and len(name) > 1:
            parts[j] = name[:-1]
        elif how == "case" and name.lower() != name.capitalize():
            parts[j] = name.capitalize()
        else:
            parts[j] = name + "s"
        steps[i] = steps[i][: m.start()] + "/".join(parts) + steps[i][m.end():]
        return steps
    if kind == "wrong_flag":
        hit = _pick_in_first_lines(steps, r"(?<=\s)-[a-zA-Z]\w*", rng)
        if hit is None:
            return None
        i, m = hit
        steps[i] = steps[i][: m.start()] + rng.choice(_BAD_FLAGS) + steps[i][m.end():]
        return steps
    if kind == "drop_env_prefix":
        candidates = [i for i, s in enumerate(steps) if re.match(r"^(\w+=\S+\s+)+\S", s) or s.startswith("export ")]
        if not candidates:
            return None
        i = rng.choice(candidates)
        if steps[i].startswith("export "):
            del steps[i]
        else:
            steps[i] = re.sub(r"^(\w+=\S+\s+)+", "", steps[i])
        return steps
    if kind == "truncate_heredoc":
        candidates = [i for i, s in enumerate(steps) if _HEREDOC.search(s.split("\n")[0]) and s.count("\n") >= 3]
        if not candidates:
            return None
        i = rng.choice(candidates)
        lines = steps[i].split("\n")
        body = list(range(1, len(lines) - 1))
        cut = rng.choice(body)
        steps[i] = "\n".join(lines[:cut] + lines[cut + 1:])  # one line of the file is lost, as in a sloppy edit
        return steps
    if kind == "skip_step":
        if len(steps) < 2:
            return None
        del steps[rng.randrange(len(steps) - 1)]  # never the last step alone: that is just "stopped early"
        return steps
    if kind == "swap_steps":
        if len(steps) < 2:
            return None
        i = rng.randrange(len(steps) - 1)
        steps[i], steps[i + 1] = steps[i + 1], steps[i]
        return steps
    raise ValueError(f"unknown perturbation {kind!r}")


def synthesize_one(backend, task, kind: str, seed: int, timeout: float = 60.0) -> FailureState | None:
    """Runs one perturbation of one task; the failure state it reached, or None."""
    if task.solution is None:
        return None
    steps = perturb(solution_steps(task.solution.read_text()), kind, random.Random(seed))
    if steps is None:
        return None
    fmt = SimpleFormat()
    messages = [{"role": "system", "content": fmt.system_prompt()},
                {"role": "user", "content": instruction_message(task)}]
    with backend.start(task) as sb:
        for n, step in enumerate(steps):
            r = sb.exec(step, timeout=timeout)
            label = failures.classify_result(r.output, r.exit_code, r.timed_out)
            messages.append({"role": "assistant", "content": f"```bash\n{step}\n```"})
            messages.append({"role": "user", "content": fmt.observation(
                [render_result(step, r.output, r.exit_code, r.timed_out, r.truncated)])})
            if label != failures.OK:
                return _state(task, kind, seed, steps[: n + 1], messages, label, r.output)
        v = verify(sb, task)
    if v.reward is None or v.passed:
        return None  # infra trouble, or the perturbation did not break anything
    return _state(task, kind, seed, steps, messages, failures.WRONG_OUTPUT, "")


def _state(task, kind, seed, steps, messages, label, output) -> FailureState:
    return FailureState(id=f"{task.id}:{kind}:{seed}", task_id=task.id, task_path=str(task.path), history=messages,
                        turn=len(steps) - 1, category=label, evidence=output[-EVIDENCE_CHARS:], source="synthesized",
                        family=task.family, task_category=task.category, format=SimpleFormat.name, steps=steps,
                        perturbation=kind, seed=seed)


def run(tasks, backend, out: Path, variants: int = 4, concurrency: int = 2, base_seed: int = 0, on_done=None) -> dict:
    """Every (task, perturbation, variant) once; resumable through the shard at `out`."""
    jobs = [(t, kind, base_seed + v) for t in tasks for kind in PERTURBATIONS for v in range(variants)]
    with Shard(out) as shard:
        todo = [j for j in jobs if f"{j[0].id}:{j[1]}:{j[2]}" not in shard]
        done_keys = set(shard.records)

        def one(job):
            task, kind, seed = job
            state = synthesize_one(backend, task, kind, seed)
            # Ineffective perturbations are recorded too (as skipped), so a resumed run does not redo them.
            shard.append({"key": state.id, **state.to_dict()} if state else
                         {"key": f"{task.id}:{kind}:{seed}", "skipped": True})
            if on_done:
                on_done(state)

        with ThreadPoolExecutor(max(1, concurrency)) as pool:
            list(pool.map(one, todo))
    states = load_jsonl(out)
    by_cat: dict[str, int] = {}
    for s in states:
        by_cat[s.category] = by_cat.get(s.category, 0) + 1
    return {"jobs": len(jobs), "resumed": len(done_keys), "states": len(states), "by_category": dict(sorted(
        by_cat.items()))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_task_arguments(ap)
    add_backend_arguments(ap)
    ap.add_argument("--out", required=True, type=Path, help="shard file (JSONL); re-running resumes it")
    ap.add_argument("--variants", type=int, default=4, help="seeds per perturbation kind and task")
    ap.add_argument("-j", "--concurrency", type=int, default=2, help="tasks perturbed at once")
    args = ap.parse_args(argv)
    if (selected := tasks_and_backend(args)) is None:
        return 2
    tasks, backend = selected
    with Progress() as bar:
        pid = bar.add_task("synthesize", total=len(tasks) * len(PERTURBATIONS) * args.variants)
        summary = run(tasks, backend, args.out, args.variants, args.concurrency,
                      on_done=lambda s: bar.update(pid, advance=1))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
