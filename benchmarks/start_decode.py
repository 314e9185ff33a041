"""The stronger-start rule's speed test: tokens a second a model decodes through the evaluation's engine (vLLM, the
dtype `reterm eval` picks), at batch 1 and batch 8, each sequence a prompt of `--prompt-tokens` random ids followed by
exactly `--new-tokens` sampled tokens (end of sequence ignored). The rule
(benchmarks/journal/stronger-start-rule.md) takes the first candidate whose batch-8 figure reaches 10 tokens a second.

    .venv/bin/python benchmarks/start_decode.py --model qwen2.5-coder-0.5b [--model smollm2-135m] [--prompt-tokens 600]

Each batch runs once to warm up, then `--repeats` times; the median is reported. Prints one line per model and
batch; `--json FILE` keeps the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time


def measure(model: str, batches: list[int], prompt_tokens: int, new_tokens: int, repeats: int) -> list[dict]:
    from vllm import SamplingParams

    from reterm.agent.vllm_policy import engine_kwargs, start_engine
    from reterm.hardware import generation_dtype
    from reterm.models import resolve_model

    dtype = generation_dtype("auto")
    llm = start_engine(resolve_model(model), model, **engine_kwargs(dtype, 0, max(batches)))
    vocab = llm.get_tokenizer().vocab_size
    params = SamplingParams(max_tokens=new_tokens, min_tokens=new_tokens, ignore_eos=True, temperature=0.7)
    rows = []
    for batch in batches:
        times = []
        for run in range(repeats + 1):
            rng = random.Random(run * 1000 + batch)  # new prompts each run: no prefix-cache hit across runs
            prompts = [{"prompt_token_ids": [rng.randrange(100, vocab) for _ in range(prompt_tokens)]}
                       for _ in range(batch)]
            t = time.perf_counter()
            outs = llm.generate(prompts, params, use_tqdm=False)
            elapsed = time.perf_counter() - t
            assert all(len(o.outputs[0].token_ids) == new_tokens for o in outs)
            if run:
                times.append(elapsed)
        sec = statistics.median(times)
        rows.append({"model": model, "dtype": str(dtype).removeprefix("torch."), "batch": batch,
                     "prompt_tokens": prompt_tokens, "new_tokens": new_tokens, "seconds": round(sec, 2),
                     "tokens_per_s": round(batch * new_tokens / sec, 1)})
        print(f"{model} ({rows[-1]['dtype']}) batch {batch}: {rows[-1]['tokens_per_s']} tok/s "
              f"(median of {repeats}: {sec:.1f} s for {batch} x {new_tokens} tokens after {prompt_tokens})",
              flush=True)
    del llm
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", action="append", required=True, help="a known model name or checkpoint dir (repeat)")
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--prompt-tokens", type=int, default=600, help="about an agent prompt after two turns")
    ap.add_argument("--new-tokens", type=int, default=128, help="the evaluation's --max-new-tokens")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    print(f"CPU: {platform.processor() or platform.machine()}", flush=True)
    rows = []
    for m in a.model:
        rows += measure(m, a.batch, a.prompt_tokens, a.new_tokens, a.repeats)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
