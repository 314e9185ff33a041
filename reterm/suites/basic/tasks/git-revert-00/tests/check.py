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

if not git("merge-base", "--is-ancestor", "969410e8940ace65572f0d3aa96902be16cbb417", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "969410e8940ace65572f0d3aa96902be16cbb417":
    fail("main has no new commit")
same_tree("refs/heads/main", {'config.ini': 'workers = 87\ncache_mb = 40\nport = 27\nretries = 51\nmax_conn = 37\nqueue_len = 15\nbatch_size = 48\npoll_ms = 60\nbackoff_s = 64\n', 'README.md': '# orbit\n- 1.1.0: raven fixes\n- 1.5.0: delta fixes\n', 'VERSION': '1.5.0\n'})
print("PASS")
