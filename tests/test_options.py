"""The shared entry-point choices: task selection and the image map mean the same in the CLI, the pipeline and GRPO."""

from __future__ import annotations

import argparse

import pytest

from conftest import harbor_task
from data_pipeline import add_backend_arguments, add_task_arguments, load_selected_tasks
from reterm import suites
from reterm.agent.policy import SamplingConfig
from reterm.options import REPLY_TOKENS, select_tasks
from reterm.sandbox.dockerfile import parse_image_map
from reterm.tasks import TaskError
from reterm.training.grpo import ReTermGRPOConfig


def test_no_paths_and_no_suite_selects_the_bundled_basic_suite():
    assert [t.id for t in select_tasks((), None, "train")] == [t.id for t in suites.load("basic", "train")]


def test_paths_and_a_suite_directory_combine(tmp_path):
    harbor_task(tmp_path / "suite" / "a")
    harbor_task(tmp_path / "suite" / "b")
    one = harbor_task(tmp_path / "one")
    assert sorted(t.id for t in select_tasks([str(one)], str(tmp_path / "suite"))) == ["a", "b", "one"]


def test_unknown_suite_and_empty_suite_dir_say_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match="'nope' is neither a bundled suite"):
        select_tasks((), "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(TaskError, match="empty: holds no task"):
        select_tasks((), str(tmp_path / "empty"))


def test_pipeline_flags_select_like_the_cli():
    ap = argparse.ArgumentParser()
    add_task_arguments(ap)
    add_backend_arguments(ap)
    args = ap.parse_args(["--split", "heldout", "--image-map", "a=b"])
    assert [t.id for t in load_selected_tasks(args)] == [t.id for t in suites.load("basic", "heldout")]
    assert all(a.help for a in ap._actions)  # every flag says what it does


def test_grpo_image_map_value_is_parsed_like_the_flags_and_honours_the_variable(monkeypatch):
    monkeypatch.setenv("RETERM_IMAGE_MAP", "ubuntu=base:1")
    assert parse_image_map(["a=b,c:1=d"]) == {"ubuntu": "base:1", "a": "b", "c:1": "d"}


def test_one_reply_budget_default():
    assert SamplingConfig().max_new_tokens == REPLY_TOKENS
    assert ReTermGRPOConfig.__dataclass_fields__["max_new_tokens_per_turn"].default == REPLY_TOKENS
