"""ReTerm-GRPO's configuration: TRL's GRPOConfig plus the rollout's settings (the algorithm is in training/grpo.py).
Its own module, below the trainer and the rollout, which both read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from trl import GRPOConfig

from reterm.agent.episode import EpisodeConfig
from reterm.failures.fork_points import STRATEGIES as FORK_POINTS
from reterm.hardware import CpuPrecisionMixin
from reterm.options import BACKENDS, DEFAULT_SUITE, REPLY_TOKENS, SPLITS
from reterm.training.common import ActivationCheckpointingDefault, gradient_checkpointing_field

FORK_FROM = ("failure", "start")
ON_SUCCESS = ("start", "skip")
REWARD_MODES = ("binary", "partial")


@dataclass
class ReTermGRPOConfig(ActivationCheckpointingDefault, CpuPrecisionMixin, GRPOConfig):
    """GRPOConfig plus the rollout's settings. Invariants are checked in __post_init__. On a CPU, an unset `bf16`
    follows the processor (reterm.hardware), not TRL's default of True; activation checkpointing is set by its
    current name (reterm.training.common.ActivationCheckpointingDefault)."""

    gradient_checkpointing: bool | None = gradient_checkpointing_field()

    fork_from: str = field(default="failure", metadata={
        "help": "'failure': groups are recovery attempts forked from a failure state of a scout episode (ReTerm-GRPO); "
                "'start': groups start at the task start (plain multi-turn GRPO, the baseline)."})
    fork_point: str = field(default="first", metadata={
        "help": "Which failure state of a failed scout to fork from: first | last | random error turn, or final (the "
                "end state when the tests failed after the model said done; falls back to the last error)."})
    on_success: str = field(default="start", metadata={
        "help": "When the scout passes: 'start' runs a group from the task start, 'skip' takes another task."})
    refill_tries: int = field(default=1, metadata={
        "help": "How many times a group whose rewards are all equal (no signal) is redone, from another failure state "
                "or another task. 0 disables refills."})
    token_budget_per_step: int | None = field(default=None, metadata={
        "help": "Sampled tokens one process may spend on a step's rollout (scouts, the next step's scouts run ahead, "
                "attempts and refills all count): "
                "flat groups are redone (up to refill_tries) only while the budget is not spent. Give ReTerm-GRPO and "
                "plain GRPO the same value (and a generous refill_tries) to compare them at equal budget; the tokens "
                "used are logged as reterm/sampled_tokens. A round already started finishes, so a step can exceed "
                "the budget by one round of attempts. None: refill_tries alone decides."})
    max_failed_generation_rounds: int = field(default=3, metadata={
        "help": "Generation rounds that may fail in a row (their episodes become masked infra failures) before the "
                "step stops with the error."})
    max_scout_turns: int = field(default=6, metadata={"help": "Turn limit of the scout episode."})
    max_recovery_turns: int = field(default=3, metadata={
        "help": "Turn limit of each recovery attempt (and of each episode with fork_from: start)."})
    max_new_tokens_per_turn: int = field(default=REPLY_TOKENS, metadata={
        "help": "Tokens the policy may generate per turn (transformers and vLLM alike; max_completion_length caps "
                "the whole multi-turn completion)."})
    observation_tokens: int = field(default=256, metadata={"help": "Token budget of one observation."})
    max_context_tokens: int = field(default=2048, metadata={"help": "An episode ends when its context would exceed this."})
    command_timeout_s: float = field(default=30.0, metadata={"help": "Timeout of one command in the sandbox."})
    agent_format: str = field(default="simple", metadata={"help": "Reply format: simple | terminus2."})
    reward_mode: str = field(default="binary", metadata={
        "help": "'binary': 1 when the tests pass, else 0; 'partial': the verifier's reward value (reward.json)."})
    penalty_repeated_command: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt repeats a failing command unchanged (off at 0)."})
    penalty_false_completion: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt claims completion while the tests fail (off at 0)."})
    penalty_blind_kill: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt kills processes without first looking at them (ps/pgrep/top; off at 0)."})
    penalty_undeclared_pass: float = field(default=0.0, metadata={
        "help": "Subtracted when the tests pass but the attempt ran to its turn or context limit without declaring the "
                "task done (off at 0; 1 with binary rewards counts a pass only when the policy says it is done)."})
    sandbox_backend: str = field(default="local", metadata={"help": f"Sandbox backend: {' | '.join(BACKENDS)}."})
    sandbox_concurrency: int = field(default=16, metadata={"help": "Most sandboxes running episodes at once."})
    image_map: str | None = field(default=None, metadata={
        "help": "Docker image map 'FROM=TO,...' for task images that cannot be pulled (docker backend); added to "
                "RETERM_IMAGE_MAP."})
    suite: str = field(default=DEFAULT_SUITE, metadata={"help": "Bundled task suite, or a directory of task dirs."})
    suite_split: str = field(default="train", metadata={
        "help": f"Split of the bundled suite: {' | '.join(SPLITS)}."})
    shared_prefix_forward: bool = field(default=True, metadata={
        "help": "Run each group's shared prompt once in the loss forward (its key/value states repeated for the G "
                "completions) instead of G times; the same logprobs and gradient up to float rounding. Applies to "
                "one process (DDP, DeepSpeed and FSDP get TRL's forward; see reterm/training/shared_prefix.py)."})
    keep_activations_mb: float = field(default=4096, metadata={
        "help": "Under activation checkpointing, with shared_prefix_forward: a loss micro-batch whose activations are "
                "estimated at most this many MiB keeps them for the backward instead of recomputing its forward (the "
                "same gradient; 0.69x the forward and backward's time in float32 on a CPU, about 0.9 MB a token more "
                "memory for SmolLM2-135M); larger ones are recomputed as TRL's checkpointing does. 0: always "
                "recompute."})
    skip_zero_advantage_rows: bool = field(default=True, metadata={
        "help": "Run the loss forward and backward on the rows with a nonzero advantage only: a flat group's rows "
                "(and infra failures) add exactly nothing to the loss and its gradient without a KL term, an entropy "
                "bonus or an entropy mask, so the update is TRL's up to float rounding (reterm/training/"
                "signal_rows.py; loss types dapo, grpo, dr_grpo, bnpo; others, and those settings, get TRL's loss on "
                "every row)."})
    is_ratio_from_loss_forward: bool = field(default=True, metadata={
        "help": "use_vllm with vllm_importance_sampling_correction, one generation per optimizer step (num_iterations "
                "1): make the correction from the loss forward's own logprobs instead of TRL's extra forward over the "
                "generated batch, which then computes the same logprobs; the same loss and gradient up to float "
                "rounding, the sampling metrics measured on the loss rows (reterm/training/is_ratio.py)."})
    scout_ahead: bool = field(default=True, metadata={
        "help": "Run the next step's scouts during this step's first round of attempts, in the same generation batches "
                "(see the module docstring); off: each step scouts for itself first. Applies when one rollout serves "
                "one optimizer step (steps_per_generation x num_iterations = gradient_accumulation_steps); never "
                "across a checkpoint, an evaluation, an epoch's end or the last step."})
    vllm_sync_check: bool = field(default=True, metadata={
        "help": "use_vllm, colocate mode: after every weight sync, score a fixed probe completion with vLLM and with "
                "the trained model and log the mean |logprob difference| (reterm/vllm_sync_logprob_diff); above "
                "vllm_sync_tolerance the step stops with an error (a sync that was skipped, stale or broken). Not "
                "run under DeepSpeed ZeRO-3 or FSDP, whose parameters are sharded."})
    vllm_sync_tolerance: float = field(default=0.1, metadata={
        "help": "The largest mean |logprob difference| the sync check accepts: float32 engines agree to ~1e-5 "
                "(benchmarks/RESULTS.md); a bfloat16 engine beside a float32 model to a few hundredths."})
    stop_after_step: int = field(default=0, metadata={
        "help": "Stop after this optimizer step, its checkpoint saved, as an interruption would: the run continues "
                "with --resume_from_checkpoint true, on the schedule of max_steps (a run evaluated as it trains). "
                "0: train to max_steps."})
    docker_hosts: str | None = field(default=None, metadata={
        "help": "Docker backend: a pool of engines 'URL[=CAPACITY],...' (unix://, tcp:// with TLS from "
                "DOCKER_TLS_VERIFY/DOCKER_CERT_PATH, ssh://); default RETERM_DOCKER_HOSTS, else DOCKER_HOST."})

    def __post_init__(self):
        super().__post_init__()
        if self.docker_hosts:
            from reterm.sandbox.docker_engines import parse_docker_hosts

            parse_docker_hosts(self.docker_hosts, "docker_hosts")
        checks = [("fork_from", FORK_FROM), ("fork_point", FORK_POINTS), ("on_success", ON_SUCCESS),
                  ("reward_mode", REWARD_MODES), ("sandbox_backend", BACKENDS), ("suite_split", SPLITS)]
        for name, allowed in checks:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")
        for name in ("max_scout_turns", "max_recovery_turns", "max_new_tokens_per_turn", "observation_tokens",
                     "max_context_tokens", "sandbox_concurrency", "max_failed_generation_rounds"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1; got {getattr(self, name)}")
        if self.refill_tries < 0:
            raise ValueError(f"refill_tries must be >= 0; got {self.refill_tries}")
        if not self.keep_activations_mb >= 0:  # NaN too
            raise ValueError(f"keep_activations_mb must be >= 0 (0: always recompute); got {self.keep_activations_mb}")
        if self.stop_after_step < 0 or (self.max_steps > 0 and self.stop_after_step > self.max_steps):
            raise ValueError(f"stop_after_step must be between 0 (no stop) and max_steps = {self.max_steps}; "
                             f"got {self.stop_after_step}")
        if self.token_budget_per_step is not None and self.token_budget_per_step < 1:
            raise ValueError(f"token_budget_per_step must be >= 1 (or unset); got {self.token_budget_per_step}")
        if self.vllm_sync_tolerance <= 0:
            raise ValueError(f"vllm_sync_tolerance must be > 0; got {self.vllm_sync_tolerance}")
        if self.command_timeout_s <= 0:
            raise ValueError(f"command_timeout_s must be > 0; got {self.command_timeout_s}")
        for name in ("penalty_repeated_command", "penalty_false_completion", "penalty_blind_kill",
                     "penalty_undeclared_pass"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} is subtracted from the reward and must be >= 0; got {getattr(self, name)}")
        if self.num_generations < 2:
            raise ValueError("num_generations (G, the attempts forked per state) must be >= 2")
        per_process = self.per_device_train_batch_size * self.steps_per_generation
        if per_process % self.num_generations:
            raise ValueError(f"per_device_train_batch_size x steps_per_generation = {per_process} must be a multiple of "
                             f"num_generations = {self.num_generations}, so that every group's G attempts fork from "
                             f"one sandbox on one process")
        EpisodeConfig(format=self.agent_format)  # raises on an unknown format


def parse_grpo_args(argv: list[str] | None = None):
    """The GRPO recipe's settings from its command line (`--config YAML` and `--field value` pairs, TRL's parser):
    (ReTermGRPOConfig, TRL's ModelConfig). A setting TRL refuses is a RecipeError naming it."""
    from trl import ModelConfig, TrlParser

    from reterm.training.common import parse_recipe

    return parse_recipe(TrlParser((ReTermGRPOConfig, ModelConfig)), argv)
