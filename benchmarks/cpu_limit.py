"""What this CPU can do, and how close ReTerm's hot paths come to it.

Measured in one process, one after the other, at the thread count the recipes run with (torch's default: one per
core):
- *peak*: the best GFLOP/s of square matrix products (fp32, and bf16 where the CPU has native bf16), the ceiling of
  every training step;
- *bandwidth*: GB/s of a large tensor copy (bytes read + written), the ceiling of decoding;
- *training*: one forward+backward of SmolLM2-135M on a batch shaped like an SFT step (8 rows) and like the GRPO loss
  (a group of completions after a shared prompt), in the precision the recipes pick (reterm.hardware), as model
  FLOP/s (6 x parameters x tokens, plus attention) and as a fraction of the peak of that precision;
- *decode*: greedy tokens a second with `model.generate` at batch 1 and 16, against the bound that reading every
  weight once per step sets (bandwidth / weight bytes x batch).

    .venv/bin/python benchmarks/cpu_limit.py [--model smollm2-135m] [--quick]

Prints the CPU model, its bf16 support and every figure; `--json FILE` keeps them.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

import torch


def _best(fn, repeats: int) -> float:
    fn()  # warm up (allocations, kernel choice)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def matmul_peak(dtype, sizes=(1024, 2048, 3072), repeats: int = 5) -> dict:
    best = {}
    for n in sizes:
        a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
        best[n] = 2 * n ** 3 / _best(lambda: torch.mm(a, b), repeats) / 1e9
    return {"gflops": round(max(best.values()), 1), "by_size": {k: round(v, 1) for k, v in best.items()}}


def bandwidth(mb: int = 1024, repeats: int = 5) -> float:
    src = torch.ones(mb * 2 ** 20 // 4, dtype=torch.float32)
    dst = torch.empty_like(src)
    return round(2 * src.numel() * 4 / _best(lambda: dst.copy_(src), repeats) / 1e9, 1)


def model_flops(params: int, layers: int, hidden: int, rows: int, length: int) -> float:
    """Forward+backward FLOPs of a decoder on `rows` sequences of `length`: 6 N T for the weights plus 12 L T^2 d
    (rows of T tokens, causal attention counted whole, as PaLM's MFU does)."""
    tokens = rows * length
    return 6 * params * tokens + 12 * layers * hidden * length * tokens


def train_step(model, rows: int, length: int, dtype, repeats: int) -> float:
    ids = torch.randint(0, model.config.vocab_size, (rows, length))

    def step():
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=dtype == torch.bfloat16):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        model.zero_grad(set_to_none=True)

    return _best(step, repeats)


def decode(model, tok, batch: int, new_tokens: int, repeats: int) -> float:
    prompt = tok(["Write a shell command that lists files."] * batch, return_tensors="pt", padding=True)

    def run():
        with torch.inference_mode():
            model.generate(**prompt, max_new_tokens=new_tokens, min_new_tokens=new_tokens, do_sample=False,
                           pad_token_id=tok.pad_token_id or tok.eos_token_id)

    return batch * new_tokens / _best(run, repeats)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--quick", action="store_true", help="fewer repeats and smaller shapes (a look, not a figure)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    from reterm.hardware import cpu_bf16_choice, cpu_flags, native_bf16
    from reterm.models import load_model_and_tokenizer

    repeats = 2 if args.quick else 5
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    flags = cpu_flags()
    out: dict = {"cpu": cpu, "threads": torch.get_num_threads(), "avx512_bf16": "avx512_bf16" in flags,
                 "amx_bf16": "amx_bf16" in flags, "torch": torch.__version__}
    print(f"CPU {cpu}; {out['threads']} threads; avx512_bf16 {out['avx512_bf16']}, amx_bf16 {out['amx_bf16']}")
    sizes = (1024, 2048) if args.quick else (1024, 2048, 3072)
    out["peak_fp32"] = matmul_peak(torch.float32, sizes, repeats)
    print(f"matmul peak fp32: {out['peak_fp32']['gflops']} GFLOP/s {out['peak_fp32']['by_size']}")
    if native_bf16(flags):
        out["peak_bf16"] = matmul_peak(torch.bfloat16, sizes, repeats)
        print(f"matmul peak bf16: {out['peak_bf16']['gflops']} GFLOP/s {out['peak_bf16']['by_size']}")
    out["bandwidth_gbs"] = bandwidth(256 if args.quick else 1024, repeats)
    print(f"memory bandwidth (copy, read + write): {out['bandwidth_gbs']} GB/s")

    use_bf16, why = cpu_bf16_choice()
    dtype = torch.bfloat16 if use_bf16 else torch.float32
    peak = out["peak_bf16" if use_bf16 else "peak_fp32"]["gflops"]
    model, tok = load_model_and_tokenizer(args.model, dtype=torch.float32)  # fp32 master weights, as the recipes
    model.train()
    cfg = model.config
    params = sum(p.numel() for p in model.parameters())
    out["model"] = {"name": args.model, "parameters": params, "train_precision": str(dtype).split(".")[-1],
                    "why": why}
    shapes = {"sft_step": (8, 512 if args.quick else 1024), "grpo_loss": (4, 768 if args.quick else 1536)}
    for name, (rows, length) in shapes.items():
        sec = train_step(model, rows, length, dtype, repeats if not args.quick else 1)
        flops = model_flops(params, cfg.num_hidden_layers, cfg.hidden_size, rows, length)
        gf = flops / sec / 1e9
        out[name] = {"rows": rows, "length": length, "seconds": round(sec, 3), "model_gflops": round(gf, 1),
                     "fraction_of_peak": round(gf / peak, 3)}
        print(f"{name} ({rows} x {length} tokens, {out['model']['train_precision']}): {sec:.2f} s forward+backward, "
              f"{gf:.1f} model GFLOP/s = {gf / peak:.1%} of the {out['model']['train_precision']} peak")
    model.eval()
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    out["decode"] = {}
    for batch in (1, 16):
        tps = decode(model, tok, batch, 16 if args.quick else 32, max(1, repeats // 2))
        bound = out["bandwidth_gbs"] * 1e9 / weight_bytes * batch
        out["decode"][batch] = {"tokens_per_s": round(tps, 1), "bandwidth_bound": round(bound, 1),
                                "fraction": round(tps / bound, 3)}
        print(f"decode fp32 batch {batch}: {tps:.1f} tok/s; reading the {weight_bytes / 1e6:.0f} MB of weights once a "
              f"step bounds it at {bound:.0f} tok/s ({tps / bound:.1%})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
