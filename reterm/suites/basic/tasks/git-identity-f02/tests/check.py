import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

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

if git("rev-list", "--parents", "-n", "1", "refs/heads/main").split()[1:] != ["6d7e396c6dca456838fc15eb5c94002a8896ed87"]:
    fail("main must hold exactly one new commit on top of 6d7e396c")
got = git("log", "-1", "--format=%an%n%ae%n%cn%n%ce%n%s", "refs/heads/main").splitlines()
if got != ['Lena Lindqvist', 'lena.lindqvist@example.org', 'Lena Lindqvist', 'lena.lindqvist@example.org', 'Add lumen and delta.txt']:
    fail(f"the commit's author, committer and subject are {got}")
same_tree("refs/heads/main", {'notes.txt': '- tango\n- juniper\n- delta\n- lumen\n', 'README.md': '# ember\n', 'delta.txt': 'fjord 84\n'})
config = dict(line.partition("=")[::2] for line in git("config", "--local", "--list").splitlines())
for key, want in (("user.name", "Lena Lindqvist"), ("user.email", "lena.lindqvist@example.org")):
    if config.get(key) != want:
        fail(f"the repository's own configuration does not set {key} to {want}")
print("PASS")
