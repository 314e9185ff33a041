"""ReTerm-GRPO: GRPO whose groups are recovery attempts forked from a live sandbox at the moment the policy failed.

Algorithm, per task of a batch (one *slot* = one GRPO group of G = `num_generations` completions):

1. **Scout.** Run one episode of the current policy from the task start, snapshotting the sandbox after every error
   turn (and at the end, before the verifier runs, for `fork_point: final`).
2. **Fork point.** If the scout failed, pick a failure state: `first` / `last` / `random` error turn, or `final` (the
   state after the model said it was done and the tests failed; falls back to the last error). The history is the
   conversation up to and including that turn's observation (for `final`: plus a user turn saying the tests failed).
   Every strategy falls back on the final state when it has no error turn to offer (e.g. a wrong output).
3. **Fork.** `snapshot.fork(G)`: G sandboxes in exactly that state (files and shell state), each continuing the same
   history independently for at most `max_recovery_turns` turns, then verified.
4. **Group.** prompt = the history's token ids (identical for the G attempts); completion = the recovery turns: the
   sampled ids (loss) and the observation ids between them (`env_mask` 0: no loss). reward = the task's tests (1/0,
   or reward.json's value with `reward_mode: partial`), minus the optional behaviour penalties.
5. **Refill.** A group whose valid rewards are all equal carries no signal (zero advantage for every member): it is
   redone, from another failure state of the same scout or with another task, up to `refill_tries` times; the share
   of groups still flat is logged.

A scout that succeeds gives a plain group from the task start (`on_success: start`) or is replaced by another task
(`on_success: skip`). `fork_from: start` skips the scout and runs every group from the task start: plain multi-turn
GRPO in the same trainer, the baseline for every comparison.

How it differs from TRL's GRPOTrainer: only the rollout. TRL samples G single-turn completions of a dataset prompt;
here a group is G multi-turn episodes in sandboxes, and its prompt is a state reached by the policy, not a dataset
row. Everything after the rollout is TRL's: advantages, loss variants (`loss_type`), KL (`beta`), clipping, importance
sampling correction, vLLM weight sync, DeepSpeed/FSDP, logging, checkpoints, Hub push. Infra failures (a sandbox or
verifier that broke) get reward None — TRL's "unscorable": excluded from the group baseline, advantage 0 — and an
all-zero env mask, so they carry no gradient at all.

Scouting ahead (`scout_ahead`, on by default): the scouts of the next step's batch run during this step's first round
of recovery attempts, in the same generation batches, and the next step forks from their failure states at once. On
a CPU a round at batch 2 costs most of what a round at batch 8 does, so a separate scout round was close to a second
generation round per step; merged, it costs a few more rows (the forks of a state scouted ahead prefill its history
once, as the scout's own key/value states went with the previous step's policy). The next step's forks then start
from states a policy one update older reached (the attempts, the trained completions, are still sampled from the
current weights). No
look-ahead across a scheduled checkpoint or evaluation (save_steps, eval_steps), the end of an epoch, the last step or
`stop_after_step`:
a run resumed from a checkpoint scouts its first step itself, as the uninterrupted run did. (A checkpoint a callback
asks for at another step cannot be foreseen; a run resumed from one scouts its first step afresh, so its first step
differs from the uninterrupted run's.) The next step's scout tokens are sampled, logged (`reterm/sampled_tokens`,
`reterm/scouts_ahead`) and counted against `token_budget_per_step` in the step that runs them; in a run of such steps
every step spends the same on scouts as before, one step earlier.

Determinism: episodes run in threads but generate in lockstep (reterm/training/lockstep.py), phase by phase (all
scouts, then all attempts with the next step's scouts), with seeds and random choices derived from (seed, global
step, process, slot). A run resumed from a checkpoint therefore continues exactly like the uninterrupted run.

Where the code lives: the rollout (slots, scouts, fork points, forks, refills) is reterm/training/rollout.py; the
choice of fork points and the failure state are reterm/failures/. This module configures it and wires it into TRL.

TRL methods overridden, and why:
- `_generate_and_score_completions`: keeps the batch's rows for the rollout, since TRL's `rollout_func` (the
  rollout itself, `_rollout` here) receives only the prompts, and a group needs its task id.
- `_get_train_sampler`: reseeds TRL's RepeatSampler from (seed, epoch) at every epoch, so that a run resumed at an
  epoch boundary sees the data order of the uninterrupted run.
- `training_step`: times the step, to log rollout time apart from training time.
- `get_batch_samples`: hands the Trainer its batches through a look-ahead buffer (`_Peekable`), so that the rollout
  can see the next step's task ids (`scout_ahead`); the batches and their order are the Trainer's own.
- `train`: releases the failure states scouted ahead for a step that never came.
- `_get_per_token_logps_and_entropies`: with `shared_prefix_forward`, each group's shared prompt is run once, not G
  times (reterm/training/shared_prefix.py); TRL's method otherwise, and for rows whose prompt no other row shares.
- `_compute_loss`: with `skip_zero_advantage_rows`, TRL's loss runs on the rows with a nonzero advantage only, scaled
  to the whole micro-batch's (reterm/training/signal_rows.py): a flat group's rows add exactly nothing to it.
- `_generate_and_score_completions` and `_compute_loss`, with `use_vllm`'s importance-sampling correction and one
  generation a step (`is_ratio_from_loss_forward`): the correction is made from the loss forward's own logprobs, and
  TRL's forward over the generated batch for `old_per_token_logps`, which computes the same logprobs, is skipped
  (reterm/training/is_ratio.py).
- with `use_vllm` in colocate mode: after TRL's weight sync, the rollout first checks that the engine scores a probe
  completion as the trained model does (`vllm_sync_check`); on a CPU engine TRL's sync itself is replaced by one that
  works there (reterm/training/vllm_sync.py: the generation object's class, not TRL's code, changes).
Everything else (advantages, loss, KL, vLLM weight sync on GPUs, distributed training, checkpoints) is TRL's,
unchanged.

What the rollout owes TRL:
- sampling is the distribution TRL's loss assumes: temperature-scaled logits, no top-k cut unless `top_k` is set,
  and the recorded logprobs are `log_softmax(logits / temperature)` (used by vLLM's importance-sampling correction);
- the model's mode is left as found: `evaluate()` rolls out in eval mode (num_generations_eval, eval metrics);
- with several processes, a collective generator (vLLM server mode, colocate with tensor parallelism, ZeRO-3/FSDP
  `synced_gpus`) is called by every process in every round with padded, equal batches (lockstep.CollectiveRounds);
- a generator that keeps failing stops the step with its error (`max_failed_generation_rounds`), instead of a step
  of masked infra failures;
- every call generates one turn (`max_new_tokens_per_turn`, vLLM included).

Budget: `reterm/sampled_tokens` is every token the policy sampled in the step's rollout (scouts, attempts, refills);
`token_budget_per_step` bounds the refills by it, so that ReTerm-GRPO and plain GRPO (`fork_from: start`) are compared
at the same sampled-token budget (recipes/compare.py).

Where it departs from the ReTerm method (DESIGN.md: snapshot at the failure, fork G attempts, reward by the tests):
- the scout's end state, snapshotted before the verifier ran, is a fork point too (`fork_point: final`, and every
  strategy's fallback), so a scout that failed without an error turn (a wrong output) still gives a group;
- flat groups are redone (refills) from another failure state or another task, instead of being trained on with
  zero advantage; a slot that never gets a group is a masked placeholder;
- a scout that passes gives a plain group from the task start (or is skipped), rather than no group;
- generation runs in lockstep with derived seeds so that resumed runs are exact (the method does not ask for it);
- optional behaviour penalties (repeated failing command, false completion, blind kill) are subtracted from the
  tests' reward, and a sandbox or verifier that broke gives reward None (no gradient), never 0.
"""

