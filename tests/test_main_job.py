"""The job runner (reterm/jobs.py, run by recipes/main_job.py): skip what is done, continue what resumes, redo (and
say why) what changed, stop on Ctrl-C or `kill -INT $(cat RUN_DIR/job.pid)` and continue after it, clear errors for
bad configs. The stages here are real commands
(small Python programs writing files); the whole job at toy size with a tiny model is the last test."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
JOB = ROOT / "recipes/main_job.py"

# a stage program: appends its name to a counter file (how often it ran), writes its output from its input
STEP = """
import sys, pathlib
out, name = pathlib.Path(sys.argv[1]), sys.argv[2]
src = sys.argv[3] if len(sys.argv) > 3 and not sys.argv[3].startswith("--") else None
out.mkdir(parents=True, exist_ok=True)
with open(out.parent / "runs.txt", "a") as f:
    f.write(name + "\\n")
text = (pathlib.Path(src, "data.txt").read_text() if src else "") + name + ";"
(out / "data.txt").write_text(text)
"""


def _config(tmp: Path, a_arg: str = "x", b_cmd: str | None = None, extra: str = "") -> Path:
    (tmp / "step.py").write_text(STEP)
    b = b_cmd or f"{{python}} {tmp}/step.py {{out}} b {{a}}"
    cfg = tmp / "job.yaml"
    cfg.write_text(f"""
run_dir: {tmp}/run
model: none
engine: transformers
stages:
  a:
    about: first
    cmd: "{{python}} {tmp}/step.py {{out}} a --unused {a_arg}"
  b:
    about: reads a
    cmd: "{b}"
  c:
    about: reads nothing
    cmd: "{{python}} {tmp}/step.py {{out}} c"
{extra}
settings:
  python: {sys.executable}
