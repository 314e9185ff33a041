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
if parents != ["725284efc88a79420aac5430f44a8707cacb4551", "aea3b437f1ca0c5fd02d7616c955b1f97bfe7e33"]:
    fail(f"main's tip must be a merge commit of main (725284ef) and feat/cedar (aea3b437); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'app.conf': 'port = 82\nbatch_size = 43\nbackoff_s = 31\ntimeout = 65\nworkers = 4\nqueue_len = 90\ncache_mb = 90\nmax_conn = 20\n', 'README.md': '# alpha\n\nMaintained by the harbor team.\n'})
if read("/app/repo/app.conf") != 'port = 82\nbatch_size = 43\nbackoff_s = 31\ntimeout = 65\nworkers = 4\nqueue_len = 90\ncache_mb = 90\nmax_conn = 20\n':
    fail("app.conf in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feat/cedar").strip() != "aea3b437f1ca0c5fd02d7616c955b1f97bfe7e33":
    fail("feat/cedar was changed")
print("PASS")
