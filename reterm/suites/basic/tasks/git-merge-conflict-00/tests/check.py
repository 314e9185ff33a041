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

parents = git("rev-list", "--parents", "-n", "1", "refs/heads/main").split()[1:]
if parents != ["f8dd556c1dfd015112aba70439da084ca714e97d", "1101e55e4efd2851afd048e3f32040277327d375"]:
    fail(f"main's tip must be a merge commit of main (f8dd556c) and feature/fjord (1101e55e); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'limits.conf': 'queue_len = 98\nbackoff_s = 35\ncache_mb = 44\nport = 90\ntimeout = 71\nmax_conn = 78\nretries = 81\nbatch_size = 60\n', 'README.md': '# tango\n\nMaintained by the maple team.\n'})
if read("/app/repo/limits.conf") != 'queue_len = 98\nbackoff_s = 35\ncache_mb = 44\nport = 90\ntimeout = 71\nmax_conn = 78\nretries = 81\nbatch_size = 60\n':
    fail("limits.conf in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feature/fjord").strip() != "1101e55e4efd2851afd048e3f32040277327d375":
    fail("feature/fjord was changed")
print("PASS")