from __future__ import annotations

import time
from collections import defaultdict
from contextlib import ExitStack, contextmanager
from dataclasses import asdict

import torch
from accelerate.utils import gather_object
from datasets import Dataset
from trl import GRPOTrainer
from trl.models import unwrap_model_for_generation

from reterm.agent.policy import Generation, SamplingConfig, TransformersPolicy
from reterm.hardware import on_cpu
from reterm.options import open_backend
from reterm.training import is_ratio
from reterm.training.config import ReTermGRPOConfig
from reterm.training.lockstep import CollectiveRounds, LockstepGenerator
from reterm.training.rollout import Group, Rollout, RolloutProgress, RolloutStats, Scouted, Timings
from reterm.training.shared_prefix import full_attention_only, shared_prefix_logps
from reterm.training.signal_rows import signal_rows

def task_reward(completions, reterm_reward, **kwargs) -> list[float | None]:
    """The reward the rollout measured (tests, minus penalties); None for an infra failure."""
    return list(reterm_reward)


class ReTermGRPOTrainer(GRPOTrainer):
    """TRL's GRPOTrainer with the ReTerm rollout (see the module docstring)."""

    def __init__(self, model, args: ReTermGRPOConfig, tasks, train_dataset=None, processing_class=None,
                 backend=None, generate_many=None, **kwargs):
        """`tasks`: the Task objects the dataset's `task_id`s name (the dataset defaults to one row per task).
        `backend`: a sandbox backend (default: made from `args.sandbox_backend`). `generate_many`: replaces the
        generator (transformers, or TRL's vLLM with `use_vllm`) by a function `list[prompt_ids] -> list[Generation]`
        that must sample from the trained model (constrained decoding, an external engine kept in sync)."""
        if not isinstance(args, ReTermGRPOConfig):
            raise TypeError("args must be a ReTermGRPOConfig")
        if not tasks:
            raise ValueError("no tasks to train on")
        self.tasks = {t.id: t for t in tasks}
        if train_dataset is None:
            train_dataset = Dataset.from_list([task_row(t) for t in tasks])
        missing = set(train_dataset["task_id"]) - set(self.tasks)
        if missing:
            raise ValueError(f"train_dataset names tasks that were not given: {sorted(missing)[:5]}")
        if backend is None:
            backend = open_backend(args.sandbox_backend, [args.image_map] if args.image_map else [],
                                   docker_hosts=args.docker_hosts)
        self.backend = backend
        self._batch_inputs: list[dict] | None = None
        self._generate_many = generate_many
        self._timings = Timings()  # of the current rollout
        self._rollout_s = 0.0  # of the current training step
        self._failed_generation_rounds = 0  # in a row, across steps
        self._peek: _Peekable | None = None  # the epoch's batches, with a look-ahead buffer (scout_ahead)
        self._scouted: tuple[int, list[str], list[Scouted]] | None = None  # (step, slot tasks, scouts) ahead
        self._sync_checked_step: int | None = None  # the vLLM weight sync last checked (vllm_sync_check)
        self._is_rows: dict | None = None  # the micro-batch whose loss forward makes its importance-sampling ratio
        if args.use_vllm and on_cpu(args.use_cpu):
            from reterm.agent.vllm_policy import import_vllm, set_cpu_env

            import_vllm()  # ImportError saying how to install it, before TRL's own
            set_cpu_env()  # before TRL starts the engine
        super().__init__(model=model, reward_funcs=[task_reward], args=args, train_dataset=train_dataset,
                         processing_class=processing_class, rollout_func=self._rollout, **kwargs)
        if self.use_vllm:
            from reterm.training.vllm_sync import adapt_for_cpu

            adapt_for_cpu(self.vllm_generation)

    # -- TRL hooks -------------------------------------------------------------------------------------------------
    def _get_train_sampler(self, dataset=None):
        """TRL's RepeatSampler, reseeded at every epoch from (seed, epoch). Its generator otherwise runs on across
        epochs, so a run resumed at an epoch boundary would see epoch 0's order again instead of the order the
        uninterrupted run saw; the Trainer calls `set_epoch` on the sampler at the start of each epoch."""
        sampler = super()._get_train_sampler(dataset)
        generator = getattr(sampler, "generator", None)
        if generator is not None:
            seed = self.args.seed

            def set_epoch(epoch: int) -> None:
                generator.manual_seed(seed * 1_000_003 + epoch)

            sampler.set_epoch = set_epoch
        return sampler

    def get_batch_samples(self, epoch_iterator, num_batches, device):
        if self._peek is None or self._peek.source is not epoch_iterator:
            self._peek = _Peekable(epoch_iterator)
        return super().get_batch_samples(self._peek, num_batches, device)

    def train(self, *args, **kwargs):
        try:
            return super().train(*args, **kwargs)
        finally:
            self._drop_scouted()
            self._peek = None

    def _drop_scouted(self) -> None:
        if self._scouted is not None:
            _release(self._scouted[2])
            self._scouted = None

    def _take_scouted(self, slots: list[str]) -> list[Scouted] | None:
        """The scouts the previous step ran for this step's slots, if they are for this step and these tasks."""
        held, self._scouted = self._scouted, None
        if held is None:
            return None
        step, tasks, scouted = held
        if step == self.state.global_step and tasks == slots:
            return scouted
        _release(scouted)  # not this step's (cannot happen unless the Trainer's order changed): scout afresh
        return None

    def _next_slots(self, inputs: list, G: int) -> list[str] | None:
        """The next step's slot tasks, when its scouts may run during this step (see `scout_ahead`); else None."""
        args = self.args
        if not args.scout_ahead or args.fork_from == "start" or not self.model.training or self._peek is None:
            return None
        every = args.steps_per_generation * self.num_iterations  # dataloader batches per rollout
        if every != args.gradient_accumulation_steps:
            return None
        nxt = self.state.global_step + 1  # the step whose rollout follows this one
        if nxt >= self.state.max_steps or (args.stop_after_step and nxt >= args.stop_after_step):
            return None  # the run ends (or stops to be resumed) first
        # the Trainer's own schedule (TrainerState: a fraction in the arguments is a number of steps here)
        save_steps, eval_steps = getattr(self.state, "save_steps", 0), getattr(self.state, "eval_steps", 0)
        if args.save_strategy == "steps" and save_steps and nxt % save_steps == 0:
            return None  # a checkpoint comes first: the resumed run must scout for itself, as this one does
        if args.eval_strategy == "steps" and eval_steps and nxt % eval_steps == 0:
            return None  # an evaluation (and with save_strategy 'best', maybe a checkpoint) comes first
        batch = self._peek.after(inputs, every)
        if batch is None:  # the epoch ends first (or the batch is not one the buffer handed out)
            return None
        return [batch[i]["task_id"] for i in range(0, len(batch), G)]

    def _generate_and_score_completions(self, inputs):
        self._batch_inputs = inputs  # rollout_func only sees the prompts; it needs the task ids
        deferred = self._is_ratio_deferred()
        if deferred:  # TRL then skips its forward for old_per_token_logps; _compute_loss makes the ratio
            self.vllm_importance_sampling_correction = False
        try:
            return super()._generate_and_score_completions(inputs)
        finally:
            self._batch_inputs = None
            if deferred:
                self.vllm_importance_sampling_correction = True

    def _is_ratio_deferred(self) -> bool:
        """Whether vLLM's importance-sampling ratio is made from the loss forward's logprobs instead of TRL's extra
        forward (`is_ratio_from_loss_forward`; reterm/training/is_ratio.py)."""
        return (self.args.is_ratio_from_loss_forward and self.use_vllm and self.vllm_importance_sampling_correction
                and self.loss_type != "vespo" and is_ratio.on_policy(self.args, self.num_iterations))

    def _rollout(self, prompts, trainer) -> dict:
        inputs = self._batch_inputs
        if inputs is None or len(inputs) != len(prompts):
            raise RuntimeError("ReTerm rollout called outside _generate_and_score_completions")
        G = self.num_generations if self.model.training else self.num_generations_eval
        if len(inputs) % G:
            raise RuntimeError(f"{len(inputs)} rollouts is not a multiple of the group size {G}")
        slots = [inputs[i]["task_id"] for i in range(0, len(inputs), G)]
        for i in range(0, len(inputs), G):
            if len({x["task_id"] for x in inputs[i:i + G]}) != 1:
                raise RuntimeError("a group's rollouts span different tasks; per-process batches must hold whole "
                                   "groups (see ReTermGRPOConfig)")
        t0 = time.monotonic()
        self._timings = Timings()
        if self.use_vllm:
            self._check_vllm_sync()  # TRL synced the weights just before calling the rollout
        training = self.model.training  # evaluate() rolls out in eval mode: G, loss normaliser, metrics follow it
        scouted = self._take_scouted(slots) if training else None
        try:
            ahead = self._next_slots(inputs, G)
            with self._generator() as gen, self._progress_bar(len(slots), gen, training) as progress:
                rollout = Rollout(self.args, self.tasks, self.backend, gen, self.processing_class.eos_token_id,
                                  (self.args.seed, self.state.global_step, self.accelerator.process_index),
                                  self._timings, progress)
                try:
                    groups = rollout.run(slots, G, scouted=scouted, ahead=ahead)
                    if ahead:
                        self._scouted = (self.state.global_step + 1, ahead, rollout.ahead)
                        rollout.ahead = []
                    gen.check()
                    gen.drain()  # other processes may still be in collective generation rounds
                finally:
                    self.model.train(training)
                    self._failed_generation_rounds = gen.failed_rounds
        except BaseException:
            _release(scouted or [])  # those `run` never took over (releasing a taken one does nothing)
            self._drop_scouted()
            raise
        self._log_rollout(groups, rollout.stats, time.monotonic() - t0, gen)
        for i, g in enumerate(groups):  # a refilled group may run another task: TRL logs this prompt with it
            for row in inputs[i * G:(i + 1) * G]:
                row["prompt"][:] = task_row(self.tasks[g.task_id])["prompt"]
        out = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_mask": [], "reterm_reward": [],
               "reterm_category": [], "reterm_task": []}
        for g in groups:
            for a in g.attempts:
                out["prompt_ids"].append(a.prompt_ids)
                out["completion_ids"].append(a.completion_ids)
                out["logprobs"].append(a.logprobs)
                out["env_mask"].append(a.env_mask)
                out["reterm_reward"].append(a.reward)
                out["reterm_category"].append(g.category)
                out["reterm_task"].append(g.task_id)
        return out

    @contextmanager
    def _progress_bar(self, slots: int, gen, training: bool):
        """A line under the Trainer's bar while a step's rollout runs: episodes finished of those planned, scouts and
        attempts (passed), groups made (with a learning signal), refills, sampled tokens against the step's budget.
        Only on the main process, and not with `disable_tqdm`."""
        from tqdm.auto import tqdm

        show = self.accelerator.is_main_process and not self.args.disable_tqdm
        step = self.state.global_step + 1
        bar = tqdm(total=0, desc=f"step {step} rollout" if training else "eval rollout", unit="episode",
                   position=1, leave=False, dynamic_ncols=True, disable=not show)
        budget = self.args.token_budget_per_step
        last = [0.0]

        def on_change(p: RolloutProgress) -> None:
            now = time.monotonic()
            if now - last[0] < 0.5 and p.finished < p.planned:
                return
            last[0] = now
            bar.total, bar.n = p.planned, p.finished
            bar.set_postfix_str(
                f"scouts {p.scouts} ({p.scouts_passed} passed), attempts {p.attempts} ({p.attempts_passed} passed), "
                f"groups {p.groups}/{p.slots} ({p.mixed} with signal), refills {p.refills}, tokens "
                f"{gen.generated_tokens}" + (f"/{budget}" if budget else ""), refresh=False)
            bar.refresh()

        try:
            yield RolloutProgress(slots, on_change if show else None)
        finally:
            bar.close()

    def training_step(self, model, inputs, num_items_in_batch):
        t0 = time.monotonic()
        self._rollout_s = 0.0
        loss = super().training_step(model, inputs, num_items_in_batch)
        self._metrics["train"]["reterm/time_step_s"].append(time.monotonic() - t0)
        self._metrics["train"]["reterm/time_train_s"].append(time.monotonic() - t0 - self._rollout_s)
        return loss

    def _get_per_token_logps_and_entropies(self, model, input_ids, attention_mask, logits_to_keep, batch_size=None,
                                           compute_entropy=False, compute_aux_loss=False, **kwargs):
        out = self._logps_and_entropies(model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy,
                                        compute_aux_loss, **kwargs)
        rows, self._is_rows = self._is_rows, None
        if rows is not None:  # the loss forward of a micro-batch whose correction is made here (_compute_loss)
            self._set_is_ratio(rows, out[0])
        return out

    def _set_is_ratio(self, rows: dict, logps: torch.Tensor) -> None:
        """The micro-batch's importance-sampling ratio from its loss forward's logprobs, into `rows` before TRL's
        loss reads it, and TRL's sampling metrics for those rows."""
        mask = rows["completion_mask"] if "tool_mask" not in rows else rows["completion_mask"] * rows["tool_mask"]
        r = is_ratio.ratio(logps, rows["sampling_per_token_logps"], mask, self.vllm_importance_sampling_mode,
                           self.vllm_importance_sampling_clip_min, self.vllm_importance_sampling_clip_max)
        rows["importance_sampling_ratio"] = r
        mode = "train" if self.model.training else "eval"
        is_ratio.log_stats(self._metrics[mode], self.accelerator.gather, logps, rows["sampling_per_token_logps"],
                           mask, r, self.vllm_importance_sampling_mode)

    def _logps_and_entropies(self, model, input_ids, attention_mask, logits_to_keep, batch_size=None,
                             compute_entropy=False, compute_aux_loss=False, **kwargs):
        parent = super()._get_per_token_logps_and_entropies
        if self._shared_prefix_applies(model, compute_aux_loss, kwargs):
            def full(ids, mask):
                logps, entropies, _ = parent(model, ids, mask, logits_to_keep, compute_entropy=compute_entropy)
                return logps, entropies

            checkpointing = getattr(self.accelerator.unwrap_model(model), "is_gradient_checkpointing", False)
            out = shared_prefix_logps(model, input_ids, attention_mask, logits_to_keep, compute_entropy,
                                      self.accelerator.autocast, full, batch_size,
                                      checkpoint=checkpointing and torch.is_grad_enabled(),
                                      keep_activations_bytes=self.args.keep_activations_mb * 2 ** 20)
            if out is not None:
                return out[0], out[1], None
        return parent(model, input_ids, attention_mask, logits_to_keep, batch_size, compute_entropy,
                      compute_aux_loss, **kwargs)

    def _compute_loss(self, model, inputs):
        cut = self._signal_rows(inputs)
        rows, factor = (inputs, 1.0) if cut is None else cut[:2]
        if cut is not None:
            mode = "train" if self.model.training else "eval"
            self._metrics[mode]["reterm/loss_rows"].append(cut[2] / inputs["advantages"].size(0))
        if (self.use_vllm and self.vllm_importance_sampling_correction and "importance_sampling_ratio" not in rows
                and "sampling_per_token_logps" in rows):  # generated with the ratio deferred to this forward
            rows = dict(rows)
            self._is_rows = rows  # the first logps forward below (the loss's) fills in the ratio
        try:
            loss = super()._compute_loss(model, rows)
        finally:
            self._is_rows = None
        return loss if factor == 1.0 else loss * factor

    def _signal_rows(self, inputs):
        """The micro-batch on its rows with a gradient (`skip_zero_advantage_rows`; reterm/training/signal_rows.py),
        or None for TRL's loss on every row."""
        if (not self.args.skip_zero_advantage_rows or self.beta != 0.0 or self._entropy_bonus_enabled
                or self.top_entropy_quantile < 1.0 or self.aux_loss_enabled or self.args.use_liger_kernel):
            return None
        return signal_rows(inputs, self.loss_type)

    def _shared_prefix_applies(self, model, compute_aux_loss, kwargs) -> bool:
        if not self.args.shared_prefix_forward or compute_aux_loss or any(v is not None for v in kwargs.values()):
            return False
        # several processes, DeepSpeed, FSDP: their wrappers' hooks expect one forward per backward
        if self.accelerator.num_processes > 1 or self.is_deepspeed_enabled or self.is_fsdp_enabled:
            return False
        return full_attention_only(self.accelerator.unwrap_model(model))

    # -- generation ------------------------------------------------------------------------------------------------
    def _generator(self) -> LockstepGenerator:
        """The rollout's lockstep generator over the trained model; closing it undoes what generation set up."""
        args = self.args
        # the distribution TRL's loss assumes: temperature-scaled logits, no top-k cut unless one is set
        sampling = SamplingConfig(max_new_tokens=args.max_new_tokens_per_turn, temperature=args.temperature,
                                  top_p=args.top_p, top_k=args.top_k or 0)
        seed = hash((args.seed, self.state.global_step, self.accelerator.process_index)) & 0x7FFFFFFF
        name = getattr(self.model.config, "_name_or_path", "policy")

        def lockstep(fn, cleanup=None):
            fn = self._timings.timed("generate", fn)
            mode = self._collective_generation()
            if mode is not None:
                fn = CollectiveRounds(fn, gather_object, [self.processing_class.eos_token_id],
                                      equal_sizes=mode == "gather")
            return LockstepGenerator(fn, self.processing_class, sampling, name, seed, cleanup=cleanup,
                                     max_failed_rounds=args.max_failed_generation_rounds,
                                     failed_rounds=self._failed_generation_rounds)

        if self._generate_many is not None:
            self.model.eval()
            return lockstep(self._generate_many)
        if self.use_vllm:
            # TRL's vLLM generation caps a call at max_completion_length; a call here is one turn
            self.vllm_generation.max_completion_length = args.max_new_tokens_per_turn
            return lockstep(self._vllm_generate_many)
        with ExitStack() as cleanup:
            unwrapped = cleanup.enter_context(unwrap_model_for_generation(
                self.model_wrapped, self.accelerator, gather_deepspeed3_params=args.ds3_gather_for_generation))
            # One policy per rollout: its KV cache (reterm/agent/kvcache.py) lets the G forks of a failure state
            # reuse their scout's states for the shared history, and it must not outlive the next weight update.
            # Off under ZeRO-3/FSDP ('synced'): each process's cache hits differ, so would their forward counts.
            synced = self._collective_generation() == "synced"
            policy = TransformersPolicy(name, sampling, max_batch=1 << 30, model=unwrapped,
                                        tokenizer=self.processing_class, kv_cache_tokens=0 if synced else None)
            cleanup.callback(policy.close)  # runs before the unwrap is undone; drops the KV cache
            return lockstep(policy.generate_many, cleanup.pop_all())

    def _collective_generation(self) -> str | None:
        """How generation ties the processes together: 'gather' (TRL's vLLM server mode, or colocate with tensor
        parallelism: prompts gathered, answers sliced by process index), 'synced' (ZeRO-3/FSDP: transformers'
        `synced_gpus` runs every forward on every process), or None (each process generates alone)."""
        if self.accelerator.num_processes == 1:
            return None
        if self.use_vllm:
            gathers = self.args.vllm_mode == "server" or self.args.vllm_tensor_parallel_size > 1
            return "gather" if gathers else None
        if self._generate_many is not None:
            return getattr(self._generate_many, "collective", None)
        ds = getattr(self.accelerator.state, "deepspeed_plugin", None)
        if self.is_fsdp_enabled or (ds is not None and ds.zero_stage == 3):
            return "synced"
        return None

    def _check_vllm_sync(self) -> None:
        """After a weight sync: vLLM must score the probe completion as the trained model does (`vllm_sync_check`;
        reterm/training/vllm_sync.py). Colocate mode on one tensor-parallel rank; not under ZeRO-3/FSDP (sharded
        parameters) nor in server mode (the engine is elsewhere)."""
        args = self.args
        if (not args.vllm_sync_check or args.vllm_mode != "colocate" or args.vllm_tensor_parallel_size > 1
                or self.is_deepspeed_enabled or self.is_fsdp_enabled
                or self._sync_checked_step == self._last_loaded_step):
            return
        from reterm.training.vllm_sync import sync_logprob_diff

        self._sync_checked_step = self._last_loaded_step
        diff = sync_logprob_diff(self.vllm_generation.llm, self.accelerator.unwrap_model(self.model),
                                 self.processing_class, self.accelerator.autocast)
        self._metrics["train" if self.model.training else "eval"]["reterm/vllm_sync_logprob_diff"].append(diff)
        if diff > args.vllm_sync_tolerance:
            raise RuntimeError(
                f"vLLM's weights do not match the trained model's after the sync of step {self._last_loaded_step}: "
                f"mean |logprob difference| {diff:.4f} on a probe completion, above vllm_sync_tolerance "
                f"{args.vllm_sync_tolerance}. vLLM would sample from other weights than those being trained; a "
                f"bfloat16 engine beside a float32 model may need a larger tolerance, a broken sync a bug report.")

    def _vllm_generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        """One lockstep round through TRL's vLLM path (colocate or server)."""
        _, completion_ids, logprobs, _ = self.vllm_generation.generate(prompts=prompts, images=None,
                                                                       num_generations=1)
        eos = set(self.eos_token_ids)
        out = []
        for ids, lps in zip(completion_ids, logprobs):
            lp = [(x[0] if isinstance(x, list) else x) for x in lps]
            lp = [float("nan") if v is None else v for v in lp]
            finish = "stop" if ids and ids[-1] in eos else "length"
            out.append(Generation(self.processing_class.decode(ids, skip_special_tokens=True), list(ids), lp, finish))
        return out

    # -- logging ---------------------------------------------------------------------------------------------------
    def _log_rollout(self, groups: list[Group], stats: RolloutStats, rollout_s: float,
                     gen: LockstepGenerator) -> None:
        m = self._metrics["train" if self.model.training else "eval"]
        seconds = self._timings.seconds
        gen_s = seconds.get("generate", 0.0)
        self._rollout_s += rollout_s
        m["reterm/time_rollout_s"].append(rollout_s)
        m["reterm/time_generate_s"].append(gen_s)
        m["reterm/time_sandbox_s"].append(max(0.0, rollout_s - gen_s))
        m["reterm/time_fork_s"].append(seconds.get("fork", 0.0))
        m["reterm/time_snapshot_s"].append(seconds.get("snapshot", 0.0))
        m["reterm/flat_group_fraction"].append(sum(g.flat for g in groups) / max(1, len(groups)))
        m["reterm/refills"].append(stats.refills)
        m["reterm/infra_failures"].append(stats.infra)
        m["reterm/scouts"].append(stats.scouts)
        m["reterm/scouts_ahead"].append(stats.scouts_ahead)
        m["reterm/scouted_ahead_slots"].append(stats.scouted)
        m["reterm/scout_pass_rate"].append(stats.scouts_passed / stats.scouts if stats.scouts else 0.0)
        m["reterm/sampled_tokens"].append(gen.generated_tokens)  # the step's budget used: scouts and refills count
        if self.args.token_budget_per_step is not None:
            m["reterm/token_budget"].append(self.args.token_budget_per_step)
        valid = [a for g in groups for a in g.attempts if a.reward is not None]
        # the completion columns the loss forward runs: sampled tokens and the observations between turns (TRL's
        # completions/*_length count the sampled ones only)
        widths = [len(a.completion_ids) for g in groups for a in g.attempts]
        if widths:
            m["reterm/completion_width_mean"].append(sum(widths) / len(widths))
            m["reterm/completion_width_max"].append(max(widths))
        m["reterm/attempt_pass_rate"].append(sum(a.passed for a in valid) / len(valid) if valid else 0.0)
        # how attempts end: by declaring the task done, or by the turn limit. The tests score both alike, so a policy
        # can drift into never stopping (and breaking what it fixed) with no reward telling it; this shows it
        m["reterm/attempt_done_rate"].append(sum(a.declared_done for a in valid) / len(valid) if valid else 0.0)
        if passing := [a for a in valid if a.passed]:
            m["reterm/passed_done_rate"].append(sum(a.declared_done for a in passing) / len(passing))
        per_cat = defaultdict(list)
        for g in groups:
            per_cat[g.category] += [a.passed for a in g.attempts if a.reward is not None]
        for cat, passed in per_cat.items():
            if passed:
                m[f"reterm/recovery_rate/{cat}"].append(sum(passed) / len(passed))
        self.last_groups = groups  # for tests and callers that want the raw groups
        self.last_rollout_stats = dict(asdict(stats), rollout_s=rollout_s, generate_s=gen_s)


