"""ReTerm-GRPO: the trainer built on TRL's GRPOTrainer, with real sandboxes (local backend) and a tiny random model.

A random model never types a command in the reply format, so most tests sample its replies from a fixed set of
candidates in proportion to the model's own (per-token) probability of each (`candidate_generator`): the token ids and logprobs
are the model's, the choice is the model's, and the GRPO update moves the model towards the candidates that pass —
only the set of possible replies is constrained. One test runs the trainer's own transformers generation
(unconstrained), and a slow test runs SmolLM2 on docker.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest
import torch
from transformers import TrainerCallback

from conftest import get_backend, harbor_task, state_dirs
from reterm.agent.policy import Generation
from reterm.tasks import load_task
from reterm.sandbox.base import Snapshot
from reterm.training.common import StopAfterStep, recipe_settings
from reterm.training.grpo import ReTermGRPOConfig, ReTermGRPOTrainer, task_row
from reterm.training.lockstep import GenerationFailed
from reterm.training.rollout import behaviour_penalties

TOUCH_OK = "```bash\ntouch /app/ok\n```"
FAIL = "```bash\ncd /app && export X=$RANDOM && echo $X > r && cat missing\n```"
CRASH = "```bash\ntouch /app/crash\n```"

TEST_SH = """#!/bin/bash
mkdir -p /logs/verifier
if [ -e /app/crash ]; then exit 3; fi          # no reward written: the verifier failed (infra)
if [ -e /app/ok ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
"""


def make_task(root: Path, name: str):
    return load_task(harbor_task(root / name, test_sh=TEST_SH, instruction="Create the file /app/ok."))


def candidate_generator(model, tokenizer, replies, first_turn=None):
    """Samples one of `replies` with probability proportional to the model's per-token probability; returns the
    candidate's real token ids (+ end of turn) and the model's per-token logprobs for them. With `first_turn`, the
    first reply of an episode from the task start is drawn from those candidates instead (to make scouts fail or
    pass)."""
    eos = tokenizer.eos_token_id
    enc = lambda rs: [tokenizer.encode(r, add_special_tokens=False) + [eos] for r in rs]  # noqa: E731
    all_cands, first_cands = enc(replies), enc(first_turn or replies)

    def generate_many(prompts):
        out = []
        for p in prompts:
            at_start = tokenizer.decode(p).count("<|im_start|>assistant") == 1
            cands, texts = (first_cands, first_turn or replies) if at_start else (all_cands, replies)
            per_token = []
            with torch.no_grad():
                for c in cands:  # on the model's device (tests/test_cuda.py runs this on a GPU)
                    logits = model(torch.tensor([p + c], device=model.device)).logits[0, len(p) - 1:-1].float()
                    lp = torch.log_softmax(logits, -1).gather(
                        -1, torch.tensor(c, device=model.device).unsqueeze(-1)).squeeze(-1)
                    per_token.append(lp)
            seq = torch.stack([lp.mean() for lp in per_token])  # length-normalized: a random model is ~uniform
            k = int(torch.multinomial(torch.softmax(seq, 0), 1))
            out.append(Generation(texts[k], list(cands[k]), per_token[k].tolist(), "stop"))
        return out

    return generate_many


def config(tmp_path, **kw) -> ReTermGRPOConfig:
    base = dict(output_dir=str(tmp_path / "out"), num_generations=4, per_device_train_batch_size=8,
                max_steps=1, learning_rate=5e-2, max_completion_length=256, max_scout_turns=1,
                max_recovery_turns=1, max_new_tokens_per_turn=16, report_to="none", use_cpu=True, seed=0,
                logging_steps=1, save_strategy="no", beta=0.0, refill_tries=0, temperature=1.0,
                sandbox_concurrency=16)
    base.update(kw)
    return ReTermGRPOConfig(**base)


def trainer_for(tmp_path, model, tokenizer, tasks, replies=(TOUCH_OK, FAIL), first_turn=None, **kw):
    args = config(tmp_path, **kw)
    gen = candidate_generator(model, tokenizer, list(replies), first_turn) if replies else None
    tr = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tokenizer,
                           backend=get_backend("local"), generate_many=gen)
    tr.model.train()  # as train() leaves it for the rollouts the tests start by hand
    return tr


@pytest.fixture
def fresh_model(tiny_model_dir):
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    return AutoModelForCausalLM.from_pretrained(tiny_model_dir)


@pytest.fixture
def tasks(tmp_path):
    return [make_task(tmp_path, "t-a"), make_task(tmp_path, "t-b")]


def batch(tasks, G=4):
    return [task_row(t) for t in tasks for _ in range(G)]


@pytest.mark.parametrize("scout", ["fails", "passes"])
def test_groups_masks_and_rewards(tmp_path, fresh_model, tokenizer, tasks, scout):
    first = [FAIL] if scout == "fails" else [TOUCH_OK]
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, first_turn=first)
    out = tr._generate_and_score_completions(batch(tasks))
    groups = tr.last_groups
    assert [g.task_id for g in groups] == ["t-a", "t-b"] and all(len(g.attempts) == 4 for g in groups)
    assert {g.category for g in groups} == ({"wrong_path"} if scout == "fails" else {"start"})
    prompt = out["prompt_ids"]
    pmask = out["prompt_mask"]
    completion, cmask, tmask = out["completion_ids"], out["completion_mask"], out["tool_mask"]
    for gi, g in enumerate(groups):
        rows = range(4 * gi, 4 * gi + 4)
        prompts = [prompt[r][pmask[r].bool()].tolist() for r in rows]
        assert all(p == prompts[0] for p in prompts)  # one prompt per group: the shared history
        text = tokenizer.decode(prompts[0])
        if g.category == "start":
            assert text.count("<|im_start|>assistant") == 1  # the task start
        else:
            assert g.category == "wrong_path" and FAIL in text  # the scout's failing turn is in the prompt
        for r, a in zip(rows, g.attempts):
            trained = completion[r][(cmask[r] * tmask[r]).bool()].tolist()
            assert tokenizer.decode(trained) in (TOUCH_OK + "<|im_end|>", FAIL + "<|im_end|>")
            assert a.reward == (1.0 if tokenizer.decode(trained).startswith(TOUCH_OK) else 0.0)
    adv = out["advantages"].view(-1, 4)
    assert torch.allclose(adv.sum(1), torch.zeros(2), atol=1e-5)  # group-relative
    widths = cmask.sum(1).tolist()  # each row's completion columns, observations included
    assert tr._metrics["train"]["reterm/completion_width_max"] == [max(widths)]
    assert tr._metrics["train"]["reterm/completion_width_mean"] == [pytest.approx(sum(widths) / len(widths))]


def test_forks_of_a_group_start_from_the_same_state(tmp_path, fresh_model, tokenizer, tasks, monkeypatch):
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, first_turn=[FAIL])
    seen = []
    original = Snapshot.fork

    def fork_and_hash(snapshot, n):
        boxes = original(snapshot, n)
        digests = []
        for b in boxes:
            r = b.exec("cd /app && find . -type f | sort | xargs md5sum; pwd; echo X=$X")
            digests.append(hashlib.sha256(r.output.encode()).hexdigest())
            assert "./r" in r.output and "X=" in r.output and r.output.strip().split("X=")[1]
        seen.append(digests)
        return boxes

    monkeypatch.setattr(Snapshot, "fork", fork_and_hash)
    tr._generate_and_score_completions(batch(tasks))
    assert len(seen) == 2
    for digests in seen:
        assert len(digests) == 4 and len(set(digests)) == 1


def test_infra_failures_are_masked_not_zero(tmp_path, fresh_model, tokenizer, tasks):
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=(CRASH, TOUCH_OK), fork_from="start")
    out = tr._generate_and_score_completions(batch(tasks))
    flat = [a for g in tr.last_groups for a in g.attempts]
    infra = [i for i, a in enumerate(flat) if a.reward is None]
    assert infra, "no attempt chose the crashing reply"
    loss_mask = out["completion_mask"] * out["tool_mask"]
    for i in infra:
        assert loss_mask[i].sum() == 0  # no token carries loss
        assert out["advantages"][i] == 0
    ok = [i for i, a in enumerate(flat) if a.reward is not None]
    assert ok and all(loss_mask[i].sum() > 0 for i in ok)
    assert all(a.reward == 1.0 for a in (flat[i] for i in ok))  # the others passed: not one infra counted as 0


def test_fork_from_start_is_plain_multi_turn_grpo(tmp_path, fresh_model, tokenizer, tasks):
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, fork_from="start", max_recovery_turns=2)
    out = tr._generate_and_score_completions(batch(tasks))
    assert [g.category for g in tr.last_groups] == ["start", "start"]
    assert tr.last_rollout_stats["scouts"] == 0
    from reterm.agent.episode import instruction_message
    from reterm.agent.formats import make_format

    for gi, t in enumerate(tasks):
        start = tokenizer.apply_chat_template(
            [{"role": "system", "content": make_format("simple").system_prompt()},
             {"role": "user", "content": instruction_message(t)}], add_generation_prompt=True, tokenize=False)
        for r in range(4 * gi, 4 * gi + 4):
            ids = out["prompt_ids"][r][out["prompt_mask"][r].bool()].tolist()
            assert tokenizer.decode(ids) == start
    # the completion columns the loss forward runs hold the observations between turns, which TRL's lengths leave out
    widths, sampled = out["completion_mask"].sum(1), (out["completion_mask"] * out["tool_mask"]).sum(1)
    assert (widths > sampled).any()  # some attempt took a second turn
    assert tr._metrics["train"]["reterm/completion_width_max"] == [widths.max().item()]


def test_a_training_step_changes_the_weights_and_releases_every_sandbox(tmp_path, fresh_model, tokenizer, tasks):
    from reterm.sandbox.resources import state_root

    before = {n: p.detach().clone() for n, p in fresh_model.named_parameters()}
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, max_steps=3, refill_tries=2)
    root = state_root()

    def census():  # live sandboxes and snapshots (state dirs) and their cgroups, after each step
        return {sub: [p.name for p in state_dirs(root, sub)] for sub in ("sandboxes", "snapshots")}

    # a baseline, not emptiness: a test killed with SIGKILL elsewhere in the session leaves its sandbox dir for gc
    before_run = census()
    counts = []
    tr.add_callback(_Census(lambda: counts.append(census())))
    tr.train()
    assert len(counts) == 3
    assert counts == [before_run] * 3
    changed = [n for n, p in fresh_model.named_parameters() if not torch.equal(p.detach(), before[n])]
    assert changed
    logged = {k for h in tr.state.log_history for k in h}
    for key in ("reward", "reterm/flat_group_fraction", "reterm/refills", "reterm/infra_failures",
                "reterm/time_generate_s", "reterm/time_sandbox_s", "reterm/time_train_s"):
        assert key in logged, key
    assert any(k.startswith("reterm/recovery_rate/") for k in logged)


class _Census(TrainerCallback):
    def __init__(self, fn):
        self.fn = fn

    def on_step_end(self, args, state, control, **kw):
        self.fn()


def test_resumed_run_matches_uninterrupted_run(tmp_path, tiny_model_dir, tokenizer, tasks):
    from transformers import AutoModelForCausalLM

    def run(out, stop_at=None, resume=None):
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
        tr = trainer_for(out, model, tokenizer, tasks, max_steps=3, save_strategy="steps", save_steps=1)
        if stop_at:
            tr.add_callback(StopAfterStep(stop_at))
        tr.train(resume_from_checkpoint=resume)
        return model, tr

    full, tr_full = run(tmp_path / "full")
    _, tr_part = run(tmp_path / "part", stop_at=1)
    assert tr_part.state.global_step == 1
    # 2 tasks x G=4 is one batch per epoch: the resumed run starts at an epoch boundary (data order from the sampler)
    resumed, tr_res = run(tmp_path / "part", resume=str(tmp_path / "part" / "out" / "checkpoint-1"))
    for (n, a), (_, b) in zip(full.named_parameters(), resumed.named_parameters()):
        assert torch.allclose(a, b, atol=1e-6), n
    rewards = lambda tr: [h["reward"] for h in tr.state.log_history if "reward" in h]  # noqa: E731
    assert rewards(tr_full) == rewards(tr_res) and len(rewards(tr_full)) == 3


def _logged(tr, key):
    return [h[key] for h in tr.state.log_history if key in h]


@pytest.mark.parametrize("ahead", [True, False])
def test_next_steps_scouts_run_with_this_steps_attempts(tmp_path, fresh_model, tokenizer, ahead):
    """4 tasks, 2 groups a step: an epoch is 2 steps. With scout_ahead, step 1's scouts run in step 0's round of
    attempts, step 1 forks from them without a scout round, and nothing looks past the epoch's end or the last step;
    every snapshot is released."""
    from reterm.sandbox.resources import state_root

    tasks = [make_task(tmp_path, f"t-{c}") for c in "abcd"]
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, first_turn=[FAIL], max_steps=3, scout_ahead=ahead)
    root = state_root()
    census = lambda: {sub: [p.name for p in state_dirs(root, sub)] for sub in ("sandboxes", "snapshots")}  # noqa: E731
    before, counts, groups, held = census(), [], [], []
    pending = lambda: sum(st.snapshot is not None for sc in tr._scouted[2] for st in sc.states) if tr._scouted else 0  # noqa: E731
    tr.add_callback(_Census(lambda: (counts.append(census()), groups.append(tr.last_groups), held.append(pending()))))
    scout_rounds = []  # per step: generation rounds that held a prompt at the task start
    original = tr._generate_many

    def counting(prompts):
        starts = sum(tokenizer.decode(p).count("<|im_start|>assistant") == 1 for p in prompts)
        scout_rounds.append((tr.state.global_step, starts, len(prompts)))
        return original(prompts)

    tr._generate_many = counting
    tr.train()
    if ahead:
        assert _logged(tr, "reterm/scouts") == [4, 0, 2]  # step 0: its own 2 + step 1's 2; step 2: a new epoch
        assert _logged(tr, "reterm/scouts_ahead") == [2, 0, 0]
        assert _logged(tr, "reterm/scouted_ahead_slots") == [0, 2, 0]
        # step 0: a scout round (2), then the attempts with step 1's scouts (8 + 2); step 1: the 8 attempts alone
        assert [(s, n) for s, _, n in scout_rounds if s < 2] == [(0, 2), (0, 10), (1, 8)]
    else:
        assert _logged(tr, "reterm/scouts") == [2, 2, 2]
        assert _logged(tr, "reterm/scouts_ahead") == [0, 0, 0]
    assert all(g.category == "wrong_path" for step in groups for g in step)  # every group forked from a scout's state
    # the only snapshots alive between steps are those of the states scouted ahead; none after training
    assert held == ([4, 0, 0] if ahead else [0, 0, 0])  # a scout's failing turn and its end state, 2 scouts
    assert [c["sandboxes"] for c in counts] == [before["sandboxes"]] * 3
    assert [len(c["snapshots"]) - len(before["snapshots"]) for c in counts] == held
    assert census() == before


def test_resumed_run_matches_uninterrupted_run_with_scouts_run_ahead(tmp_path, tiny_model_dir, tokenizer):
    """Scouts run ahead, but never across a checkpoint: 6 tasks, 2 groups a step (3 steps an epoch), 4 steps, a
    checkpoint every half of them (save_steps 0.5: after step 2, mid-epoch). The second step forks from scouts the
    first ran; the third scouts for itself, in the uninterrupted run as in the run resumed from checkpoint-2, whose
    third and fourth steps are the same."""
    from transformers import AutoModelForCausalLM

    tasks = [make_task(tmp_path, f"t-{c}") for c in "abcdef"]

    def run(out, stop_at=None, resume=None):
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
        tr = trainer_for(out, model, tokenizer, tasks, first_turn=[FAIL], max_steps=4, save_strategy="steps",
                         save_steps=0.5)
        if stop_at:
            tr.add_callback(StopAfterStep(stop_at))
        tr.train(resume_from_checkpoint=resume)
        return model, tr

    full, tr_full = run(tmp_path / "full")
    # the second step used the first's; the third scouted for itself (a checkpoint came first), so did the fourth
    # (the third was an epoch's last)
    assert _logged(tr_full, "reterm/scouted_ahead_slots") == [0, 2, 0, 0]
    _, tr_part = run(tmp_path / "part", stop_at=2)
    assert tr_part.state.global_step == 2
    resumed, tr_res = run(tmp_path / "part", resume=str(tmp_path / "part" / "out" / "checkpoint-2"))
    for (n, a), (_, b) in zip(full.named_parameters(), resumed.named_parameters()):
        assert torch.allclose(a, b, atol=1e-6), n
    # the resumed run's log history starts with the checkpoint's two steps
    assert _logged(tr_full, "reward") == _logged(tr_res, "reward") and len(_logged(tr_res, "reward")) == 4
    assert _logged(tr_full, "reterm/scouts") == _logged(tr_res, "reterm/scouts")


def test_a_run_stopped_after_a_step_saves_it_and_scouts_nothing_past_it(tmp_path, tiny_model_dir, tokenizer):
    """stop_after_step 2 of 4, no checkpoint on the schedule (save_strategy no): the run ends after step 2 with a
    checkpoint of it, and step 2 scouts nothing ahead for step 3 (the run that continues scouts that step itself); the
    uninterrupted run's step 2 does scout ahead."""
    from transformers import AutoModelForCausalLM

    tasks = [make_task(tmp_path, f"t-{c}") for c in "abcdef"]

    def run(out, stop=0):
        tr = trainer_for(out, AutoModelForCausalLM.from_pretrained(tiny_model_dir), tokenizer, tasks,
                         first_turn=[FAIL], max_steps=4, save_strategy="no", stop_after_step=stop)
        if stop:
            tr.add_callback(StopAfterStep(stop))
        tr.train()
        return tr

    full = run(tmp_path / "full")
    assert _logged(full, "reterm/scouts_ahead")[:2] == [2, 2]
    part = run(tmp_path / "part", stop=2)
    assert part.state.global_step == 2 and _logged(part, "reterm/scouts_ahead") == [2, 0]
    assert [p.name for p in (tmp_path / "part" / "out").glob("checkpoint-*")] == ["checkpoint-2"]
    with pytest.raises(ValueError, match="stop_after_step must be between 0"):
        config(tmp_path / "bad", max_steps=4, stop_after_step=5)


def test_peekable_hands_out_the_same_batches_and_sees_ahead():
    from reterm.training.grpo import _Peekable

    items = [[{"task_id": str(i)}] for i in range(5)]
    pk = _Peekable(iter(items))
    first = next(pk)
    assert pk.after(first, 1) is items[1] and pk.after(first, 3) is items[3]  # read ahead, not handed out
    assert pk.after([{"task_id": "0"}], 1) is None  # a batch it never handed out (found by identity only)
    assert list(pk) == items[1:]  # the same batches, in order, buffered ones included
    assert pk.after(items[3], 1) is items[4] and pk.after(items[4], 1) is None  # past the end


def test_real_generation_path_builds_groups(tmp_path, fresh_model, tokenizer, tasks):
    """The trainer's own transformers generation (unconstrained sampling from the random model)."""
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=None)
    out = tr._generate_and_score_completions(batch(tasks))
    assert out["completion_ids"].shape[0] == 8
    for g in tr.last_groups:
        for a in g.attempts:
            assert a.reward is not None and sum(a.env_mask) > 0
            # sampled tokens carry loss, observations between turns do not
            assert len(a.env_mask) == len(a.completion_ids) == len(a.logprobs)
    assert tr.model.training


