"""One decode step of a batch over cached conversations: transformers' `DynamicLayer` (concatenates every layer's
whole cache per token) against ReTerm's preallocated `_BufferLayer` (writes one position in place), same model,
same batch, same ids.

For each (batch, cached tokens) it builds random prompts of that length, prefills them once, then decodes `--steps`
greedy tokens both ways from identical copies of the batch cache, and reports the median seconds per step and
whether both ways chose the same tokens. Float32 by default (`--dtype bfloat16` to try the other).

    .venv/bin/python benchmarks/decode_step.py [--model smollm2-135m] [--batch 8 16] [--context 300 800] [--steps 24]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import torch
from transformers import DynamicCache

from reterm.agent import kvcache
from reterm.models import load_model_and_tokenizer


def _dynamic(past: DynamicCache) -> DynamicCache:
    """The same states in plain `DynamicLayer`s (what `_batched_past` built before the buffers)."""
    plain = DynamicCache()
    for i, layer in enumerate(past.layers):
        plain.update(layer.keys.clone(), layer.values.clone(), i)
    return plain


def _steps(model, past, attention, first, lengths, steps):
    chosen, times, out_ids = first, [], []
    positions = torch.tensor(lengths).unsqueeze(1)
    for step in range(steps):
        attention = torch.cat([attention, attention.new_ones((len(lengths), 1))], dim=1)
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model(input_ids=chosen.unsqueeze(1), attention_mask=attention, position_ids=positions + step,
                        cache=past, use_cache=True)
        chosen = out.logits[:, -1].argmax(-1)
        times.append(time.perf_counter() - t0)
        out_ids.append(chosen.tolist())
    return times, out_ids


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--dtype", default="float32", choices=("auto", "float32", "bfloat16", "float16"))
    ap.add_argument("--batch", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--context", type=int, nargs="+", default=[300, 800])
    ap.add_argument("--steps", type=int, default=24)
    a = ap.parse_args()
    model, _ = load_model_and_tokenizer(a.model, a.dtype)
    model.eval()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cpus, torch threads "
          f"{torch.get_num_threads()}, load average {os.getloadavg()[0]:.1f}; {a.model} {a.dtype}")
    print("| batch | cached tokens | DynamicLayer (ms/step) | buffer (ms/step) | speed-up | same ids |")
    print("|---|---|---|---|---|---|")
    gen = torch.Generator().manual_seed(0)
    for batch in a.batch:
        for context in a.context:
            lengths = [context - 8 * i for i in range(batch)]  # ragged, as a batch of episodes is
            cache = kvcache.PrefixCache(max_tokens=10 ** 7)
            rows, last = [], []
            for n in lengths:
                ids = torch.randint(0, model.config.vocab_size, (n,), generator=gen).tolist()
                with torch.inference_mode():
                    kv, logits = kvcache._prefill(model, ids, cache)
                rows.append(kv)
                last.append(logits)
            width = max(lengths)
            attention = torch.zeros((batch, width), dtype=torch.long)
            for i, n in enumerate(lengths):
                attention[i, width - n:] = 1
            first = torch.stack(last).argmax(-1)
            results = {}
            for name in ("buffer", "dynamic", "buffer2", "dynamic2"):  # twice each, interleaved: drift shows
                past = kvcache._batched_past(rows, lengths, room=a.steps)
                if name.startswith("dynamic"):
                    past = _dynamic(past)
                results[name] = _steps(model, past, attention, first, lengths, a.steps)
            dyn = statistics.median(results["dynamic"][0][2:] + results["dynamic2"][0][2:])
            buf = statistics.median(results["buffer"][0][2:] + results["buffer2"][0][2:])
            same = results["dynamic"][1] == results["buffer"][1]
            print(f"| {batch} | {context} | {dyn * 1e3:.0f} | {buf * 1e3:.0f} | {dyn / buf:.2f}x | {same} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