def _release(scouted: list[Scouted]) -> None:
    for sc in scouted:
        sc.release()


class _Peekable:
    """The Trainer's epoch iterator with a look-ahead buffer: it yields the same batches in the same order, and
    `after(batch, n)` is the batch n places after `batch` (a batch it yielded, found by identity), read ahead from
    the iterator if need be; None past the epoch's end."""

    def __init__(self, source):
        self.source = source
        self._iter = iter(source)
        self._yielded: list = []  # the last few batches handed out
        self._buffer: list = []  # read ahead, not handed out yet
        self._done = False

    def __iter__(self):
        return self

    def __next__(self):
        batch = self._buffer.pop(0) if self._buffer else next(self._iter)
        self._yielded.append(batch)
        if len(self._yielded) > 4096:  # a step's batches are read at once: keep far more than one step's
            del self._yielded[:-1024]
        return batch

    def after(self, batch, n: int):
        pos = next((i for i in range(len(self._yielded) - 1, -1, -1) if self._yielded[i] is batch), None)
        if pos is None:
            return None
        ahead = n - (len(self._yielded) - 1 - pos)  # 1 = the next batch to hand out
        if ahead < 1:
            return self._yielded[pos + n]
        while len(self._buffer) < ahead and not self._done:
            try:
                self._buffer.append(next(self._iter))
            except StopIteration:
                self._done = True
        return self._buffer[ahead - 1] if len(self._buffer) >= ahead else None


def task_row(task) -> dict:
    """A dataset row for a task: the prompt TRL logs (the instruction) and the task id the rollout uses."""
    return {"prompt": [{"role": "user", "content": task.instruction.strip()}], "task_id": task.id}
