"""Families of kind "git": branches, merges with a conflict, history. See reterm/suites/families/__init__.py.

Each repository is built by the Dockerfile in /app/repo (as whoever builds the image, the same user the shell and the
verifier run as on both backends): its first commit is the files COPY brings, every later step a RUN line. Author and
dates are fixed, so every commit id is computed here (`History`), the checks name exact commits, and the build itself
fails if git disagrees with the ids computed."""

from __future__ import annotations

import hashlib
import random
import shlex

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d

AUTHOR = "Robin Vale <robin.vale@example.com>"
REPO = "/app/repo"
# The checks' git: `safe.directory` on the command line, so no owner of the files can make git refuse the repository.
GIT = d("""
    import subprocess

    def git(*args, ok=False):
        r = subprocess.run(["git", "-c", "safe.directory=*", "-C", "/app/repo", *args], capture_output=True, text=True)
        if ok:
            return r.returncode == 0
        if r.returncode != 0:
            fail(f"git {' '.join(args)} failed: {r.stderr.strip()[-300:]}")
        return r.stdout

    def same_tree(rev, files):
        names = git("ls-tree", "-r", "--name-only", rev).split()
        if sorted(names) != sorted(files):
            fail(f"{rev} holds files {names}, expected {sorted(files)}")
        for name, content in files.items():
            if git("show", f"{rev}:{name}") != content:
                fail(f"{name} at {rev} does not have the expected content")

    """)


def _obj(kind: str, data: bytes) -> str:
    return hashlib.sha1(f"{kind} {len(data)}\0".encode() + data).hexdigest()


class History:
    """A repository's history as the Dockerfile builds it, with the id of every commit (flat trees only)."""

    def __init__(self, rng: random.Random, files: dict[str, str], message: str):
        self.t = 1_700_000_000 + rng.randint(0, 10**7)
        self.tree, self.branch, self.tips, self.trees = dict(files), "main", {}, {}
        self.first = dict(files)
        self.runs = [f"git init -q -b main {REPO}"]
        self._commit(message, [f"cd {REPO}"])

    def _commit(self, message: str, steps: list[str]) -> str:
        self.t += 3600
        date = f"'{self.t} +0000'"
        name, email = AUTHOR[:-1].split(" <")
        self.runs.append(" && ".join(steps + ["git add -A", f"GIT_AUTHOR_DATE={date} GIT_COMMITTER_DATE={date} git -c "
                                              f"user.name='{name}' -c user.email={email} commit -q -m "
                                              f"{shlex.quote(message)}"]))
        tree = _obj("tree", b"".join(b"100644 " + n.encode() + b"\0" + bytes.fromhex(_obj("blob", c.encode()))
                                     for n, c in sorted(self.tree.items())))
        parent = self.tips.get(self.branch)
        body = (f"tree {tree}\n" + (f"parent {parent}\n" if parent else "") + f"author {AUTHOR} {self.t} +0000\n"
                f"committer {AUTHOR} {self.t} +0000\n\n{message}\n")
        sha = self.tips[self.branch] = _obj("commit", body.encode())
        self.trees[sha] = dict(self.tree)
        return sha

    def write(self, changes: dict[str, str]) -> list[str]:
        """Shell steps that write `changes` (name -> content ending in a newline) into the work tree."""
        self.tree.update(changes)
        return [f"printf '%s\\n' {' '.join(shlex.quote(line) for line in c.splitlines())} > {shlex.quote(n)}"
                for n, c in changes.items()]

    def commit(self, message: str, changes: dict[str, str]) -> str:
        return self._commit(message, [f"cd {REPO}"] + self.write(changes))

    def checkout(self, branch: str, start: str | None = None) -> None:
        self.runs.append(f"git -C {REPO} checkout -q " + (f"-b {branch} {start}" if start else branch))
        self.branch = branch
        if start:
            self.tips[branch] = start
        self.tree = dict(self.trees[self.tips[branch]])

    def dockerfile(self, extra: list[str] = ()) -> str:
        """The Dockerfile: the history, then `extra` RUN lines, then a check of every branch's commit id."""
        checks = [f'test "$(git -C {REPO} rev-parse {b})" = {s}' for b, s in sorted(self.tips.items())]
        return DOCKERFILE + "".join(f"RUN {r}\n" for r in [*self.runs, *extra, " && ".join(checks)])

    def files(self) -> dict:
        return {f"environment/files/repo/{n}": (c, False) for n, c in self.first.items()}


