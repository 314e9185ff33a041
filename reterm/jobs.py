"""The job runner: every stage of a job config (recipes/configs/<model>/main_job.yaml, compare_job.yaml, ...) in
order, resumable, then the report. `recipes/main_job.py` is its command line; `scripts/train.sh` and
`scripts/compare.sh` run it.

Each stage is one command writing into its own folder under the run folder; the job state (`job.json` there) records,
per stage, a fingerprint of what it read — its command, the config files and model folders its command names, and the
run of every stage it reads — and whether it finished. A re-run skips the stages that finished with the same
fingerprint, continues an interrupted stage that `resumes` (data shards, trainer checkpoints), and starts over, saying
why, any stage whose fingerprint changed: outputs of different settings are never mixed (a model folder a finished
stage read that is gone stops the job). While a job runs, `job.pid` in its run folder holds its process id:
`kill -INT $(cat RUN_DIR/job.pid)` stops it as Ctrl-C does (the running stage within seconds, keeping what it
finished); the same command continues.

At the end the evaluation stages named in the config's `report` section are read into `runs/<date>/report.md` (one
table: pass@1 and recovery per category with 95% intervals) and `report.png`, and the table is printed.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.util
import json
import os
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import yaml

# A job's commands and config name files of the checkout (recipes/, scripts/, .venv/): they run from its root, and
# relative paths are read from there.
ROOT = Path(__file__).resolve().parent.parent
STATE = "job.json"
PINNED_CODE = "code"  # the run folder's clone of the pinned commit (reterm/code_pin.py), the job's root when pinned
PID_FILE = "job.pid"
PACE_MIN_SECONDS = 300  # only stages expected to take at least this long set the pace the ETAs are scaled by

CONFIG_FILES = (".yaml", ".yml", ".toml")  # files a command names whose content is part of what a stage reads
REF = re.compile(r"\{([A-Za-z_][\w]*)\}")
# What a stage recorded under an earlier name of the same thing, so that a rename alone redoes nothing (a finished
# comparison arm is hours of compute): programs moved with their behaviour kept, and config keys renamed to the name
# the installed transformers reads, with the same meaning.
RENAMED_PROGRAMS = {"benchmarks/compare_grpo.py": "recipes/compare.py"}
RENAMED_KEYS = {"gradient_checkpointing": "activation_checkpointing"}


def machine_tag() -> str:
    """This machine as stage times depend on it: the CPU's model name and the cores this process may use. A stage
    records it when it finishes; ETAs take the pace of stages finished on the same kind of machine."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware")):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import platform

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{model or platform.machine()}, {cores} cores"


class JobError(Exception):
    """Bad configuration or a stage that failed; the message names the file, key or stage."""


@dataclass
class Stage:
    name: str
    about: str
    cmd: str
    quick: str = ""
    resumes: bool = False
    minutes: float = 1.0
    quick_minutes: float | None = None
    inputs: list[str] = field(default_factory=list)  # the stages it reads


@dataclass
class Job:
    config: Path
    run_dir: Path
    quick: bool
    settings: dict[str, str]
    stages: list[Stage]
    report: dict[str, list[str] | dict[str, str]]
    selections: list[str] = field(default_factory=list)  # what each task selection is, for the report

    def stage(self, name: str) -> Stage:
        return next(s for s in self.stages if s.name == name)

    def estimate(self, stage: Stage) -> float:
        """The stage's expected seconds on the reference machine (before this machine's pace)."""
        if self.quick:
            return 60 * (stage.quick_minutes if stage.quick_minutes is not None else 0.15 * stage.minutes)
        return 60 * stage.minutes


# -- configuration -------------------------------------------------------------------------------------------------
def _choose_engine(engine: str) -> str:
    if engine == "auto":
        return "vllm" if importlib.util.find_spec("vllm") is not None else "transformers"
    if engine not in ("vllm", "transformers"):
        raise JobError(f"engine must be auto, vllm or transformers, got {engine!r}")
    if engine == "vllm" and importlib.util.find_spec("vllm") is None:
        raise JobError("engine: vllm, but vLLM is not installed in this Python (scripts/setup.sh installs it where the "
                       "CPU supports it: RETERM_VLLM=1); set engine: transformers")
    return engine


