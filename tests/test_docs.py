"""The docs stay a user's manual that works.

- README.md and benchmarks/RESULTS.md stay short, and say nothing of how they were written (no "issue 27", "stop 22",
  "this session": that belongs in benchmarks/journal/).
- Every relative link in the pages resolves: the file exists, and a `#fragment` into a Markdown file names one of
  its headings (GitHub's anchors).
- docs/cli.md is what the commands print (scripts/cli_reference.py --check).
- The commands the pages mark as checked still parse. A fenced block preceded by `<!-- checked -->` is read line by
  line: the program must exist, every flag must be one the command accepts (click's own parameters for `reterm`, the
  `--help` text for Python entry points, the script's text for `bash scripts/*.sh`), a choice must be one of the
  option's choices, and every path into the checkout must exist. A block preceded by `<!-- checked: run -->` is also
  run as written and must exit 0 (keep those to commands that take seconds).
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS, RESULTS, ROOT / "benchmarks/journal/README.md", ROOT / "recipes/README.md",
         ROOT / "data_pipeline/README.md", ROOT / "checkpoints/README.md"]
# the pages a user reads for what is true now; the journal keeps its original words
CURRENT = [README, *DOCS, RESULTS, ROOT / "recipes/README.md", ROOT / "data_pipeline/README.md"]
CHECKOUT_DIRS = ("recipes", "scripts", "reterm", "data_pipeline", "benchmarks", "docs", "tests")
SHELL_OPS = {"&&", "||", ";", "|", "&", ">", ">>", "<", "2>", "2>&1", "1>&2"}
BIN = Path(sys.executable).parent
RECIPES = ("recipes/sft.py", "recipes/reterm_grpo.py")  # TRL recipes: TrlParser, `--config FILE`


def _without_fences(text: str) -> list[str]:
    """The page's lines with fenced code blocks blanked out (links and headings in code are not links)."""
    out, fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            out.append("")
            continue
        out.append("" if fence else line)
    return out


def test_readme_and_results_stay_short():
    assert len(README.read_text().splitlines()) <= 200, "README.md: keep it to 200 lines; details go to docs/"
    assert len(RESULTS.read_text().splitlines()) <= 300, (
        "benchmarks/RESULTS.md: keep it to 300 lines of current results; history goes to benchmarks/journal/")


NOTEBOOK = re.compile(r"\b(issues?|stops?) #?\d+\b|\bsessions?\b", re.IGNORECASE)