def test_evaluate_rolls_out_in_eval_mode_with_the_eval_group_size(tmp_path, fresh_model, tokenizer, tasks):
    """evaluate(): every eval batch uses num_generations_eval (the rollout must not leave the model in training
    mode after the first batch) and the eval rollouts are logged as eval metrics, not training ones."""
    from datasets import Dataset

    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, fork_from="start", num_generations_eval=2,
                     per_device_eval_batch_size=2)
    tr.eval_dataset = Dataset.from_list([task_row(t) for t in tasks])  # 2 tasks x 2 = two eval batches
    metrics = tr.evaluate()
    assert not tr.model.training
    assert all(len(g.attempts) == 2 for g in tr.last_groups)
    assert "eval_reterm/flat_group_fraction" in metrics and "eval_reward" in metrics
    assert not [k for k in tr._metrics["train"] if k.startswith("reterm/")]


def test_a_step_makes_the_passing_reply_more_likely(tmp_path, fresh_model, tokenizer, tasks):
    """One group, one passing reply and three failing ones: after one GRPO step the passing reply's sequence
    logprob (given the group's prompt) has gone up and the failing one's down."""
    eos = tokenizer.eos_token_id
    ok, fail = (tokenizer.encode(r, add_special_tokens=False) + [eos] for r in (TOUCH_OK, FAIL))

    def one_passes(prompts):  # the first episode of the round passes, the others fail; the model's own logprobs
        return [Generation(*(TOUCH_OK, ok) if i == 0 else (FAIL, fail), _logprobs(fresh_model, p, ok if i == 0
                           else fail).tolist(), "stop") for i, p in enumerate(prompts)]

    args = config(tmp_path, fork_from="start", per_device_train_batch_size=4, learning_rate=1e-3)
    tr = ReTermGRPOTrainer(model=fresh_model, args=args, tasks=tasks[:1], processing_class=tokenizer,
                           backend=get_backend("local"), generate_many=one_passes)
    prompt = tokenizer.apply_chat_template(_start_messages(tasks[0]), add_generation_prompt=True, tokenize=True,
                                           return_dict=True)["input_ids"]
    before = [_logprobs(fresh_model, prompt, c).sum().item() for c in (ok, fail)]
    tr.train()
    assert sorted(a.reward for a in tr.last_groups[0].attempts) == [0.0, 0.0, 0.0, 1.0]
    after = [_logprobs(fresh_model, prompt, c).sum().item() for c in (ok, fail)]
    assert after[0] > before[0] and after[1] < before[1], (before, after)


