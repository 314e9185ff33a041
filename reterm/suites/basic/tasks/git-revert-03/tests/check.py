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

if not git("merge-base", "--is-ancestor", "597aee127200962eaff8a5db67b1cf7719ac78d3", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "597aee127200962eaff8a5db67b1cf7719ac78d3":
    fail("main has no new commit")
same_tree("refs/heads/main", {'limits.ini': 'retries = 91\npoll_ms = 4\nqueue_len = 57\nmax_conn = 16\nbatch_size = 45\nworkers = 76\ncache_mb = 7\ntimeout = 82\nbackoff_s = 45\n', 'README.md': '# delta\n- 1.3.0: juniper fixes\n', 'VERSION': '1.3.0\n'})
print("PASS")