@pytest.mark.parametrize("page", CURRENT, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_do_not_read_like_a_lab_notebook(page):
    hits = [f"{page.relative_to(ROOT)}:{i}: {m.group(0)!r}" for i, line in enumerate(page.read_text().splitlines(), 1)
            for m in NOTEBOOK.finditer(line)]
    assert not hits, "words of how the work went, not of what is true now (move them to benchmarks/journal/):\n" + \
        "\n".join(hits)


def github_anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens, repeats
    numbered."""
    seen: dict[str, int] = {}
    anchors = set()
    for line in _without_fences(page.read_text()):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_every_relative_link_resolves():
    broken = []
    for page in PAGES:
        for i, line in enumerate(_without_fences(page.read_text()), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, fragment = target.partition("#")
                dest = (page.parent / path).resolve() if path else page
                where = f"{page.relative_to(ROOT)}:{i}: {target}"
                if not dest.exists():
                    broken.append(f"{where} (no such file)")
                elif fragment and dest.suffix == ".md" and fragment not in github_anchors(dest):
                    broken.append(f"{where} (no heading with that anchor in {dest.name})")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_cli_reference_is_current():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    old, new = (ref.OUT.read_text() if ref.OUT.is_file() else ""), ref.render()
    if not ref.same(old, new):
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "docs/cli.md", "the commands now", lineterm="")
        pytest.fail("docs/cli.md is stale: run `.venv/bin/python scripts/cli_reference.py`\n" +
                    "\n".join(list(diff)[:40]), pytrace=False)


# -- the commands the pages mark as checked --------------------------------------------------------------------------
def checked_blocks() -> list[tuple[str, bool, list[str]]]:
    """(where, run it, logical command lines) of every block marked `<!-- checked -->` or `<!-- checked: run -->`."""
    blocks = []
    for page in PAGES:
        lines = page.read_text().splitlines()
        for i, line in enumerate(lines):
            m = re.fullmatch(r"\s*<!-- checked(: run)? -->\s*", line)
            if not m:
                continue
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            assert j < len(lines) and lines[j].lstrip().startswith("```"), (
                f"{page.relative_to(ROOT)}:{i + 1}: a checked marker must precede a fenced block")
            body, j = [], j + 1
            while not lines[j].lstrip().startswith("```"):
                body.append(lines[j])
                j += 1
            commands, current = [], ""
            for raw in body:
                current += raw.strip()
                if current.endswith("\\"):
                    current = current[:-1] + " "
                    continue
                if current and not current.startswith("#"):
                    commands.append(current)
                current = ""
            blocks.append((f"{page.relative_to(ROOT)}:{i + 1}", bool(m.group(1)), commands))
    return blocks


def split_commands(line: str) -> list[list[str]]:
    """The simple commands of a shell line: words up to a redirection or the end, one list per `&&`, `;` or `|`
    (operators written apart from their words, as the pages write them)."""
    out, cmd, skipping = [], [], False
    for tok in shlex.split(line, comments=True):
        if tok in ("&&", "||", ";", "|", "&"):
            out.append(cmd)
            cmd, skipping = [], False
        elif re.fullmatch(r"\d*(>>?|<)(&\d+)?", tok) or skipping:
            skipping = True  # a redirection and what follows it
        else:
            cmd.append(tok)
    out.append(cmd)
    return [c for c in out if c]


@functools.lru_cache(maxsize=None)
def help_text(entry: tuple[str, ...]) -> str:
    proc = subprocess.run([sys.executable, *entry, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, f"`python {' '.join(entry)} --help` failed:\n{proc.stderr[-2000:]}"
    # the usage and the argument sections, not the description (whose prose may name a flag that is gone)
    usage, _, rest = proc.stdout.partition("\n\n")
    sections = re.split(r"^(?=(?:options|optional arguments|positional arguments):$)", rest, maxsplit=1, flags=re.M)
    return usage + "\n" + (sections[1] if len(sections) > 1 else "")


def flags(args: list[str]) -> list[tuple[str, str | None]]:
    """(flag, the word after it) for every option word before a bare `--`."""
    out = []
    for k, tok in enumerate(args):
        if tok == "--":
            break
        if re.fullmatch(r"--?[A-Za-z][\w-]*(=.*)?", tok):
            name, eq, value = tok.partition("=")
            out.append((name, value if eq else (args[k + 1] if k + 1 < len(args) else None)))
    return out


def problems_with_paths(words: list[str]) -> list[str]:
    found = []
    for w in words:
        part = w.split("=")[-1]
        if ":" in part or "/" not in part or part.split("/")[0] not in CHECKOUT_DIRS:
            continue  # a URL, an image name, or a path outside the checkout (data/, checkpoints/, runs/)
        if not (ROOT / part.rstrip("/")).exists():
            found.append(f"{part}: no such file in the checkout")
    return found


def problems_with_argparse(entry: tuple[str, ...], args: list[str]) -> list[str]:
    text = help_text(entry)
    found = []
    for flag, value in flags(args):
        if flag in ("-h", "--help") or (flag == "--config" and entry[0] in RECIPES):  # TrlParser's own option
            continue
        if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text):
            found.append(f"{flag}: not an option of `python {' '.join(entry)}`")
            continue
        choices = re.search(rf"(?<![\w-]){re.escape(flag)} \{{([^}}]*)\}}", text)
        if choices and value is not None and value not in choices.group(1).split(","):
            found.append(f"{flag} {value}: not one of {{{choices.group(1)}}}")
    return found


def problems_with_reterm(args: list[str]) -> list[str]:
    import click

    from reterm.cli import main

    cmd, path, k = main, ["reterm"], 0
    ctx = click.Context(main, info_name="reterm")
    while isinstance(cmd, click.Group) and k < len(args) and not args[k].startswith("-"):
        sub = cmd.get_command(ctx, args[k])
        if sub is None:
            return [f"`{' '.join(path)} {args[k]}`: no such command"]
        cmd, path, k = sub, path + [args[k]], k + 1
        ctx = click.Context(cmd, info_name=args[k - 1], parent=ctx)
    options = {o: p for p in cmd.params if isinstance(p, click.Option) for o in p.opts + p.secondary_opts}
    found = []
    for flag, value in flags(args[k:]):
        if flag in ("-h", "--help"):
            continue
        param = options.get(flag)
        if param is None:
            found.append(f"{flag}: not an option of `{' '.join(path)}`")
        elif isinstance(param.type, click.Choice) and not param.is_flag and value not in param.type.choices:
            found.append(f"{flag} {value}: not one of {', '.join(param.type.choices)} (`{' '.join(path)}`)")
    return found


def problems_with(words: list[str]) -> list[str]:
    """What is wrong with one simple command; [] when it parses. Programs outside the project (kill, trl, ...) are
    left alone."""
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        words = words[1:]  # VAR=value prefixes
    while words and words[0] in ("setsid", "nohup"):
        words = words[1:]
    if not words:
        return []
    prog, args = words[0].removeprefix(".venv/bin/"), words[1:]
    found = problems_with_paths(args)
    if prog == "accelerate" and args[:1] == ["launch"]:
        rest = args[1:]
        while rest and rest[0].startswith("--"):
            rest = rest[2:] if "=" not in rest[0] else rest[1:]
        prog, args = "python", rest
    if prog == "reterm":
        found += problems_with_reterm(args)
    elif prog in ("python", "python3"):
        if args[:1] == ["-m"]:
            entry, rest = ("-m", args[1]), args[2:]
            if importlib.util.find_spec(args[1].split(".")[0]) is None or importlib.util.find_spec(args[1]) is None:
                return found + [f"python -m {args[1]}: no such module"]
        else:
            entry, rest = (args[0],), args[1:]
            if not (ROOT / args[0]).is_file():
                return found + [f"{args[0]}: no such script"]
        found += problems_with_argparse(entry, rest)
    elif prog == "bash" and args and args[0].startswith("scripts/"):
        script = ROOT / args[0]
        if not script.is_file():
            return found + [f"{args[0]}: no such script"]
        if args[0] == "scripts/train.sh":  # its arguments go to the job runner
            found += problems_with_argparse(("recipes/main_job.py",), args[1:])
        else:
            found += [f"{f}: {args[0]} does not take it" for f, _ in flags(args[1:]) if f not in script.read_text()]
    return found



def _commands(recipes: bool):
    """Every checked simple command (where, words), split by whether it runs a TRL recipe (whose --help takes
    seconds to print: TRL is imported)."""
    for where, _, lines in checked_blocks():
        for line in lines:
            for words in split_commands(line):
                if any(w in RECIPES for w in words) == recipes:
                    yield where, line, words


def test_checked_commands_parse():
    found = [f"{where}: {line}\n    {p}" for where, line, words in _commands(recipes=False) for p in problems_with(words)]
    assert not found, "checked commands that no longer parse:\n" + "\n".join(found)


@pytest.mark.slow
def test_checked_recipe_commands_parse():
    found = [f"{where}: {line}\n    {p}" for where, line, words in _commands(recipes=True) for p in problems_with(words)]
    assert not found, "checked recipe commands that no longer parse:\n" + "\n".join(found)


def test_cheap_checked_commands_run():
    failures = []
    for where, run, lines in checked_blocks():
        if not run:
            continue
        for line in lines:
            for words in split_commands(line):
                if words[0] == "reterm":
                    words = [str(BIN / "reterm") if (BIN / "reterm").exists() else "reterm", *words[1:]]
                elif words[0] in ("python", "python3"):
                    words = [sys.executable, *words[1:]]
                proc = subprocess.run(words, cwd=ROOT, capture_output=True, text=True, timeout=120)
                if proc.returncode != 0:
                    failures.append(f"{where}: {line}\n    exit {proc.returncode}: {(proc.stderr or proc.stdout)[-500:]}")
    assert not failures, "checked commands that fail when run:\n" + "\n".join(failures)


def test_the_checker_catches_what_it_is_for():
    """A renamed flag, a wrong choice, a missing subcommand or file: each is reported."""
    assert problems_with(["reterm", "eval", "--suite", "basic", "-k", "4"]) == []
    assert problems_with(["reterm", "eval", "--samples", "4"])
    assert problems_with(["reterm", "eval", "--policy", "nonsense"])
    assert problems_with(["reterm", "evaluate"])
    assert problems_with(["python", "-m", "data_pipeline.build", "--attempt", "x"])
    assert problems_with(["python", "-m", "data_pipeline.collect", "--split", "nonsense", "--out", "x"])
    assert problems_with(["bash", "scripts/train.sh", "--plans"])
    assert problems_with(["accelerate", "launch", "--config_file", "recipes/accelerate/nonsense.yaml", "recipes/x.py"])
    assert split_commands("QUICK=1 bash scripts/train.sh >> log 2>&1 < /dev/null &") == [
        ["QUICK=1", "bash", "scripts/train.sh"]]
