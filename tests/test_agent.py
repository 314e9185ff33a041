"""The agent harness: formats, token bookkeeping, failure labels, policies — on real sandboxes and real models.

Fast tests use the real SmolLM2 tokenizer and chat template (read from the bundled GGUF, no weights converted) with a
tiny random Llama built here, and `ReplayPolicy` where a test needs known commands (a random model cannot be made to
type them). SmolLM2 itself runs in the slow tests.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import get_backend, harbor_task
from reterm import failures
from reterm.agent.episode import EpisodeConfig, run_episode, truncate_to_tokens
from reterm.agent.formats import SimpleFormat, Terminus2Format
from reterm.agent.policy import OpenAIPolicy, ReplayPolicy, SamplingConfig, TransformersPolicy
from reterm.agent.trajectory import Trajectory, load_jsonl, save_jsonl
from reterm.tasks import load_task


@pytest.fixture
def tiny_policy(tiny_model, tokenizer):
    pol = TransformersPolicy("tiny-random", SamplingConfig(max_new_tokens=12, temperature=1.0, seed=0),
                             model=tiny_model, tokenizer=tokenizer)
    yield pol
    pol.close()


@pytest.fixture
def task(tmp_path):
    return load_task(harbor_task(tmp_path / "t"))


# --- formats ------------------------------------------------------------------------------------------------------
def test_simple_format_parsing():
    f = SimpleFormat()
    p = f.parse("I'll look.\n```bash\nls -la /app\n```\n")
    assert p.commands == ["ls -la /app"] and not p.done and p.error is None
    assert f.parse("All good.\nTASK_COMPLETE\n").done
    assert f.parse("```bash\nmake\n```\n```bash\nmake test\n```").commands == ["make"]  # one command per turn
    assert f.parse("I think we should list files").error


def test_terminus2_format_parsing():
    f = Terminus2Format()
    reply = ('```json\n{"analysis": "a", "plan": "p", "commands": [{"keystrokes": "cd /app\\n", "duration": 0.1},'
             ' {"keystrokes": "C-c", "duration": 0.1}, {"keystrokes": "ls\\n"}], "task_complete": false}\n```')
    p = f.parse(reply)
    assert p.commands == ["cd /app", "ls"] and p.notes and not p.done and p.error is None
    assert f.parse('{"analysis": "", "plan": "", "commands": [], "task_complete": true}').done
    assert f.parse("not json").error and f.parse('{"commands": "ls"}').error


# --- failure taxonomy on real failing commands --------------------------------------------------------------------
@pytest.mark.parametrize("backend_name", ["local", "docker"])
def test_classifier_on_real_failures(backend_name, task):
    cases = {
        "nosuchtool --version": failures.COMMAND_NOT_FOUND,
        "cat /app/does/not/exist.txt": failures.WRONG_PATH,
        "printf 'echo hi' > /tmp/x.sh && chmod 644 /tmp/x.sh && /tmp/x.sh": failures.PERMISSION_DENIED,
        "python3 -c 'import definitely_missing_module'": failures.MISSING_MODULE,
        "python3 -c 'if True print(1)'": failures.SYNTAX_ERROR,
        "bash -c 'if then fi'": failures.SYNTAX_ERROR,
        "python3 -c 'import json; json.loads(\"{broken\")'": failures.SYNTAX_ERROR,
        "python3 -c '1/0'": failures.RUNTIME_EXCEPTION,
        "sleep 5": failures.TIMEOUT,
        "true": failures.OK,
        "grep -q needle /etc/hostname": failures.OTHER_ERROR,
    }
    with get_backend(backend_name).start(task) as sb:
        for command, want in cases.items():
            r = sb.exec(command, timeout=1.5)
            got = failures.classify_result(r.output, r.exit_code, r.timed_out)
            assert got == want, f"{command!r}: {got} != {want}; output {r.output!r}"


def test_repeated_failure_and_final_labels():
    r = [{"output": "cat: x: No such file or directory", "exit_code": 1, "timed_out": False}]
    assert failures.classify_step(r, None, ["cat x"], ["cat x"]) == failures.REPEATED_FAILURE
    assert failures.classify_step(r, None, ["cat y"], ["cat x"]) == failures.WRONG_PATH
    assert failures.classify_step([], "no command", [], []) == failures.UNPARSEABLE_REPLY
    assert failures.final_label(True, True) == failures.PREMATURE_COMPLETION
    assert failures.final_label(False, True) == failures.WRONG_OUTPUT


# --- episodes ------------------------------------------------------------------------------------------------------
def test_masked_tokens_are_exactly_the_model_replies(tiny_policy, tokenizer, task):
    with get_backend("local").start(task) as sb:
        traj = run_episode(tiny_policy, sb, task, EpisodeConfig(max_turns=3))
    assert len(traj.turns) == 3 and traj.has_tokens
    ids, mask = traj.token_ids(), traj.loss_mask()
    assert len(ids) == len(mask)
    masked = [i for i, m in zip(ids, mask) if m]
    assert masked == [i for t in traj.turns for i in t.completion_ids]
    for t in traj.turns:
        assert tokenizer.decode(t.completion_ids, skip_special_tokens=True) == t.reply
        assert len(t.logprobs) == len(t.completion_ids) and all(lp <= 0 for lp in t.logprobs)
    # nothing the model did not generate carries loss: the prompt and observations are all 0
    assert mask[: len(traj.prompt_ids)] == [0] * len(traj.prompt_ids)
    assert all(t.label == failures.UNPARSEABLE_REPLY for t in traj.turns)  # a random model writes no commands


def test_turn_by_turn_rendering_is_prefix_consistent_with_the_whole(tokenizer, task):
    replies = ["Look first.\n```bash\nls /app\n```", "```bash\ncd /app && export X=1\n```",
               "```bash\necho ok > /app/out.txt\n```", "TASK_COMPLETE"]
    with get_backend("local").start(task) as sb:
        traj = run_episode(ReplayPolicy(replies, tokenizer), sb, task, EpisodeConfig(max_turns=6))
    assert traj.stop_reason == "done" and traj.reward == 1.0
    whole = tokenizer.encode(tokenizer.apply_chat_template(traj.messages, tokenize=False), add_special_tokens=False)
    ids = traj.token_ids()
    assert whole[: len(ids)] == ids  # incremental ids are a prefix of rendering the conversation whole
    # and every intermediate rendering is a textual prefix of the next
    for k in range(2, len(traj.messages)):
        assert tokenizer.apply_chat_template(traj.messages, tokenize=False).startswith(
            tokenizer.apply_chat_template(traj.messages[:k], tokenize=False))


def test_commands_run_in_the_persistent_shell_and_failures_are_labelled(tokenizer, task):
    replies = ["```bash\ncat /app/missing.txt\n```", "```bash\ncat /app/missing.txt\n```", "hmm",
               "```bash\ncd /app && export WHO=agent\n```", "```bash\necho $WHO; pwd\n```", "TASK_COMPLETE"]
    with get_backend("local").start(task) as sb:
        traj = run_episode(ReplayPolicy(replies, tokenizer), sb, task, EpisodeConfig(max_turns=10,
                                                                                     snapshot_on_error=True))
        labels = [t.label for t in traj.turns]
        assert labels == [failures.WRONG_PATH, failures.REPEATED_FAILURE, failures.UNPARSEABLE_REPLY, "ok", "ok",
                          failures.PREMATURE_COMPLETION]
        assert "agent\n/app" in traj.turns[4].observation
        assert "No command found" in traj.turns[2].observation
        assert [t.index for t in traj.turns if t.label != failures.OK] == [0, 1, 2, 5]
        assert traj.turns[0].label == failures.WRONG_PATH
        snap = traj.snapshots[traj.turns[0].snapshot_id]
        [fork] = snap.fork(1)  # the state right after the first error can be forked later
        assert fork.exec("pwd").output == "/app\n"
        fork.close()
        for s in traj.snapshots.values():
            s.release()
    assert traj.reward == 0.0 and traj.passed is False


def test_observation_truncated_by_token_budget(tokenizer, task):
    text = "\n".join(f"line {i}" for i in range(2000))
    short = truncate_to_tokens(text, 100, tokenizer)
    assert len(tokenizer.encode(short)) < 130 and short.startswith("line 0") and short.endswith("line 1999")
    replies = ["```bash\nseq 1 20000\n```", "TASK_COMPLETE"]
    with get_backend("local").start(task) as sb:
        traj = run_episode(ReplayPolicy(replies, tokenizer), sb, task, EpisodeConfig(observation_tokens=64))
    assert "tokens omitted" in traj.turns[0].observation
    assert len(traj.turns[0].observation_ids) < 150


def test_context_exhaustion_stops_the_episode(tiny_policy, task):
    with get_backend("local").start(task) as sb:
        traj = run_episode(tiny_policy, sb, task, EpisodeConfig(max_turns=50, max_context_tokens=400))
    assert traj.stop_reason == "context_exhausted"
    # every generation fitted: its prompt plus the longest reply it could give stayed within the window
    assert len(traj.token_ids()) - len(traj.turns[-1].observation_ids) <= 400


def test_trajectory_round_trip_and_exports(tokenizer, task, tmp_path):
    with get_backend("local").start(task) as sb:
        traj = run_episode(ReplayPolicy(["```bash\necho ok > /app/out.txt\n```", "TASK_COMPLETE"], tokenizer),
                           sb, task)
    save_jsonl([traj, traj], tmp_path / "t.jsonl")
    back = load_jsonl(tmp_path / "t.jsonl")
    assert len(back) == 2 and back[0].token_ids() == traj.token_ids() and back[0].turns[0].commands == ["echo ok > /app/out.txt"]
    atif = traj.to_atif()
    assert atif["schema_version"] == "ATIF-v1.4" and [s["source"] for s in atif["steps"]] == ["system", "user",
                                                                                               "agent", "agent"]
    assert atif["steps"][2]["tool_calls"][0]["arguments"] == {"command": "echo ok > /app/out.txt"}
    assert atif["steps"][2]["metrics"]["completion_token_ids"] == traj.turns[0].completion_ids
    assert traj.to_chat()[2] == {"role": "assistant", "content": "```bash\necho ok > /app/out.txt\n```"}
    (tmp_path / "bad.jsonl").write_text('{"task_id": 1}\n')
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        load_jsonl(tmp_path / "bad.jsonl")


def test_close_waits_for_the_batching_thread(tiny_model, tokenizer):
    """A daemon thread left inside torch while the interpreter exits can abort a finished run; close() joins it."""
    pol = TransformersPolicy("tiny-random", SamplingConfig(max_new_tokens=4, temperature=0), model=tiny_model,
                             tokenizer=tokenizer)
    pol.generate([{"role": "user", "content": "hi"}])
    assert pol._thread.is_alive()
    pol.close()
    assert not pol._thread.is_alive()


def test_concurrent_episodes_share_batches(tiny_policy, task):
    from concurrent.futures import ThreadPoolExecutor

    backend = get_backend("local")

    def one(_):
        with backend.start(task) as sb:
            return run_episode(tiny_policy, sb, task, EpisodeConfig(max_turns=2), verify=False)

    with ThreadPoolExecutor(6) as pool:
        trajs = list(pool.map(one, range(6)))
    assert all(len(t.turns) == 2 for t in trajs)
    assert tiny_policy.stats["sequences"] == 12
    assert tiny_policy.stats["batches"] < 12, "requests from concurrent episodes should be batched together"


def _gathering_policy(tiny_model, tokenizer, **kw) -> TransformersPolicy:
    return TransformersPolicy("tiny", SamplingConfig(max_new_tokens=4, temperature=0), model=tiny_model,
                              tokenizer=tokenizer, **kw)


def _two_clients_second_comes_back_late(policy, delay_s: float, release_second: bool = False) -> None:
    """Two threads generate together once; then the first asks again at once and the second after `delay_s`
    (its commands were slower), or releases its conversation instead (its episode ended). Each releases its
    conversation at the end, as run_episode does."""
    prompts = [[{"role": "user", "content": "hi"}], [{"role": "user", "content": "list the files"}]]
    together = threading.Barrier(2)

    def client(i):
        together.wait()
        gen = policy.generate(prompts[i])
        if i == 1:
            threading.Event().wait(delay_s)
        if not (i == 1 and release_second):
            policy.generate(prompts[i] + [{"role": "assistant", "content": gen.text},
                                          {"role": "user", "content": "ok"}])
        policy.release(policy.render_prompt(prompts[i]))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)


def test_a_batch_waits_for_an_episode_still_running_its_commands(tiny_model, tokenizer):
    """The second client's next request comes 4 s after the first's: with the gathering wait both are one batch,
    without it (gather_max_s=0) the first goes alone after its 0.5 s batching window and the second makes a batch of
    its own. (The window is long so that the first turn's two requests surely meet on a busy machine, the delay long
    so that a thread held up on busy cores does not bring the two back into one window.)"""
    batches = {}
    for name, gather_max_s in (("gather", 30.0), ("no wait", 0.0)):
        pol = _gathering_policy(tiny_model, tokenizer, batch_wait_s=0.5, gather_fraction=1e6,
                                gather_max_s=gather_max_s)
        try:
            _two_clients_second_comes_back_late(pol, 4.0)
            batches[name] = pol.stats["batches"]
            assert pol.stats["sequences"] == 4
        finally:
            pol.close()
    assert batches == {"gather": 2, "no wait": 3}


def test_the_first_batch_waits_for_an_episode_whose_sandbox_is_starting(tiny_model, tokenizer):
    """One episode asks at once, the other's sandbox takes 4 s to start (`expecting`): with the gathering wait the
    first batch holds both; without it the late one runs a batch of its own."""
    batches = {}
    for name, gather_max_s in (("gather", 30.0), ("no wait", 0.0)):
        pol = _gathering_policy(tiny_model, tokenizer, gather_max_s=gather_max_s)
        expecting = threading.Barrier(2)

        def late():
            with pol.expecting():
                expecting.wait()
                threading.Event().wait(4.0)
                pol.generate([{"role": "user", "content": "late"}])

        try:
            t = threading.Thread(target=late)
            t.start()
            expecting.wait()
            pol.generate([{"role": "user", "content": "early"}])
            t.join(timeout=120)
            batches[name] = pol.stats["batches"]
        finally:
            pol.close()
    assert batches == {"gather": 1, "no wait": 2}


def test_a_batch_never_waits_for_an_ended_conversation_or_a_lone_episode(tiny_model, tokenizer):
    """A released conversation, a sandbox that failed to start, one client alone, and anyone once the batch is
    full are never waited for: with a 60 s gathering bound, all finish long before it."""
    import time

    t0 = time.monotonic()
    full = _gathering_policy(tiny_model, tokenizer, max_batch=1, gather_max_s=60.0)
    starting, asked = threading.Event(), threading.Event()

    def expected_but_slow():
        with full.expecting():
            starting.set()
            asked.wait(timeout=120)

    t = threading.Thread(target=expected_but_slow)
    t.start()
    try:
        starting.wait(timeout=30)
        full.generate([{"role": "user", "content": "hi"}])  # a batch of one is full: no waiting for the other
        assert time.monotonic() - t0 < 30
    finally:
        asked.set()
        t.join(timeout=30)
        full.close()
    pol = _gathering_policy(tiny_model, tokenizer, gather_fraction=1e6, gather_max_s=60.0)
    try:
        t0 = time.monotonic()
        with pytest.raises(OSError):
            with pol.expecting():
                raise OSError("the sandbox did not start")
        _two_clients_second_comes_back_late(pol, 0.3, release_second=True)
        for _ in range(3):  # one episode, turn after turn
            pol.generate([{"role": "user", "content": "hi"}])
        assert time.monotonic() - t0 < 30
        assert pol.stats["sequences"] == 6
    finally:
        pol.close()


# --- OpenAI-compatible endpoint (served here, on loopback, by the tiny model) --------------------------------------
@pytest.fixture
def openai_server(tiny_model, tokenizer):
    backing = TransformersPolicy("tiny", SamplingConfig(max_new_tokens=8, temperature=0), model=tiny_model,
                                 tokenizer=tokenizer)
    state = {"fail_next": 1, "requests": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state["requests"] += 1
            if state["fail_next"] > 0:  # one transient error to exercise the retry
                state["fail_next"] -= 1
                self.send_response(503)
                self.end_headers()
                return
            g = backing.generate(body["messages"])
            out = {"choices": [{"message": {"role": "assistant", "content": g.text}, "finish_reason": g.finish_reason,
                                "logprobs": {"content": [{"logprob": lp} for lp in g.logprobs]}}]}
            data = json.dumps(out).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", state
    server.shutdown()
    backing.close()


def test_openai_policy_retries_and_returns_logprobs(openai_server, task):
    url, state = openai_server
    pol = OpenAIPolicy("tiny", base_url=url, sampling=SamplingConfig(max_new_tokens=8), max_retries=2)
    g = pol.generate([{"role": "user", "content": "hi"}])
    assert state["requests"] == 2 and g.logprobs and g.token_ids is None
    with get_backend("local").start(task) as sb:
        traj = run_episode(pol, sb, task, EpisodeConfig(max_turns=2))
    assert len(traj.turns) == 2 and traj.prompt_ids is None and not traj.has_tokens


def test_openai_policy_needs_a_url(monkeypatch):
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ValueError, match="base URL"):
        OpenAIPolicy("m")


# --- the real default model -----------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("backend_name", ["local", "docker"])
def test_smollm2_acts_on_a_bundled_task(backend_name):
    """SmolLM2-135M-Instruct, converted from the bundled GGUF, runs real episodes on a bundled task."""
    from reterm import suites
    from reterm.models import DEFAULT_MODEL

    task = suites.load("basic", "heldout")[0]
    pol = _smollm2_policy()
    with get_backend(backend_name).start(task) as sb:
        traj = run_episode(pol, sb, task, EpisodeConfig(max_turns=2))
    assert traj.model == DEFAULT_MODEL and len(traj.turns) >= 1 and traj.has_tokens
    assert traj.reward is not None, traj.infra_error  # verified: pass or fail, not an infra failure
    t = traj.turns[0]
    assert t.reply.strip(), "the model said nothing"
    assert pol.tokenizer.decode(t.completion_ids, skip_special_tokens=True) == t.reply
    assert all(lp <= 0 for lp in t.logprobs)


_SMOL = {}


def _smollm2_policy():
    if "p" not in _SMOL:
        _SMOL["p"] = TransformersPolicy("smollm2-135m", SamplingConfig(max_new_tokens=48, temperature=0.7, seed=0))
    return _SMOL["p"]
