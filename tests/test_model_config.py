"""The model a recipe trains is the one its settings describe: every field of TRL's ModelConfig (dtype,
attn_implementation, model_revision, 4/8-bit loading with its bnb_* fields, the LoRA fields) and the trainer config's
trust_remote_code and model_init_kwargs reach model loading in both recipes (recipes/sft.py, recipes/reterm_grpo.py
through reterm/training/common.py `load_recipe_model`), or stop the recipe with an error naming the field and what to
do. The shipped configs use the keys the installed TRL and transformers read, and the GPU configs say what has run on
a GPU. Tiny random models; nothing is downloaded."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import shutil
import sys
import warnings
from pathlib import Path

import pytest
import torch
import yaml
from trl import ModelConfig

from reterm.training import common
from reterm.training.common import RecipeError, load_recipe_model, model_load_kwargs

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "recipes" / "configs"
GPU_CONFIGS = sorted((CONFIGS / "qwen2.5-coder-7b-instruct").glob("*.yaml"))
GPU_LAUNCHERS = [ROOT / "recipes" / "accelerate" / n for n in ("single_gpu.yaml", "zero2.yaml", "zero3.yaml",
                                                                  "fsdp.yaml")]


def _module(name: str, path: Path):
    if name not in sys.modules:  # the dataclasses in a recipe need their module registered
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return sys.modules[name]


def _sft():
    return _module("reterm_sft_recipe", ROOT / "recipes" / "sft.py")


def _grpo():
    return _module("reterm_grpo_recipe", ROOT / "recipes" / "reterm_grpo.py")


class _Train:
    """The trainer-config fields the loader reads, without building a whole TrainingArguments."""

    def __init__(self, trust_remote_code=False, model_init_kwargs=None, use_vllm=False, vllm_mode="colocate"):
        self.trust_remote_code, self.model_init_kwargs = trust_remote_code, model_init_kwargs
        self.use_vllm, self.vllm_mode = use_vllm, vllm_mode


def _problems(train=None, **model) -> str:
    with pytest.raises(RecipeError) as e:
        model_load_kwargs(ModelConfig(**model), train or _Train())
    return str(e.value)


def test_every_field_of_trls_model_config_is_honoured_or_refused():
    """A field a newer TRL adds fails here until reterm/training/common.py handles it (loads it or refuses it)."""
    fields = {f.name for f in dataclasses.fields(ModelConfig)}
    assert fields == set(common.LOADING_FIELDS) | set(common.PEFT_FIELDS)


def test_dtype_and_attention_reach_the_model(tiny_model_dir):
    model, tok = load_recipe_model(ModelConfig(model_name_or_path=str(tiny_model_dir), dtype="bfloat16",
                                               attn_implementation="eager"), _Train())
    assert model.dtype == torch.bfloat16 and model.config._attn_implementation == "eager"
    assert tok.pad_token_id is not None
    model, _ = load_recipe_model(ModelConfig(model_name_or_path=str(tiny_model_dir), dtype="float32",
                                             attn_implementation="sdpa"), _Train())
    assert model.dtype == torch.float32 and model.config._attn_implementation == "sdpa"
    model, _ = load_recipe_model(ModelConfig(model_name_or_path=str(tiny_model_dir), dtype="auto"), _Train())
    assert model.dtype == torch.float32  # the checkpoint's own


def test_an_attention_that_cannot_load_is_refused_naming_the_field(tiny_model_dir):
    if importlib.util.find_spec("flash_attn") is None:
        msg = _problems(model_name_or_path=str(tiny_model_dir), attn_implementation="flash_attention_2")
        assert "attn_implementation flash_attention_2 needs the flash-attn package" in msg and "sdpa" in msg
    with pytest.raises(RecipeError, match="attn_implementation no_such_attention"):
        load_recipe_model(ModelConfig(model_name_or_path=str(tiny_model_dir), attn_implementation="no_such_attention"),
                          _Train())


CUSTOM_CONFIG = """
from transformers import LlamaConfig


class TinyCustomConfig(LlamaConfig):
    model_type = "reterm-tiny-custom"
"""
CUSTOM_MODEL = """
from transformers import LlamaForCausalLM

from .configuration_tiny import TinyCustomConfig


class TinyCustomForCausalLM(LlamaForCausalLM):
    config_class = TinyCustomConfig