@pytest.mark.parametrize("checkpointing", [True, False])
def test_shared_prefix_forward_trains_exactly_like_trls_forward(tmp_path, tiny_model_dir, tokenizer, tasks,
                                                                  monkeypatch, checkpointing):
    """A step with each group's prompt run once in the loss forward (the default) gives the weights and the loss of
    the same step with TRL's forward (`shared_prefix_forward: false`), up to float rounding, with gradient
    checkpointing (TRL's default) and without; plain SGD with a large rate, so that the update is linear in the gradient
    and far above the weights' rounding. Two groups, of two tasks with different prompts, both mixed: TRL shuffles the
    step's rows before the loss forward, and the shared path is checked to have run each group's 4 rows together."""
    from transformers import AutoModelForCausalLM

    import reterm.training.grpo as grpo_module

    eos = tokenizer.eos_token_id
    ok, fail = (tokenizer.encode(r, add_special_tokens=False) + [eos] for r in (TOUCH_OK, FAIL))
    import reterm.training.shared_prefix as shared_prefix_module

    shared, together = [], []
    real, one_prompt = grpo_module.shared_prefix_logps, shared_prefix_module._one_prompt
    monkeypatch.setattr(grpo_module, "shared_prefix_logps", lambda *a, **k: shared.append(real(*a, **k)) or shared[-1])
    monkeypatch.setattr(shared_prefix_module, "_one_prompt",
                        lambda model, ids, *a, **k: together.append(ids.size(0)) or one_prompt(model, ids, *a, **k))
    two = [tasks[0], load_task(harbor_task(tmp_path / "t-other", test_sh=TEST_SH,
                                           instruction="Please create the file /app/ok now."))]

    def step(flag):
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)

        def half_pass(prompts):  # every other attempt passes: both groups mixed
            return [Generation(*(TOUCH_OK, ok) if i % 2 == 0 else (FAIL, fail), _logprobs(model, p, ok if i % 2 == 0
                               else fail).tolist(), "stop") for i, p in enumerate(prompts)]

        args = config(tmp_path / str(flag), fork_from="start", per_device_train_batch_size=8, learning_rate=10.0,
                      optim="sgd", shared_prefix_forward=flag, gradient_checkpointing=checkpointing,
                      bf16=False)  # float32 on every CPU: bf16 autocast rounds both forwards differently
        tr = ReTermGRPOTrainer(model=model, args=args, tasks=two, processing_class=tokenizer,
                               backend=get_backend("local"), generate_many=half_pass)
        tr.train()
        loss = [h["loss"] for h in tr.state.log_history if "loss" in h]
        return model, loss

    off, loss_off = step(False)
    assert shared == [] and together == []
    on, loss_on = step(True)
    assert len(shared) == 1 and shared[0] is not None
    assert together == [4, 4]  # each group's rows ran together, wherever the shuffle put them
    assert loss_on == pytest.approx(loss_off, abs=1e-6) and len(loss_on) == 1
    moved = _same_update(on, off, tiny_model_dir)
    assert moved  # the step did train


