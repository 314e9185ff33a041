"""collect: failure states from a policy's own episodes.

Runs the policy once per task (the bundled suite's train split by default), snapshotting the sandbox after every error
turn. Each failure state of a failed episode is exported (a state-dir tarball on local, `docker save` on docker)
under OUT/states/<task>-t<turn>/ with its conversation (`FailureState.save_dir`), and listed in the shard
OUT/states.jsonl in the same schema as synthesize's output, which `recover --states` reads (it restores the snapshot
instead of replaying steps).

    python -m data_pipeline.collect --out data/collected [--policy transformers --model smollm2-135m] [--max-turns 6]

Resumable: a task whose episode is recorded in the shard is not run again; a task that was interrupted mid-way has
its partial state dirs removed and runs again.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path


from data_pipeline import add_backend_arguments, add_task_arguments, tasks_and_backend
from data_pipeline import shards
from data_pipeline.shards import Shard
from reterm.progress import progress_bar
from reterm import stopping
from reterm.agent.episode import EpisodeConfig
from reterm.agent.policies import make_policy
from reterm.agent.policy import SamplingConfig
from reterm.evaluation.recovery_bench import build
from reterm.failures.state import load_jsonl
from reterm.options import DEFAULT_MODEL, MODEL_HELP, POLICIES, REPLY_TOKENS


def run(policy, tasks, backend, out: Path, episode_config, concurrency: int = 2, max_states_per_episode=3,
        on_done=None) -> dict:
    out = Path(out)
    (out / "states").mkdir(parents=True, exist_ok=True)
    with Shard(out / "states.jsonl") as shard:
        todo = [t for t in tasks if f"episode:{t.id}" not in shard]
        for t in todo:  # leftovers of an interrupted run of this task
            for d in (out / "states").glob(f"{t.id}-t*"):
                shutil.rmtree(d, ignore_errors=True)

        def on_episode(traj, states):
            for state in states:  # the snapshot's file is named relative to OUT, where the shard is
                shard.append({"key": state.id, **state.to_dict(relative_to=out)})
            shard.append({"key": f"episode:{traj.task_id}", "skipped": True, "reward": traj.reward,
                          "passed": traj.passed, "states": len(states), "infra_error": traj.infra_error})
            if on_done:
                on_done(traj)

        if todo:
            build(policy, todo, backend, out, episode_config, concurrency=concurrency,
                  on_episode=on_episode, max_states_per_episode=max_states_per_episode)
        episodes = [r for r in shard.records.values() if r["key"].startswith("episode:")]
    states = load_jsonl(out / "states.jsonl")
    by_cat: dict[str, int] = {}
    for s in states:
        by_cat[s.category] = by_cat.get(s.category, 0) + 1
    return {"episodes": len(episodes), "passed": sum(bool(r["passed"]) for r in episodes),
            "infra_errors": sum(1 for r in episodes if r["infra_error"]), "states": len(states),
            "by_category": dict(sorted(by_cat.items()))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_task_arguments(ap)
    ap.add_argument("--out", required=True, type=Path, help="output directory; re-running resumes it")
    ap.add_argument("--model", default=DEFAULT_MODEL,
                    help=MODEL_HELP)
    ap.add_argument("--policy", default="transformers", choices=POLICIES, help="how the model is run")
    ap.add_argument("--base-url", default=None, help="openai policy: the endpoint's /v1 URL (or OPENAI_BASE_URL)")
    ap.add_argument("--max-turns", type=int, default=6, help="turn limit of each episode")
    ap.add_argument("--max-new-tokens", type=int, default=REPLY_TOKENS, help="tokens the model may generate per turn")
    ap.add_argument("--temperature", type=float, default=0.7, help="sampling temperature (0 = greedy)")
    ap.add_argument("--seed", type=int, default=0, help="sampling seed")
    ap.add_argument("--max-states", type=int, default=3, help="failure states kept per episode")
    add_backend_arguments(ap)
    ap.add_argument("-j", "--concurrency", type=int, default=8, help="episodes running at once")
    args = ap.parse_args(argv)
    if min(args.max_turns, args.max_states, args.concurrency) < 1:
        ap.error("--max-turns, --max-states and -j must be at least 1")
    try:
        sampling = SamplingConfig(max_new_tokens=args.max_new_tokens, temperature=args.temperature, seed=args.seed)
        if args.out.exists() and not args.out.is_dir():
            raise ValueError(f"--out {args.out} is a file; collect writes a folder (states.jsonl and states/)")
        shards.check(args.out / "states.jsonl")
    except ValueError as e:  # ShardError too
        print(f"error: {e}", file=sys.stderr)
        return 2
    if (selected := tasks_and_backend(args)) is None:
        return 2
    tasks, backend = selected
    kw = {"base_url": args.base_url} if args.policy == "openai" else {}
    try:
        policy = make_policy(args.policy, args.model, sampling, **kw)
    except (ValueError, FileNotFoundError, ImportError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with progress_bar() as bar:
        pid = bar.add_task("collect", total=len(tasks))
        summary = run(policy, tasks, backend, args.out,
                      EpisodeConfig(max_turns=args.max_turns), args.concurrency, args.max_states,
                      on_done=lambda t: bar.update(pid, advance=1))
    policy.close()
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
