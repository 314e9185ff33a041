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

if not git("rev-parse", "--verify", "-q", "refs/heads/patch/poll-ms-24", ok=True):
    fail("there is no branch patch/poll-ms-24")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/patch/poll-ms-24").split()[1:]
if parents != ["24ef979b0c609f6f1898ba8d7845c0c753288151"]:
    fail(f"patch/poll-ms-24 must hold exactly one new commit on top of 24ef979b; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/patch/poll-ms-24").strip() != "Set poll_ms to 97":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/patch/poll-ms-24", {**{'app.conf': 'port = 68\npoll_ms = 78\nqueue_len = 48\ncache_mb = 107\nworkers = 14\nmax_conn = 98\n', 'README.md': '# umber service\nRelease v1.2.1\n'}, "app.conf": 'port = 68\npoll_ms = 97\nqueue_len = 48\ncache_mb = 107\nworkers = 14\nmax_conn = 98\n'})
for ref, sha in {'refs/tags/v1.1': '7261054601d0551089ae6570761dbb5f87087d54', 'refs/tags/v1.2': 'ecae25126b5f3fc1c46961dbede3c15b0d05eb6d', 'refs/tags/v1.3': '18b33e05f7af74810efe5885fc52531cc670c7a5', 'refs/heads/main': '18b33e05f7af74810efe5885fc52531cc670c7a5', 'refs/heads/release/1.2.x': '24ef979b0c609f6f1898ba8d7845c0c753288151'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