def _local_identity() -> str:
    return f"git -C {REPO} config user.name 'Casey Dev' && git -C {REPO} config user.email casey.dev@example.com"


def _settings(rng: random.Random, n: int) -> dict[str, str]:
    keys = rng.sample(["timeout", "retries", "workers", "cache_mb", "port", "batch_size", "max_conn", "poll_ms",
                       "queue_len", "backoff_s"], n)
    return {k: str(rng.randint(2, 90)) for k in keys}


def _ini(settings: dict[str, str]) -> str:
    return "".join(f"{k} = {v}\n" for k, v in settings.items())


def _lines(*parts: list[str]) -> str:
    return "".join(line + "\n" for part in parts for line in part)


def _new_value(rng: random.Random, old: str) -> str:
    return rng.choice([v for v in map(str, range(2, 120)) if v != old])


def git_branch(rng: random.Random):
    conf = rng.choice(["app.conf", "service.ini", "settings.conf"])
    settings = _settings(rng, 6)
    target = rng.choice(list(settings))
    h = History(rng, {conf: _ini(settings), "README.md": f"# {rng.choice(WORDS)} service\n"}, "Initial import")
    tags, confs = {}, {}
    for i in range(1, rng.randint(4, 6)):  # releases on main, each tagged; never touching the target key
        key = rng.choice([k for k in settings if k != target])
        settings[key] = _new_value(rng, settings[key])
        tags[f"v1.{i}"] = h.commit(f"Set {key} to {settings[key]}", {conf: _ini(settings)})
        confs[f"v1.{i}"] = dict(settings)
        h.runs.append(f"git -C {REPO} tag v1.{i} {tags[f'v1.{i}']}")
    base_tag = rng.choice(sorted(tags)[:-1])
    kind = rng.choice(["tag", "commit", "branch"])
    base = tags[base_tag]
    if kind == "tag":
        where = f"the tag `{base_tag}`"
    elif kind == "commit":
        where = f"the commit `{base[:8]}`"
    else:
        release = f"release/{base_tag[1:]}.x"
        h.checkout(release, base)
        base = h.commit(f"Prepare {base_tag[1:]}.1", {"README.md": h.tree["README.md"] + f"Release {base_tag}.1\n"})
        h.checkout("main")
        where = f"the tip of the branch `{release}`"
    refs = {**{f"refs/tags/{t}": s for t, s in tags.items()}, **{f"refs/heads/{b}": s for b, s in h.tips.items()}}
    branch = f"{rng.choice(['hotfix', 'fix', 'patch'])}/{target.replace('_', '-')}-{rng.randint(2, 99)}"
    value = _new_value(rng, settings[target])
    want = _ini({**confs[base_tag], target: value})
    message = f"Set {target} to {value}"
    files = {**h.files(),
             "environment/Dockerfile": (h.dockerfile([_local_identity()]), False),
             "solution/solve.sh": (d(f"""
                 #!/bin/bash
                 set -e
                 cd {REPO}
                 git checkout -q -b {branch} {base}
                 sed -i 's/^{target} = .*/{target} = {value}/' {conf}
                 git commit -q -am '{message}'
                 """), True),
             "tests/check.py": (check_py(GIT + d(f"""
                 if not git("rev-parse", "--verify", "-q", "refs/heads/{branch}", ok=True):
                     fail("there is no branch {branch}")
                 parents = git("rev-list", "--parents", "-n", "1", "refs/heads/{branch}").split()[1:]
                 if parents != ["{base}"]:
                     fail(f"{branch} must hold exactly one new commit on top of {base[:8]}; its parents: {{parents}}")
                 if git("log", "-1", "--format=%s", "refs/heads/{branch}").strip() != "{message}":
                     fail("the commit message is not the one asked for")
                 same_tree("refs/heads/{branch}", {{**{h.trees[base]!r}, "{conf}": {want!r}}})
                 for ref, sha in {refs!r}.items():
                     if git("rev-parse", ref).strip() != sha:
                         fail(f"{{ref}} was moved or removed")
                 """)), False),
             }
    instruction = (f"In the git repository `{REPO}`, create a branch `{branch}` that starts at {where} (not at "
                   f"`main`). On it, commit one change: in `{conf}` set `{target}` to `{value}` (nothing else), with "
                   f"the commit message `{message}`. Leave `main` and every other branch and tag where they are.\n")
    return instruction, files, {"category": "wrong_branch", "defect": kind}