def _task_selection(name: str, spec, quick: int | None, run_dir: Path, where: str,
                    write: bool = True) -> tuple[str, str, str]:
    """The command-line arguments selecting a task set (`{NAME}`), the same as one word (`{NAME_set}`, what `reterm
    eval-sets --tasks NAME=...` takes: S:P, or the folder) and a line saying what it is (for the report): `--suite S
    --split P`; with `per_family: N` (or QUICK) a folder holding copies of the first N instances (by id) of each
    family of that split (with QUICK: the first task of each of the first `quick` families). `write=False` (a plan)
    names the folder without making it."""
    if not isinstance(spec, dict) or "suite" not in spec:
        raise JobError(f"{where}: tasks.{name} must be a mapping with suite (and split, per_family), got {spec!r}")
    bad = set(spec) - {"suite", "split", "per_family"}
    if bad:
        raise JobError(f"{where}: tasks.{name}: unknown key(s) {sorted(bad)}; known: suite, split, per_family")
    suite, split = str(spec["suite"]), str(spec.get("split", "all"))
    from reterm import suites

    if suite in suites.names() and split not in suites.SPLITS:  # a folder of tasks has no splits to check
        raise JobError(f"{where}: tasks.{name}.split {split!r} is not a split; choose {', '.join(suites.SPLITS)}")
    per_family = spec.get("per_family")
    if per_family is not None and (not isinstance(per_family, int) or isinstance(per_family, bool) or per_family < 1):
        raise JobError(f"{where}: tasks.{name}.per_family must be a whole number >= 1, got {per_family!r}")
    if not quick and not per_family:
        return (f"--suite {shlex.quote(suite)} --split {split}", shlex.quote(f"{suite}:{split}"),
                f"`{name}`: {suite} / {split}, every task")
    from reterm.options import select_tasks

    try:
        tasks = select_tasks((), suite, split)
    except ValueError as e:  # TaskError too: an unknown suite or split, a task that does not load, no tasks
        raise JobError(f"{where}: tasks.{name}: {e}") from None
    chosen: dict[str, list] = {}
    for t in sorted(tasks, key=lambda t: t.id):
        family = t.metadata.get("family") or t.id
        if quick:
            if family not in chosen and len(chosen) < quick:
                chosen[family] = [t]
        elif len(chosen.setdefault(family, [])) < per_family:
            chosen[family].append(t)
    folder = run_dir / "tasks" / name
    if write:
        from reterm.sandbox.resources import link_or_copy

        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for ts in chosen.values():
            for t in ts:  # its own copy: a stage run by hand still finds it once the checkout is gone
                shutil.copytree(t.path.resolve(), folder / t.path.name, symlinks=True, copy_function=link_or_copy)
    n = sum(len(v) for v in chosen.values())
    what = (f"the first {per_family} instance(s) of each of its {len(chosen)} families" if not quick
            else f"the first task of {len(chosen)} families (QUICK)")
    return (f"--suite {shlex.quote(str(folder))}", shlex.quote(str(folder)),
            f"`{name}`: {suite} / {split}, {what}: {n} of {len(tasks)} tasks")