""")
    return cfg


def _run(cfg: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(JOB), "--config", str(cfg), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def _runs(tmp: Path) -> list[str]:
    f = tmp / "run" / "runs.txt"
    return f.read_text().split() if f.exists() else []


def test_stages_run_in_order_and_a_rerun_skips_them(tmp_path):
    cfg = _config(tmp_path)
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b", "c"]
    assert (tmp_path / "run/b/data.txt").read_text() == "a;b;"
    assert "[1/3] a: first" in p.stdout and "the job has about" in p.stdout
    p = _run(cfg)
    assert p.returncode == 0 and _runs(tmp_path) == ["a", "b", "c"]  # nothing ran again
    assert p.stdout.count("skipped") == 3
    state = json.loads((tmp_path / "run/job.json").read_text())
    assert {s["status"] for s in state.values()} == {"done"}


def test_each_stage_records_the_cpu_its_processes_used(tmp_path):
    """`cpu_seconds` in job.json: the CPU of the stage's command and of the processes it waited for (here a child
    that spins for 0.5 s of CPU), apart from the wall time."""
    spin = "import time; t = time.process_time()\nwhile time.process_time() - t < 0.5: pass"
    (tmp_path / "spin.py").write_text(
        f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {spin!r}], check=True)\n")
    cfg = _config(tmp_path, b_cmd=f"{{python}} {tmp_path}/spin.py")
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    state = json.loads((tmp_path / "run/job.json").read_text())
    assert state["b"]["cpu_seconds"] >= 0.5 > state["c"]["cpu_seconds"]
    assert all(0 <= st["cpu_seconds"] for st in state.values())
    assert "of CPU)" in p.stdout.splitlines()[-1]


def test_a_changed_stage_is_redone_with_the_stages_that_read_it_and_says_why(tmp_path):
    _run(_config(tmp_path))
    cfg = _config(tmp_path, a_arg="y")  # a's command changed; b reads a; c does not
    plan = _run(cfg, "--plan")
    assert "redo" in plan.stdout and "its command changed" in plan.stdout
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b", "c", "a", "b"]
    assert "a: redone from scratch: its command changed" in p.stdout
    assert "b: redone from scratch: a ran again" in p.stdout
    assert "c: done" in p.stdout


def test_a_changed_file_named_by_the_command_redoes_the_stage(tmp_path):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("lr: 1\n")
    cfg = _config(tmp_path, a_arg=str(recipe))
    _run(cfg)
    recipe.write_text("lr: 2\n")
    p = _run(cfg)
    assert f"a: redone from scratch: {recipe} changed" in p.stdout
    assert _runs(tmp_path).count("a") == 2


def test_a_model_made_again_outside_the_run_redoes_the_stages_that_name_it(tmp_path):
    """A start model from another job (the compare job's `start`, the main job's sft2) made again under the same
    path is new input: the stage naming it is redone, and so is the stage reading that one. The same weights
    rewritten (a copy) are not; a model folder that is gone stops the job and wipes nothing."""
    model = tmp_path / "start"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"0" * 100)
    cfg = _config(tmp_path, a_arg=str(model))
    _run(cfg)
    state = json.loads((tmp_path / "run/job.json").read_text())
    assert list(state["a"]["parts"]["models"]) == [str(model)]
    assert "models" not in state["c"]["parts"]  # a stage naming no model keeps the fingerprint it always had
    time.sleep(0.01)
    (model / "model.safetensors").write_bytes(b"0" * 100)  # the same weights, a new modification time
    p = _run(cfg)
    assert _runs(tmp_path) == ["a", "b", "c"], p.stdout  # unchanged: skipped
    (model / "model.safetensors").write_bytes(b"1" * 100)
    p = _run(cfg)
    assert f"a: redone from scratch: the model in {model} was made again" in p.stdout
    assert _runs(tmp_path) == ["a", "b", "c", "a", "b"]
    (model / "model.safetensors").unlink()
    assert "missing" in _run(cfg, "--plan").stdout
    p = _run(cfg)
    assert p.returncode == 2 and f"stage a read the model in {model}, which holds no model now" in p.stderr
    assert (tmp_path / "run/a/data.txt").exists() and _runs(tmp_path) == ["a", "b", "c", "a", "b"]


def test_an_argument_no_file_could_have_as_its_name_is_only_an_argument(tmp_path):
    p = _run(_config(tmp_path, a_arg="y" * 300))  # longer than a file name may be: no such file, no crash
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b", "c"]


def test_until_runs_the_stages_up_to_one_and_the_whole_job_continues_from_there(tmp_path):
    cfg = _config(tmp_path)
    p = _run(cfg, "--until", "b")
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b"]
    assert "c" not in json.loads((tmp_path / "run/job.json").read_text())
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b", "c"]  # a and b skipped
    p = _run(cfg, "--until", "nope")
    assert p.returncode == 2 and "--until nope" in p.stderr and "a, b, c" in p.stderr


def test_a_failing_stage_stops_the_job_naming_it_and_keeps_what_finished(tmp_path):
    cfg = _config(tmp_path, b_cmd="{python} -c 'raise SystemExit(3)'")
    p = _run(cfg)
    assert p.returncode == 2
    assert "stage b failed (exit 3)" in p.stderr
    assert _runs(tmp_path) == ["a"]
    fixed = _config(tmp_path)
    p = _run(fixed)
    assert p.returncode == 0
    assert "b: redone from scratch: its command changed" in p.stdout
    assert _runs(tmp_path) == ["a", "b", "c"]


@pytest.mark.parametrize("text, needle", [
    ("stages: {}\n", "needs a `stages` mapping"),
    ("stages:\n  a: {about: x}\n", "stage a needs a `cmd`"),
    ("stages:\n  a: {cmd: 'echo {nope}'}\n", "{nope}"),
    ("stages:\n  a: {cmd: 'echo {b}'}\n  b: {cmd: 'echo'}\n", "reads stage b, which does not run before it"),
    ("stages:\n  a: {cmd: echo, cmnd: x}\n", "unknown key(s) ['cmnd']"),
    ("colour: red\nstages:\n  a: {cmd: echo}\n", "unknown key(s) ['colour']"),
    ("stages: [\n", "not valid YAML"),
    ("settings: {args: '-x {nothing}'}\nstages:\n  a: {cmd: 'echo {args}'}\n", "setting args: ['{nothing}']"),
    ("settings_from: gone.yaml\nstages:\n  a: {cmd: echo}\n", "settings_from gone.yaml"),
    ("settings_from: bad.yaml\nsettings: [x]\nstages:\n  a: {cmd: echo}\n",  # itself: a list, no mapping
     "settings_from bad.yaml: no `settings` mapping"),
    ("settings: {size: '1'}\nquick_settings: {sise: '2'}\nstages:\n  a: {cmd: 'echo {size}'}\n",
     "quick_settings must map settings of `settings` to their QUICK values; wrong: ['sise']"),
    ("pin_code: 'yes'\nstages:\n  a: {cmd: echo}\n", "pin_code must be true or false, got 'yes'"),
    ("stages:\n  code: {cmd: echo}\n", "stage name 'code' is taken"),
    ("stages:\n  a: {cmd: echo, minutes: soon}\n", "stage a: minutes must be a number of minutes, got 'soon'"),
    ("stages:\n  1: {cmd: echo}\n", "stage name 1: letters, digits and _ only"),
    ("settings: [a, b]\nstages:\n  a: {cmd: echo}\n", "settings must be a mapping of name -> value"),
    ("tasks:\n  t: {suite: basic, split: bogus}\nstages:\n  a: {cmd: echo}\n", "tasks.t.split 'bogus' is not a split"),
])
def test_bad_config_is_refused_naming_the_file_and_key(tmp_path, text, needle):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(f"run_dir: {tmp_path}/run\nengine: transformers\n" + text)
    p = _run(cfg)
    assert p.returncode == 2
    assert str(cfg) in p.stderr and needle in p.stderr
    assert not (tmp_path / "run" / "job.json").exists()


def test_per_family_selects_the_first_instances_of_every_family_and_the_report_says_so(tmp_path):
    """`tasks.NAME.per_family: N`: a folder holding copies of the first N instances (by id) of each family of the
    split, which stay readable when the checkout they came from is gone."""
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"""
run_dir: {tmp_path}/run
engine: transformers
tasks:
  held: {{suite: basic, split: heldout_families, per_family: 1}}
