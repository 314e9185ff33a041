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
if parents != ["e34f16d39a55e9f98bc95ca55d4264d64789fefa", "fa67356fb0c630589396d44b2a2b8ffafc2c88d7"]:
    fail(f"main's tip must be a merge commit of main (e34f16d3) and feat/indigo (fa67356f); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'app.conf': 'cache_mb = 70\nbackoff_s = 21\nqueue_len = 32\nretries = 54\npoll_ms = 22\nport = 87\ntimeout = 56\nworkers = 91\n', 'README.md': '# juniper\n\nMaintained by the harbor team.\n'})
if read("/app/repo/app.conf") != 'cache_mb = 70\nbackoff_s = 21\nqueue_len = 32\nretries = 54\npoll_ms = 22\nport = 87\ntimeout = 56\nworkers = 91\n':
    fail("app.conf in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feat/indigo").strip() != "fa67356fb0c630589396d44b2a2b8ffafc2c88d7":
    fail("feat/indigo was changed")
print("PASS")
