"""Concurrent vs sequential episodes of SmolLM2 on the bundled suite.

The same 16 episodes (16 train tasks, fixed seed, fixed turn and token limits) run once 16 at a time — one policy
batching every waiting episode's generation — and once one at a time. Reports episodes per minute for both, their
ratio, and the share of wall time spent generating versus in the sandbox (commands and verification).

    python benchmarks/episodes.py [--episodes 16] [--max-turns 3] [--max-new-tokens 48]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from reterm import suites
from reterm.agent.episode import EpisodeConfig, run_episode
from reterm.agent.policy import SamplingConfig, TransformersPolicy
from reterm.sandbox import make_backend


def run(policy, backend, tasks, cfg, concurrency):
    def one(task):
        with backend.start(task) as sb:
            return run_episode(policy, sb, task, cfg)

    before = dict(policy.stats)
    t = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        trajs = list(pool.map(one, tasks))
    wall = time.perf_counter() - t
    gen = policy.stats["gen_seconds"] - before["gen_seconds"]
    sandbox = sum(tr.timings.get("exec", 0) + tr.timings.get("verify", 0) for tr in trajs)
    return {"wall": wall, "episodes_per_min": 60 * len(trajs) / wall, "gen_share": gen / wall,
            "sandbox_seconds": sandbox, "turns": sum(len(tr.turns) for tr in trajs),
            "tokens": sum(len(t.completion_ids or []) for tr in trajs for t in tr.turns),
            "batches": policy.stats["batches"] - before["batches"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=16)
    ap.add_argument("--max-turns", type=int, default=3)
    ap.add_argument("--max-new-tokens", type=int, default=48)
    args = ap.parse_args()
    tasks = suites.load("basic", "train")[: args.episodes]
    backend = make_backend("local")
    for t in tasks:
        backend.prepare(t)
    cfg = EpisodeConfig(max_turns=args.max_turns)
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus; model smollm2-135m (float32, CPU); local backend")
    print(f"{len(tasks)} episodes, <= {args.max_turns} turns, <= {args.max_new_tokens} new tokens a turn\n")
    rows = {}
    for name, conc in (("concurrent", args.episodes), ("sequential", 1)):
        policy = TransformersPolicy("smollm2-135m", SamplingConfig(max_new_tokens=args.max_new_tokens,
                                                                   temperature=0.7, seed=0), max_batch=conc)
        rows[name] = run(policy, backend, tasks, cfg, conc)
        policy.close()
    print("| mode | wall (s) | episodes / min | generating (share of wall) | sandbox time (s, summed) "
          "| turns | tokens | batches |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        print(f"| {name} | {r['wall']:.1f} | {r['episodes_per_min']:.2f} | {r['gen_share']:.0%} "
              f"| {r['sandbox_seconds']:.2f} | {r['turns']} | {r['tokens']} | {r['batches']} |")
    print(f"\nconcurrent / sequential episodes per minute: "
          f"{rows['concurrent']['episodes_per_min'] / rows['sequential']['episodes_per_min']:.1f}x")


if __name__ == "__main__":
    main()
