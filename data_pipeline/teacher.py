"""The oracle teacher: from a failure state, the rest of a whole, natural episode (as TermiGen builds
error-correction data), with no model.

A synthesized state knows the reference steps and which one the injected mistake replaced (`solution_steps`,
`broken_step`). The teacher's episode reads the error the sandbox really printed, then:

1. sometimes (about one time in three) a look first: `ls`, `cat` of the file involved, `command -v`, `--help`;
2. the recovery turn: one short sentence naming what went wrong, grounded in the actual message (the command, path,
   module or exception it names; a pool of wordings with slots filled from the error; sometimes no sentence), then
   only the corrected step (after a repeated failure the sentence says that retrying did not help, or names the
   error after a short "again");
3. the remaining reference steps, one per turn, then `TASK_COMPLETE`.

A clean start (`category` ok) gives a clean episode: every step, one per turn, then done. A collected state (a
policy's own failure: no reference step is known to have broken) gets the sentence, then every reference step.

Every reply fits the reply budget (`count_tokens`, from `recover`: the SmolLM2 tokenizer, as SFT renders a trained
turn): a sentence that would not fit is shortened or left out. The quoted error line is never a piece of a command
the agent typed (heredoc bodies and continuation lines are echoed back in observations).
"""

from __future__ import annotations

import math
import random
import re
from pathlib import PurePosixPath

from data_pipeline.synthesize import solution_steps
from reterm import failures
from reterm.agent.formats import DONE_MARKER
from reterm.agent.policy import Generation, Policy
from reterm.options import REPLY_TOKENS

LOOK_RATE = 0.35
SILENT_RATE = 0.12  # recovery turns with no sentence at all: the fix speaks for itself
QUOTE_CHARS = 90

# Wordings per category; a template is used only when every slot it names was found in the error or the step.
# Slots: line (the error line), bad / good (command names), path, module, exc, file (what the fix writes or runs),
# var (an environment variable the fix sets).
_SAID = {
    failures.COMMAND_NOT_FOUND: (
        "`{bad}` is not a command; I meant `{good}`.", "Typo: `{bad}` should be `{good}`.",
        "The shell has no `{bad}`. Running it with `{good}`.", "I mistyped `{good}` as `{bad}`.",
        "Command not found: `{bad}`.", "`{bad}: command not found` means a typo in the command name.",
        "There is no program called `{bad}`."),
    failures.WRONG_PATH: (
        "`{path}` does not exist.", "There is no `{path}`; wrong path.", "Wrong path: `{path}` is not there.",
        "No such file: `{path}`.", "I got the path wrong (`{path}`).", "`{path}` is missing, so the path is off.",
        "Nothing at `{path}`. The right path is in the task."),
    failures.PERMISSION_DENIED: (
        "Permission denied on `{path}`.", "`{path}` cannot be run as it is.", "Not allowed to run `{path}`.",
        "`{path}` is not executable yet.", "Running `{path}` was refused: permission denied."),
    failures.MISSING_MODULE: (
        "Python cannot find the module `{module}`.", "`{module}` is not importable from here.",
        "No module named `{module}`: the import path is missing.", "The import of `{module}` failed.",
        "`{module}` lives outside Python's path; `{var}` has to point at it.",
        "Without `{var}` the module `{module}` is not found."),
    failures.SYNTAX_ERROR: (
        "Syntax error in `{path}`.", "`{path}` does not parse.", "`{path}` has a syntax error.",
        "The file `{path}` is broken: `{line}`."),
    failures.RUNTIME_EXCEPTION: (
        "The script raised {exc}.", "It crashed with {exc}.", "{exc}: `{line}`.", "A {exc} stopped the run.",
        "`{file}` fails at run time with {exc}.", "The run died with {exc}; the code needs fixing."),
    failures.TIMEOUT: (
        "`{bad}` never finished; it has to be bounded.", "That command hung until the time limit.",
        "`{bad}` kept running. It needs a limit.", "The command timed out: it does not stop on its own.",
        "`{bad}` streams forever, so I must stop it after enough output."),
    failures.WRONG_OUTPUT: (
        "The commands ran, but `{file}` is not right yet.", "No error, yet the result in `{file}` looks wrong.",
        "Everything exited 0, but the task is not done: `{file}` needs fixing.",
        "`{file}` was written wrongly; redoing that step.", "That step ran without error but produced a bad `{file}`."),
    failures.UNPARSEABLE_REPLY: (
        "My last reply had no command block.", "That reply could not be run; here is the command in a bash block.",
        "The command must go in a fenced bash block.", "Reformatting: one bash block this time.",
        "No command was found in my reply. Again, properly:", "I must give the command in a bash block."),
    failures.REPEATED_FAILURE: (
        "That failed twice the same way; running it again will not help.",
        "Same error again: the step itself is wrong.",
        "Repeating the command changed nothing. Fixing the cause instead.", "I ran the same failing command twice.",
        "The same error twice (`{line}`): it needs a change, not a retry.", "Retrying unchanged is pointless.",
        "Still `{line}`. A retry will not fix it.", "Second identical failure, so I change the command."),
    failures.PREMATURE_COMPLETION: (
        "Not done yet: the tests fail.", "I stopped too early; `{file}` still needs this step.",
        "The tests failed, so the task is not finished.", "I claimed completion too soon.",
        "The task is not complete. Next step:", "Still work left before the task is done.",
        "The tests disagree: I am not done."),
}
_AGAIN = ("Same error again. ", "Again the same failure. ", "Retrying did not help. ", "Twice now. ",
          "Running it again was a mistake. ")
