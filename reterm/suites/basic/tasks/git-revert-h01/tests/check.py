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

if not git("merge-base", "--is-ancestor", "60ec3c9167f3682850f2bb41f1f572b899d9683b", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "60ec3c9167f3682850f2bb41f1f572b899d9683b":
    fail("main has no new commit")
same_tree("refs/heads/main", {'server.conf': 'port = 10\ncache_mb = 47\ntimeout = 67\nbatch_size = 40\nretries = 38\nqueue_len = 39\npoll_ms = 78\nmax_conn = 50\nworkers = 50\n', 'README.md': '# lumen\n- 1.3.0: bravo fixes\n', 'VERSION': '1.3.0\n'})
print("PASS")
