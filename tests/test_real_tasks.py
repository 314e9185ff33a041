"""Tasks written like real third-party ones (tests/fixtures/real_tasks: a Terminal-Bench 2.0 style task, a
Terminal-Bench 1 task, Harbor's hello-world / hello-workdir / hello-user / multi-step / separate-verifier kinds) on
both backends, and the local backend's filesystem and isolation promises they rely on."""

import os
import secrets
from pathlib import Path

import pytest

from conftest import get_backend, harbor_task
from reterm.evaluation.trials import run_trial, summarize
from reterm.sandbox.local import BuildError
from reterm.tasks import TaskError, load_task

REAL_TASKS = Path(__file__).parent / "fixtures" / "real_tasks"
TASK_NAMES = sorted(p.name for p in REAL_TASKS.iterdir() if p.is_dir())


@pytest.mark.parametrize("name", TASK_NAMES)
@pytest.mark.parametrize("backend_name", ["local", pytest.param("docker", marks=pytest.mark.docker)])
def test_real_task_passes_with_its_solution_and_fails_with_nop(backend_name, name, tmp_path):
    backend = get_backend(backend_name)
    task = load_task(REAL_TASKS / name)
    oracle = run_trial(task, backend, "oracle", logs=tmp_path / "oracle")
    nop = run_trial(task, backend, "nop", logs=tmp_path / "nop")
    assert (oracle.infra_error, oracle.reward) == (None, 1.0)
    assert (nop.infra_error, nop.reward) == (None, 0.0)
    # Harbor's trial layout: the verifier's output and reward file are kept, and named in the result.
    verifier = tmp_path / "oracle" / ("steps/append/verifier" if task.steps else "verifier")
    if task.format == "harbor":
        assert (verifier / "reward.txt").read_text().strip() == "1"
    assert (verifier / "test-stdout.txt").is_file()
    assert oracle.logs == str(tmp_path / "oracle") and (tmp_path / "oracle" / "result.json").is_file()


def test_multi_step_stops_below_min_reward_and_averages(tmp_path):
    task = load_task(REAL_TASKS / "multi-step")
    res = run_trial(task, get_backend("local"), "nop")
    assert [s["name"] for s in res.steps] == ["create"]  # min_reward 1.0 missed: "append" never runs
    assert res.reward == 0.0 and res.rewards["step:create"] == 0.0


def test_local_fork_sees_every_file_the_source_wrote(tmp_path):
    backend = get_backend("local")
    task = load_task(REAL_TASKS / "tb2-inventory-report")
    paths = ["/data/f", "/custom-workdir/new", "/usr/local/bin/tool", "/root/r", "/opt/o",
             "/var/lib/thing", "/app/a", "/home/h", "/srv/s", "/tmp/t", "/mnt/m"]
    with backend.start(task) as sb:
        script = "; ".join(f"mkdir -p {os.path.dirname(p)} && echo {p} > {p}" for p in paths)
        assert sb.exec(script).ok
        with sb.snapshot() as snap:
            [fork] = snap.fork(1)
    try:
        out = fork.exec("cat " + " ".join(paths)).output.split()
        assert out == paths
        assert fork.exec("cat /custom-workdir/marker").output.strip() == "prepared"  # written by RUN at build
    finally:
        fork.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs the host's root to plant a root-only file")
def test_host_root_only_files_stay_unreadable_while_root_inside_works(simple_task):
    secret, name = secrets.token_hex(8), secrets.token_hex(4)
    probes = [Path(f"/etc/reterm-probe-{name}"), Path(f"/usr/share/reterm-probe-{name}")]
    for p in probes:
        p.write_text(secret)
        p.chmod(0o600)
    try:
        with get_backend("local").start(simple_task) as sb:
            for p in probes:
                res = sb.exec(f"cat {p}")
                assert secret not in res.output and not res.ok
            assert sb.exec("id -u").output.strip() == "0"
            # root inside still owns its sandbox: other uids, ownership, switching to them
            assert sb.exec("touch /app/w && chown 1500:1500 /app/w && stat -c %u /app/w && "
                           "setpriv --reuid=1500 --regid=1500 --clear-groups id -u").output.split() == ["1500", "1500"]
    finally:
        for p in probes:
            p.unlink()


def test_copy_failure_names_the_dockerfile_line(tmp_path):
    task = load_task(harbor_task(tmp_path / "t", dockerfile="FROM ubuntu:24.04\nWORKDIR /app\nCOPY a.txt /usr/bin/a\n",
                                 extra={"environment/a.txt": "x"}))
    with pytest.raises(BuildError, match=r"Dockerfile:3: COPY failed"):
        get_backend("local").prepare(task)


def test_build_without_network_says_so_and_how_to_fix(tmp_path):
    task = load_task(harbor_task(tmp_path / "t", dockerfile=(
        "FROM ubuntu:24.04\nRUN echo 'Temporary failure resolving deb.example' && exit 100\n")))
    with pytest.raises(BuildError) as e:
        get_backend("local").prepare(task)
    msg = str(e.value)
    assert "Dockerfile:2" in msg and "needed the network" in msg and "--allow-internet" in msg
    assert "docker build" in msg  # how to pre-build


def test_allow_internet_defaults_to_harbors_true(tmp_path):
    assert load_task(harbor_task(tmp_path / "t")).allow_internet is True
    task = load_task(harbor_task(tmp_path / "u", toml="[environment]\nallow_internet = false\n"))
    assert task.allow_internet is False


@pytest.mark.parametrize("toml, extra, message", [
    ('[[steps]]\nname = "a"\nsetup = "x"\n', {"steps/a/instruction.md": "x"}, "setup not supported"),
    ('[verifier]\nenvironment_mode = "separate"\n', {}, "tests/Dockerfile: is missing"),
    ('artifacts = ["/app/x"]\n', {}, "only apply with"),
    ('[[steps]]\nname = "a"\n', {}, "steps/a/instruction.md: is missing"),
])
def test_harbor_features_not_built_are_refused_by_name(tmp_path, toml, extra, message):
    with pytest.raises(TaskError, match=message):
        load_task(harbor_task(tmp_path / "t", toml=toml, extra=extra))


def test_pass_rate_is_over_scored_trials():
    rows = [{"passed": True, "infra_error": None}, {"passed": False, "infra_error": None},
            {"passed": False, "infra_error": "verifier timed out"}]
    assert summarize(rows) == {"n": 3, "n_scored": 2, "n_passed": 1, "n_infra_error": 1, "pass_rate": 0.5}


def test_skip_broken_runs_the_rest_and_reports_each(tmp_path):
    from click.testing import CliRunner

    from reterm.cli import main

    harbor_task(tmp_path / "tasks" / "good")
    harbor_task(tmp_path / "tasks" / "bad", toml="[agent]\ntimeout_sec = \"soon\"\n")
    args = ["run", str(tmp_path / "tasks"), "--agent", "oracle", "--backend", "local"]
    refused = CliRunner().invoke(main, args + ["-o", str(tmp_path / "r1")])
    assert refused.exit_code == 2 and "timeout_sec" in refused.output
    ran = CliRunner().invoke(main, args + ["-o", str(tmp_path / "r2"), "--skip-broken"])
    assert ran.exit_code == 0, ran.output
    assert "skipped broken task" in ran.output and "bad/task.toml" in ran.output
    rows = (tmp_path / "r2" / "results.jsonl").read_text().splitlines()
    assert len(rows) == 1 and '"good"' in rows[0]
