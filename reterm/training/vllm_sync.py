"""The trained weights in TRL's colocated vLLM engine: the one change its CPU backend needs, and a check of every sync.

TRL's colocate mode (`use_vllm`, `vllm_mode: colocate`) builds an in-process `vllm.LLM` and, before each step's
generation, copies the trained parameters into it with the vLLM model's `load_weights`. On vLLM's CPU backend that
copy fails: after loading, the linear layers' weights live in oneDNN handles built from them (the layer's `weight` is
left without the `weight_loader` the copy needs). `reload_weights` runs the same load and then rebuilds those handles,
so `CpuColocateGeneration.sync_weights` takes TRL's own parameter walk (`_iter_named_params`: PEFT merged, names
fixed) and hands it to `reload_weights` instead, then repacks the layers the reload leaves stale (a tied LM head);
nothing else of TRL's generation changes. GPU engines keep TRL's path untouched.

TRL's server mode syncs over NCCL only (`init_communicator` refuses a CPU trainer) and stays GPU-only; the recipes
say so before a run starts (reterm/training/common.py).

`sync_logprob_diff` is the check: a fixed probe completion scored by the engine (prompt logprobs) and by the trained
model, mean |difference|. A sync that was skipped or left stale weights shows as a difference far above float noise
once the weights have moved.
"""

from __future__ import annotations

import torch
from trl.generation.vllm_generation import VLLMGeneration

from reterm.agent.sampling import sampled_logprobs

PROBE = ([{"role": "system", "content": "You are a terminal agent."},
          {"role": "user", "content": "Create the file /app/ok, then say TASK_COMPLETE."}],
         "I will create it.\n```bash\ntouch /app/ok && ls -l /app\n```")


class CpuColocateGeneration(VLLMGeneration):
    """TRL's colocated vLLM generation with the weight sync a CPU engine needs (module docstring)."""

    def sync_weights(self):
        from vllm.model_executor.layers.utils import dispatch_cpu_unquantized_gemm

        runner = self.llm.llm_engine.model_executor.driver_worker.model_runner
        runner.reload_weights(weights_iterator=self._iter_named_params(), is_checkpoint_format=True)
        # Layers that keep their weight beside its packed copy (the embedding and the LM head) are not repacked by
        # the reload when their weight is tied: an LM head tied to the embeddings went on computing logits from the
        # weights loaded at start (mean |logprob difference| 0.33 after a move the rest of the model synced to 1e-7).
        for module in runner.get_model().modules():
            weight = getattr(module, "weight", None)
            if hasattr(module, "cpu_linear") and isinstance(weight, torch.Tensor) and weight.ndim == 2 \
                    and weight.numel() > 0:
                dispatch_cpu_unquantized_gemm(module, remove_weight=False)
        self.llm.reset_prefix_cache()  # cached prefixes hold the old weights' states


def engine_on_cpu() -> bool:
    from vllm.platforms import current_platform

    return current_platform.is_cpu()


def adapt_for_cpu(generation: VLLMGeneration) -> None:
    """Makes TRL's colocated generation sync its weights the way a CPU engine needs (a no-op elsewhere). The object
    TRL built keeps its engine and settings; only its class, and so `sync_weights`, changes."""
    if generation.mode == "colocate" and engine_on_cpu():
        generation.__class__ = CpuColocateGeneration


def probe_ids(tokenizer) -> tuple[list[int], list[int]]:
    """The probe's prompt ids (chat template) and completion ids (the reply and the end of turn)."""
    messages, reply = PROBE
    prompt = list(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True,
                                                return_dict=True)["input_ids"])
    return prompt, tokenizer.encode(reply, add_special_tokens=False) + [tokenizer.eos_token_id]


def sync_logprob_diff(llm, model, tokenizer, autocast) -> float:
    """Mean |logprob difference| over the probe's completion between the engine `llm` and `model` (run in eval
    mode under the trainer's `autocast`, as its loss forward runs)."""
    from reterm.agent.vllm_policy import prompt_logprobs

    prompt, completion = probe_ids(tokenizer)
    engine = prompt_logprobs(llm, prompt, completion)
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad(), autocast():
            logits = model(input_ids=torch.tensor([prompt + completion], device=model.device)).logits
        ours = sampled_logprobs(logits[:, len(prompt) - 1:-1], torch.tensor([completion], device=model.device),
                                1.0)[0].tolist()
    finally:
        model.train(was_training)
    return sum(abs(a - b) for a, b in zip(engine, ours)) / len(completion)
