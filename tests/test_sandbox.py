"""The sandbox contract, checked on both backends with real engines."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import tarfile
import time
import tracemalloc

import pytest

from reterm.sandbox import SandboxError, SandboxSpec


def test_shell_keeps_cwd_and_exported_variables(sandbox):
    assert sandbox.exec("mkdir -p /app/sub && cd /app/sub && export GREETING='hello world'").exit_code == 0
    r = sandbox.exec('pwd; echo "$GREETING"')
    assert r.output == "/app/sub\nhello world\n"
    assert sandbox.shell_state.cwd == "/app/sub"
    assert sandbox.shell_state.env["GREETING"] == "hello world"


def test_plain_assignments_persist_like_in_a_terminal(sandbox):
    sandbox.exec("f=$(echo /app); n=3")
    assert sandbox.exec('echo "$f $n"').output == "/app 3\n"


def test_exec_result_reports_exit_code_and_interleaved_output(sandbox):
    r = sandbox.exec("echo out; echo err >&2; echo out2; exit 7")
    assert r.exit_code == 7 and not r.timed_out and not r.truncated
    assert r.output == "out\nerr\nout2\n"
    assert sandbox.exec("false").exit_code == 1
    assert sandbox.exec("printf 'no newline'").output == "no newline"


def test_syntax_error_and_exit_do_not_end_the_shell(sandbox):
    r = sandbox.exec("if then fi")
    assert r.exit_code != 0 and "syntax error" in r.output
    assert sandbox.exec("exit 3").exit_code == 3
    assert sandbox.exec("echo still here").output == "still here\n"


def test_infinite_loop_is_killed_within_timeout_and_shell_survives(sandbox):
    for command in ("while :; do :; done", "sleep 100", "sleep 100 & sleep 100"):
        t = time.monotonic()
        r = sandbox.exec(command, timeout=1.5)
        elapsed = time.monotonic() - t
        assert r.timed_out, command
        assert elapsed < 1.5 + 15, f"{command!r} took {elapsed:.1f}s"  # not the command's 100 s; busy cores: slack
        assert sandbox.exec("echo alive").output == "alive\n"


def test_exit_code_124_before_the_deadline_is_not_a_timeout(sandbox):
    r = sandbox.exec("exit 124", timeout=30)
    assert r.exit_code == 124 and not r.timed_out


def test_large_output_is_capped_and_memory_stays_bounded(sandbox):
    tracemalloc.start()
    try:
        r = sandbox.exec("head -c 50000000 /dev/zero | tr '\\0' 'a'; echo; echo END", timeout=120)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.exit_code == 0
    assert r.truncated and r.output_bytes == 50_000_000 + 5
    assert len(r.output) < 70 * 1024
    assert r.output.startswith("aaaa") and r.output.endswith("a\nEND\n")
    assert "bytes of output omitted" in r.output
    assert peak < 8 * 1024 * 1024, f"peak traced memory {peak / 1e6:.1f} MB while reading 50 MB"


def test_no_network_by_default(sandbox):
    # Only the loopback interface exists: nothing can leave the sandbox.
    r = sandbox.exec("cat /proc/net/dev")
    ifaces = {line.split(":")[0].strip() for line in r.output.splitlines()[2:] if ":" in line}
    assert ifaces == {"lo"}


def test_host_environment_never_reaches_the_sandbox(sandbox, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_secret_value")
    # a shell restart re-reads nothing from the host either
    sandbox.shell.restart()
    r = sandbox.exec("env")
    assert "hf_secret_value" not in r.output and "HF_TOKEN" not in r.output
    assert "RETERM_HOME" not in r.output


def test_files_round_trip(sandbox, tmp_path):
    sandbox.write_file("/tests/a/b.txt", "content\n")
    assert sandbox.read_file("/tests/a/b.txt") == b"content\n"
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.sh").write_text("echo x\n")
    (tmp_path / "d" / "x.sh").chmod(0o755)
    sandbox.upload(tmp_path / "d", "/tests/up")
    assert sandbox.exec("/tests/up/x.sh").output == "x\n"
    with pytest.raises(FileNotFoundError):
        sandbox.read_file("/tests/missing")


def test_what_the_agent_exports_or_installs_never_corrupts_a_file_read(sandbox, simple_task):
    """The host reads files (rewards, archives) through the sandbox's shell. An agent that exported BASH_ENV (a
    script that prints, which every non-interactive bash of its own then runs) or a locale that does not exist (every
    bash of its own warns about it: a policy's `export LC_ALL=value` once turned a passing reward into an unreadable
    one, and once crashed an evaluation) does not change what is read; one that
    replaced `base64` on the PATH makes a read fail with SandboxError (the verifier's infra error), never with a
    decoding crash or silently wrong bytes."""
    from reterm.verifier import verify

    sandbox.write_file("/logs/verifier/reward.txt", "1\n")
    sandbox.exec("echo 'echo noise from bash_env' > /app/env.sh && export BASH_ENV=/app/env.sh LC_ALL=value")
    noise = sandbox.exec("true").output  # the agent's own commands do print both
    assert "noise from bash_env" in noise and "LC_ALL" in noise
    assert sandbox.read_file("/logs/verifier/reward.txt") == b"1\n"
    sandbox.write_file("/app/out.txt", "ok\n")
    with tarfile.open(fileobj=io.BytesIO(sandbox.get_archive("/app/out.txt"))) as tar:
        assert tar.extractfile("out.txt").read() == b"ok\n"
    assert verify(sandbox, simple_task).reward == 1.0
    sandbox.exec("mkdir -p /usr/local/bin && printf '#!/bin/sh\\necho not-base64!\\n' > /usr/local/bin/base64 && "
                 "chmod +x /usr/local/bin/base64")
    assert sandbox.exec("base64 /app/out.txt").output.endswith("not-base64!\n")
    with pytest.raises(SandboxError, match="not the file's base64"):
        sandbox.read_file("/logs/verifier/reward.txt")
    v = verify(sandbox, simple_task)
    assert v.reward is None and "could not read the reward" in v.infra_error


def _fingerprint(sb) -> str:
    """Hash of the writable file tree plus the shell state, as seen from inside the sandbox."""
    listing = sb.exec("find /app /root -xdev -type f -exec sha256sum {} + | sort").output
    st = sb.shell_state
    return hashlib.sha256((listing + st.cwd + repr(sorted(st.env.items()))).encode()).hexdigest()


def test_snapshot_preserves_files_cwd_and_env_and_forks_are_isolated(sandbox):
    sandbox.exec("mkdir -p /app/w && cd /app/w && echo v1 > f.txt && export MARK=snap")
    before = _fingerprint(sandbox)
    with sandbox.snapshot() as snap:
        sandbox.exec("echo changed-after-snapshot > /app/w/f.txt; export MARK=later; cd /")
        forks = snap.fork(3)
    try:
        for f in forks:
            assert f.exec("pwd; echo $MARK; cat f.txt").output == "/app/w\nsnap\nv1\n"
            assert _fingerprint(f) == before
        forks[0].exec("echo fork0 > f.txt; touch only0; export MARK=f0")
        assert forks[1].exec("cat f.txt; ls only0 2>&1 | head -c 0; test -e only0 && echo yes || echo no; "
                             "echo $MARK").output == "v1\nno\nsnap\n"
        assert sandbox.exec("cat /app/w/f.txt").output == "changed-after-snapshot\n"
        assert len({f.id for f in forks}) == 3
    finally:
        for f in forks:
            f.close()
    assert snap.released


def test_snapshot_is_deleted_when_released(backend, sandbox):
    snap = sandbox.snapshot()
    forks = snap.fork(2)
    snap.release()
    for f in forks:
        f.close()
    assert snap.released
    if backend.name == "local":
        assert not snap.ref.exists()
    else:
        import docker

        with pytest.raises(docker.errors.ImageNotFound):
            backend.client.images.get(snap.ref)
    with pytest.raises(SandboxError):
        snap.fork(1)


def test_exported_snapshot_imports_with_its_files_and_shell_state(backend, sandbox, tmp_path):
    sandbox.exec("mkdir -p /app/x && cd /app/x && echo kept > f.txt && export MARK=exported")
    with sandbox.snapshot() as snap:
        name = backend.export_snapshot(snap, tmp_path)
        saved = json.loads(json.dumps(snap.spec.to_dict()))  # what a state file holds
    spec = SandboxSpec.from_dict(saved)
    assert spec.shell_state == sandbox.shell_state and spec.base_state == sandbox.spec.initial_state
    with backend.import_snapshot(tmp_path / name, spec, exported_by=backend.name) as imported:
        [box] = imported.fork(1)
    with box:
        assert box.exec("pwd; echo $MARK; cat f.txt").output == "/app/x\nexported\nkept\n"
    assert imported.released
    other = "docker" if backend.name == "local" else "local"
    with pytest.raises(ValueError, match=f"--backend {other}"):
        backend.import_snapshot(tmp_path / name, spec, exported_by=other)


def test_background_processes_do_not_survive_a_snapshot(sandbox):
    sandbox.exec("nohup sleep 300 >/dev/null 2>&1 &")
    assert "sleep 300" in sandbox.exec("ps -eo args").output
    [fork] = sandbox.fork(1)
    try:
        assert "sleep 300" not in fork.exec("ps -eo args").output
    finally:
        fork.close()


def test_close_is_idempotent_and_exec_after_close_fails(backend, simple_task):
    sb = backend.start(simple_task)
    sb.close()
    sb.close()
    with pytest.raises(SandboxError):
        sb.exec("true")


def test_foreground_fork_bomb_is_killed_by_the_timeout(sandbox):
    r = sandbox.exec("bomb() { bomb | bomb; }; bomb", timeout=3)
    assert r.timed_out
    # the whole process group went with it: the shell is usable again at once
    t = time.monotonic()
    assert sandbox.exec("echo ok", timeout=10).output.endswith("ok\n")
    assert time.monotonic() - t < 5
    assert int(sandbox.exec("ls /proc | grep -c '^[0-9]'").output) < 20


def test_background_fork_bomb_is_contained_and_host_still_answers(backend, simple_task):
    sb = backend.start(simple_task)
    try:
        # The bomb runs in the background; the command itself may still time out, when even the shell's own
        # bookkeeping cannot fork any more. Either way the result comes back and the shell keeps its state.
        r = sb.exec(":(){ :|:& };:", timeout=5)
        assert not r.shell_restarted and sb.shell_state.cwd == sb.spec.workdir
        time.sleep(2)  # let it hit the pids limit
        t = time.monotonic()
        assert subprocess.run(["true"], timeout=10).returncode == 0
        assert time.monotonic() - t < 2, "the host should not notice a sandbox's fork bomb"
        n = _sandbox_pids(sb)
        assert n is None or n <= sb.spec.pids, f"{n} processes in a sandbox limited to {sb.spec.pids}"
    finally:
        t = time.monotonic()
        sb.close()
    assert time.monotonic() - t < 30
    if backend.name == "local":
        assert not sb.dir.exists()
        assert all(not p.exists() for p in sb.cgroup.paths)
    else:
        import docker

        with pytest.raises(docker.errors.NotFound):
            backend.client.containers.get(sb.container.id)


def _sandbox_pids(sb) -> int | None:
    """Processes in the sandbox's pids cgroup, read from the host (None where the cgroup is not visible)."""
    from pathlib import Path

    if sb.backend_name == "local":
        paths = [p / "pids.current" for p in sb.cgroup.paths if (p / "pids.current").exists()]
    else:
        paths = [Path(f"/sys/fs/cgroup/pids/docker/{sb.container.id}/pids.current"),
                 Path(f"/sys/fs/cgroup/system.slice/docker-{sb.container.id}.scope/pids.current")]
        paths = [p for p in paths if p.exists()]
    return int(paths[0].read_text()) if paths else None


def test_parser_survives_a_state_record_cut_short():
    """Unit test of the framing: a truncated state record must not swallow the done record after it. The transport is
    scripted because a real shell cannot be made to cut its record at this byte on demand."""
    from reterm.sandbox.shell import PersistentShell, ShellState

    class Scripted:
        def __init__(self, chunks):
            self.chunks = list(chunks)

        def write(self, data):
            if b"RD" not in data:  # the launcher's init lines
                return
            tok = data.split(b"RD", 1)[1].split(b":", 1)[0]
            self.chunks = [c.replace(b"TOK", tok) for c in self.chunks]

        def read(self, timeout):
            return self.chunks.pop(0) if self.chunks else None

        def close(self):
            pass

    chunks = [b"out\n\x1eRSTOK:", b"\x1e", b"RDTOK:137\x1e\n"]
    shell = PersistentShell(lambda: Scripted(chunks), ShellState("/app", {"PATH": "/bin"}))
    r = shell.exec("x", timeout=0)
    assert r.output == "out\n" and r.exit_code == 137 and not r.shell_restarted
    assert shell.state.cwd == "/app"


def test_state_record_parses_what_the_shell_prints_and_keeps_the_last_state_when_damaged():
    """Unit test of the record: base64 of `pwd`, a NUL, then `env -0`; a directory or value with spaces and newlines
    comes back exact; a record without its NUL, not base64, or without PATH leaves the previous state."""
    import base64

    from reterm.sandbox.shell import ShellState, _parse_state

    prev = ShellState("/app", {"PATH": "/bin"})
    raw = b"/tmp/a b\nc\n\0PATH=/usr/bin\0X=1\n2\0EMPTY=\0"
    got = _parse_state(base64.b64encode(raw), prev)
    assert got.cwd == "/tmp/a b\nc" and got.env == {"PATH": "/usr/bin", "X": "1\n2", "EMPTY": ""}
    for damaged in (base64.b64encode(b"/tmp\nPATH=/usr/bin"), b"not base64!", base64.b64encode(b"/tmp\n\0X=1\0"),
                    base64.b64encode(b"tmp\n\0PATH=/bin\0")):
        assert _parse_state(damaged, prev) is prev


def test_feed_hands_exact_bytes_and_never_runs_what_is_left_unread(sandbox):
    """`PersistentShell.feed`: the command gets exactly the bytes; bytes it does not read are drained, never run as
    commands by the launcher; the shell state is untouched and the shell goes on."""
    state = sandbox.shell_state.copy()
    data = b"abc\n" + b"touch /tmp/should-not-exist\n" * 100
    r = sandbox.shell.feed("head -c 4 > /tmp/fed.txt", data, timeout=30)
    assert r.exit_code == 0 and r.output == ""
    r = sandbox.shell.feed("exit 3", b"touch /tmp/should-not-exist\n", timeout=30)
    assert r.exit_code == 3
    assert sandbox.shell_state.cwd == state.cwd and sandbox.shell_state.env == state.env
    assert sandbox.exec("cat /tmp/fed.txt; ls /tmp/should-not-exist 2>&1 | wc -l").output == "abc\n1\n"