def git_merge_conflict(rng: random.Random):
    feature = f"{rng.choice(['feature', 'topic', 'feat'])}/{rng.choice(WORDS)}"
    kind = rng.choice(["sorted_union", "take_feature", "changelog"])
    words = rng.sample(WORDS, 9)
    if kind == "sorted_union":
        name = rng.choice(["requirements.txt", "packages.txt", "allowlist.txt"])
        entries = [f"{w}=={rng.randint(1, 9)}.{rng.randint(0, 20)}" for w in words]
        base, ours, theirs = sorted(entries[:4]), entries[4:4 + rng.randint(1, 2)], entries[6:6 + rng.randint(1, 3)]
        start, main_side, feat_side = _lines(base), _lines(base, ours), _lines(base, theirs)
        want = _lines(sorted(base + ours + theirs))
        rule = f"`{name}` must hold every entry of both sides once, one per line, sorted alphabetically"
    elif kind == "take_feature":
        name = rng.choice(["settings.ini", "app.conf", "limits.conf"])
        settings = _settings(rng, 8)
        keys = list(settings)
        key = keys[rng.randint(3, 4)]
        ours, theirs = _new_value(rng, settings[key]), _new_value(rng, settings[key])
        while theirs == ours:
            theirs = _new_value(rng, settings[key])
        top, bottom = _new_value(rng, settings[keys[0]]), _new_value(rng, settings[keys[7]])
        start = _ini(settings)
        main_side = _ini({**settings, keys[0]: top, key: ours})
        feat_side = _ini({**settings, key: theirs, keys[7]: bottom})
        want = _ini({**settings, keys[0]: top, key: theirs, keys[7]: bottom})
        rule = (f"`{name}` must keep every change of both sides, and `{key}` must take the value from `{feature}` "
                f"({theirs})")
    else:
        name = rng.choice(["CHANGELOG.md", "CHANGES.md", "NEWS.md"])
        old = [f"- {w.capitalize()} support" for w in words[:3]]
        ours, theirs = f"- Fix {words[3]} parsing", f"- Add {words[4]} export"
        head = ["# Changes", "", "## Unreleased"]
        start, main_side, want = _lines(head, old), _lines(head, [ours], old), _lines(head, [ours, theirs], old)
        feat_side = _lines(head, [theirs], old)
        rule = (f"`{name}` must keep both new entries under `## Unreleased`, the one from `main` first, then the "
                f"one from `{feature}`")
    readme = f"# {words[5]}\n"
    extra = f"{words[6]}.md"
    h = History(rng, {name: start, "README.md": readme}, "Initial import")
    h.checkout(feature, h.tips["main"])
    h.commit(f"Update {name} for {feature.split('/')[1]}", {name: feat_side})
    if rng.random() < 0.5:
        h.commit(f"Document {words[6]}", {extra: f"# {words[6].capitalize()}\n\nNotes on {words[6]}.\n"})
    h.checkout("main")
    h.commit(f"Update {name}", {name: main_side})
    h.commit("Expand the README", {"README.md": readme + f"\nMaintained by the {words[7]} team.\n"})
    main_tip, feat_tip = h.tips["main"], h.tips[feature]
    merged = {**h.trees[feat_tip], **h.trees[main_tip], name: want}
    files = {**h.files(),
             "environment/Dockerfile": (h.dockerfile([_local_identity()]), False),
             "solution/solve.sh": (d(f"""
                 #!/bin/bash
                 set -e
                 cd {REPO}
                 git merge -q {feature} || true
                 cat > {name} <<'EOF'
                 {{want}}EOF
                 git add {name}
                 git commit -q --no-edit
                 """).replace("{want}", want), True),
             "tests/check.py": (check_py(GIT + d(f"""
                 parents = git("rev-list", "--parents", "-n", "1", "refs/heads/main").split()[1:]
                 if parents != ["{main_tip}", "{feat_tip}"]:
                     fail(f"main's tip must be a merge commit of main ({main_tip[:8]}) and {feature} ({feat_tip[:8]}); "
                          f"its parents: {{parents}}")
                 same_tree("refs/heads/main", {merged!r})
                 if read("{REPO}/{name}") != {want!r}:
                     fail("{name} in the work tree is not the resolved content")
                 if os.path.exists("{REPO}/.git/MERGE_HEAD"):
                     fail("the merge is still in progress")
                 if git("rev-parse", "refs/heads/{feature}").strip() != "{feat_tip}":
                     fail("{feature} was changed")
                 """)), False),
             }
    instruction = (f"In the git repository `{REPO}`, merge the branch `{feature}` into `main` and complete the merge "
                   f"with a merge commit on `main`. Both branches changed `{name}`: in the result, {rule}. Keep every "
                   f"other change of both branches, and leave `{feature}` as it is.\n")
    return instruction, files, {"category": "merge_conflict", "defect": kind}