stages:
  a: {{cmd: "{sys.executable} -c 'import sys; print(sys.argv[1:])' {{held}}"}}
""")
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    links = sorted(x.name for x in (tmp_path / "run" / "tasks" / "held").iterdir())
    from reterm import suites

    held = suites.load("basic", "heldout_families")
    families = {t.family for t in held}
    assert len(links) == len(families) >= 20 and all(x.endswith("-00") for x in links)
    first = tmp_path / "run" / "tasks" / "held" / links[0]
    assert not first.is_symlink() and (first / "task.toml").read_bytes() == \
        (suites.suite_dir("basic") / "tasks" / links[0] / "task.toml").read_bytes()
    from reterm.jobs import load_job

    job = load_job(cfg)
    assert job.selections == [f"`held`: basic / heldout_families, the first 1 instance(s) of each of its "
                              f"{len(families)} families: {len(families)} of {len(held)} tasks"]


def test_a_plan_writes_nothing_and_a_selection_of_no_suite_is_an_error_naming_the_key(tmp_path):
    """`--plan` says what would run without making the run folder, its job.log or its sampled task folders; a task
    selection whose suite is neither bundled nor a folder is refused naming the file and the key, not a traceback."""
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"""
run_dir: {tmp_path}/run
quick_run_dir: {tmp_path}/run-quick
engine: transformers
tasks:
  held: {{suite: basic, split: heldout_families, per_family: 1}}
stages:
  a: {{cmd: "{sys.executable} -c 'import sys; print(sys.argv[1:])' {{held}}"}}
""")
    for extra in ((), ("--quick",)):
        p = _run(cfg, "--plan", *extra)
        assert p.returncode == 0 and "not run yet" in p.stdout, p.stderr
        assert not (tmp_path / "run").exists() and not (tmp_path / "run-quick").exists()
    assert _run(cfg).returncode == 0 and (tmp_path / "run" / "tasks" / "held").is_dir()  # a run makes them
    cfg.write_text(cfg.read_text().replace("suite: basic,", f"suite: {tmp_path}/nowhere,"))
    p = _run(cfg, "--plan", "--quick")
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert f"{cfg}: tasks.held: suite '{tmp_path}/nowhere' is neither" in p.stderr
    p = _run(tmp_path, "--plan")  # a folder given as the config
    assert p.returncode == 2 and f"{tmp_path}: cannot be read as a job config" in p.stderr, p.stderr


def test_a_selection_as_one_word_and_a_stage_named_through_a_setting(tmp_path):
    """`{NAME_set}` is a task selection as one word (the folder, or SUITE:SPLIT), what `reterm eval-sets --tasks`
    takes; a stage named only inside a setting is still one of the stage's inputs (its order is checked, a new run of
    it redoes the stage); `--plan` counts a stage it would redo in the time left."""
    cfg = tmp_path / "job.yaml"
    body = f"""
run_dir: {tmp_path}/run
engine: transformers
tasks:
  held: {{suite: basic, split: heldout_families, per_family: 1}}
  every: {{suite: basic, split: train}}