_GENERIC = ("The last command failed: `{line}`.", "That failed with `{line}`.", "Error: `{line}`.",
            "It printed `{line}`, so that step needs fixing.", "`{line}` - the command was wrong.",
            "That did not work (`{line}`).", "The error says `{line}`.")
_THEN = ("", "", " Fixing it.", " Retrying with the fix.", " Here is the corrected step.", " Let me fix that.",
         " Correcting it.")
_AFTER_LOOK = ("", "", "Now the fix.", "I see.", "That confirms it.", "Fixing it now.", "Here is the corrected step.")
_DONE = (DONE_MARKER, DONE_MARKER, f"Done.\n{DONE_MARKER}", f"The task is complete.\n{DONE_MARKER}",
         f"All steps ran.\n{DONE_MARKER}")
_HELPFUL = {"grep", "find", "tar", "sort", "chmod", "mkdir", "head", "wc", "cut", "cp"}


def approximate_tokens(text: str) -> int:
    """A cautious token count without a tokenizer (these replies run about 2.8 characters a token)."""
    return math.ceil(len(text) / 2.5) + 1


def typed_lines(history: list[dict]) -> set[str]:
    """Every line the agent typed (its replies), stripped: an observation echoes them back."""
    return {line.strip() for m in history if m["role"] == "assistant" for line in m["content"].splitlines()
            if line.strip()}


def evidence_line(evidence: str, history: list[dict]) -> str:
    """The error line worth quoting: the last line of the failing output that is neither a status line nor a
    piece of a command the agent typed; "" when there is none."""
    typed = typed_lines(history)
    for line in reversed(evidence.strip().splitlines()):
        s = line.strip()
        if (not s or s.startswith(("[exit code", "[timed out", "$ ", "```")) or s in typed
                or (len(s) < 16 and any(s in t for t in typed))):
            continue
        return s if len(s) <= QUOTE_CHARS else s[: QUOTE_CHARS - 3] + "..."
    return ""


def facts(state, step: str, category: str | None = None) -> dict[str, str]:
    """The slots a sentence can name, from the state's error and the corrected `step` (`category`: the error's
    own category when it differs from the state's, as for a repeated failure)."""
    line = evidence_line(state.evidence, state.history)
    out = {"line": line}
    first = step.split("\n")[0]
    good = re.sub(r"^(\w+=\S+\s+)+", "", first).split(" ")[0]
    if good and "=" not in good and "$" not in good:
        out["good"] = good
    if m := re.search(r"(?:^|: )([^\s:]+): (?:command )?not found", state.evidence, re.M):
        out["bad"] = m.group(1)
    if (category or state.category) == failures.TIMEOUT:
        last = [m["content"] for m in state.history if m["role"] == "assistant"][-1:]
        if last and (m := re.search(r"```bash\n(\S+)", last[0])):
            out["bad"] = m.group(1)
    if m := re.search(r"(/app[\w./-]*\w)", line):
        out["path"] = m.group(1)
    if m := re.search(r"No module named '([\w.]+)'", state.evidence):
        out["module"] = m.group(1)
    if m := re.search(r"^(\w+(?:Error|Exception))\b", line):
        out["exc"] = m.group(1)
    if m := re.search(r"^(\w+)=\S+\s", first):
        out["var"] = m.group(1)
    if m := re.search(r"(?:>>?|python3|bash)\s+(/app[\w./-]*\w)", first):
        out["file"] = m.group(1)
    return out


def sentence(category: str, slots: dict[str, str], rng: random.Random, then: bool = True) -> list[str]:
    """Candidate sentences naming what went wrong, in random order (the caller takes the first that fits); with
    `then`, some say that the fix follows."""
    # the generic wordings quote an error a command printed; a reply mistake's observation is the harness talking
    quotes = slots.get("line") and category not in (failures.UNPARSEABLE_REPLY, failures.PREMATURE_COMPLETION)
    pool = list(_SAID.get(category, ())) + (list(_GENERIC) if quotes else [])
    usable = [t for t in pool if all(slots.get(k) for k in re.findall(r"{(\w+)}", t))]
    rng.shuffle(usable)
    return [t.format(**slots) + (rng.choice(_THEN) if then else "") for t in usable]


def underlying(state) -> str:
    """The category of a repeated failure's own error (what the repeated command keeps failing with)."""
    last = state.history[-1]["content"] if state.history else ""
    timed_out = "[timed out" in last
    # the observation ends each command's output with `[exit code N]`: the first non-zero one is the failing command's
    codes = [c for c in map(int, re.findall(r"\[exit code (\d+)", last)) if c]
    return failures.classify_result(state.evidence, None if timed_out else (codes[0] if codes else 1), timed_out)


