"""synthesize: cheap, diverse failure states without a policy.

Each task's reference solution is split into steps (one per agent turn; a heredoc too long for one reply is written
in parts, `cat >` then `cat >>`) and a mistake is injected at one step:
- a perturbed command (a typo in a command name, a wrong path or flag, a skipped or dropped step, two steps swapped,
  a line lost from a heredoc, the option that bounds a streaming command forgotten, a file never rewritten before
  it runs); the steps run one at a time in a real sandbox until one fails. That state is kept,
  labelled with the category the *classifier* gives the real error (not the perturbation's intent). When every step
  succeeds but the tests fail, the state after the last step is kept as `wrong_output`; a perturbation that still
  solves the task is dropped.
- a reply mistake, the way a small model really fails: a reply with no readable command (`unparseable_reply`: the
  format's own corrective message is the observation), or a claim of being done before the task is (the tests run
  and fail: `premature_completion`).
- a repeated mistake (`repeat_mistake`): a perturbed command fails, and the agent runs the very same command again
  and gets the same error, the way a small model loops (`repeated_failure`, the category a policy's own failures
  fall in most often); the teacher then breaks the loop with the corrected step.
- none (`clean`, once per task): the task start, from which the teacher writes a clean episode.

A state is a `FailureState` (reterm/failures/state.py) holding the steps to replay (deterministic, fast), the
conversation an agent would have had up to it (simple format: one ```bash block per turn, the observation after it),
the reference steps and the index of the step the mistake replaced (`solution_steps`, `broken_step`), so `recover`
can rebuild the sandbox, snapshot it and let a teacher run the corrected step and the rest.

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


from data_pipeline import add_backend_arguments, add_task_arguments, tasks_and_backend
from data_pipeline import shards
from data_pipeline.shards import Shard
from reterm.progress import progress_bar
from reterm import failures
from reterm.agent.formats import SimpleFormat, render_result
from reterm.agent.episode import instruction_message
from reterm.failures.fork_points import TESTS_FAILED_NOTE
from reterm.failures.state import EVIDENCE_CHARS, FailureState, load_jsonl
from reterm.verifier import verify
from reterm import stopping

PERTURBATIONS = ("typo_command", "wrong_path", "skip_step", "swap_steps", "wrong_flag", "drop_env_prefix",
                 "truncate_heredoc", "drop_bound", "skip_write")
REPLY_MISTAKES = (failures.UNPARSEABLE_REPLY, failures.PREMATURE_COMPLETION)
REPEAT = "repeat_mistake"
CLEAN = "clean"
KINDS = PERTURBATIONS + REPLY_MISTAKES + (REPEAT, CLEAN)
# A step is one agent reply: with the teacher's sentence before it, it must fit the reply budget
# (reterm.options.REPLY_TOKENS, checked exactly by `build`); SmolLM2 spends about one token per 2.8 characters of
# these scripts, so 240 characters leave room for a sentence of up to ~25 tokens.
STEP_CHARS = 240
STEP_TIMEOUT_S = 10.0  # a command still running after this is a hang (the `timeout` category) in synthesis
_BAD_FLAGS = ("--recursive-all", "--verbose-mode", "-Z", "--in-place", "--count-only", "-k9")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_CAT_HEREDOC = re.compile(r"^cat\s+>\s*(\S+)\s+(<<-?\s*['\"]?(\w+)['\"]?)\s*$")
_WRITES = re.compile(r"^cat\s+>>?\s*(\S+)\s+<<")  # a step that writes (or appends a part of) a file


def solution_steps(script: str, max_chars: int = STEP_CHARS) -> list[str]:
    """The commands of a solve.sh, one per step: heredocs and backslash continuations stay whole, except that a
    `cat > FILE <<EOF` step longer than `max_chars` is written in parts (`cat >`, then `cat >>`)."""
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
        steps += split_heredoc("\n".join(block).strip(), max_chars)
    return steps


def split_heredoc(step: str, max_chars: int) -> list[str]:
    """`step` as parts of at most `max_chars` when it writes a file from a heredoc (`cat > F <<EOF`), else [step]."""
    lines = step.split("\n")
    m = _CAT_HEREDOC.match(lines[0])
    if len(step) <= max_chars or not m or len(lines) < 3 or lines[-1].strip() != m.group(3):
        return [step]
    path, redirect, end = m.groups()
    parts, body = [], []
    for line in lines[1:-1]:
        head = f"cat {'>>' if parts else '>'} {path} {redirect}"
        if body and len("\n".join([head, *body, line, end])) > max_chars:
            parts.append("\n".join([head, *body, end]))
            body = []
        body.append(line)
    parts.append("\n".join([f"cat {'>>' if parts else '>'} {path} {redirect}", *body, end]))
    return parts


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
            # a name already capitalized (Makefile) is lowered instead: either way the path no longer exists
            parts[j] = name.capitalize() if name != name.capitalize() else name.lower()
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
    if kind in ("drop_bound", "skip_write"):
        return _forget(steps, kind, rng)
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


def _forget(steps: list[str], kind: str, rng: random.Random) -> list[str] | None:
    """The perturbations that leave something out: the bound of a streaming command, or the rewrite of a file."""
    if kind == "drop_bound":  # the option that makes a command stop (`--count 20`, `-n 5`) forgotten: it hangs
        hit = _pick_in_first_lines(steps, r"\s--?(?:count|max-count|lines|limit|n|c|m)[ =]\d+", rng)
        if hit is None:
            return None
        i, m = hit
        steps[i] = steps[i][: m.start()] + steps[i][m.end():]
        return steps
    if kind == "skip_write":  # the file the next step runs is never (re)written: its original fault shows
        targets = sorted({m.group(1) for s in steps if (m := _WRITES.match(s))})
        if not targets:
            return None
        target = rng.choice(targets)
        kept = [s for s in steps if not ((m := _WRITES.match(s)) and m.group(1) == target)]
        return kept or None
    raise ValueError(f"unknown perturbation {kind!r}")


def first_divergence(original: list[str], steps: list[str]) -> int:
    """The index of the first step where a perturbed copy differs from the reference steps."""
    for i, (a, b) in enumerate(zip(original, steps)):
        if a != b:
            return i
    return min(len(original), len(steps))


def synthesize_one(backend, task, kind: str, seed: int, timeout: float = STEP_TIMEOUT_S) -> FailureState | None:
    """Injects one mistake of `kind` into one task's solution; the failure state it reached, or None."""
    if task.solution is None:
        return None
    original = solution_steps(task.solution.read_text())
    rng = random.Random(seed)
    if kind == CLEAN:
        return _state(task, kind, seed, [], _start(task), failures.OK, "", original, 0, turn=-1)
    if kind in REPLY_MISTAKES:
        return _reply_mistake(backend, task, kind, seed, original, rng, timeout)
    if kind == REPEAT:
        return _repeated_mistake(backend, task, seed, original, rng, timeout)
    steps = perturb(original, kind, rng)
    if steps is None:
        return None
    broken = first_divergence(original, steps)
    messages = _start(task)
    with backend.start(task) as sb:
        if failed := _first_failure(sb, steps, messages, timeout):
            n, label, output = failed
            return _state(task, kind, seed, steps[: n + 1], messages, label, output, original, broken)
        v = verify(sb, task)
    if v.reward is None or v.passed:
        return None  # infra trouble, or the perturbation did not break anything
    return _state(task, kind, seed, steps, messages, failures.WRONG_OUTPUT, "", original, broken)


