"""Failures: the taxonomy and step classifier (here), the failure state (`state.py`: `FailureState` and its one file
schema) and the choice of fork points from a trajectory (`fork_points.py`).

Taxonomy and step classifier.

Every step of a trajectory gets one label: `ok` or an error category. The rules live in one table (`RULES`), checked
in order; the first whose pattern matches a failed command's output (or whose exit code matches) wins. Add a rule by
adding a row. Two labels depend on the whole episode and are set after the verifier: `premature_completion` (the
model said it was done, the tests disagree) and `wrong_output` (every command succeeded, the tests failed) on the
final step; `repeated_failure` marks a failing command identical to the previous failing one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

OK = "ok"
COMMAND_NOT_FOUND = "command_not_found"
WRONG_PATH = "wrong_path"
PERMISSION_DENIED = "permission_denied"
MISSING_MODULE = "missing_module"
SYNTAX_ERROR = "syntax_error"
RUNTIME_EXCEPTION = "runtime_exception"
TIMEOUT = "timeout"
UNPARSEABLE_REPLY = "unparseable_reply"
REPEATED_FAILURE = "repeated_failure"
PREMATURE_COMPLETION = "premature_completion"
WRONG_OUTPUT = "wrong_output"
OTHER_ERROR = "other_error"

CATEGORIES = (COMMAND_NOT_FOUND, WRONG_PATH, PERMISSION_DENIED, MISSING_MODULE, SYNTAX_ERROR, RUNTIME_EXCEPTION,
              TIMEOUT, UNPARSEABLE_REPLY, REPEATED_FAILURE, PREMATURE_COMPLETION, WRONG_OUTPUT, OTHER_ERROR)


@dataclass(frozen=True)
class Rule:
    category: str
    pattern: str | None = None  # regex searched in the output (multiline, case-sensitive)
    exit_codes: tuple[int, ...] = ()


# Order matters: more specific evidence first (a Python traceback ending in ModuleNotFoundError is a missing
# module, not a runtime exception; "python3: can't open file ... No such file" is a wrong path).
RULES: tuple[Rule, ...] = (
    Rule(MISSING_MODULE, r"ModuleNotFoundError|No module named|ImportError: |Cannot find module|"
                         r"error while loading shared libraries|cannot find -l"),
    Rule(SYNTAX_ERROR, r"SyntaxError|IndentationError|TabError|syntax error|unexpected EOF|JSONDecodeError|"
                       r"json\.decoder|Expecting (?:value|property name|',' delimiter)|yaml\.(?:scanner|parser)|"
                       r"tomllib\.TOMLDecodeError|parse error"),
    Rule(PERMISSION_DENIED, r"Permission denied|Operation not permitted|EACCES|PermissionError", (126,)),
    Rule(COMMAND_NOT_FOUND, r"command not found|: not found$|No such file or directory \(os error 2\)", (127,)),
    Rule(WRONG_PATH, r"No such file or directory|FileNotFoundError|cannot access|does not exist|not a directory|"
                     r"Not found in archive|can't open file"),
    Rule(RUNTIME_EXCEPTION, r"Traceback \(most recent call last\)|^\w*(?:Error|Exception)\b.*:|panicked at|"
                            r"Segmentation fault|core dumped|AssertionError"),
)


def classify_result(output: str, exit_code: int | None, timed_out: bool) -> str:
    """The category of one command's result (`ok` when it succeeded)."""
    if timed_out:
        return TIMEOUT
    if exit_code == 0:
        return OK
    for rule in RULES:
        if exit_code in rule.exit_codes or (rule.pattern and re.search(rule.pattern, output, re.M)):
            return rule.category
    return OTHER_ERROR


def classify_step(results: list[dict], parse_error: str | None, previous_failed_commands: list[str] | None = None,
                  commands: list[str] | None = None) -> str:
    """The label of one agent turn: the first failing command's category, or `ok`."""
    if parse_error:
        return UNPARSEABLE_REPLY
    for i, r in enumerate(results):
        label = classify_result(r["output"], r["exit_code"], r["timed_out"])
        if label != OK:
            if commands and previous_failed_commands and commands[i] == previous_failed_commands[-1]:
                return REPEATED_FAILURE
            return label
    return OK


def final_label(said_done: bool, all_ok: bool) -> str | None:
    """The label the last step gets when the tests failed, or None to keep its own."""
    if said_done:
        return PREMATURE_COMPLETION
    if all_ok:
        return WRONG_OUTPUT
    return None