FAIL_LONG = "```bash\ncd /app && cat missing && cat also-missing && ls /no/such/dir/at/all && echo done > /dev/null && echo more && echo still more words\n```"


@pytest.mark.parametrize("loss_type,mixed", [("dapo", True), ("grpo", True), ("bnpo", True), ("dapo", False)])
def test_zero_advantage_rows_are_skipped_with_the_same_update(tmp_path, tiny_model_dir, tokenizer, monkeypatch,
                                                              loss_type, mixed):
    """`skip_zero_advantage_rows` (the default): a step whose batch holds a flat group (every attempt failed, with a
    longer reply than the other group's, so the completion columns are cut too) trains the loss forward on the other
    group's rows only, and gives TRL's loss and update on the whole batch (the option off) up to float rounding, for
    each way it scales the loss (dr_grpo scales as grpo does); plain SGD, so that the update is linear in the
    gradient. With both groups flat (`mixed` False) one row is run, and the update is zero both ways."""
    from transformers import AutoModelForCausalLM

    import reterm.training.grpo as grpo_module

    eos = tokenizer.eos_token_id
    ids = {r: tokenizer.encode(r, add_special_tokens=False) + [eos] for r in (TOUCH_OK, FAIL, FAIL_LONG)}
    tasks = [load_task(harbor_task(tmp_path / "t-a", test_sh=TEST_SH, instruction="Create the file /app/ok.")),
             load_task(harbor_task(tmp_path / "t-b", test_sh=TEST_SH, instruction="Make the file /app/ok exist."))]
    seen = []
    real = grpo_module.ReTermGRPOTrainer._get_per_token_logps_and_entropies

    def recorded(self, model, input_ids, *a, **k):
        if torch.is_grad_enabled():
            seen.append(tuple(input_ids.shape))
        return real(self, model, input_ids, *a, **k)

    monkeypatch.setattr(grpo_module.ReTermGRPOTrainer, "_get_per_token_logps_and_entropies", recorded)

    def step(flag):
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)

        def replies(prompts):  # task a: the round's first attempt passes (if mixed); task b: every attempt fails
            out, first = [], mixed
            for p in prompts:
                if "Make the file" in tokenizer.decode(p):
                    r = FAIL_LONG
                else:
                    r, first = (TOUCH_OK if first else FAIL), False
                out.append(Generation(r, ids[r], _logprobs(model, p, ids[r]).tolist(), "stop"))
            return out

        args = config(tmp_path / f"{flag}", fork_from="start", learning_rate=10.0, optim="sgd", loss_type=loss_type,
                      skip_zero_advantage_rows=flag, bf16=False)
        tr = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tokenizer,
                               backend=get_backend("local"), generate_many=replies)
        seen.clear()
        tr.train()
        loss = [h["loss"] for h in tr.state.log_history if "loss" in h]
        return model, loss, list(seen), _logged(tr, "reterm/loss_rows")

    off, loss_off, rows_off, logged_off = step(False)
    on, loss_on, rows_on, logged_on = step(True)
    assert len(rows_off) == 1 and rows_off[0][0] == 8 and logged_off == []
    assert len(rows_on) == 1 and rows_on[0][0] == (4 if mixed else 1)
    assert rows_on[0][1] < rows_off[0][1]  # the flat group's longer completions' columns were cut
    assert logged_on == [0.5 if mixed else 0.125]
    assert loss_on == pytest.approx(loss_off, abs=1e-6) and len(loss_on) == 1
    moved = _same_update(on, off, tiny_model_dir)
    assert bool(moved) == mixed  # a mixed group trains; flat groups alone give a zero update both ways


