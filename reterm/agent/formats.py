"""Reply formats: how the model is told to act, and how its replies are read.

- `simple`: reasoning text, then one fenced ```bash block per turn; `TASK_COMPLETE` alone on a line ends the episode.
  Small models (SmolLM2-135M) can follow it.
- `terminus2`: Terminus-2's JSON (`analysis`, `plan`, `commands` of `{keystrokes, duration}`, `task_complete`), so
  prompts and models tuned for Terminal-Bench work unchanged. Keystrokes are run as shell commands (the trailing
  newline is the Enter key); tmux control keys such as `C-c` have no meaning outside a tmux pane and are skipped with
  a note in the observation.

A reply that cannot be read gets a short corrective observation and counts as a failed step (`unparseable_reply`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

DONE_MARKER = "TASK_COMPLETE"


@dataclass
class ParsedReply:
    commands: list[str] = field(default_factory=list)
    done: bool = False
    error: str | None = None  # set when the reply could not be read; becomes the corrective observation
    notes: list[str] = field(default_factory=list)


class SimpleFormat:
    name = "simple"

    def system_prompt(self) -> str:
        return (
            "You are an agent working in a Linux terminal to complete a task. Each turn: think briefly, then give "
            "exactly one bash command in a fenced block, like this:\n\n```bash\nls -la\n```\n\n"
            "You will see the command's output and exit code. Fix errors before moving on. When the task is "
            f"complete, reply with {DONE_MARKER} on its own line and no command."
        )

    def parse(self, reply: str) -> ParsedReply:
        blocks = re.findall(r"```(?:bash|sh|shell|console)?[ \t]*\n(.*?)```", reply, re.S)
        done = re.search(rf"^\s*{DONE_MARKER}\s*$", reply, re.M) is not None
        commands = [b.strip() for b in blocks if b.strip()][:1]
        if not commands and not done:
            return ParsedReply(error=f"No command found. Reply with one ```bash block, or {DONE_MARKER} when the "
                                     f"task is complete.")
        return ParsedReply(commands=commands, done=done)

    def observation(self, texts: list[str]) -> str:
        return "\n\n".join(texts)


class Terminus2Format:
    name = "terminus2"

    def system_prompt(self) -> str:
        return (
            "You are an AI assistant tasked with solving command-line tasks in a Linux environment. Format your "
            "response as JSON with this structure:\n\n"
            '{\n  "analysis": "what you see and what still needs doing",\n  "plan": "what the next commands do",\n'
            '  "commands": [\n    {"keystrokes": "ls -la\\n", "duration": 0.1}\n  ],\n'
            '  "task_complete": false\n}\n\n'
            "Each command's keystrokes are typed into the terminal; end them with \\n to press Enter. Set "
            "task_complete to true only when the task is done."
        )

    def parse(self, reply: str) -> ParsedReply:
        data = _first_json_object(reply)
        if data is None:
            return ParsedReply(error="Your reply was not a JSON object. Reply with JSON holding analysis, plan, "
                                     "commands and task_complete.")
        cmds = data.get("commands", [])
        if not isinstance(cmds, list):
            return ParsedReply(error="`commands` must be a list of {keystrokes, duration} objects.")
        out = ParsedReply(done=bool(data.get("task_complete", False)))
        for c in cmds:
            if not isinstance(c, dict) or not isinstance(c.get("keystrokes"), str):
                return ParsedReply(error="Each command must be an object with a string `keystrokes`.")
            keys = c["keystrokes"]
            if re.fullmatch(r"\s*C-[a-z]\s*", keys):
                out.notes.append(f"[{keys.strip()} skipped: no interactive program is running]")
                continue
            if keys.strip():
                out.commands.append(keys.rstrip("\n"))
        if not out.commands and not out.done and not out.notes:
            out.error = "No commands and task_complete is false: give at least one command."
        return out

    def observation(self, texts: list[str]) -> str:
        return "New Terminal Output:\n\n" + "\n\n".join(texts)


def _first_json_object(text: str) -> dict | None:
    fenced = re.search(r"```(?:json)?\s*\n(\{.*?\})\s*```", text, re.S)
    candidates = [fenced.group(1)] if fenced else []
    start = text.find("{")
    if start >= 0:
        candidates.append(text[start:])
    decoder = json.JSONDecoder()
    for c in candidates:
        try:
            value, _ = decoder.raw_decode(c)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


FORMATS = {"simple": SimpleFormat, "terminus2": Terminus2Format}


def make_format(name: str):
    if name not in FORMATS:
        raise ValueError(f"unknown reply format {name!r}; choose one of {', '.join(FORMATS)}")
    return FORMATS[name]()


def render_result(command: str, output: str, exit_code: int | None, timed_out: bool, truncated: bool) -> str:
    """One command's observation text."""
    status = "timed out" if timed_out else f"exit code {exit_code}"
    head = f"$ {command}\n"
    note = " (output truncated)" if truncated else ""
    return f"{head}{output}{'' if output.endswith(chr(10)) or not output else chr(10)}[{status}{note}]"