settings:
  where: "{{a}}/x"
stages:
  a: {{cmd: "{sys.executable} -c 'import sys; print(sys.argv[1:])' {{held_set}} {{every_set}} ARG", minutes: 7}}
  b: {{cmd: "{sys.executable} -c 'import sys; print(sys.argv[1:])' {{where}}", minutes: 3}}
"""
    cfg.write_text(body)
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert f"['{tmp_path}/run/tasks/held', 'basic:train', 'ARG']" in p.stdout
    from reterm.jobs import load_job

    assert [s.inputs for s in load_job(cfg).stages] == [[], ["a"]]
    cfg.write_text(body.replace("ARG", "OTHER"))
    p = _run(cfg, "--plan")
    assert "redo  a" in p.stdout and "redo  b" in p.stdout, p.stdout  # b reads a through {where}
    assert "about 10 min of stages left" in p.stdout, p.stdout
    bad = body.replace('where: "{a}/x"', 'where: "{b}/x"').replace("  a: {cmd", '  z: {cmd: "echo {where}"}\n  a: {cmd')
    cfg.write_text(bad)
    p = _run(cfg)
    assert p.returncode == 2 and "stage z reads stage b, which does not run before it" in p.stderr, p.stderr


def test_the_report_reads_a_set_in_a_stage_and_lists_only_the_stages_the_config_has(tmp_path):
    """A report measure may name a folder in a stage (STAGE/SET, as `reterm eval-sets` writes); a stage dropped from
    the config since the run folder was made (job.json still records it) is not among the report's commands."""
    from reterm.evaluation.metrics import summarize_eval

    ev = summarize_eval([{"task_id": "t", "family": "f", "category": "c", "passed": True, "infra_error": None}], 1)
    (tmp_path / "ev.json").write_text(json.dumps(ev))
    body = f"""
run_dir: {tmp_path}/run
engine: transformers
stages:
  old: {{cmd: "echo OLDSTAGE"}}
  ev: {{cmd: "mkdir -p {{out}}/held && cp {tmp_path}/ev.json {{out}}/held/eval.json"}}
report:
  M: {{heldout_instances: ev/held}}
"""
    cfg = tmp_path / "job.yaml"
    cfg.write_text(body.replace("mkdir", "sh -c 'mkdir").replace("eval.json\"", "eval.json'\""))
    p = _run(cfg, "--report-dir", str(tmp_path / "rep"))
    assert p.returncode == 0, p.stderr
    assert "`old`" in (tmp_path / "rep" / "report.md").read_text()
    cfg.write_text(cfg.read_text().replace('  old: {cmd: "echo OLDSTAGE"}\n', ""))
    p = _run(cfg, "--report-dir", str(tmp_path / "rep"))
    assert p.returncode == 0, p.stderr
    report = (tmp_path / "rep" / "report.md").read_text()
    assert "`old`" not in report and "OLDSTAGE" not in report and "`ev`" in report
    assert "| held-out instances pass@1 | **all** | 1.00 (1/1)" in report, report


@pytest.mark.parametrize("value", ["0", "two", "true"])
def test_a_bad_per_family_is_refused_naming_the_key(tmp_path, value):
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"run_dir: {tmp_path}/run\nengine: transformers\ntasks:\n  t: {{suite: basic, per_family: {value}}}\n"
                   "stages:\n  a: {cmd: echo}\n")
    p = _run(cfg)
    assert p.returncode == 2 and "tasks.t.per_family" in p.stderr


def test_settings_from_shares_another_jobs_settings_and_its_own_win(tmp_path):
    (tmp_path / "base.yaml").write_text("stages: {x: {cmd: echo}}\nsettings: {word: base, other: kept}\n")
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"run_dir: {tmp_path}/run\nengine: transformers\nsettings_from: base.yaml\n"
                   "settings: {word: own}\nstages:\n  a: {cmd: 'echo {word} {other}'}\n")
    p = _run(cfg)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "$ echo own kept" in p.stdout  # the command as run: the shared setting, and this job's own