"""


def test_trust_remote_code_reaches_the_model_and_without_it_the_refusal_names_it(tiny_model_dir, tmp_path):
    """A checkpoint that brings its own modelling code (its config's auto_map) loads only with the trainer config's
    trust_remote_code, which TRL also hands to vLLM."""
    custom = tmp_path / "custom"
    shutil.copytree(tiny_model_dir, custom)
    (custom / "configuration_tiny.py").write_text(CUSTOM_CONFIG)
    (custom / "modeling_tiny.py").write_text(CUSTOM_MODEL)
    cfg = json.loads((custom / "config.json").read_text())
    cfg.update(model_type="reterm-tiny-custom", architectures=["TinyCustomForCausalLM"],
               auto_map={"AutoConfig": "configuration_tiny.TinyCustomConfig",
                         "AutoModelForCausalLM": "modeling_tiny.TinyCustomForCausalLM"})
    (custom / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(RecipeError, match="set trust_remote_code: true if you trust it"):
        load_recipe_model(ModelConfig(model_name_or_path=str(custom)), _Train())
    model, _ = load_recipe_model(ModelConfig(model_name_or_path=str(custom)), _Train(trust_remote_code=True))
    assert type(model).__name__ == "TinyCustomForCausalLM"


def test_a_revision_reaches_a_hub_model_and_is_refused_where_nothing_can_read_it(tiny_model_dir):
    hub = "Qwen/Qwen2.5-Coder-7B-Instruct"
    kwargs = model_load_kwargs(ModelConfig(model_name_or_path=hub, model_revision="v1.1"), _Train())
    assert kwargs["revision"] == "v1.1"
    assert "revision" not in model_load_kwargs(ModelConfig(model_name_or_path=hub), _Train())  # main: the default
    msg = _problems(model_name_or_path=str(tiny_model_dir), model_revision="v1.1")
    assert f"model_revision v1.1: model_name_or_path {tiny_model_dir} is a local directory" in msg
    for name in ("smollm2-135m", "qwen2.5-coder-0.5b"):  # the names reterm.models materializes locally
        assert "is a local directory" in _problems(model_name_or_path=name, model_revision="v1.1")
    msg = _problems(_Train(use_vllm=True), model_name_or_path=hub, model_revision="v1.1")
    assert "TRL's vLLM engine loads" in msg and f"hf download {hub} --revision v1.1 --local-dir DIR" in msg
    assert model_load_kwargs(ModelConfig(model_name_or_path=hub, model_revision="v1.1"),
                             _Train(use_vllm=True, vllm_mode="server"))["revision"] == "v1.1"  # served by its own


def test_quantized_loading_reaches_bitsandbytes_or_is_refused_saying_what_to_do(monkeypatch):
    hub = "Qwen/Qwen2.5-Coder-7B-Instruct"
    msg = _problems(model_name_or_path=hub, load_in_4bit=True)
    assert "load_in_4bit: a quantized model trains only through LoRA adapters: set use_peft: true" in msg
    if importlib.util.find_spec("bitsandbytes") is None:
        msg = _problems(model_name_or_path=hub, load_in_8bit=True, use_peft=True)
        assert "load_in_8bit needs the bitsandbytes package, which is not installed: pip install bitsandbytes" in msg
    msg = _problems(model_name_or_path=hub, bnb_4bit_quant_type="fp4", use_bnb_nested_quant=True)
    assert "bnb_4bit_quant_type, use_bnb_nested_quant applies only to 4-bit loading: set load_in_4bit: true" in msg

    find_spec = importlib.util.find_spec  # as where bitsandbytes is installed (a CUDA machine)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "bitsandbytes" else find_spec(name, *a))
    kwargs = model_load_kwargs(ModelConfig(model_name_or_path=hub, use_peft=True, load_in_4bit=True, dtype="bfloat16",
                                           bnb_4bit_quant_type="fp4", use_bnb_nested_quant=True,
                                           bnb_4bit_quant_storage="uint8"), _Train())
    q = kwargs["quantization_config"]
    assert q.load_in_4bit and q.bnb_4bit_quant_type == "fp4" and q.bnb_4bit_use_double_quant
    assert q.bnb_4bit_quant_storage == torch.uint8 and q.bnb_4bit_compute_dtype == torch.bfloat16
    assert kwargs["device_map"] == ({"": 0} if torch.cuda.is_available() else None)
    kwargs = model_load_kwargs(ModelConfig(model_name_or_path=hub, use_peft=True, load_in_8bit=True), _Train())
    assert kwargs["quantization_config"].load_in_8bit


def test_lora_fields_without_use_peft_are_refused():
    msg = _problems(model_name_or_path="x/y", lora_r=8, lora_target_modules=["q_proj"], use_dora=True)
    assert "lora_r, lora_target_modules, use_dora set but use_peft is false: set use_peft: true" in msg


def test_model_init_kwargs_reach_the_model_unless_a_field_sets_the_same_thing(tiny_model_dir):
    model, _ = load_recipe_model(ModelConfig(model_name_or_path=str(tiny_model_dir)),
                                 _Train(model_init_kwargs={"use_cache": False}))
    assert model.config.use_cache is False
    for key, field in (("dtype", "dtype"), ("torch_dtype", "dtype"), ("revision", "model_revision"),
                       ("attn_implementation", "attn_implementation"), ("trust_remote_code", "trust_remote_code")):
        msg = _problems(_Train(model_init_kwargs={key: "x"}), model_name_or_path="x/y")
        assert f"model_init_kwargs.{key}: set by the field {field}; write it there instead" in msg
    assert "model_init_kwargs.device_map" in _problems(_Train(model_init_kwargs={"device_map": "auto"}),
                                                       model_name_or_path="x/y")


def _demos(tmp_path: Path, tokenizer) -> Path:
    """A two-row demonstrations dataset, as data_pipeline.build writes one (parquet under data/)."""
    from datasets import Dataset

    rows = [{"messages": [{"role": "system", "content": "You are an agent."},
                          {"role": "user", "content": f"Task {i}: list the files."},
                          {"role": "assistant", "content": "```bash\nls\n```"}],
             "trainable": [False, False, True]} for i in range(2)]
    out = tmp_path / "demos"
    (out / "data").mkdir(parents=True)
    Dataset.from_list(rows).to_parquet(str(out / "data" / "train-00000-of-00001.parquet"))
    return out


def test_the_sft_recipe_loads_the_model_its_settings_describe(tiny_model_dir, tokenizer, tmp_path, capsys):
    sft = _sft()
    base = ["--dataset_name", str(_demos(tmp_path, tokenizer)), "--model_name_or_path", str(tiny_model_dir),
            "--output_dir", str(tmp_path / "o"), "--report_to", "none", "--use_cpu", "true", "--eval_strategy", "no",
            "--load_best_model_at_end", "false", "--max_steps", "1", "--max_length", "512"]
    trainer, _ = sft.build_trainer(*sft.parse(base + ["--dtype", "bfloat16", "--attn_implementation", "eager",
                                                      "--model_init_kwargs", '{"use_cache": false}',
                                                      "--use_peft", "true", "--lora_r", "4",
                                                      "--lora_target_modules", "q_proj", "v_proj"]))
    model = trainer.model
    assert model.peft_config["default"].r == 4 and model.base_model.model.config._attn_implementation == "eager"
    assert model.base_model.model.config.use_cache is False
    assert {p.dtype for n, p in model.named_parameters() if "lora_" not in n} == {torch.bfloat16}
    for extra, needle in ((["--model_revision", "v2"], "model_revision v2: model_name_or_path"),
                          (["--lora_r", "8"], "lora_r set but use_peft is false"),
                          (["--dataset_streaming", "true"], "dataset_streaming: this recipe"),
                          (["--attn_implementation", "no_such_attention"], "attn_implementation no_such_attention"),
                          (["--colour", "red"], "colour")):
        assert sft.main(base + extra) == 2, extra
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err, err


def test_the_grpo_recipe_loads_the_model_its_settings_describe(tiny_model_dir, tmp_path, capsys):
    rec = _grpo()
    base = ["--model_name_or_path", str(tiny_model_dir), "--output_dir", str(tmp_path / "o"), "--report_to", "none",
            "--use_cpu", "true", "--num_generations", "2", "--per_device_train_batch_size", "2",
            "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1"]
    args, model_args = rec.parse(base + ["--dtype", "bfloat16", "--attn_implementation", "eager", "--use_peft",
                                         "true", "--lora_r", "4", "--lora_target_modules", "q_proj", "v_proj"])
    model = rec.build_trainer(args, model_args).model
    assert model.peft_config["default"].r == 4
    assert model.base_model.model.config._attn_implementation == "eager"
    assert {p.dtype for n, p in model.named_parameters() if "lora_" not in n} == {torch.bfloat16}
    for extra, needle in ((["--model_revision", "v2"], "model_revision v2: model_name_or_path"),
                          (["--load_in_4bit", "true"], "load_in_4bit: a quantized model trains only through LoRA"),
                          (["--attn_implementation", "no_such_attention"], "attn_implementation no_such_attention")):
        assert rec.main(base + extra) == 2, extra
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err, err


def test_a_lora_grpo_run_writes_its_adapter_and_a_merged_model(tiny_model_dir, tmp_path):
    """As the SFT recipe does: the adapter in output_dir, and output_dir/merged a plain model for `reterm eval`."""
    rec = _grpo()
    out = tmp_path / "o"
    argv = ["--model_name_or_path", str(tiny_model_dir), "--output_dir", str(out), "--report_to", "none",
            "--use_cpu", "true", "--num_generations", "2", "--per_device_train_batch_size", "2",
            "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1",
            "--max_steps", "1", "--save_strategy", "no", "--use_peft", "true", "--lora_r", "4",
            "--lora_target_modules", "q_proj", "v_proj"]
    assert rec.main(argv) == 0
    assert (out / "adapter_config.json").exists() and (out / "merged" / "config.json").exists()
    from transformers import AutoModelForCausalLM

    merged = AutoModelForCausalLM.from_pretrained(out / "merged")
    assert not any("lora_" in n for n, _ in merged.named_parameters())


def test_a_key_this_trl_no_longer_reads_is_refused_with_its_new_name(tmp_path, capsys):
    cfg = tmp_path / "old.yaml"
    cfg.write_text("torch_dtype: bfloat16\nwarmup_ratio: 0.1\nuse_cpu: true\n")
    for main in (_sft().main, _grpo().main):
        assert main(["--config", str(cfg), "--output_dir", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err
        assert "torch_dtype: not a setting of this TRL; write dtype" in err
        assert "warmup_ratio: not a setting of this TRL; write warmup_steps with a float below 1" in err


def test_bad_recipe_input_is_named_before_the_model_loads(tiny_model_dir, tokenizer, tmp_path, capsys,
                                                          monkeypatch):
    """Both recipes: a --config that is not YAML (or not a mapping), an output_dir that is a file, a dataset or
    model path under a folder of this checkout that does not exist (never sent to the Hub), a checkpoint whose
    trainer state does not read, and out-of-range sample sizes: exit 2 naming the file or field, with no model
    loaded for what can be known before it."""
    from reterm.training import common

    loaded = []
    real = common.load_recipe_model
    sft, rec = _sft(), _grpo()
    for module in (sft, rec):  # a model that loaded is counted
        monkeypatch.setattr(module, "load_recipe_model", lambda *a, **k: (r := real(*a, **k), loaded.append(1))[0])
    bad_yaml, a_list, afile = tmp_path / "bad.yaml", tmp_path / "list.yaml", tmp_path / "afile"
    bad_yaml.write_text("model_name_or_path: [unclosed\n")
    a_list.write_text("- a\n- b\n")
    afile.write_text("x")
    demos = str(_demos(tmp_path, tokenizer))
    base = ["--model_name_or_path", str(tiny_model_dir), "--report_to", "none", "--use_cpu", "true",
            "--eval_strategy", "no", "--load_best_model_at_end", "false", "--max_steps", "1", "--run_name", "[x"]
    monkeypatch.chdir(tmp_path)  # where data/ and checkpoints/ do not exist
    cases = [(sft.main, ["--config", str(bad_yaml)], f"--config {bad_yaml}: not valid YAML"),
             (rec.main, ["--config", str(a_list)], f"--config {a_list}: must be a mapping"),
             (sft.main, base + ["--dataset_name", demos, "--output_dir", str(afile)], "is a file, not a folder"),
             (rec.main, base + ["--output_dir", str(afile / "o")], "is a file, not a folder"),
             (sft.main, base + ["--dataset_name", "data/recovery-demos", "--output_dir", str(tmp_path / "o")],
              "dataset_name: data/recovery-demos does not exist"),
             (sft.main, base + ["--dataset_name", demos, "--output_dir", str(tmp_path / "o"),
                                "--max_train_examples", "0"], "max_train_examples must be at least 1"),
             (rec.main, ["--model_name_or_path", "checkpoints/sft-missing", "--output_dir", str(tmp_path / "g"),
                         "--report_to", "none", "--use_cpu", "true"], "checkpoints/sft-missing: not a checkpoint")]
    for main, argv, needle in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err, err
    assert not loaded  # each was refused before a model loaded
    (tmp_path / "o" / "checkpoint-5").mkdir(parents=True)
    (tmp_path / "o" / "checkpoint-5" / "trainer_state.json").write_text("{")  # a save cut off mid-write
    assert common.resume_checkpoint(True, str(tmp_path / "o")) is None  # passed over, with a warning
    with pytest.raises(RecipeError, match="not a whole checkpoint"):
        common.resume_checkpoint(str(tmp_path / "o" / "checkpoint-5"), str(tmp_path / "o"))


def test_activation_checkpointing_is_set_by_its_current_name_without_a_deprecation_warning(tmp_path):
    """TRL turns activation checkpointing on through the deprecated `gradient_checkpointing`, which warned on every
    run; unset, it is on without the warning; set either way by either name, it is what the config says."""
    from reterm.training.common import ReTermSFTConfig
    from reterm.training.config import ReTermGRPOConfig

    for cls in (ReTermSFTConfig, ReTermGRPOConfig):
        with warnings.catch_warnings():
            warnings.simplefilter("error", FutureWarning)
            assert cls(output_dir=str(tmp_path), use_cpu=True).activation_checkpointing is True
            off = cls(output_dir=str(tmp_path), use_cpu=True, activation_checkpointing=False)
            assert off.activation_checkpointing is False and off.gradient_checkpointing is False
        with pytest.warns(FutureWarning, match="`gradient_checkpointing` is deprecated"):
            old = cls(output_dir=str(tmp_path), use_cpu=True, gradient_checkpointing=False)
        assert old.activation_checkpointing is False


def _parse_config(path: Path):
    """A shipped config parsed by its recipe (GPU-only settings off: this check runs on any machine)."""
    cpu = ["--use_cpu", "true", "--bf16", "false"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if path.name.startswith("sft"):
            parsed = _sft().parse(["--config", str(path), *cpu])
        else:
            parsed = _grpo().parse(["--config", str(path), *cpu, "--use_vllm", "false"])
    deprecated = [str(w.message) for w in caught if "deprecat" in str(w.message).lower()
                  and ("transformers" in w.filename or "trl" in w.filename)]
    return parsed, deprecated


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*/sft*.yaml")) + sorted(CONFIGS.glob("*/*grpo*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shipped_recipe_configs_use_no_deprecated_key_and_every_model_field_loads(path):
    parsed, deprecated = _parse_config(path)
    assert not deprecated, deprecated
    model_args = next(x for x in parsed if isinstance(x, ModelConfig))
    training_args = parsed[1] if path.name.startswith("sft") else parsed[0]
    assert common.model_config_problems(model_args, training_args) == []


def test_the_single_gpu_configs_are_lora_with_vllm_colocated_and_the_rollout_of_the_8_gpu_one():
    scale = CONFIGS / "qwen2.5-coder-7b-instruct"
    (one, one_model), _ = _parse_config(scale / "reterm_grpo_1gpu.yaml")
    (eight, _), _ = _parse_config(scale / "reterm_grpo.yaml")
    raw = yaml.safe_load((scale / "reterm_grpo_1gpu.yaml").read_text())
    assert raw["use_vllm"] is True and raw["vllm_mode"] == "colocate" and raw["bf16"] is True
    assert one_model.use_peft and one_model.lora_r > 0 and one_model.lora_target_modules
    sft = yaml.safe_load((scale / "sft_1gpu.yaml").read_text())
    assert sft["use_peft"] is True and one_model.model_name_or_path == sft["output_dir"] + "/merged"
    for f in ("fork_from", "fork_point", "on_success", "refill_tries", "token_budget_per_step", "max_scout_turns",
              "max_recovery_turns", "max_new_tokens_per_turn", "observation_tokens", "max_context_tokens",
              "num_generations", "max_completion_length", "temperature", "loss_type", "beta", "max_steps"):
        assert getattr(one, f) == getattr(eight, f), f
    # one of the 8-GPU recipe's 7 training processes' share of a step
    assert one.per_device_train_batch_size * one.gradient_accumulation_steps == \
        eight.per_device_train_batch_size * eight.gradient_accumulation_steps


@pytest.mark.parametrize("path", GPU_CONFIGS + GPU_LAUNCHERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_gpu_config_says_what_has_run_on_a_gpu(path):
    head = path.read_text().split("\n", 3)
    assert head[0].startswith("# On a GPU: never") or head[0].startswith("# On a GPU: this file has never run"), head[0]
    assert "RESULTS.md" in "".join(head[:2])


def test_the_examples_start_vllm_as_the_gpu_configs_need_and_use_the_gpu_configs():
    """`trl vllm-serve` examples ask for the logprobs vllm_importance_sampling_correction reads; no example runs a
    CPU recipe on a GPU with --use_cpu false (the GPU configs are in recipes/configs/qwen2.5-coder-7b-instruct)."""
    files = [p for d in ("recipes", "scripts") for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".yaml", ".sh") and p.name != "README.md"]
    serve = [(p, line) for p in files for line in p.read_text().splitlines() if "trl vllm-serve" in line]
    assert serve
    for p, line in serve:
        assert "--logprobs-mode processed_logprobs" in line, (p, line)
    assert not [p for p in files if "--use_cpu false" in p.read_text()]