def repeat_sentences(state, slots: dict[str, str], rng: random.Random, then: bool = True) -> list[str]:
    """For a repeated failure: a sentence about the loop, or one about the error itself after a short "again"."""
    own = sentence(failures.REPEATED_FAILURE, slots, rng, then)
    cause = [rng.choice(_AGAIN) + s for s in sentence(underlying(state), slots, rng, then)]
    mixed = own + cause
    rng.shuffle(mixed)
    return mixed


def look_command(category: str, step: str, slots: dict[str, str], rng: random.Random) -> str | None:
    """A harmless look before the fix (`ls`, `cat`, `command -v`, `--help`), or None."""
    first = step.split("\n")[0]
    options = ["ls /app", "ls -la /app"]
    paths = re.findall(r"(/app/[\w./-]*\w)", first)
    options += [f"ls {PurePosixPath(p).parent}" for p in paths[:1] if str(PurePosixPath(p).parent) != "/app"]
    reads = re.findall(r"(?:python3|bash|<)\s+(/app/[\w./-]*\w)", first)
    options += [f"cat {p}" for p in reads] + [f"head -n 20 {p}" for p in reads]
    good = slots.get("good", "")
    if category == failures.COMMAND_NOT_FOUND and good and "/" not in good:
        options += [f"command -v {good}", f"type {good}"]
    if category in (failures.WRONG_OUTPUT, failures.SYNTAX_ERROR, failures.RUNTIME_EXCEPTION) and \
            slots.get("file"):
        options += [f"cat {slots['file']}"] * 2
    if good in _HELPFUL:
        options.append(f"{good} --help | head -n 12")
    if category == failures.TIMEOUT and slots.get("bad", "").startswith("/app/"):
        options += [f"{slots['bad']} --help"] * 2  # a program that streams usually has a flag to stop
    if m := re.search(r"PYTHONPATH=(\S+)", first):
        options.append(f"ls {m.group(1)}")
    return rng.choice(options)


def restart_of(steps: list[str], i: int) -> int:
    """Where redoing step `i` starts: a file written in parts is rewritten from its first part (appending a part
    again would duplicate it)."""
    m = re.match(r"cat\s+>>\s*(\S+)\s+<<", steps[i]) if steps else None
    if not m:
        return i
    while i > 0 and not re.match(rf"cat\s+>\s*{re.escape(m.group(1))}\s+<<", steps[i]):
        i -= 1
    return i


class OracleTeacher(Policy):
    """Plays out the rest of an episode from a failure state (see the module docstring); a scripted Policy."""

    name = "oracle"
    model_name = "oracle"

    def __init__(self, task, state, attempt: int = 0, count_tokens=approximate_tokens, budget: int = REPLY_TOKENS):
        self.count_tokens, self.budget = count_tokens, budget
        rng = random.Random(f"{state.id}:{attempt}")
        steps = state.solution_steps
        if steps is None:  # a collected state: the reference solution from its first step
            steps = solution_steps(task.solution.read_text()) if task.solution else []
        if state.category == failures.OK:
            replies = [self._block(s) for s in steps]
        else:
            broken = restart_of(steps, min(state.broken_step or 0, max(0, len(steps) - 1)))
            replies = self._recovery(state, steps[broken], rng) + [self._block(s) for s in steps[broken + 1:]]
        self.replies = replies + [rng.choice(_DONE)]
        self._history_turns = sum(1 for m in state.history if m["role"] == "assistant")

    @staticmethod
    def _block(command: str, lead: str = "") -> str:
        return f"{lead}\n```bash\n{command}\n```" if lead else f"```bash\n{command}\n```"

    def _fits(self, text: str) -> bool:
        return self.count_tokens(text) <= self.budget

    def _said(self, lead_options: list[str], command: str) -> str:
        """The first lead sentence with which the reply still fits the budget; the bare command otherwise."""
        for lead in lead_options:
            if self._fits(self._block(command, lead)):
                return self._block(command, lead)
        return self._block(command)

    def _recovery(self, state, step: str, rng: random.Random) -> list[str]:
        repeated = state.category == failures.REPEATED_FAILURE
        category = underlying(state) if repeated else state.category
        slots = facts(state, step, category)
        look = look_command(category, step, slots, rng) if rng.random() < LOOK_RATE else None
        said = (repeat_sentences(state, slots, rng, then=look is None) if repeated else
                sentence(state.category, slots, rng, then=look is None))
        if rng.random() < SILENT_RATE:
            said = []
        if look is None:
            return [self._said(said, step)]
        after = [rng.choice(_AFTER_LOOK)]
        return [self._said(said, look), self._said([a for a in after if a], step)]

    def generate(self, messages: list[dict], prompt_ids=None) -> Generation:
        n = sum(1 for m in messages if m["role"] == "assistant") - self._history_turns
        return Generation(self.replies[min(n, len(self.replies) - 1)])
