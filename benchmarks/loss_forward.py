"""The GRPO loss forward and backward of one micro-batch: each group's prompt once and its completions cut to their own
length, at the batch's padded width, or TRL's own forward (`reterm/training/shared_prefix.py`).

    .venv/bin/python benchmarks/loss_forward.py [--repeats 5] [--model smollm2-135m] [--json OUT]

One micro-batch as the comparison's plain GRPO steps make it: 2 groups x G=4 rows, each group's prompt (the task start)
~170 tokens, completions of the lengths below (the longest of 8 often twice the mean; the second group as even as
TRL would make any batch), the rows shuffled as TRL shuffles a step's rows before its loss forward. Each repeat times,
one after the other, forward + backward of `shared_prefix_logps` with `trim` on (cut) and off (padded), and of TRL's
`_get_per_token_logps_and_entropies` on the whole batch (trl: every row's prompt and padding run; what a step ran
while the shuffle kept the shared-prefix forward from finding a group's rows), under gradient checkpointing (TRL's
default, as the recipes train) and the machine's bf16 choice (reterm/hardware.py), and `--no-checkpointing` without
it. *cut-no-ckpt*: *cut* with checkpointing off for that arm alone (activations kept for the backward instead of
recomputed), in the same process. `--arms` picks arms (default: cut, padded, trl; the differences from TRL's need
trl). Reported: the median of each over the repeats (the first, a warm-up, left out), the ratios, each arm's peak
resident memory above what the process held before it (VmHWM, reset before each arm; memory the allocator kept from an
earlier arm is not counted again, so compare peaks across processes: `--arms cut` with and without
`--no-checkpointing`), the process's peak, and the largest difference of the logprobs and gradients from TRL's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import torch  # noqa: E402
from trl import GRPOTrainer  # noqa: E402
from trl.trainer.utils import add_fused_lm_head  # noqa: E402

from reterm.hardware import cpu_bf16_choice  # noqa: E402
from reterm.models import load_model_and_tokenizer  # noqa: E402
from reterm.options import DEFAULT_MODEL  # noqa: E402
from reterm.training.shared_prefix import shared_prefix_logps  # noqa: E402

PROMPTS = (172, 168)
COMPLETIONS = ((519, 120, 150, 90), (190, 160, 60, 200))
PERM = torch.tensor([5, 0, 6, 1, 7, 3, 4, 2])  # one shuffle of the 8 rows: no two of a group next to each other


def batch(vocab: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    P, K = max(PROMPTS), max(max(c) for c in COMPLETIONS)
    ids, mask = [], []
    for plen, comps in zip(PROMPTS, COMPLETIONS):
        prompt = torch.randint(1, vocab, (plen,), generator=g)
        for clen in comps:
            comp = torch.randint(1, vocab, (clen,), generator=g)
            ids.append(torch.cat([torch.zeros(P - plen, dtype=torch.long), prompt, comp,
                                  torch.zeros(K - clen, dtype=torch.long)]))
            mask.append(torch.cat([torch.zeros(P - plen), torch.ones(plen + clen), torch.zeros(K - clen)]))
    # shuffled, as TRL's loss forward gets them: the groups' rows apart
    return torch.stack(ids)[PERM], torch.stack(mask).long()[PERM], K


def rss_kb() -> int:
    return _status_kb("VmRSS")


def peak_rss_kb() -> int:
    return _status_kb("VmHWM")


def _status_kb(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def reset_peak_rss() -> None:
    """VmHWM back to the current RSS (Linux: writing 5 to clear_refs), so each arm's own peak can be read."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=DEFAULT_MODEL)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-checkpointing", action="store_true")
    ap.add_argument("--arms", nargs="+", default=["cut", "padded", "trl"],
                    choices=["cut", "padded", "trl", "cut-no-ckpt"])
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    model, _ = load_model_and_tokenizer(a.model, dtype=torch.float32)
    add_fused_lm_head(model, temperature=1.0, outputs=("log_probs", "entropy"))
    model.train()
    checkpoint = not a.no_checkpointing
    if checkpoint:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    bf16, why = cpu_bf16_choice()
    autocast = (lambda: torch.autocast("cpu", dtype=torch.bfloat16)) if bf16 else contextlib.nullcontext
    ids, mask, K = batch(model.config.vocab_size)
    fake = type("T", (), {"accelerator": type("A", (), {"autocast": staticmethod(autocast), "is_main_process": True})})

    def full(i, m):
        lp, ent, _ = GRPOTrainer._get_per_token_logps_and_entropies(fake, model, i, m, K, compute_entropy=True)
        return lp, ent

    completion_mask = mask[:, -K:].float()
    arms = {"cut": lambda: shared_prefix_logps(model, ids, mask, K, True, autocast, full, checkpoint=checkpoint),
            "padded": lambda: shared_prefix_logps(model, ids, mask, K, True, autocast, full, checkpoint=checkpoint,
                                                  trim=False),
            "trl": lambda: full(ids, mask),
            "cut-no-ckpt": lambda: shared_prefix_logps(model, ids, mask, K, True, autocast, full, checkpoint=False)}
    arms = {k: v for k, v in arms.items() if k in a.arms}
    peak: dict[str, int] = {arm: 0 for arm in arms}

    def step(arm: str):
        model.zero_grad(set_to_none=True)
        no_ckpt = arm == "cut-no-ckpt" and checkpoint
        if no_ckpt:
            model.gradient_checkpointing_disable()
        base = rss_kb()
        reset_peak_rss()
        t0 = time.perf_counter()
        lp, ent = arms[arm]()
        ((lp * completion_mask).sum() / completion_mask.sum()).backward()
        seconds = time.perf_counter() - t0
        peak[arm] = max(peak[arm], peak_rss_kb() - base)
        if no_ckpt:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        return seconds, lp.detach(), [p.grad.clone() for p in model.parameters() if p.grad is not None]

    times: dict[str, list[float]] = {arm: [] for arm in arms}
    diff_lp = diff_grad = 0.0
    m = completion_mask.bool()
    for r in range(a.repeats + 1):
        runs = {arm: step(arm) for arm in arms}
        if r:
            for arm, (t, _, _) in runs.items():
                times[arm].append(t)
        _, lp_ref, g_ref = runs.get("trl", (None, None, None))  # TRL's forward: the reference, where it ran
        for arm in (x for x in arms if x != "trl" and lp_ref is not None):
            _, lp, g = runs[arm]
            diff_lp = max(diff_lp, float((lp[m] - lp_ref[m]).abs().max()))
            diff_grad = max(diff_grad, max(float(((x - y).norm() / (y.norm() + 1e-12))) for x, y in zip(g, g_ref)))
        print(f"repeat {r}{' (warm-up)' if not r else ''}: "
              + ", ".join(f"{arm} {t:.2f} s" for arm, (t, _, _) in runs.items()), flush=True)
    med = {arm: statistics.median(v) for arm, v in times.items()}
    real = sum(PROMPTS) + sum(sum(c) for c in COMPLETIONS)
    out = {"model": a.model, "bf16": bf16, "bf16_why": why, "checkpointing": checkpoint, "repeats": a.repeats,
           "completions": COMPLETIONS, "prompts": PROMPTS, "row_order": PERM.tolist(), "real_tokens": real,
           "padded_completion_tokens": len(ids) * K,
           **{f"{arm}_s": v for arm, v in times.items()}, **{f"{arm}_median_s": v for arm, v in med.items()},
           **{f"{x}_over_{y}": med[x] / med[y] for x, y in (("cut", "padded"), ("cut", "trl"), ("cut-no-ckpt", "cut"))
              if x in med and y in med},
           "peak_rss_mb_above_start": {arm: v / 1024 for arm, v in peak.items()},
           "process_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "max_logprob_diff_from_trl": diff_lp, "max_relative_grad_diff_from_trl": diff_grad}
    print(", ".join(f"{arm} {v:.2f} s (peak +{peak[arm] / 1024:.0f} MB)" for arm, v in med.items())
          + f" (medians of {a.repeats}; process peak {out['process_peak_rss_mb']:.0f} MB)"
          + "".join(f"; {k.replace('_over_', '/')} {v:.2f}x" for k, v in out.items() if "_over_" in k)
          + (f"; largest |logprob difference| from TRL's {diff_lp:.2e}, relative gradient difference {diff_grad:.2e}"
             if "trl" in arms else ""))
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