def test_quick_settings_replace_settings_only_with_quick(tmp_path):
    """`quick_settings`: QUICK's values of settings that sit where a stage's `quick` arguments (appended) cannot go,
    e.g. before the `--` of recipes/compare.py; --set still wins over both."""
    cfg = tmp_path / "job.yaml"
    cfg.write_text(f"run_dir: {tmp_path}/run\nquick_run_dir: {tmp_path}/quick\nengine: transformers\n"
                   "settings: {size: --steps 100, tail: x}\nquick_settings: {size: --steps 1}\n"
                   "stages:\n  a: {cmd: 'echo {size} -- {tail}', quick: '--q'}\n")
    p = _run(cfg)
    assert p.returncode == 0 and "$ echo --steps 100 -- x" in p.stdout, p.stdout + p.stderr
    p = _run(cfg, "--quick")
    assert p.returncode == 0 and "$ echo --steps 1 -- x --q" in p.stdout, p.stdout + p.stderr
    p = _run(cfg, "--quick", "--set", "size=--steps 2", "--run-dir", str(tmp_path / "other"))
    assert p.returncode == 0 and "$ echo --steps 2 -- x --q" in p.stdout, p.stdout + p.stderr


# a stage that keeps its work: each run adds one part; the first run then waits to be interrupted
SLOW = """
import sys, time, pathlib, signal
out = pathlib.Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
done = len(list(out.glob("part-*")))
signal.signal(signal.SIGINT, lambda *_: sys.exit(130))
(out / f"part-{done}").write_text("x")
pathlib.Path(sys.argv[2]).write_text(str(done))
if done == 0:
    time.sleep(600)
"""