def _read_config(config: Path, quick: bool, overrides: list[str]) -> tuple[dict, dict[str, str]]:
    """The config's raw mapping and its settings (shared, own, QUICK's, then the `--set` overrides, the engine
    chosen); nothing is written."""
    where = str(config)
    try:
        raw = yaml.safe_load(config.read_text())
    except FileNotFoundError:
        raise JobError(f"{config}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:  # a folder, unreadable, not text
        raise JobError(f"{config}: cannot be read as a job config ({e.__class__.__name__}: {e})") from None
    except yaml.YAMLError as e:
        raise JobError(f"{config}: not valid YAML: {e}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("stages"), dict) or not raw["stages"]:
        raise JobError(f"{where}: needs a `stages` mapping of stage name -> {{about, cmd, ...}}")
    known = {"run_dir", "quick_run_dir", "model", "engine", "quick_engine", "tasks", "quick_tasks", "stages",
             "settings", "quick_settings", "settings_from", "report", "pin_code"}
    unknown = set(raw) - known
    if unknown:
        raise JobError(f"{where}: unknown key(s) {sorted(unknown)}; known: {sorted(known)}")
    if not isinstance(raw.get("pin_code", False), bool):
        raise JobError(f"{where}: pin_code must be true or false, got {raw['pin_code']!r}")
    settings = {}
    if raw.get("settings_from"):  # another job's settings, shared (this file's own come after and win)
        base = config.parent / str(raw["settings_from"])
        try:
            shared = yaml.safe_load(base.read_text())
        except (OSError, yaml.YAMLError) as e:
            raise JobError(f"{where}: settings_from {raw['settings_from']}: {e}") from None
        if not isinstance(shared, dict) or not isinstance(shared.get("settings") or {}, dict):
            raise JobError(f"{where}: settings_from {raw['settings_from']}: no `settings` mapping there")
        settings.update({k: "" if v is None else str(v) for k, v in (shared.get("settings") or {}).items()})
    for key in ("settings", "quick_settings", "tasks", "report"):
        if raw.get(key) is not None and not isinstance(raw[key], dict):
            raise JobError(f"{where}: {key} must be a mapping of name -> value, got {raw[key]!r}")
    settings.update({k: "" if v is None else str(v) for k, v in (raw.get("settings") or {}).items()})
    # QUICK's values of some settings: toy sizes where a stage's `quick` arguments cannot go (before a `--`)
    quick_settings = raw.get("quick_settings") or {}
    strays = sorted(set(quick_settings) - set(settings)) if isinstance(quick_settings, dict) else quick_settings
    if strays:
        raise JobError(f"{where}: quick_settings must map settings of `settings` to their QUICK values; wrong: "
                       f"{strays!r}")
    if quick:
        settings.update({k: "" if v is None else str(v) for k, v in quick_settings.items()})
    settings["model"] = str(raw.get("model", "smollm2-135m"))
    settings["engine"] = str(raw.get("quick_engine" if quick else "engine", raw.get("engine", "auto")))
    for item in overrides:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise JobError(f"--set {item!r}: expected NAME=VALUE")
        settings[key] = value
    settings["engine"] = _choose_engine(settings["engine"])
    if settings["engine"] == "vllm" and not settings.get("vllm_args"):
        settings["vllm_args"] = "--use_vllm true --vllm_mode colocate"
    if not settings.get("engine_batch"):  # vLLM pages its cache; transformers pads a batch to its longest prompt
        settings["engine_batch"] = "64" if settings["engine"] == "vllm" else "16"
    return raw, settings


def _run_dir(raw: dict, settings: dict[str, str], run_dir: str | None, quick: bool) -> Path:
    """Where the job's stages write: `--run-dir`, RETERM_RUN_DIR, a `run_dir` setting, the config's (quick_)run_dir;
    relative to the checkout's root. Takes `run_dir` out of the settings (it is no stage's argument)."""
    rd = Path(run_dir or os.environ.get("RETERM_RUN_DIR") or
              settings.pop("run_dir", None) or raw.get("quick_run_dir" if quick else "run_dir") or "runs/main")
    return rd if rd.is_absolute() else ROOT / rd


def job_home(config: Path, quick: bool = False, run_dir: str | None = None,
             overrides: list[str] = ()) -> tuple[Path, bool]:
    """The job's run folder and whether its config asks for its code pinned (`pin_code: true`; not with QUICK, whose
    toy runs are no one's evidence), read without writing anything: what recipes/main_job.py needs before it runs
    the job, perhaps from the pinned code (reterm/code_pin.py)."""
    raw, settings = _read_config(config, quick, overrides)
    return _run_dir(raw, settings, run_dir, quick), bool(raw.get("pin_code", False)) and not quick


def load_job(config: Path, quick: bool = False, run_dir: str | None = None,
             overrides: list[str] = (), write: bool = True) -> Job:
    """The job of `config`; JobError naming the file and key when it is malformed. With `write=False` (a plan)
    nothing is written: the run folder and its task selections are named, not made."""
    where = str(config)
    raw, settings = _read_config(config, quick, overrides)
    rd = _run_dir(raw, settings, run_dir, quick)
    stages: list[Stage] = []
    for name, spec in raw["stages"].items():
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise JobError(f"{where}: stage name {name!r}: letters, digits and _ only")
        if name == PINNED_CODE:
            raise JobError(f"{where}: stage name {name!r} is taken: RUN/{PINNED_CODE}/ holds a pinned job's code")
        if not isinstance(spec, dict) or not spec.get("cmd"):
            raise JobError(f"{where}: stage {name} needs a `cmd`")
        bad = set(spec) - {"about", "cmd", "quick", "resumes", "minutes", "quick_minutes"}
        if bad:
            raise JobError(f"{where}: stage {name}: unknown key(s) {sorted(bad)}")
        for key in ("minutes", "quick_minutes"):
            value = spec.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
                raise JobError(f"{where}: stage {name}: {key} must be a number of minutes, got {value!r}")
        if not isinstance(spec.get("resumes", False), bool):
            raise JobError(f"{where}: stage {name}: resumes must be true or false, got {spec['resumes']!r}")
        stages.append(Stage(name, str(spec.get("about", "")), " ".join(str(spec["cmd"]).split()),
                            " ".join(str(spec.get("quick") or "").split()), bool(spec.get("resumes", False)),
                            float(spec.get("minutes", 1.0)),
                            float(spec["quick_minutes"]) if spec.get("quick_minutes") is not None else None))
    names = {s.name for s in stages}
    clash = names & set(settings)
    if clash:
        raise JobError(f"{where}: {sorted(clash)} name both a stage and a setting")
    tasks = raw.get("tasks") or {}
    quick_n = int(raw.get("quick_tasks", 4)) if quick else None
    if write:
        rd.mkdir(parents=True, exist_ok=True)
    selections = []
    for tname, spec in tasks.items():
        if f"{tname}_set" in settings or f"{tname}_set" in names:
            raise JobError(f"{where}: {tname}_set names a setting or stage, and it is task selection {tname}'s one-word "
                           f"form; rename one of them")
        settings[tname], settings[f"{tname}_set"], said = _task_selection(tname, spec, quick_n, rd, where, write)
        selections.append(said)
    for key, value in settings.items():
        unknown_refs = {r for r in REF.findall(value) if r not in settings and r not in names}
        if unknown_refs:
            raise JobError(f"{where}: setting {key}: {sorted('{' + r + '}' for r in unknown_refs)} is neither a stage "
                           f"nor a setting")

    def named(text: str) -> set[str]:  # every `{...}` in text and in the settings it names, and theirs
        refs, todo = set(), REF.findall(text)
        while todo:
            r = todo.pop()
            if r not in refs:
                refs.add(r)
                if r in settings and r not in names:
                    todo += REF.findall(settings[r])
        return refs

    seen: set[str] = set()
    for s in stages:
        refs = named(s.cmd + " " + s.quick)
        s.inputs = sorted({r for r in refs if r in names} - {s.name})
        for r in s.inputs:
            if r not in seen:
                raise JobError(f"{where}: stage {s.name} reads stage {r}, which does not run before it")
        missing = {r for r in refs if r not in names and r not in settings and r != "out"}
        if missing:
            raise JobError(f"{where}: stage {s.name}: {sorted('{' + m + '}' for m in missing)} is neither a stage "
                           f"nor a setting")
        seen.add(s.name)
    report = raw.get("report") or {}
    from reterm.evaluation.report import MEASURES

    for label, spec in report.items():
        if isinstance(spec, dict):
            bad = [f"{m}: {st}" for m, st in spec.items()
                   if m not in MEASURES or not isinstance(st, str) or st.split("/")[0] not in names]
            if bad or not spec:
                raise JobError(f"{where}: report.{label}: each of {', '.join(MEASURES)} names a stage of the job "
                               f"(or a folder in one: STAGE/SET); "
                               f"wrong: {bad or 'nothing named'}")
        elif not (isinstance(spec, list) and len(spec) == 2 and all(p in names for p in spec)):
            raise JobError(f"{where}: report.{label} must be [pass@1 stage, recovery stage] or a mapping of "
                           f"{', '.join(MEASURES)} to stages of the job")
    return Job(config, rd, quick, settings, stages, {str(k): v for k, v in report.items()}, selections)


def resolve(job: Job, stage: Stage) -> list[str]:
    """The stage's command as an argument list, every `{...}` filled in."""
    values = {**job.settings, **{s.name: str(job.run_dir / s.name) for s in job.stages},
              "out": str(job.run_dir / stage.name)}
    text = stage.cmd + (" " + stage.quick if job.quick and stage.quick else "")
    for _ in range(5):  # settings may name settings
        new = REF.sub(lambda m: values[m.group(1)], text)
        if new == text:
            break
        text = new
    return shlex.split(text)


# -- state -----------------------------------------------------------------------------------------------------------
def _load_state(run_dir: Path) -> dict:
    path = run_dir / STATE
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise JobError(f"{path}: not valid JSON ({e}); delete it to start the job over") from None


def _save_state(run_dir: Path, state: dict) -> None:
    tmp = run_dir / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, run_dir / STATE)


_STAMPS: dict[tuple, str] = {}  # (weights file, size, mtime) -> content hash, once a process


def _model_stamp(folder: Path) -> str | None:
    """A hash of a model folder's weights (None when the folder holds no model): a model made elsewhere (another
    job's stage, e.g. the compare job's start) that is made again changes it; a copy of the same weights does not."""
    weights = sorted(folder.glob("*.safetensors")) + sorted(folder.glob("pytorch_model*.bin"))
    if not (folder / "config.json").is_file() or not weights:
        return None
    h = hashlib.sha256()
    for w in weights:
        st = w.stat()
        key = (str(w.resolve()), st.st_size, st.st_mtime_ns)
        if key not in _STAMPS:
            d = hashlib.sha256()
            with open(w, "rb") as f:
                while chunk := f.read(1 << 24):
                    d.update(chunk)
            _STAMPS[key] = d.hexdigest()
        h.update(f"{w.name}:{_STAMPS[key]};".encode())
    return h.hexdigest()[:16]


def fingerprint(job: Job, stage: Stage, state: dict) -> tuple[str, dict]:
    """A hash of what the stage reads, and its parts (to say what changed): the command, the content of every config
    file (.yaml, .yml, .toml) the command names outside the run folder, the weights of every model folder it names
    outside the run folder, and the run id of every stage it reads. The pinned code (RUN/code/, the job's root when
    pinned) is not the run folder's: a config file read from there counts as the checkout's would, so pinning a job
    redoes none of its stages."""
    argv = resolve(job, stage)
    files, models = {}, {}
    code = job.run_dir / PINNED_CODE
    for a in argv[1:]:
        try:
            p = Path(a).expanduser()
            p = p if p.is_absolute() else ROOT / p
            if (job.run_dir == p or job.run_dir in p.parents) and code not in p.parents:
                continue
            if p.suffix in CONFIG_FILES and p.is_file():
                files[a] = hashlib.sha256(p.read_bytes()).hexdigest()[:16]
            elif p.is_dir() and (stamp := _model_stamp(p)):
                models[a] = stamp
        except (OSError, ValueError):  # an argument no file can be named by (too long, a NUL)
            continue
    parts = {"command": " ".join(argv), "files": files,
             "stages": {i: state.get(i, {}).get("run") for i in stage.inputs}}
    if models:  # only where there are any: the fingerprints of jobs that name no model folder stay as they were
        parts["models"] = models
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16], parts


