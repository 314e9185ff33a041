"""Run by tests/test_lockstep.py under `accelerate launch --cpu --num_processes 2` (gloo): each process runs a
different number of episodes and turns through a LockstepGenerator over a generator that behaves like TRL's vLLM
server mode (prompts gathered from every process, answered on process 0, broadcast, sliced by
`process_index * len(prompts)`). Writes `<out>/rank<i>.json`: the rounds it took part in and any episode that got
an answer to another prompt. `--raw` leaves out CollectiveRounds (to show the failure it prevents)."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

from accelerate import Accelerator
from accelerate.utils import broadcast_object_list, gather_object

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reterm.agent.policy import Generation  # noqa: E402
from reterm.training.lockstep import CollectiveRounds, LockstepGenerator  # noqa: E402

NOOP = [0]


def server_mode(acc: Accelerator, calls: list):
    def generate_many(prompts):
        calls.append(len(prompts))
        everyone = gather_object(prompts)
        payload = [[[*p, 7] for p in everyone] if acc.is_main_process else None]  # the answer names its prompt
        broadcast_object_list(payload, from_process=0)
        mine = payload[0][acc.process_index * len(prompts):(acc.process_index + 1) * len(prompts)]
        return [Generation("", ids, [0.0] * len(ids)) for ids in mine]
    return generate_many


def in_lockstep(gen: LockstepGenerator, keys, episode) -> None:
    """Runs `episode(key)` for every key in a thread of its own, registered with the generator as the rollout does;
    each key is finished when its episode returns."""
    def run(key):
        try:
            episode(key)
        finally:
            gen.finish(key)

    with gen.episodes(keys):
        threads = [threading.Thread(target=run, args=(k,)) for k in keys]
        for th in threads:
            th.start()
        for th in threads:
            th.join()


def run_phase(gen: LockstepGenerator, rank: int, phase: int, episodes: int, turns: int, wrong: list) -> None:
    def episode(key):
        for t in range(turns):
            prompt = [rank + 1, key[0], key[1], t]
            got = gen._generate(key, prompt).token_ids
            if got != [*prompt, 7]:
                wrong.append({"prompt": prompt, "got": got})

    in_lockstep(gen, [(phase, e) for e in range(episodes)], episode)


def main() -> int:
    out, raw = Path(sys.argv[1]), "--raw" in sys.argv
    acc = Accelerator(cpu=True)
    rank = acc.process_index
    calls: list = []
    fn = server_mode(acc, calls)
    if not raw:
        fn = CollectiveRounds(fn, gather_object, NOOP, equal_sizes=True)
    gen = LockstepGenerator(fn, None, None, "m", seed=0)
    wrong: list = []
    # process 0: 3 episodes x 2 turns, then 1 episode x 3 turns; process 1: one episode of 6 turns (process 0
    # drains the last round)
    phases = [(3, 2), (1, 3)] if rank == 0 else [(1, 6)]
    for i, (episodes, turns) in enumerate(phases):
        run_phase(gen, rank, i, episodes, turns, wrong)
    gen.drain()
    (out / f"rank{rank}.json").write_text(json.dumps({"calls": calls, "wrong": wrong, "rounds": gen.rounds}))
    acc.wait_for_everyone()
    acc.end_training()  # tears the process group down before exit (gloo aborts when a peer vanishes first)
    return 0


if __name__ == "__main__":
    sys.exit(main())
