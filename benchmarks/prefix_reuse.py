"""Three ways to run the second turn of many conversations: re-encode everything, transformers' continuous batching
with prefix sharing, ReTerm's PrefixCache. Same greedy workload, same model and dtype, one process.

Workload: N agent conversations (system prompt + a bundled train task), turn 1 = 48 greedy tokens each, then each
conversation + its reply + an observation, turn 2 = 48 more. Reported per engine: seconds per turn and whether the
token ids equal `model.generate`'s on the same prompts.

- `generate`: `model.generate` on the left-padded whole prompts (ReTerm before the cache; `kv_cache_tokens=0`).
- `continuous batching`: `model.generate_batch(persistent_manager=True)` with block sharing (page size 32, so a
  prefix is reused in 32-token blocks), `return_logprobs=True`, 64 blocks (2,048 tokens) per conversation.
- `PrefixCache`: `TransformersPolicy`'s default path (reterm/agent/kvcache.py).

    .venv/bin/python benchmarks/prefix_reuse.py [--conversations 16] [--dtype auto]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import torch
from transformers import GenerationConfig
from transformers.generation.configuration_utils import ContinuousBatchingConfig

from reterm import suites
from reterm.agent.episode import instruction_message
from reterm.agent.formats import make_format
from reterm.agent.policy import SamplingConfig, TransformersPolicy
from reterm.hardware import generation_dtype
from reterm.models import load_model_and_tokenizer

NEW = 48
OBSERVATION = ("$ ls\nREADME.md  data.csv  src\n[exit 0]\n"
               "$ python3 src/main.py\nNameError: name 'x' is not defined\n[exit 1]")


def prompts_and_observation(tok, n):
    fmt = make_format("simple")
    prompts = [list(tok.apply_chat_template([{"role": "system", "content": fmt.system_prompt()},
                                             {"role": "user", "content": instruction_message(t)}],
                                            add_generation_prompt=True, tokenize=True, return_dict=True)["input_ids"])
               for t in suites.load("basic", "train")[:n]]
    obs = tok.apply_chat_template([{"role": "user", "content": OBSERVATION}], add_generation_prompt=True,
                                  tokenize=False)
    return prompts, tok.encode("\n" + obs, add_special_tokens=False)


def two_turns(generate, prompts, obs):
    """(wall s turn 1, wall s turn 2, CPU s turn 2, ids turn 1, ids turn 2) for `generate(list[prompt]) -> list[ids]`.
    CPU seconds (all threads of this process) are reported too: on a shared machine they move less than wall time."""
    t0 = time.perf_counter()
    first = generate(prompts)
    t1, c1 = time.perf_counter(), time.process_time()
    second = generate([p + g + obs for p, g in zip(prompts, first)])
    return t1 - t0, time.perf_counter() - t1, time.process_time() - c1, first, second


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--conversations", type=int, default=16)
    ap.add_argument("--dtype", default="auto", choices=("auto", "float32", "bfloat16", "float16"))
    a = ap.parse_args()
    dtype = generation_dtype(a.dtype)
    model, tok = load_model_and_tokenizer("smollm2-135m", dtype=dtype)
    prompts, obs = prompts_and_observation(tok, a.conversations)
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}; "
          f"smollm2-135m {str(dtype).replace('torch.', '')}; {len(prompts)} conversations of "
          f"{min(map(len, prompts))}-{max(map(len, prompts))} prompt tokens, {NEW} greedy tokens a turn\n")
    sampling = SamplingConfig(max_new_tokens=NEW, temperature=0)
    uncached = TransformersPolicy("smollm2-135m", sampling, model=model, tokenizer=tok, kv_cache_tokens=0)
    cached = TransformersPolicy("smollm2-135m", sampling, model=model, tokenizer=tok)
    gen_config = GenerationConfig(max_new_tokens=NEW, do_sample=False, eos_token_id=tok.eos_token_id,
                                  pad_token_id=tok.eos_token_id)
    # sized by hand: left to itself on a CPU the manager sized its block pool from the host's memory (14 GB RSS)
    cb_config = ContinuousBatchingConfig(page_size=32, allow_block_sharing=True, return_logprobs=True,
                                         num_blocks=64 * len(prompts), max_batch_tokens=2048)

    def continuous(ps):
        out = model.generate_batch(ps, generation_config=gen_config, continuous_batching_config=cb_config,
                                   persistent_manager=True, progress_bar=False)
        return [out[k].generated_tokens for k in sorted(out, key=lambda k: int(k.rsplit("_", 1)[-1]))]

    engines = {"generate": lambda ps: [g.token_ids for g in uncached.generate_many(ps)],
               "continuous batching": continuous,
               "PrefixCache": lambda ps: [g.token_ids for g in cached.generate_many(ps)]}
    uncached.generate_many(prompts[:2])  # warm the kernels up once for everyone
    rows = {}
    with torch.no_grad():
        for name, fn in engines.items():
            rows[name] = two_turns(fn, prompts, obs)
    want = rows["generate"]
    print("| engine | turn 1 wall (s) | turn 2 wall (s) | turn 2 CPU (s) | turn 2 vs generate (wall, CPU) "
          "| ids = generate's (turn 1, turn 2) |")
    print("|---|---|---|---|---|---|")
    for name, (t1, t2, cpu2, first, second) in rows.items():
        same2 = sum(x == y for x, y, p, q in zip(second, want[4], first, want[3]) if p == q)
        print(f"| {name} | {t1:.1f} | {t2:.1f} | {cpu2:.1f} | {want[1] / t2:.1f}x, {want[2] / cpu2:.1f}x | "
              f"{sum(x == y for x, y in zip(first, want[3]))}/{len(first)}, {same2}/{len(first)} |")
    uncached.close()
    cached.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
