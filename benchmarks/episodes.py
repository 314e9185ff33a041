"""Concurrent vs sequential episodes of SmolLM2 on the bundled suite, with and without KV states kept between turns.

The same 16 episodes (16 train tasks, fixed seed, fixed turn and token limits) run 16 at a time — one policy
batching every waiting episode's generation — and one at a time, each with the KV cache kept between turns (the
default); then 16 at a time again with `kv_cache_tokens=0` (every turn re-encodes its whole prompt, as before), and
16 at a time without the policy's gathering wait (`gather_max_s=0`: a batch takes only what arrives within 20 ms).
Reports episodes per minute, their ratios, the share of wall time spent generating versus in the sandbox (commands
and verification), the tokens prefilled and reused, and the process's peak RSS after each mode.

    python benchmarks/episodes.py [--episodes 16] [--max-turns 3] [--max-new-tokens 48] [--dtype auto]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from reterm import suites
from reterm.agent.episode import EpisodeConfig, run_episode
from reterm.agent.policy import SamplingConfig, TransformersPolicy
from reterm.hardware import generation_dtype
from reterm.sandbox import make_backend


def run(policy, backend, tasks, cfg, concurrency):
    def one(task):
        with policy.expecting(), backend.start(task) as sb:
            return run_episode(policy, sb, task, cfg)

    before = dict(policy.stats)
    t = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        trajs = list(pool.map(one, tasks))
    wall = time.perf_counter() - t
    gen = policy.stats["gen_seconds"] - before["gen_seconds"]
    sandbox = sum(tr.timings.get("exec", 0) + tr.timings.get("verify", 0) for tr in trajs)
    cache = policy.prefix_cache.stats if policy.prefix_cache is not None else {}
    return {"wall": wall, "episodes_per_min": 60 * len(trajs) / wall, "gen_share": gen / wall,
            "sandbox_seconds": sandbox, "turns": sum(len(tr.turns) for tr in trajs),
            "tokens": sum(len(t.completion_ids or []) for tr in trajs for t in tr.turns),
            "batches": policy.stats["batches"] - before["batches"],
            "prefilled": cache.get("prefilled_tokens", "all"), "reused": cache.get("reused_tokens", 0),
            "peak_cached": cache.get("peak_tokens", 0),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=16)
    ap.add_argument("--max-turns", type=int, default=3)
    ap.add_argument("--max-new-tokens", type=int, default=48)
    ap.add_argument("--dtype", default="auto", choices=("auto", "float32", "bfloat16", "float16"),
                    help="auto (bf16 where the CPU runs it natively and faster), float32 or bfloat16")
    args = ap.parse_args()
    dtype = generation_dtype(args.dtype)
    tasks = suites.load("basic", "train")[: args.episodes]
    backend = make_backend("local")
    for t in tasks:
        backend.prepare(t)
    cfg = EpisodeConfig(max_turns=args.max_turns)
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}; "
          f"model smollm2-135m ({str(dtype).replace('torch.', '')}, CPU); local backend")
    print(f"{len(tasks)} episodes, <= {args.max_turns} turns, <= {args.max_new_tokens} new tokens a turn\n")
    rows = {}
    modes = (("concurrent, cached", args.episodes, {}), ("sequential, cached", 1, {}),
             ("concurrent, uncached", args.episodes, {"kv_cache_tokens": 0}),
             # the batching before the gathering wait: only the requests that arrive within 20 ms of the first
             ("concurrent, cached, no gathering", args.episodes, {"gather_max_s": 0.0}))
    for name, conc, kw in modes:
        policy = TransformersPolicy("smollm2-135m", SamplingConfig(max_new_tokens=args.max_new_tokens,
                                                                   temperature=0.7, seed=0), max_batch=conc,
                                    dtype=args.dtype, **kw)
        rows[name] = run(policy, backend, tasks, cfg, conc)
        policy.close()
    print("| mode | wall (s) | episodes / min | generating (share of wall) | sandbox time (s, summed) "
          "| turns | tokens | batches | prompt tokens prefilled / reused | peak cached tokens | peak RSS so far (MB) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['wall']:.1f} | {r['episodes_per_min']:.2f} | {r['gen_share']:.0%} "
              f"| {r['sandbox_seconds']:.2f} | {r['turns']} | {r['tokens']} | {r['batches']} "
              f"| {r['prefilled']} / {r['reused']} | {r['peak_cached']} | {r['peak_rss_mb']:.0f} |")
    per_min = {k: r["episodes_per_min"] for k, r in rows.items()}
    print(f"\nconcurrent / sequential episodes per minute (both cached): "
          f"{per_min['concurrent, cached'] / per_min['sequential, cached']:.3f}x")
    print(f"concurrent cached / concurrent uncached: "
          f"{per_min['concurrent, cached'] / per_min['concurrent, uncached']:.3f}x")
    print(f"concurrent cached, with / without the gathering wait: "
          f"{per_min['concurrent, cached'] / per_min['concurrent, cached, no gathering']:.3f}x")


if __name__ == "__main__":
    main()
