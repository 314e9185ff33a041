"""The oracle teacher's replies: grounded in the real error, varied, within the reply budget (no sandbox needed:
the states are written out as synthesize writes them)."""

from __future__ import annotations

from data_pipeline.teacher import OracleTeacher, evidence_line, restart_of
from reterm import failures
from reterm.agent.formats import DONE_MARKER
from reterm.failures.state import FailureState

STEPS = ["mkdir -p /app/etc", "printf '[index]\\nmin_length = 4\\n' > /app/etc/indexer.ini", "python3 /app/indexer.py"]
HEREDOC = "cat > /app/report.py <<'EOF'\nimport json\nprint(json.dumps({}))\nEOF"


def _state(category, evidence, typed, broken=1, steps=STEPS, sid="t:typo_command:0") -> FailureState:
    history = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]
    for cmd in typed:
        history += [{"role": "assistant", "content": f"```bash\n{cmd}\n```"},
                    {"role": "user", "content": f"$ {cmd}\n{evidence}\n[exit code 1]"}]
    return FailureState(id=sid, task_id="t", task_path=None, history=history, turn=len(typed) - 1,
                        category=category, evidence=evidence, source="synthesized", steps=typed,
                        solution_steps=steps, broken_step=broken)


def _teacher(state, attempt=0, **kw):
    return OracleTeacher(None, state, attempt, **kw)


def test_the_quoted_error_line_is_never_a_piece_of_the_command():
    """A heredoc's body and terminator are echoed back in the observation; they are not the error."""
    state = _state(failures.WRONG_OUTPUT, f"$ {HEREDOC}\n[exit code 0]", [HEREDOC])
    assert evidence_line(state.evidence, state.history) == ""
    state = _state(failures.SYNTAX_ERROR, "EOF\n  File \"/app/report.py\", line 2\nSyntaxError: invalid syntax",
                   [HEREDOC])
    assert evidence_line(state.evidence, state.history) == "SyntaxError: invalid syntax"


def test_the_recovery_names_what_the_error_names_and_runs_only_the_corrected_step_then_the_rest():
    typo = STEPS[1].replace("printf", "pritnf")
    state = _state(failures.COMMAND_NOT_FOUND, "bash: line 6: pritnf: command not found", [STEPS[0], typo])
    firsts = set()
    for attempt in range(60):
        replies = _teacher(state, attempt).replies
        fix = next(i for i, r in enumerate(replies) if f"```bash\n{STEPS[1]}\n```" in r)
        assert fix <= 1 and replies[fix + 1:] == [f"```bash\n{STEPS[2]}\n```", replies[-1]]
        assert replies[-1].endswith(DONE_MARKER) and typo not in "".join(replies)
        said = replies[0].split("```")[0].strip()
        assert not said or "pritnf" in said  # a sentence, when there is one, names the mistyped command
        firsts.add(replies[0])
    assert len(firsts) >= 15  # worded in many ways


def test_every_reply_fits_the_budget_or_drops_its_sentence():
    state = _state(failures.WRONG_PATH, "cat: /app/etc/indexer.in: No such file or directory", [STEPS[0]])
    bare = f"```bash\n{STEPS[1]}\n```"
    for attempt in range(20):
        assert bare in _teacher(state, attempt, count_tokens=len, budget=len(bare)).replies  # no room for words
        roomy = _teacher(state, attempt, count_tokens=len, budget=len(bare) + 25).replies
        assert all(len(r) <= len(bare) + 25 for r in roomy if STEPS[1] in r)


def test_a_file_written_in_parts_is_redone_from_its_first_part():
    steps = ["cat > /app/a.py <<'EOF'\nx = 1\nEOF", "cat >> /app/a.py <<'EOF'\ny = 2\nEOF", "python3 /app/a.py"]
    assert restart_of(steps, 1) == 0 and restart_of(steps, 2) == 2
    state = _state(failures.SYNTAX_ERROR, "SyntaxError: invalid syntax", steps[:2], broken=1, steps=steps)
    replies = _teacher(state).replies
    assert any(steps[0] in r for r in replies[:2]) and replies[-3:-1] == [f"```bash\n{s}\n```" for s in steps[1:]]


def test_a_clean_start_is_played_as_a_clean_episode():
    state = _state(failures.OK, "", [], broken=0)
    assert _teacher(state).replies[:-1] == [f"```bash\n{s}\n```" for s in STEPS]


def test_a_repeated_failure_is_broken_by_the_fix_not_another_retry():
    typo = STEPS[1].replace("printf", "pritnf")
    state = _state(failures.REPEATED_FAILURE, "bash: line 6: pritnf: command not found", [STEPS[0], typo, typo],
                   sid="t:repeat_mistake:0")
    firsts = set()
    for attempt in range(60):
        replies = _teacher(state, attempt).replies
        fix = next(i for i, r in enumerate(replies) if f"```bash\n{STEPS[1]}\n```" in r)
        assert fix <= 1 and replies[fix + 1:] == [f"```bash\n{STEPS[2]}\n```", replies[-1]]
        assert typo not in "".join(replies)  # never the failing command a third time
        firsts.add(replies[0].split("```")[0].strip())
    said = [s for s in firsts if s]
    assert len(said) >= 10
    # some sentences speak of the loop, some name the error itself after a short "again"
    assert any("twice" in s or "again" in s.lower() or "retry" in s.lower() for s in said)
    assert any("pritnf" in s for s in said)


def test_a_repeated_failure_is_classified_by_its_real_exit_code():
    """An error whose message names no category is read from the observation's `[exit code N]`, not guessed as 1."""
    from data_pipeline.teacher import underlying

    state = _state(failures.REPEATED_FAILURE, "sh: /app/run: cannot execute", [STEPS[0], "/app/run", "/app/run"])
    assert underlying(state) == failures.OTHER_ERROR  # exit code 1, as _state writes it
    state.history[-1]["content"] = "$ /app/run\nsh: /app/run: cannot execute\n[exit code 126]"
    assert underlying(state) == failures.PERMISSION_DENIED
    state.history[-1]["content"] = "$ true\n[exit code 0]\n$ /app/run\nsh: /app/run: cannot execute\n[exit code 127]"
    assert underlying(state) == failures.COMMAND_NOT_FOUND
