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
if parents != ["4e13ecb173343abd347e60701f4126d221d87af9", "ea23e47f1534ae661fede35dc1280633ac3269a5"]:
    fail(f"main's tip must be a merge commit of main (4e13ecb1) and topic/lumen (ea23e47f); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'settings.ini': 'batch_size = 21\nport = 44\nbackoff_s = 76\npoll_ms = 90\nretries = 65\ncache_mb = 63\ntimeout = 82\nmax_conn = 71\n', 'README.md': '# pixel\n\nMaintained by the alpha team.\n', 'umber.md': '# Umber\n\nNotes on umber.\n'})
if read("/app/repo/settings.ini") != 'batch_size = 21\nport = 44\nbackoff_s = 76\npoll_ms = 90\nretries = 65\ncache_mb = 63\ntimeout = 82\nmax_conn = 71\n':
    fail("settings.ini in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/topic/lumen").strip() != "ea23e47f1534ae661fede35dc1280633ac3269a5":
    fail("topic/lumen was changed")
print("PASS")