@pytest.mark.parametrize("mode", ["sequence_mask", "token_truncate"])
def test_is_ratio_from_the_loss_forward_trains_like_trls_extra_forward(tmp_path, tiny_model_dir, tokenizer,
                                                                        monkeypatch, mode):
    """`is_ratio_from_loss_forward` (the default): with vLLM's importance-sampling correction on and one generation a
    step, the ratio is made from the loss forward's logprobs and TRL's forward without gradients over the batch is not
    run; the loss, the update and the logged ratio are TRL's (the option off) up to float rounding. The engine is
    stood in for by replies whose logprobs are the model's shifted by a row-dependent amount, so that the ratio differs
    from 1 and from row to row (TRL's colocated engine runs for real in tests/test_vllm.py); the sync check, which
    needs the engine, is off. Plain SGD, so that the update is linear in the gradient."""
    from transformers import AutoModelForCausalLM

    import reterm.training.grpo as grpo_module

    eos = tokenizer.eos_token_id
    ok, fail = (tokenizer.encode(r, add_special_tokens=False) + [eos] for r in (TOUCH_OK, FAIL))
    tasks = [make_task(tmp_path, "t-a"), make_task(tmp_path, "t-b")]
    forwards = []
    real = grpo_module.ReTermGRPOTrainer._get_per_token_logps_and_entropies

    def recorded(self, model, input_ids, *a, **k):
        forwards.append("grad" if torch.is_grad_enabled() else "no_grad")
        return real(self, model, input_ids, *a, **k)

    monkeypatch.setattr(grpo_module.ReTermGRPOTrainer, "_get_per_token_logps_and_entropies", recorded)

    def step(flag):
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)

        def engine(prompts):  # every other attempt passes; logprobs off the model's by a row's own shift
            out = []
            for i, p in enumerate(prompts):
                text, ids = (TOUCH_OK, ok) if i % 2 == 0 else (FAIL, fail)
                shift = 0.01 * ((i % 5) - 2)
                out.append(Generation(text, ids, (_logprobs(model, p, ids) + shift).tolist(), "stop"))
            return out

        args = config(tmp_path / str(flag), fork_from="start", learning_rate=10.0, optim="sgd", bf16=False,
                      is_ratio_from_loss_forward=flag, vllm_importance_sampling_mode=mode, vllm_sync_check=False)
        tr = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tokenizer,
                               backend=get_backend("local"), generate_many=engine)
        tr.use_vllm, tr.vllm_importance_sampling_correction, tr._last_loaded_step = True, True, 0
        forwards.clear()
        tr.train()
        loss = [h["loss"] for h in tr.state.log_history if "loss" in h]
        return model, loss, list(forwards), _logged(tr, "sampling/importance_sampling_ratio/mean"), \
            _logged(tr, "sampling/importance_sampling_ratio/max")

    off, loss_off, fw_off, mean_off, max_off = step(False)
    on, loss_on, fw_on, mean_on, max_on = step(True)
    assert fw_off == ["no_grad", "grad"] and fw_on == ["grad"]  # TRL's forward for old_per_token_logps, then none
    assert loss_on == pytest.approx(loss_off, abs=1e-6) and len(loss_on) == 1
    assert max_off and max_on and max_on[0] == pytest.approx(max_off[0], rel=1e-4)
    assert max_off[0] > 1.01  # the ratio did differ from 1
    # TRL averages over the whole batch; here over the loss rows (both groups mixed: every row)
    assert mean_on[0] == pytest.approx(mean_off[0], rel=1e-4)
    moved = _same_update(on, off, tiny_model_dir)
    assert moved


