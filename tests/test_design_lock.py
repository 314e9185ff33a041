"""The confirmatory design's lock (reterm/evaluation/design_lock.py) on real files and a real git repository: a draft or
an uncommitted design is refused, a locked one is copied with its SHA-256; a comparison folder is bound to it before
its first run and refuses another design or runs started unbound; the analysis reports its decision rules only
against the locked design, unedited above its Exploratory heading (recipes/compare.py and
reterm.evaluation.confirm_report `--design`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from reterm.evaluation import confirm_report as cr
from reterm.evaluation import design_lock as dl
from test_confirm_report import BOOT, GAIN, _folder

FINAL = "# A confirmatory comparison\n\n## 1. The question\nForking against plain.\n\n## Exploratory\nnothing yet\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    return repo


def test_a_draft_or_uncommitted_design_is_refused_and_a_final_committed_one_locked(repo, tmp_path):
    design = repo / "design.md"
    design.write_text("# A confirmatory comparison (DRAFT: under review)\n")
    _git(repo, "add", "design.md")
    _git(repo, "commit", "-qm", "draft")
    with pytest.raises(dl.DesignError, match="says it is a draft"):
        dl.lock(design, tmp_path / "run" / "design")
    assert not (tmp_path / "run" / "design" / dl.LOCK).exists()
    design.write_text(design.read_text() + "an edit in progress\n")  # a toy run may lock a draft mid-edit
    assert dl.lock(design, tmp_path / "toy" / "design", allow_draft=True)["draft"] is True
    assert dl.draft(tmp_path / "toy" / "design" / "design.md")
    design.write_text(FINAL)
    with pytest.raises(dl.DesignError, match="not committed"):
        dl.lock(design, tmp_path / "run" / "design")
    _git(repo, "commit", "-qam", "final")
    record = dl.lock(design, tmp_path / "run" / "design")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    assert record["commit"] == head and record["sha256"] == dl.sha256(design) and not record["draft"]
    assert (tmp_path / "run" / "design" / "design.md").read_text() == FINAL
    # run again (the stage resumed): the same design passes; one changed above its Exploratory heading does not
    assert dl.lock(design, tmp_path / "run" / "design") == record
    design.write_text(FINAL + "a finding of the first arm\n")  # below the heading: allowed
    assert dl.lock(design, tmp_path / "run" / "design") == record
    design.write_text(FINAL.replace("Forking against plain.", "Forking against plain, 5 seeds."))
    with pytest.raises(dl.DesignError, match="not the design this run folder was locked to"):
        dl.lock(design, tmp_path / "run" / "design")


def test_a_folder_is_bound_once_and_the_analysis_reads_the_rules_only_against_its_design(tmp_path, capsys):
    source = tmp_path / "design.md"  # outside a git checkout: no commit to check
    source.write_text(FINAL)
    locked = tmp_path / "job" / "design"
    dl.lock(source, locked)
    design = locked / "design.md"
    run = _folder(tmp_path / "arms", GAIN)
    with pytest.raises(dl.DesignError, match="started before any design was bound"):
        dl.bind(design, run, [run / "runs" / "plain-s0"])
    assert dl.problem(design, run).endswith(f"({dl.BINDING} missing)")
    bound = dl.bind(design, run)
    assert dl.bind(design, run, [run / "runs" / "plain-s0"]) == bound  # resumed: the same design goes on
    assert dl.problem(design, run) is None
    res = cr.analyse(run, margin=0.05, design=design, check_design=True, **BOOT)
    assert res["design_problem"] is None and res["rules"]["1. forking"].startswith("forking is credited")
    assert cr.main([str(run), "--margin", "0.05", "--resamples", "50", "--design", str(design)]) == 0
    # the locked copy edited after the runs started: the rules are not read, the figures stay (exploratory)
    design.write_text(FINAL.replace("plain.", "plain GRPO."))
    assert cr.main([str(run), "--margin", "0.05", "--resamples", "50", "--design", str(design)]) == 2
    err = capsys.readouterr().err
    assert "the primary analysis is not reported" in err and "was edited above its" in err
    text = (run / "analysis.md").read_text()
    assert "**The primary analysis is not reported**" in text and "exploratory" in text
    assert list(json.loads((run / "analysis.json").read_text())["rules"]) == ["primary analysis"]
    design.write_text(FINAL)
    source.write_text(FINAL.replace("Forking", "Fork"))  # the source it was locked from, edited since
    assert "design.md was edited above its" in dl.problem(design, run)
    source.write_text(FINAL)
    design.unlink()
    assert "the design is missing" in dl.problem(design, run)
    design.write_text(FINAL)
    (run / dl.BINDING).write_text("{not json")
    assert "not a design record" in dl.problem(design, run)
    dl.bind(design, tmp_path / "again")
    # another design cannot take over the folder
    other = tmp_path / "other.md"
    other.write_text(FINAL.replace("Forking", "Something else"))
    dl.lock(other, tmp_path / "job2" / "design")
    with pytest.raises(dl.DesignError, match="was started under another design"):
        dl.bind(tmp_path / "job2" / "design" / "design.md", tmp_path / "again")


def test_compare_refuses_a_folder_bound_to_another_design(tmp_path, capsys):
    """recipes/compare.py --design: the check runs before anything is evaluated or trained."""
    from test_compare import _cli

    source = tmp_path / "design.md"
    source.write_text(FINAL)
    dl.lock(source, tmp_path / "a")
    other = tmp_path / "other.md"
    other.write_text(FINAL.replace("Forking", "Other"))
    dl.lock(other, tmp_path / "b")
    out = tmp_path / "out"
    out.mkdir()
    dl.bind(tmp_path / "b" / "design.md", out)
    (tmp_path / "bench" / "states").mkdir(parents=True)
    sft = tmp_path / "sft"
    sft.mkdir()
    (sft / "config.json").write_text("{}")  # a checkpoint, as far as parsing asks
    argv = ["--sft", str(sft), "--bench", str(tmp_path / "bench"), "--out", str(out), "--policy", "transformers",
            "--design", str(tmp_path / "a" / "design.md")]
    assert _cli().main(argv) == 2
    assert "was started under another design" in capsys.readouterr().err
    assert not (out / "eval").exists()  # nothing evaluated


def test_a_damaged_record_a_design_that_is_not_text_or_a_folder_that_is_a_file_is_named(tmp_path, capsys):
    """The command exits 2 naming the file, never a traceback: a lock record missing what it holds, a design that
    is not text, a folder to lock into that is a file."""
    design = tmp_path / "design.md"
    design.write_text("# A confirmatory comparison (DRAFT)\n")
    folder = tmp_path / "locked"
    dl.lock(design, folder, allow_draft=True)
    (folder / dl.LOCK).write_text(json.dumps({"sha256": "abc"}))
    for argv in (["check", str(folder / "design.md"), str(tmp_path)], ["lock", str(design), str(folder)]):
        assert dl.main(argv) == 2
        said = capsys.readouterr()  # check answers on stdout, lock's refusal on stderr
        assert f"{folder / dl.LOCK}: not a design record (JSON with sha256, source, locked_at)" in said.out + said.err
    binary = tmp_path / "bin.md"
    binary.write_bytes(b"\xff\xfe# x\n")
    afile = tmp_path / "afile"
    afile.write_text("x")
    for argv, why in ((["lock", str(binary), str(tmp_path / "f2")], f"{binary}: not UTF-8 text"),
                      (["lock", str(design), str(afile)], f"{afile} is a file")):
        assert dl.main(argv) == 2
        assert why in capsys.readouterr().err
