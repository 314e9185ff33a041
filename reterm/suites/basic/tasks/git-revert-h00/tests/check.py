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

if not git("merge-base", "--is-ancestor", "0dc38327e3f8098723e14ee138e9529d9dc041fb", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "0dc38327e3f8098723e14ee138e9529d9dc041fb":
    fail("main has no new commit")
same_tree("refs/heads/main", {'config.ini': 'backoff_s = 72\npoll_ms = 70\nport = 80\nqueue_len = 59\nretries = 76\ntimeout = 27\nmax_conn = 81\ncache_mb = 49\nbatch_size = 96\n', 'README.md': '# sierra\n- 1.1.0: nova fixes\n- 1.5.0: fjord fixes\n', 'VERSION': '1.5.0\n'})
print("PASS")