def _same_update(on, off, model_dir) -> int:
    """Asserts that two models trained one step from `model_dir` moved alike, parameter by parameter (under SGD the
    update is linear in the gradient): within 1e-3 of the update's norm. Returns how many parameters moved."""
    from transformers import AutoModelForCausalLM

    base = dict(AutoModelForCausalLM.from_pretrained(model_dir).named_parameters())
    moved = 0
    for (n, a), (_, b) in zip(on.named_parameters(), off.named_parameters()):
        d_on, d_off = (a - base[n]).detach(), (b - base[n]).detach()
        assert (d_on - d_off).norm() <= 1e-3 * d_off.norm() + 1e-7, (n, (d_on - d_off).norm(), d_off.norm())
        moved += bool(d_off.norm() > 0)
    return moved


def _logprobs(model, prompt, completion):
    with torch.no_grad():
        logits = model(torch.tensor([list(prompt) + list(completion)])).logits[0, len(prompt) - 1:-1].float()
    return torch.log_softmax(logits, -1).gather(-1, torch.tensor(completion).unsqueeze(-1)).squeeze(-1)


def _start_messages(task):
    from reterm.agent.episode import instruction_message
    from reterm.agent.formats import make_format

    return [{"role": "system", "content": make_format("simple").system_prompt()},
            {"role": "user", "content": instruction_message(task)}]


def test_repeated_generation_errors_stop_the_step(tmp_path, fresh_model, tokenizer, tasks):
    """A generator that keeps failing stops the step with its error, instead of a batch of masked 'infra
    failures' that trains on nothing."""
    calls = []

    def broken(prompts):
        calls.append(len(prompts))
        raise ConnectionError("generation server went away")

    tr = ReTermGRPOTrainer(model=fresh_model, args=config(tmp_path), tasks=tasks, processing_class=tokenizer,
                           backend=get_backend("local"), generate_many=broken)
    with pytest.raises(GenerationFailed, match="every generation round.*went away"):
        tr._generate_and_score_completions(batch(tasks))
    assert calls == [2]  # the two scouts' round


def test_a_refilled_group_logs_its_own_prompt(tmp_path, fresh_model, tokenizer):
    """A flat group redone with another task: TRL's completion log shows that task's prompt, not the slot's first."""
    tasks = [make_task(tmp_path, f"t-{c}") for c in "abcd"]
    for i, t in enumerate(tasks):
        t.instruction = f"Create the file /app/ok (task {i})."
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=(FAIL,), fork_from="start", refill_tries=1,
                     per_device_train_batch_size=4)
    tr._generate_and_score_completions(batch(tasks[:1]))
    ran = tr.last_groups[0].task_id
    assert ran != "t-a"  # the refill drew another task (deterministic under seed 0)
    want = task_row(next(t for t in tasks if t.id == ran))["prompt"]
    assert list(tr._logs["prompt"]) == [want] * 4


class _FakeVLLMGeneration:
    """Stands in for TRL's VLLMGeneration in server mode (which needs CUDA GPUs; the colocated engine runs for real in
    tests/test_vllm.py): answers each prompt with `max_completion_length` tokens of the prompt's last id, as the
    server would cap them."""

    def __init__(self):
        self.max_completion_length = 4096
        self.caps = []

    def generate(self, prompts, images, num_generations):
        self.caps.append(self.max_completion_length)
        ids = [[p[-1]] * self.max_completion_length for p in prompts]
        return prompts, ids, [[[-1.0]] * len(i) for i in ids], None


def test_vllm_rounds_use_the_per_turn_budget(tmp_path, fresh_model, tokenizer, tasks):
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=None, fork_from="start",
                     max_new_tokens_per_turn=5, vllm_mode="server")
    tr.use_vllm, tr.vllm_generation, tr._last_loaded_step = True, _FakeVLLMGeneration(), 0
    tr.state.global_step = 0
    tr._generate_and_score_completions(batch(tasks))
    assert tr.vllm_generation.caps and set(tr.vllm_generation.caps) == {5}
    assert all(len(a.completion_ids) == 5 for g in tr.last_groups for a in g.attempts if a.reward is not None)


def test_token_budget_bounds_refills_and_is_logged(tmp_path, fresh_model, tokenizer, tasks):
    """With a token budget, flat groups are redone only while it lasts; the tokens used are logged."""
    def run(budget):
        tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=(FAIL,), fork_from="start",
                         refill_tries=5, token_budget_per_step=budget)
        tr._generate_and_score_completions(batch(tasks))
        return tr

    small, large = run(1), run(10_000)
    assert small.last_rollout_stats["refills"] == 0 and large.last_rollout_stats["refills"] == 10
    used = [tr._metrics["train"]["reterm/sampled_tokens"][-1] for tr in (small, large)]
    assert used[0] > 0 and used[1] == 6 * used[0]  # every round samples the same 8 replies
    assert small._metrics["train"]["reterm/token_budget"] == [1]


def test_real_generation_is_the_same_with_and_without_kept_kv_states(tmp_path, tiny_model_dir, tokenizer, tasks,
                                                                     monkeypatch):
    """The rollout's prompt ids, sampled ids and logprobs (what TRL trains on) do not depend on the KV cache: the same
    seed gives the same groups with RETERM_KV_CACHE_TOKENS=0 (every turn re-encoded) and with the cache kept."""
    from transformers import AutoModelForCausalLM

    def rollout(cache_tokens: str, sub: str):
        monkeypatch.setenv("RETERM_KV_CACHE_TOKENS", cache_tokens)
        torch.manual_seed(0)
        model = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
        tr = trainer_for(tmp_path / sub, model, tokenizer, tasks, replies=None, max_scout_turns=2,
                         max_recovery_turns=2)
        tr._generate_and_score_completions(batch(tasks))
        return [(a.prompt_ids, a.completion_ids, a.logprobs) for g in tr.last_groups for a in g.attempts]

    uncached, cached = rollout("0", "uncached"), rollout("", "cached")
    assert [(p, c) for p, c, _ in uncached] == [(p, c) for p, c, _ in cached]
    for (_, _, a), (_, _, b) in zip(uncached, cached):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=1e-4)


