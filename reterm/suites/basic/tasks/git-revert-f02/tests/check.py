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

if not git("merge-base", "--is-ancestor", "69a7fa50a3d2b01f35500d471656f4ba1dc59e0b", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "69a7fa50a3d2b01f35500d471656f4ba1dc59e0b":
    fail("main has no new commit")
same_tree("refs/heads/main", {'config.ini': 'port = 73\ncache_mb = 11\nbackoff_s = 19\ntimeout = 49\nbatch_size = 3\npoll_ms = 11\nmax_conn = 32\nworkers = 20\nqueue_len = 53\n', 'README.md': '# umber\n- 1.1.0: umber fixes\n- 1.3.0: indigo fixes\n', 'VERSION': '1.3.0\n'})
print("PASS")
