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

if not git("rev-parse", "--verify", "-q", "refs/heads/fix/backoff-s-58", ok=True):
    fail("there is no branch fix/backoff-s-58")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/fix/backoff-s-58").split()[1:]
if parents != ["0ec5f7b2bf44dc844aa710874e8fe480699af044"]:
    fail(f"fix/backoff-s-58 must hold exactly one new commit on top of 0ec5f7b2; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/fix/backoff-s-58").strip() != "Set backoff_s to 83":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/fix/backoff-s-58", {**{'settings.conf': 'poll_ms = 10\nbackoff_s = 9\nport = 77\nmax_conn = 48\nworkers = 47\nretries = 5\n', 'README.md': '# orbit service\nRelease v1.2.1\n'}, "settings.conf": 'poll_ms = 10\nbackoff_s = 83\nport = 77\nmax_conn = 48\nworkers = 47\nretries = 5\n'})
for ref, sha in {'refs/tags/v1.1': '999cdf7462064b978741dcade3f107e2ffe159b8', 'refs/tags/v1.2': '2a7f4bdbca9df2864bae1a15c1fd388a6aab7bc6', 'refs/tags/v1.3': '394f6be9a2f3cd74927062373b5a7f8d1476977b', 'refs/tags/v1.4': '7e2e9b603f04a32849a370afcc167c34cc2a10ba', 'refs/heads/main': '7e2e9b603f04a32849a370afcc167c34cc2a10ba', 'refs/heads/release/1.2.x': '0ec5f7b2bf44dc844aa710874e8fe480699af044'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