def _repeated_mistake(backend, task, seed, original, rng, timeout, tries: int = 3) -> FailureState | None:
    """A perturbation runs until a step fails; then that same step runs once more and fails the same way: the state
    after the repeat, labelled `repeated_failure`. Perturbations are tried in a seeded order, up to `tries` that
    apply (one that breaks no step leaves a wrong output, with no failing command to repeat); None if none does."""
    for kind in rng.sample(PERTURBATIONS, len(PERTURBATIONS)):
        if tries == 0:
            break
        if (steps := perturb(original, kind, rng)) is None:
            continue
        tries -= 1
        broken = first_divergence(original, steps)
        messages = _start(task)
        with backend.start(task) as sb:
            if not (failed := _first_failure(sb, steps, messages, timeout)):
                continue
            n, label, _ = failed
            again, output = _run_step(sb, steps[n], messages, timeout)
            if again == label:
                return _state(task, REPEAT, seed, [*steps[: n + 1], steps[n]], messages, failures.REPEATED_FAILURE,
                              output, original, broken, perturbation=f"{REPEAT}:{kind}")
    return None


def _first_failure(sb, steps: list[str], messages: list[dict], timeout: float) -> tuple[int, str, str] | None:
    """Runs `steps` as agent turns until one fails: its index, label and output; None when every step succeeds."""
    for n, step in enumerate(steps):
        label, output = _run_step(sb, step, messages, timeout)
        if label != failures.OK:
            return n, label, output
    return None


def _start(task) -> list[dict]:
    return [{"role": "system", "content": SimpleFormat().system_prompt()},
            {"role": "user", "content": instruction_message(task)}]


def _run_step(sb, step: str, messages: list[dict], timeout: float) -> tuple[str, str]:
    """Runs one step as an agent turn (appending the reply and its observation); its label and output."""
    r = sb.exec(step, timeout=timeout)
    messages.append({"role": "assistant", "content": f"```bash\n{step}\n```"})
    messages.append({"role": "user", "content": SimpleFormat().observation(
        [render_result(step, r.output, r.exit_code, r.timed_out, r.truncated)])})
    return failures.classify_result(r.output, r.exit_code, r.timed_out), r.output