def git_identity(rng: random.Random):
    first, last = rng.choice(["Ada", "Noor", "Kenji", "Marta", "Tomas", "Lena", "Ravi", "Ines"]), rng.choice(
        ["Moreno", "Okafor", "Lindqvist", "Sato", "Brandt", "Costa", "Novak", "Haddad"])
    name, email = f"{first} {last}", f"{first.lower()}.{last.lower()}@{rng.choice(['example.org', 'corp.test'])}"
    notes, new = rng.choice(["NOTES.md", "TODO.md", "notes.txt"]), f"{rng.choice(WORDS)}.txt"
    items = rng.sample(WORDS, 6)
    h = History(rng, {notes: "".join(f"- {w}\n" for w in items[:2]), "README.md": f"# {items[5]}\n"}, "Start notes")
    h.commit(f"Add {items[2]}", {notes: h.tree[notes] + f"- {items[2]}\n"})
    tip = h.tips["main"]
    pending = {notes: h.tree[notes] + f"- {items[3]}\n", new: f"{items[4]} {rng.randint(10, 99)}\n"}
    staged, kind = rng.random() < 0.5, rng.choice(["no_identity", "name_only"])
    extra = [" && ".join([f"cd {REPO}", *h.write(pending)] + (["git add -A"] if staged else []))]
    if kind == "name_only":
        extra.append(f"git -C {REPO} config user.name {shlex.quote(name)}")
    message = f"Add {items[3]} and {new}"
    files = {**h.files(),
             "environment/Dockerfile": (h.dockerfile(extra), False),
             "solution/solve.sh": (d(f"""
                 #!/bin/bash
                 set -e
                 cd {REPO}
                 git config user.name '{name}'
                 git config user.email '{email}'
                 git add -A
                 git commit -q -m '{message}'
                 """), True),
             "tests/check.py": (check_py(GIT + d(f"""
                 if git("rev-list", "--parents", "-n", "1", "refs/heads/main").split()[1:] != ["{tip}"]:
                     fail("main must hold exactly one new commit on top of {tip[:8]}")
                 got = git("log", "-1", "--format=%an%n%ae%n%cn%n%ce%n%s", "refs/heads/main").splitlines()
                 if got != {[name, email, name, email, message]!r}:
                     fail(f"the commit's author, committer and subject are {{got}}")
                 same_tree("refs/heads/main", {h.tree!r})
                 config = dict(line.partition("=")[::2] for line in git("config", "--local", "--list").splitlines())
                 for key, want in (("user.name", "{name}"), ("user.email", "{email}")):
                     if config.get(key) != want:
                         fail(f"the repository's own configuration does not set {{key}} to {{want}}")
                 """)), False),
             }
    instruction = (f"In the git repository `{REPO}`, commit all pending changes (the edit to `{notes}` and the new "
                   f"file `{new}`) on `main` with the message `{message}`. The commit's author and committer must be "
                   f"`{name} <{email}>`: set this identity in the repository's own git configuration, not the global "
                   f"one.\n")
    return instruction, files, {"category": "git_identity", "defect": f"{kind}_{'staged' if staged else 'unstaged'}"}