def test_ctrl_c_stops_the_stage_and_a_rerun_continues_a_stage_that_resumes(tmp_path):
    (tmp_path / "slow.py").write_text(SLOW)
    marker = tmp_path / "progress"
    cfg = _config(tmp_path, extra=f"""  slow:
    about: resumes
    resumes: true
    cmd: "{{python}} {tmp_path}/slow.py {{out}} {marker}"
""")
    proc = subprocess.Popen([sys.executable, str(JOB), "--config", str(cfg)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert marker.exists(), "the slow stage never started"
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "stopped during slow; run the same command again to continue (it continues)" in out
    state = json.loads((tmp_path / "run/job.json").read_text())
    assert state["slow"]["status"] == "running"
    p = _run(cfg)  # wiped, the stage would start at part-0 again and wait 600 s
    assert p.returncode == 0, p.stderr
    assert "slow: continuing where it stopped" in p.stdout
    assert sorted(x.name for x in (tmp_path / "run/slow").glob("part-*")) == ["part-0", "part-1"]
    assert _runs(tmp_path) == ["a", "b", "c"]  # the stages before it were not run again


# a stage that starts a launcher that starts the worker, as compare_grpo -> accelerate launch -> the trainer do; a
# subprocess.run interrupted kills its own child (the launcher) outright, so the worker hears a stop only if it is told
STAGE_3 = """
import subprocess, sys
subprocess.run([sys.executable, sys.argv[1], sys.argv[2], sys.argv[3]])
"""
LAUNCHER = """
import subprocess, sys
subprocess.call([sys.executable, sys.argv[1], sys.argv[2]])
"""
WORKER = """
import os, sys, time, pathlib, signal
out = pathlib.Path(sys.argv[1])
def stop(*_):
    (out / "worker-stopped").write_text("SIGINT")
    sys.exit(130)
signal.signal(signal.SIGINT, stop)
(out / "worker-pid").write_text(str(os.getpid()))
time.sleep(600)
"""


def test_stopping_the_job_stops_the_processes_its_stage_started(tmp_path):
    """A job stopped the way a background job is (a signal to the job's process alone: `pkill -INT`, SIGTERM) must
    stop the whole stage, the trainer under the launcher included: a worker left running would go on writing into
    the run folder and hold the cores (found when the compare job was stopped: the GRPO trainer outlived it)."""
    for name, text in (("stage3.py", STAGE_3), ("launcher.py", LAUNCHER), ("worker.py", WORKER)):
        (tmp_path / name).write_text(text)
    out = tmp_path / "w"
    out.mkdir()
    cfg = _config(tmp_path, extra=f"""  deep:
    about: three processes deep
    resumes: true
    cmd: "{{python}} {tmp_path}/stage3.py {tmp_path}/launcher.py {tmp_path}/worker.py {out}"
""")
    for sig in (signal.SIGINT, signal.SIGTERM):
        for f in out.iterdir():
            f.unlink()
        log = tmp_path / f"job-{sig.name}.log"  # a file, not a pipe: a leaked worker would hold a pipe open
        with open(log, "w") as f:
            proc = subprocess.Popen([sys.executable, str(JOB), "--config", str(cfg)], cwd=ROOT, stdout=f,
                                    stderr=subprocess.STDOUT, text=True, start_new_session=True)
        deadline = time.monotonic() + 120
        while not (out / "worker-pid").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert (out / "worker-pid").exists(), "the worker never started"
        worker = int((out / "worker-pid").read_text())
        proc.send_signal(sig)  # the job's process only, not its group
        proc.wait(timeout=120)
        assert "stopped during deep" in log.read_text(), log.read_text()
        deadline = time.monotonic() + 30
        while Path(f"/proc/{worker}").exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        try:  # an orphan that ended is reaped by init; a live one (or a zombie nobody waits for) is a leak
            state = Path(f"/proc/{worker}/stat").read_text().split()[2]
            os.kill(worker, signal.SIGKILL)  # the test must not leak it either
        except (FileNotFoundError, ProcessLookupError):
            state = "gone"
        assert state in ("gone", "Z"), f"{sig.name}: the stage's worker is still running after the job stopped"
        assert (out / "worker-stopped").read_text() == "SIGINT", f"{sig.name}: the worker was never told to stop"


def test_the_job_holds_a_pid_file_to_stop_it_by_and_refuses_a_second_job_in_its_run_folder(tmp_path):
    """While a job runs, RUN_DIR/job.pid holds its process id: `kill -INT $(cat job.pid)` stops it as Ctrl-C does
    (no `pkill -f`, which matches other jobs too), and the file goes with the job. A second job in the same run folder
    is refused while the first runs (--plan still answers); a file left by a job killed outright is taken over."""
    (tmp_path / "slow.py").write_text(SLOW)
    marker = tmp_path / "progress"
    cfg = _config(tmp_path, extra=f"""  slow:
    about: resumes
    resumes: true
    cmd: "{{python}} {tmp_path}/slow.py {{out}} {marker}"
""")
    pid_file = tmp_path / "run" / "job.pid"
    log = tmp_path / "job.log"
    with open(log, "w") as f:
        proc = subprocess.Popen([sys.executable, str(JOB), "--config", str(cfg)], cwd=ROOT, stdout=f,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker.exists(), "the slow stage never started"
        assert pid_file.read_text().strip() == str(proc.pid)
        second = _run(cfg)
        assert second.returncode == 2, second.stdout + second.stderr
        assert f"{pid_file}: the job with process id {proc.pid} is running in this run folder" in second.stderr
        assert _run(cfg, "--plan").returncode == 0
        os.kill(int(pid_file.read_text()), signal.SIGINT)  # kill -INT $(cat RUN_DIR/job.pid)
        assert proc.wait(timeout=120) == 130, log.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert "stopped during slow" in log.read_text()
    assert not pid_file.exists()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid_file.write_text(gone.stdout)  # as a job killed with SIGKILL leaves it: its process is gone
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert "slow: continuing where it stopped" in p.stdout and not pid_file.exists()


def test_a_program_moved_or_a_deprecated_key_renamed_redoes_nothing(tmp_path):
    """A stage recorded under earlier names — a program that moved with its behaviour kept
    (benchmarks/compare_grpo.py -> recipes/compare.py), a config key renamed to the name transformers now reads
    (gradient_checkpointing -> activation_checkpointing) — read the same input: it and the stages after it are kept,
    and the record takes the new names. Any other change still redoes it."""
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("lr: 1\ngradient_checkpointing: false  # why\n")
    assert _run(_config(tmp_path, a_arg=f"benchmarks/compare_grpo.py {recipe}")).returncode == 0
    recipe.write_text("lr: 1\nactivation_checkpointing: false  # why\n")
    cfg = _config(tmp_path, a_arg=f"recipes/compare.py {recipe}")
    assert " done " in _run(cfg, "--plan").stdout.splitlines()[0]
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert _runs(tmp_path) == ["a", "b", "c"] and p.stdout.count("skipped") == 3, p.stdout
    state = json.loads((tmp_path / "run/job.json").read_text())
    assert "recipes/compare.py" in state["a"]["parts"]["command"]
    assert _run(cfg).stdout.count("skipped") == 3  # the record now holds the new names
    recipe.write_text("lr: 2\nactivation_checkpointing: false  # why\n")
    p = _run(cfg)
    assert f"a: redone from scratch: {recipe} changed" in p.stdout
    assert _runs(tmp_path) == ["a", "b", "c", "a", "b"]


def test_an_interrupted_stage_that_does_not_resume_starts_over(tmp_path):
    cfg = _config(tmp_path)
    _run(cfg)
    state_file = tmp_path / "run/job.json"
    state = json.loads(state_file.read_text())
    state["c"]["status"] = "running"  # as a Ctrl-C during c leaves it
    state_file.write_text(json.dumps(state))
    (tmp_path / "run/c/leftover").write_text("half-written")
    p = _run(cfg)
    assert p.returncode == 0
    assert "c: interrupted last time; it starts over" in p.stdout
    assert not (tmp_path / "run/c/leftover").exists()


def test_files_in_a_stage_folder_that_the_job_has_no_record_of_are_never_mixed_in(tmp_path):
    cfg = _config(tmp_path)
    (tmp_path / "run/a").mkdir(parents=True)
    (tmp_path / "run/a/stale.txt").write_text("from another run")
    p = _run(cfg)
    assert p.returncode == 0
    assert "holds files this job has no record of; cleared" in p.stdout
    assert not (tmp_path / "run/a/stale.txt").exists()


@pytest.mark.slow
@pytest.mark.background
@pytest.mark.timeout(3000)
def test_the_quick_job_runs_every_stage_and_reports(tiny_model_dir, tmp_path):
    """`scripts/train.sh` with QUICK=1, as a smoke test: every stage of the shipped config for real (oracle data on
    four train tasks, both SFT rounds, collect, GRPO, the evaluations on four held-out tasks, the recovery benchmark)
    with a tiny random model in place of SmolLM2 (`--set model=...`) and the transformers engine; then the report."""
    run = tmp_path / "run"
    p = subprocess.run([sys.executable, str(JOB), "--quick", "--run-dir", str(run), "--set", f"model={tiny_model_dir}",
                        "--report-dir", str(tmp_path / "report")], capture_output=True, text=True, timeout=2700,
                       cwd=ROOT)  # generous: scripts/test.sh runs it at low priority beside other tests
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    state = json.loads((run / "job.json").read_text())
    assert len(state) == 17 and {s["status"] for s in state.values()} == {"done"}
    for stage in ("sft1", "sft2", "grpo"):
        assert (run / stage / "config.json").exists(), f"{stage} saved no model"
    for model in ("eval_base", "eval_grpo"):  # every set of every model, in its own folder
        assert json.loads((run / model / "heldout_instances" / "eval.json").read_text())["overall"]["tasks"] == 4
        assert json.loads((run / model / "heldout_families" / "eval.json").read_text())["overall"]["tasks"] == 4
        for bench, k in (("recovery", 2), ("recovery_heldout_families", 1)):
            rec = json.loads((run / model / bench / "recovery.json").read_text())
            assert rec["overall"]["attempts"] == k * rec["overall"]["states"] > 0
    assert (run / "bench" / "states" / "manifest.json").exists()
    assert (run / "benchf" / "states" / "manifest.json").exists()
    report = (run / "report.md").read_text()
    for label in ("base", "SFT round 1", "SFT round 2", "ReTerm-GRPO"):
        assert label in report
    for measure in ("held-out instances pass@1", "held-out families pass@1", "recovery (held-out-instance states)",
                    "recovery (held-out-family states)"):
        assert f"| {measure} | **all** |" in report, measure
    assert "Tasks: `train`: basic / train, the first task of 4 families (QUICK)" in report
    # the last lines printed: the table, then where the report and the models are
    tail = p.stdout.strip().splitlines()[-3:]
    assert tail[0].startswith("|") and tail[1].startswith("report: ") and tail[2].startswith("models: ")
    assert tail[1] == f"report: {tmp_path / 'report' / 'report.md'}  {tmp_path / 'report' / 'report.png'}"
    assert (tmp_path / "report" / "report.png").stat().st_size > 10_000
    again = subprocess.run([sys.executable, str(JOB), "--quick", "--run-dir", str(run), "--set",
                            f"model={tiny_model_dir}", "--plan"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert again.stdout.count(" done ") == 17  # a re-run would run nothing


def test_compare_sh_makes_the_start_with_the_main_job_then_runs_the_compare_job_on_it(tmp_path):
    """scripts/compare.sh asked for its plan (no set-up then): the main job's stages up to sft2 in DIR/main, then the
    compare job's in DIR/compare; a bad argument is refused before anything runs."""
    p = subprocess.run(["bash", "scripts/compare.sh", "--run-dir", str(tmp_path / "exp"), "--plan"],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    main, _, compare = p.stdout.partition(f"(run folder {tmp_path}/exp/main)")
    assert compare, p.stdout
    rows = [line.split()[1] for line in main.splitlines() if line.strip().startswith("run ")]
    assert rows[0] == "synthesize" and rows[-1] == "sft2" and "grpo" not in rows
    assert [line.split()[1] for line in compare.splitlines() if line.strip().startswith("run ")] == \
        ["bench", "arms", "followup"]
    assert f"(run folder {tmp_path}/exp/compare)" in compare
    assert not (tmp_path / "exp/main/sft2").exists()  # a plan runs nothing
    p = subprocess.run(["bash", "scripts/compare.sh", "--steps", "3"], capture_output=True, text=True, timeout=60,
                       cwd=ROOT)
    assert p.returncode == 2 and "unknown argument --steps" in p.stderr


def test_stages_of_seconds_do_not_set_the_pace_of_the_long_ones(tmp_path):
    """Quick stages finish far under their estimate; scaling a 10-hour stage's ETA by that pace said '0 s' left."""
    cfg = _config(tmp_path)
    text = cfg.read_text().replace("about: first", "about: first\n    minutes: 2")
    text = text.replace("about: reads a", "about: reads a\n    minutes: 2")
    cfg.write_text(text.replace("about: reads nothing", "about: reads nothing\n    minutes: 600"))
    p = _run(cfg)
    assert p.returncode == 0, p.stderr
    assert "[3/3] c: reads nothing  (about 10 h 00 min; the job has about 10 h 00 min left)" in p.stdout


def test_a_resumed_job_estimates_at_the_pace_its_finished_stages_had_on_this_kind_of_machine(tmp_path):
    """A job continued later (another session, the same machine) scales its ETAs by the stages this run folder
    finished on the same kind of machine (recorded with each stage), not by the reference machine's estimates alone;
    a stage finished on another kind of machine, or one to be redone, sets no pace."""
    from reterm.jobs import machine_tag

    cfg = _config(tmp_path)
    text = cfg.read_text().replace("about: first", "about: first\n    minutes: 10")
    text = text.replace("about: reads a", "about: reads a\n    minutes: 10")
    cfg.write_text(text.replace("about: reads nothing", "about: reads nothing\n    minutes: 10"))
    assert _run(cfg, "--until", "a").returncode == 0
    state_file = tmp_path / "run" / "job.json"
    state = json.loads(state_file.read_text())
    assert state["a"]["machine"] == machine_tag()
    state["a"]["seconds"] = 1800  # a took 3x its 10-minute estimate here
    state_file.write_text(json.dumps(state))
    p = _run(cfg, "--plan")
    assert "about 1 h 00 min of stages left" in p.stdout and "3x the estimates" in p.stdout, p.stdout
    state["a"]["machine"] = "another CPU, 64 cores"
    state_file.write_text(json.dumps(state))
    p = _run(cfg, "--plan")
    assert "about 20 min of stages left (run folder" in p.stdout and "the estimates" not in p.stdout, p.stdout
    state["a"]["machine"] = machine_tag()
    state_file.write_text(json.dumps(state))
    cfg.write_text(cfg.read_text().replace("--unused x", "--unused y"))  # a changed: to be redone, it sets no pace
    p = _run(cfg, "--plan")
    assert "redo" in p.stdout and "about 30 min of stages left (run folder" in p.stdout, p.stdout
    assert "the estimates" not in p.stdout


def test_a_stage_continued_on_another_kind_of_machine_records_none(tmp_path):
    """A stage whose segments ran on two kinds of machine is recorded with no machine: its time sets no one's pace."""
    from reterm.jobs import machine_tag

    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("about: first", "about: first\n    resumes: true"))
    assert _run(cfg, "--until", "a").returncode == 0
    state_file = tmp_path / "run" / "job.json"
    state = json.loads(state_file.read_text())
    assert state["a"]["ran_on"] == [machine_tag()] and state["a"]["machine"] == machine_tag()
    state["a"].update(status="running", ran_on=["another CPU, 64 cores"])  # its first segment ran elsewhere
    state_file.write_text(json.dumps(state))
    p = _run(cfg, "--until", "a")
    assert p.returncode == 0 and "continuing where it stopped" in p.stdout, p.stdout
    state = json.loads(state_file.read_text())
    assert state["a"]["machine"] is None and state["a"]["ran_on"] == sorted(["another CPU, 64 cores", machine_tag()])