def _models_gone(old: dict, new: dict) -> list[str]:
    """The model folders a stage read when it ran that hold no model now (deleted, or not made yet on this machine):
    a reason to stop, never to wipe what the stage made."""
    if old.get("command") != new["command"]:  # pointed elsewhere: the stage is redone from the new folder
        return []
    return [m for m in old.get("models", {}) if m not in new.get("models", {})]


def _renamed_only(old: dict, new: dict) -> bool:
    """Whether what a stage read differs from its record only by renames: a program of RENAMED_PROGRAMS in its
    command, a key of RENAMED_KEYS in a config file it names. The same input under its current names: nothing to
    redo (moving a program or renaming a deprecated key must not wipe finished work)."""
    if not old or old.get("stages") != new["stages"] or old.get("models", {}) != new.get("models", {}) or \
            set(old.get("files", {})) != set(new["files"]):
        return False

    def current(token: str) -> str:
        for before, after in RENAMED_PROGRAMS.items():
            if token == before or token.endswith("/" + before):
                return token[:len(token) - len(before)] + after
        return token

    if " ".join(current(t) for t in old.get("command", "").split(" ")) != new["command"]:
        return False
    for name, digest in new["files"].items():
        if old["files"][name] == digest:
            continue
        path = Path(name).expanduser()
        try:
            text = (path if path.is_absolute() else ROOT / path).read_text()
        except (OSError, UnicodeDecodeError):
            return False
        for before, after in RENAMED_KEYS.items():  # the file as it read before the rename
            text = re.sub(rf"^(\s*){after}:", rf"\g<1>{before}:", text, flags=re.M)
        if hashlib.sha256(text.encode()).hexdigest()[:16] != old["files"][name]:
            return False
    return old != new


