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

if not git("merge-base", "--is-ancestor", "5eac2b27978e5f18d64bc16b20cc41625f6aab99", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "5eac2b27978e5f18d64bc16b20cc41625f6aab99":
    fail("main has no new commit")
same_tree("refs/heads/main", {'limits.ini': 'max_conn = 62\ncache_mb = 60\nbackoff_s = 28\nworkers = 69\nretries = 64\nbatch_size = 55\ntimeout = 26\nport = 90\nqueue_len = 53\n', 'README.md': '# orbit\n- 1.1.0: lumen fixes\n- 1.3.0: quartz fixes\n- 1.5.0: alpha fixes\n- 1.6.0: ember fixes\n', 'VERSION': '1.6.0\n'})
print("PASS")