def test_config_invariants(tmp_path):
    with pytest.raises(ValueError, match="fork_point"):
        config(tmp_path, fork_point="middle")
    with pytest.raises(ValueError, match="divisible by num_generations|multiple of num_generations"):
        config(tmp_path, per_device_train_batch_size=6)
    with pytest.raises(ValueError, match="refill_tries"):
        config(tmp_path, refill_tries=-1)
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="keep_activations_mb must be >= 0"):
            config(tmp_path, keep_activations_mb=bad)
    with pytest.raises(ValueError, match="penalty_blind_kill"):
        config(tmp_path, penalty_blind_kill=-1.0)
    with pytest.raises(ValueError, match="penalty_undeclared_pass"):
        config(tmp_path, penalty_undeclared_pass=-0.5)
    with pytest.raises(ValueError, match="docker_hosts: 'nowhere' is not an engine URL"):
        config(tmp_path, docker_hosts="nowhere")
    assert config(tmp_path, docker_hosts="unix:///a.sock=4,tcp://h:2376").docker_hosts


def test_the_step_log_says_how_attempts_ended(tmp_path, fresh_model, tokenizer, tasks):
    """Each attempt records whether it ended by the policy declaring the task done or by the turn limit, and the
    step logs the share of attempts, and of passing attempts, that declared done: replies that fix the task and say
    so, fix it and go on, or fail; the shares are counted here from the trained completions' text."""
    done_ok = TOUCH_OK + "\nTASK_COMPLETE"
    tr = trainer_for(tmp_path, fresh_model, tokenizer, tasks, replies=(done_ok, TOUCH_OK, FAIL), first_turn=[FAIL])
    out = tr._generate_and_score_completions(batch(tasks))
    completion, cmask, tmask = out["completion_ids"], out["completion_mask"], out["tool_mask"]
    said, passed = [], []
    for r, a in enumerate(a for g in tr.last_groups for a in g.attempts):
        text = tokenizer.decode(completion[r][(cmask[r] * tmask[r]).bool()].tolist())
        assert a.declared_done == ("TASK_COMPLETE" in text) and a.passed == text.startswith(TOUCH_OK)
        said.append("TASK_COMPLETE" in text)
        passed.append(text.startswith(TOUCH_OK))
    m = tr._metrics["train"]
    assert m["reterm/attempt_done_rate"] == [pytest.approx(sum(said) / len(said))]
    if any(passed):
        assert m["reterm/passed_done_rate"] == [pytest.approx(sum(s for s, p in zip(said, passed) if p) / sum(passed))]
    assert 0 < sum(said) < len(said)  # the three replies were all drawn (8 attempts, seed 0)


def test_a_pass_counts_only_when_declared_done_with_the_undeclared_pass_penalty(tmp_path, fresh_model, tokenizer,
                                                                                   tasks):
    """`penalty_undeclared_pass` 1 (binary rewards): an attempt that fixes the task and says so scores 1, one that
    fixes it and goes on to the turn limit scores 0, as does one that fails; read from the trained completions' text.
    Off (the default), both fixes score 1."""
    done_ok = TOUCH_OK + "\nTASK_COMPLETE"
    for penalty in (1.0, 0.0):
        tr = trainer_for(tmp_path / str(penalty), fresh_model, tokenizer, tasks, replies=(done_ok, TOUCH_OK, FAIL),
                         first_turn=[FAIL], penalty_undeclared_pass=penalty)
        out = tr._generate_and_score_completions(batch(tasks))
        completion, cmask, tmask = out["completion_ids"], out["completion_mask"], out["tool_mask"]
        rewards = []
        for r, a in enumerate(a for g in tr.last_groups for a in g.attempts):
            text = tokenizer.decode(completion[r][(cmask[r] * tmask[r]).bool()].tolist())
            fixed, said = text.startswith(TOUCH_OK), "TASK_COMPLETE" in text
            assert a.passed == fixed
            assert a.reward == (float(fixed and said) if penalty else float(fixed))
            rewards.append(a.reward)
        assert any(a.passed and not a.declared_done for g in tr.last_groups for a in g.attempts)  # a pass penalised
        assert 0 < sum(rewards) < len(rewards)


def test_behaviour_penalties():
    from reterm.agent.trajectory import Trajectory, Turn

    t = Trajectory(task_id="x", model="m", format="simple")
    t.turns = [Turn(0, "", commands=["pkill python"]), Turn(1, "", commands=["ps aux"], label="repeated_failure",
                                                            said_done=True)]
    t.reward, t.passed, t.stop_reason = 0.0, False, "done"
    assert behaviour_penalties(t) == {"repeated_command": True, "false_completion": True, "blind_kill": True,
                                      "undeclared_pass": False}
    t.turns = [Turn(0, "", commands=["ps aux | grep app"]), Turn(1, "", commands=["kill 42"], said_done=True)]
    t.reward, t.passed = 1.0, True
    assert behaviour_penalties(t) == {"repeated_command": False, "false_completion": False, "blind_kill": False,
                                      "undeclared_pass": False}
    t.turns[1].said_done, t.stop_reason = False, "max_turns"
    assert behaviour_penalties(t)["undeclared_pass"]
    t.passed = None  # infra trouble: no pass to penalise
    assert not behaviour_penalties(t)["undeclared_pass"]