def git_revert(rng: random.Random):
    conf = rng.choice(["config.ini", "server.conf", "limits.ini"])
    settings = _settings(rng, 9)
    keys = list(settings)
    n = rng.randint(4, 6)
    bug_at = rng.randint(1, n - 2)  # never the newest commit
    bug_key = keys[rng.randint(3, 5)]
    good, bad = settings[bug_key], str(int(settings[bug_key]) * rng.choice([100, 1000]))
    far = [k for i, k in enumerate(keys) if abs(i - keys.index(bug_key)) >= 3]
    h = History(rng, {conf: _ini(settings), "README.md": f"# {rng.choice(WORDS)}\n", "VERSION": "1.0.0\n"},
                "Initial import")
    for i in range(n):
        if i == bug_at:
            settings[bug_key] = bad
            h.commit(f"Tune {bug_key}", {conf: _ini(settings)})
        elif rng.random() < 0.6:
            key = rng.choice(far)
            settings[key] = _new_value(rng, settings[key])
            h.commit(f"Tune {key}", {conf: _ini(settings)})
        else:
            h.commit(f"Release 1.{i + 1}.0", {"VERSION": f"1.{i + 1}.0\n", "README.md": h.tree["README.md"] +
                                            f"- 1.{i + 1}.0: {rng.choice(WORDS)} fixes\n"})
    tip = h.tips["main"]
    want = {**h.tree, conf: _ini({**settings, bug_key: good})}
    files = {**h.files(),
             "environment/Dockerfile": (h.dockerfile([_local_identity()]), False),
             "solution/solve.sh": (d(f"""
                 #!/bin/bash
                 set -e
                 cd {REPO}
                 bad=$(git log --format=%H -S '{bug_key} = {bad}' -- {conf} | tail -n 1)
                 git revert --no-edit "$bad"
                 """), True),
             "tests/check.py": (check_py(GIT + d(f"""
                 if not git("merge-base", "--is-ancestor", "{tip}", "refs/heads/main", ok=True):
                     fail("main's history was rewritten: its earlier commits are no longer all in it")
                 if git("rev-parse", "refs/heads/main").strip() == "{tip}":
                     fail("main has no new commit")
                 same_tree("refs/heads/main", {want!r})
                 """)), False),
             }
    instruction = (f"In the git repository `{REPO}`, one commit on `main` set `{bug_key}` in `{conf}` from `{good}` "
                   f"to `{bad}`, which is wrong. Undo exactly that commit with a new commit on top of `main`, keeping "
                   f"every change made before and after it. Do not rewrite history: every existing commit must stay "
                   f"in `main`'s history.\n")
    return instruction, files, {"category": "git_history", "defect": f"bug_at_{bug_at}_of_{n}"}


FAMILIES = [
    Family("git-branch", git_branch, kind="git"),
    Family("git-merge-conflict", git_merge_conflict, kind="git"),
    Family("git-identity", git_identity, kind="git"),
    Family("git-revert", git_revert, kind="git"),
]