def _what_changed(old: dict, new: dict) -> str:
    if old.get("command") != new["command"]:
        return "its command changed"
    changed = [f for f in new["files"] if old.get("files", {}).get(f) != new["files"][f]]
    if changed:
        return f"{', '.join(changed)} changed"
    redone = [s for s in new["stages"] if old.get("stages", {}).get(s) != new["stages"][s]]
    if redone:
        return f"{', '.join(redone)} ran again"
    remade = [m for m in new.get("models", {}) if old.get("models", {}).get(m) != new["models"][m]]
    if remade:
        return f"the model in {', '.join(remade)} was made again"
    return "what it reads changed"


def _fmt_minutes(seconds: float) -> str:
    if seconds < 90:
        return f"{int(seconds)} s"
    m = int(round(seconds / 60))
    return f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


# -- running ---------------------------------------------------------------------------------------------------------
class Runner:
    def __init__(self, job: Job, out=sys.stdout, until: str | None = None):
        self.job = job
        names = [s.name for s in job.stages]
        if until is not None and until not in names:
            raise JobError(f"--until {until}: {job.config} has no such stage; its stages: {', '.join(names)}")
        self.stages = job.stages[:names.index(until) + 1] if until else job.stages  # what this invocation runs
        self.out = out
        self.state = _load_state(job.run_dir)
        self._log = None  # job.log, opened at the first line said: a plan writes nothing
        # the pace: seconds of the stages run whole, and their estimate; first those this run folder finished
        # earlier on the same kind of machine (what a resumed job's ETAs go by), then this invocation's own
        self.machine = machine_tag()
        self.earlier = {s.name: (st["seconds"], job.estimate(s)) for s in job.stages
                        if (st := self.state.get(s.name, {})).get("status") == "done" and st.get("seconds")
                        and st.get("machine") == self.machine and job.estimate(s) >= PACE_MIN_SECONDS}
        self.measured = sum(sec for sec, _ in self.earlier.values())
        self.estimated = sum(est for _, est in self.earlier.values())

    @property
    def log(self):
        if self._log is None:
            self.job.run_dir.mkdir(parents=True, exist_ok=True)
            self._log = open(self.job.run_dir / "job.log", "a", buffering=1)
        return self._log

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)
        self.log.write(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} {text}\n")

    def forget_earlier(self, redo: set[str]) -> None:
        """A stage to run again sets the pace by its new run, not by the one recorded."""
        for name in redo & set(self.earlier):
            sec, est = self.earlier.pop(name)
            self.measured -= sec
            self.estimated -= est

    def pace(self) -> float:
        """Measured / estimated time of the stages run whole so far (those expected to take at least
        PACE_MIN_SECONDS: a stage of seconds finishing in none would scale every ETA to nothing): how this machine
        compares to the estimates."""
        return self.measured / self.estimated if self.estimated else 1.0

    def pending(self) -> set[str]:
        """The stages a run would start or redo (`plan`'s actions other than done)."""
        return {s.name for s, action, _ in self.plan() if action != "done"}

    def left(self, from_index: int, redo: set[str] = frozenset()) -> float:
        """Expected seconds of the stages from `from_index` on that are not done, and of those in `redo`."""
        todo = [s for s in self.stages[from_index:]
                if self.state.get(s.name, {}).get("status") != "done" or s.name in redo]
        return sum(self.job.estimate(s) for s in todo) * self.pace()

    def plan(self) -> list[tuple[Stage, str, str]]:
        """(stage, action, why) for every stage: action is done, run, continue or redo."""
        rows = []
        runs = {k: v.get("run") for k, v in self.state.items()}
        for s in self.stages:
            st = self.state.get(s.name, {})
            fp, parts = fingerprint(self.job, s, {k: {"run": v} for k, v in runs.items()})
            if st and st.get("fingerprint") != fp and _renamed_only(st.get("parts", {}), parts):
                st = {**st, "fingerprint": fp}  # recorded under earlier names: the same input
            if not st:
                rows.append((s, "run", "not run yet"))
                runs[s.name] = f"new-{s.name}"
            elif st.get("fingerprint") != fp and (gone := _models_gone(st.get("parts", {}), parts)):
                rows.append((s, "missing", f"the model in {', '.join(gone)} it read is gone; make it again first"))
            elif st.get("fingerprint") != fp:
                rows.append((s, "redo", _what_changed(st.get("parts", {}), parts)))
                runs[s.name] = f"new-{s.name}"
            elif st.get("status") == "done":
                rows.append((s, "done", f"finished {st.get('finished', '?')} in {_fmt_minutes(st.get('seconds', 0))}"))
            elif s.resumes:
                rows.append((s, "continue", "interrupted; it continues where it stopped"))
            else:
                rows.append((s, "redo", "interrupted; it starts over"))
        return rows

    def run(self) -> int:
        job = self.job
        n = len(self.stages)
        name = job.config.stem.replace("_", " ")  # "main job", "compare job"
        self.say(f"{name}{' (QUICK: toy sizes)' if job.quick else ''}: {n} stages -> {job.run_dir}  "
                 f"(engine {job.settings['engine']}, model {job.settings['model']}, config {job.config})")
        started = time.monotonic()
        redo = self.pending()  # for the ETA: stages done once but to run again
        self.forget_earlier(redo)
        for i, s in enumerate(self.stages):
            st = self.state.get(s.name, {})
            fp, parts = fingerprint(job, s, self.state)
            if st and st.get("fingerprint") != fp and _renamed_only(st.get("parts", {}), parts):
                st.update(fingerprint=fp, parts=parts)  # recorded under earlier names: the same input, kept
                _save_state(job.run_dir, self.state)
            out_dir = job.run_dir / s.name
            if st.get("fingerprint") == fp and st.get("status") == "done":
                self.say(f"[{i + 1}/{n}] {s.name}: done ({_fmt_minutes(st.get('seconds', 0))}), skipped")
                continue
            gone = _models_gone(st.get("parts", {}), parts) if st and st.get("fingerprint") != fp else []
            if gone:
                raise JobError(f"stage {s.name} read the model in {', '.join(gone)}, which holds no model now (no "
                               f"config.json and weights): make it again, or point the setting at it; what the stage "
                               f"made is kept")
            if st and st.get("fingerprint") != fp:
                self.say(f"[{i + 1}/{n}] {s.name}: redone from scratch: {_what_changed(st.get('parts', {}), parts)} "
                         f"since it ran")
                st = {}
                shutil.rmtree(out_dir, ignore_errors=True)
            elif st and not s.resumes:
                self.say(f"[{i + 1}/{n}] {s.name}: interrupted last time; it starts over")
                shutil.rmtree(out_dir, ignore_errors=True)
                st = {}
            elif st:
                self.say(f"[{i + 1}/{n}] {s.name}: continuing where it stopped")
            elif out_dir.exists() and any(out_dir.iterdir()):  # files no run of this job recorded: never mixed in
                self.say(f"[{i + 1}/{n}] {s.name}: {out_dir} holds files this job has no record of; cleared")
                shutil.rmtree(out_dir)
            fresh = not st  # a stage that continues says little about this machine's pace
            est = job.estimate(s) * self.pace()
            self.say(f"[{i + 1}/{n}] {s.name}: {s.about}  (about {_fmt_minutes(est)}; the job has about "
                     f"{_fmt_minutes(self.left(i, redo))} left)")
            argv = resolve(job, s)
            out_dir.mkdir(parents=True, exist_ok=True)
            self.say("    $ " + shlex.join(argv))
            # the machines its segments ran on; None once a segment's is unknown (recorded before they were)
            ran_on = None if st and "ran_on" not in st else st.get("ran_on", [])
            st = {**st, "fingerprint": fp, "parts": parts, "status": "running",
                  "ran_on": None if ran_on is None else sorted({*ran_on, self.machine}),
                  "started": st.get("started") or f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S}"}
            self.state[s.name] = st
            _save_state(job.run_dir, self.state)
            t0, cpu0 = time.monotonic(), _children_cpu()
            rc = self._execute(argv)
            seconds = time.monotonic() - t0
            st["seconds"] = st.get("seconds", 0) + seconds
            st["cpu_seconds"] = round(st.get("cpu_seconds", 0) + _children_cpu() - cpu0, 1)  # the stage's processes
            if rc != 0:
                _save_state(job.run_dir, self.state)
                if rc in (-signal.SIGINT, 130, -signal.SIGTERM, 143) or _interrupted:
                    self.say(f"stopped during {s.name}; run the same command again to continue "
                             f"({'it continues' if s.resumes else 'that stage starts over'})")
                    return 130
                raise JobError(f"stage {s.name} failed (exit {rc}); its command is above. Fix the cause and run the "
                               f"job again: finished stages are kept")
            if fresh and job.estimate(s) >= PACE_MIN_SECONDS:  # a stage of seconds says nothing of the pace
                self.measured += seconds
                self.estimated += job.estimate(s)
            st.update(status="done", run=uuid.uuid4().hex[:12],  # its machine, where every segment ran on it
                      machine=self.machine if st.get("ran_on") == [self.machine] else None,
                      finished=f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S}")
            _save_state(job.run_dir, self.state)
            self.say(f"[{i + 1}/{n}] {s.name}: finished in {_fmt_minutes(seconds)}")
        total = sum(self.state[s.name].get("seconds", 0) for s in self.stages)
        cpu = sum(self.state[s.name].get("cpu_seconds", 0) for s in self.stages)
        self.say(f"all {n} stages done; this run {_fmt_minutes(time.monotonic() - started)}, the stages' wall time "
                 f"in all {_fmt_minutes(total)} ({_fmt_minutes(cpu)} of CPU)")
        return 0

    def _execute(self, argv: list[str]) -> int:
        """Runs one stage's command in a process group of its own, so that a Ctrl-C reaches it once, from here (sent
        to that whole group, however the job was told to stop): the stages stop on the first SIGINT, keeping what
        they finished (a second one would make them exit at once)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        try:
            proc = subprocess.Popen(argv, cwd=ROOT, env=env, process_group=0)
        except FileNotFoundError:
            raise JobError(f"{argv[0]}: no such program (run scripts/setup.sh first)") from None
        try:
            return proc.wait()
        except KeyboardInterrupt:
            global _interrupted
            _interrupted = True
            self.say("stopping: the stage keeps what it finished (up to 3 minutes) ...")
            try:  # the whole group, as a terminal's Ctrl-C would: a launcher's children (the trainer) hear it too
                os.killpg(proc.pid, signal.SIGINT)
            except ProcessLookupError:
                pass
            try:
                return _wait_ignoring_interrupts(proc, 180)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                return proc.wait()


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (a stage's command and what it started and waited for)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _wait_ignoring_interrupts(proc: subprocess.Popen, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except KeyboardInterrupt:  # more Ctrl-C while the stage saves: it has had its one
            continue


_interrupted = False


def _on_term(signum, frame):  # SIGTERM to the job: stop the stage the way Ctrl-C does
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


CHECKOUT_ENV = "RETERM_CHECKOUT"  # set by recipes/main_job.py for a pinned job: the checkout it was started from


def default_report_dir(quick: bool) -> Path:
    """Where a job's report goes unless told: runs/<date> (runs/<date>-quick; the date the job ends) in the checkout
    (the one a pinned job was started from, not its copy)."""
    root = Path(os.environ.get(CHECKOUT_ENV) or ROOT)
    return root / "runs" / (f"{datetime.date.today():%Y-%m-%d}" + ("-quick" if quick else ""))


def run_job(config: Path, quick: bool = False, run_dir: str | None = None, overrides: list[str] = (),
            report_dir: Path | None = None, plan: bool = False, until: str | None = None) -> int:
    """Loads the job and runs it (or, with `plan`, says what would run and why); the exit status: 0 done, 2 a bad
    config or a failed stage (said on stderr), 130 stopped (run the same command again to continue)."""
    try:
        job = load_job(config, quick, run_dir, overrides, write=not plan)
        runner = Runner(job, until=until)
        if plan:
            for s, action, why in runner.plan():
                print(f"{action:>8}  {s.name:<14} {why}")
            pending = runner.pending()
            runner.forget_earlier(pending)
            pace = (f"; {runner.pace():.2g}x the estimates, the pace of the {len(runner.earlier)} stage(s) finished "
                    f"there on this kind of machine" if runner.earlier else "")
            print(f"about {_fmt_minutes(runner.left(0, pending))} of stages left (run folder {job.run_dir}"
                  f"{pace})")
            return 0
        signal.signal(signal.SIGTERM, _on_term)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background (`&`),
        # where the shell leaves SIGINT ignored
        with _pid_file(job.run_dir):
            rc = runner.run()
            if rc == 0 and job.report and not until:
                from reterm.evaluation.report import write_report

                folder = report_dir or default_report_dir(job.quick)
                notes = "Tasks: " + "; ".join(job.selections) + "." if job.selections else ""
                current = {s.name: runner.state[s.name] for s in job.stages if s.name in runner.state}  # not
                # the stages an earlier version of the config had, which job.json still records
                table, paths = write_report(job.report, job.run_dir, folder, current, job.quick, notes)
                runner.say("")
                print(table)
                runner.log.write(table + "\n")
                runner.say("report: " + "  ".join(str(p) for p in paths))
                models = [s.name for s in job.stages if (job.run_dir / s.name / "config.json").exists()]
                runner.say("models: " + "  ".join(str(job.run_dir / m) for m in models))
        return rc
    except JobError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped; run the same command again to continue", file=sys.stderr)
        return 130


def refuse_if_running(run_dir: Path) -> None:
    """JobError when another live job holds `run_dir`'s pid file (one not this process)."""
    path = Path(run_dir) / PID_FILE
    try:
        other = int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    if other != os.getpid() and _alive(other):
        raise JobError(f"{path}: the job with process id {other} is running in this run folder; stop it "
                       f"(kill -INT {other}) or wait for it. If no job runs there, delete {path}")


class _pid_file:
    """`job.pid` in the run folder while the job runs: the process to signal (`kill -INT $(cat RUN_DIR/job.pid)`)
    without matching command lines, which also stop other jobs. A second job in the same run folder is refused (the
    two would write the same stages); a file whose process is gone (a job killed outright) is taken over."""

    def __init__(self, run_dir: Path):
        self.path = run_dir / PID_FILE

    def __enter__(self):
        refuse_if_running(self.path.parent)
        tmp = self.path.with_name(PID_FILE + ".tmp")
        tmp.write_text(f"{os.getpid()}\n")
        os.replace(tmp, self.path)
        return self

    def __exit__(self, *exc):
        try:
            if int(self.path.read_text().split()[0]) == os.getpid():
                self.path.unlink()
        except (OSError, ValueError, IndexError):
            pass
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    try:  # a zombie (exited, not yet reaped) holds its id but runs nothing
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True