@pytest.mark.slow
@pytest.mark.docker
@pytest.mark.timeout(900)  # ~3 min alone; more than the default 300 s when the 2 cores are shared
def test_smollm2_on_docker_two_steps_leave_no_containers_or_images(tmp_path):
    """SmolLM2-135M generating for itself (the trainer's transformers path), Docker sandboxes: two ReTerm-GRPO steps
    of one group each (an epoch of two steps: the first also runs the second's scout, `scout_ahead`). The containers
    and snapshot images the steps made are gone after each step, but for the snapshots of the state scouted ahead,
    which are gone once the second step used them."""
    from conftest import require_docker

    require_docker()
    from reterm import suites
    from reterm.models import load_model_and_tokenizer
    from reterm.sandbox.resources import LABEL_KIND, LABEL_OWNER, owner_id

    backend = get_backend("docker")
    client = backend.client
    mine = f"{LABEL_OWNER}={owner_id()}"  # other runs on the same engine start and remove theirs meanwhile

    def census():  # warm containers waiting for forks are the backend's cache, not sandboxes of a step
        backend.warm.wait()  # no warm container half-made
        warm = backend.warm.ready_ids()
        return (len([c for c in client.containers.list(all=True, filters={"label": mine}) if c.id not in warm]),
                len(client.images.list(filters={"label": [mine, f"{LABEL_KIND}=snapshot"]})))

    start = census()
    model, tok = load_model_and_tokenizer("smollm2-135m")
    tasks = [t for t in suites.load("basic", "train") if t.id in ("exec-bit-00", "csv-totals-00")]
    with backend.start(tasks[0]) as sb, sb.snapshot():  # the census sees this process's containers and snapshots
        assert census() == (start[0] + 1, start[1] + 1)
    args = config(tmp_path, per_device_train_batch_size=2, num_generations=2, max_steps=2, max_scout_turns=2,
                  max_recovery_turns=1, max_new_tokens_per_turn=48, learning_rate=1e-6, sandbox_backend="docker")
    tr = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tok, backend=backend)
    counts, held = [], []
    pending = lambda: sum(st.snapshot is not None for sc in tr._scouted[2] for st in sc.states) if tr._scouted else 0  # noqa: E731
    tr.add_callback(_Census(lambda: (counts.append(census()), held.append(pending()))))
    tr.train()
    assert tr._scouted is None  # released when training ended
    assert counts == [(start[0], start[1] + held[0]), start] and held[1] == 0
    assert census() == start
    assert all(len(g.attempts) == 2 for g in tr.last_groups)
    logged = [h for h in tr.state.log_history if "reterm/time_rollout_s" in h]
    assert len(logged) == 2 and all(h["reterm/time_generate_s"] > 0 for h in logged)
    assert [h["reterm/scouts_ahead"] for h in logged] == [1, 0]  # the first step scouted the second's task


def _grpo_recipe():
    import importlib.util
    import sys

    if "reterm_grpo_recipe" not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "recipes" / "reterm_grpo.py"
        spec = importlib.util.spec_from_file_location("reterm_grpo_recipe", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules["reterm_grpo_recipe"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["reterm_grpo_recipe"]


def test_shipped_grpo_recipes_parse_and_differ_only_in_the_rollout():
    rec = _grpo_recipe()
    root = Path(__file__).resolve().parent.parent / "recipes" / "configs" / "smollm2-135m"
    reterm_args, _ = rec.parse(["--config", str(root / "reterm_grpo_cpu.yaml")])
    plain_args, _ = rec.parse(["--config", str(root / "grpo_cpu.yaml")])
    assert (reterm_args.fork_from, plain_args.fork_from) == ("failure", "start")
    for f in ("num_generations", "per_device_train_batch_size", "max_steps", "learning_rate", "loss_type", "beta",
              "token_budget_per_step", "refill_tries",
              "max_new_tokens_per_turn", "temperature", "seed"):
        assert getattr(reterm_args, f) == getattr(plain_args, f), f


def test_grpo_recipe_with_a_tiny_model_and_a_bad_suite(tmp_path, tiny_model_dir, capsys):
    rec = _grpo_recipe()
    common = ["--model_name_or_path", str(tiny_model_dir), "--output_dir", str(tmp_path / "o"), "--report_to", "none",
              "--use_cpu", "true", "--num_generations", "2", "--per_device_train_batch_size", "2",
              "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1"]
    assert rec.main(common + ["--suite", str(tmp_path / "nowhere")]) == 2
    assert "nowhere" in capsys.readouterr().err
    assert rec.main(common + ["--max_steps", "1", "--save_strategy", "no"]) == 0
    assert (tmp_path / "o" / "model.safetensors").exists()


def test_grpo_recipe_with_nothing_left_to_train_returns_before_loading_anything(tmp_path, capsys):
    """--stop_after_step N where output_dir already holds a complete checkpoint-N: the recipe says so and returns 0
    without loading the model (the path here does not exist, so loading it would be an error) or starting sandboxes;
    a checkpoint cut off while saving (no trainer_state.json) does not count."""
    rec = _grpo_recipe()
    out = tmp_path / "o"
    (out / "checkpoint-4").mkdir(parents=True)
    (out / "checkpoint-4" / "trainer_state.json").write_text("{}")
    (out / "checkpoint-6").mkdir()  # cut off: passed over
    argv = ["--model_name_or_path", str(tmp_path / "no-model"), "--output_dir", str(out), "--report_to", "none",
            "--use_cpu", "true", "--max_steps", "8", "--resume_from_checkpoint", "true"]
    assert rec.main(argv + ["--stop_after_step", "4"]) == 0
    assert rec.main(argv + ["--stop_after_step", "6"]) == 2  # step 6 is not there: it loads the model, which fails
    assert "no-model" in capsys.readouterr().err


SCALE = Path(__file__).resolve().parent.parent / "recipes" / "configs" / "qwen2.5-coder-7b-instruct"


def test_paper_scale_recipes_validate_and_differ_only_in_the_rollout():
    """The 7B recipes parse into valid configs (GPU-only settings turned off for this CPU machine) and share every
    GRPO setting and the token budget; only where groups start (and the turns an episode from the start gets) differ."""
    rec = _grpo_recipe()
    cpu = ["--use_cpu", "true", "--bf16", "false", "--use_vllm", "false"]
    reterm_args, reterm_model = rec.parse(["--config", str(SCALE / "reterm_grpo.yaml"), *cpu])
    plain_args, _ = rec.parse(["--config", str(SCALE / "grpo.yaml"), *cpu])
    assert (reterm_args.fork_from, plain_args.fork_from) == ("failure", "start")
    assert reterm_args.sandbox_backend == "docker" and reterm_args.token_budget_per_step
    assert reterm_model.model_name_or_path == "checkpoints/sft-qwen2.5-coder-7b"
    differ = {f.name for f in dataclasses.fields(reterm_args)
              if getattr(reterm_args, f.name) != getattr(plain_args, f.name)}
    assert differ <= {"fork_from", "max_recovery_turns", "output_dir", "run_name", "logging_dir"}, differ
    settings = recipe_settings(["--config", str(SCALE / "reterm_grpo.yaml")])
    assert settings["use_vllm"] is True and settings["vllm_mode"] == "server"
    assert settings["vllm_server_host"] == "127.0.0.1"


def test_paper_scale_recipe_refuses_clearly_what_this_machine_lacks(capsys):
    import importlib.util

    rec = _grpo_recipe()
    assert rec.main(["--config", str(SCALE / "reterm_grpo.yaml")]) == 2
    err = capsys.readouterr().err
    if not torch.cuda.is_available():
        assert "needs CUDA GPUs" in err and "_cpu.yaml" in err
    if importlib.util.find_spec("vllm") is None:
        assert "pip install 'reterm[vllm]'" in err
    assert "Traceback" not in err