# Replies a small model gives instead of a command: cut off inside the block (the budget ran out), the command
# without a fence, a fence of another language, JSON, or prose only.
_UNREADABLE = (lambda step, rng: f"```bash\n{step[: max(8, len(step) * rng.randint(3, 8) // 10)]}",
               lambda step, rng: step,
               lambda step, rng: f"Run this:\n{step}",
               lambda step, rng: f"```python\n{step}\n```",
               lambda step, rng: json.dumps({"command": step}),
               lambda step, rng: rng.choice(["Let me run the next command.", "Next I will fix this.",
                                             "I will now run the script.", "Now let me check the output.",
                                             "The next step is to write the file."]))
_DONE_TOO_SOON = ("TASK_COMPLETE", "Done.\nTASK_COMPLETE", "The task is complete.\nTASK_COMPLETE",
                  "That should do it.\nTASK_COMPLETE", "All set.\nTASK_COMPLETE")


def _reply_mistake(backend, task, kind, seed, original, rng, timeout) -> FailureState | None:
    """The reference steps before step `i` run cleanly, then the reply at step `i` is unreadable, or claims the
    task is done (then the tests run and fail, as an episode's final state reads)."""
    i = rng.randrange(len(original))
    messages = _start(task)
    fmt = SimpleFormat()
    with backend.start(task) as sb:
        if _first_failure(sb, original[:i], messages, timeout):
            return None  # the reference solution itself failed: nothing to learn from
        if kind == failures.PREMATURE_COMPLETION:
            v = verify(sb, task)
            if v.reward is None or v.passed:
                return None
            reply, note = rng.choice(_DONE_TOO_SOON), TESTS_FAILED_NOTE
        else:
            reply = rng.choice(_UNREADABLE)(original[i], rng)
            note = fmt.parse(reply).error
            if note is None:
                return None
    messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": note}]
    return _state(task, kind, seed, original[:i], messages, kind, note, original, i)


def _state(task, kind, seed, steps, messages, label, output, original, broken, turn=None,
           perturbation=None) -> FailureState:
    return FailureState(id=f"{task.id}:{kind}:{seed}", task_id=task.id, task_path=str(task.path), history=messages,
                        turn=sum(m["role"] == "assistant" for m in messages) - 1 if turn is None else turn,
                        category=label, evidence=output[-EVIDENCE_CHARS:], source="synthesized",
                        family=task.family, task_category=task.category, format=SimpleFormat.name, steps=steps,
                        perturbation=perturbation or kind, seed=seed, solution_steps=original, broken_step=broken)


def plan(tasks, variants: int, base_seed: int = 0, kinds: tuple[str, ...] = KINDS) -> list[tuple]:
    """The (task, kind, seed) jobs: `variants` seeds of every mistake kind of `kinds`, and one clean start, per
    task (when `kinds` has `clean`)."""
    return [(t, kind, base_seed + v) for t in tasks for kind in KINDS if kind in kinds
            for v in range(1 if kind == CLEAN else variants)]


def parse_kinds(text: str) -> tuple[str, ...]:
    """`--kinds`: names of KINDS, comma-separated; an unknown one is a ValueError naming it and the known ones."""
    names = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in names if k not in KINDS]
    if unknown or not names:
        raise ValueError(f"unknown mistake kind(s) {', '.join(unknown) or '(none given)'}; "
                         f"known: {', '.join(KINDS)}")
    return names


def run(tasks, backend, out: Path, variants: int = 4, concurrency: int = 2, base_seed: int = 0, on_done=None,
        kinds: tuple[str, ...] = KINDS) -> dict:
    """Every (task, kind, variant) once (a clean start once per task); resumable through the shard at `out`."""
    jobs = plan(tasks, variants, base_seed, kinds)
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
    ap.add_argument("--variants", type=int, default=4, help="seeds per mistake kind and task")
    ap.add_argument("-j", "--concurrency", type=int, default=2, help="tasks perturbed at once")
    ap.add_argument("--kinds", default=",".join(KINDS),
                    help="the mistake kinds to inject, comma-separated (default: all; `clean` is the task start)")
    args = ap.parse_args(argv)
    try:
        kinds = parse_kinds(args.kinds)
    except ValueError as e:
        ap.error(f"--kinds: {e}")
    if args.variants < 1 or args.concurrency < 1:
        ap.error("--variants and -j must be at least 1")
    try:
        shards.check(args.out)
    except shards.ShardError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if (selected := tasks_and_backend(args)) is None:
        return 2
    tasks, backend = selected
    with progress_bar() as bar:
        pid = bar.add_task("synthesize", total=len(plan(tasks, args.variants, kinds=kinds)))
        summary = run(tasks, backend, args.out, args.variants, args.concurrency,
                      on_done=lambda s: bar.update(pid, advance=1), kinds=kinds)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
