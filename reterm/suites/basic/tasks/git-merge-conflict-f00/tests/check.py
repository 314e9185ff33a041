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
if parents != ["0510a17b59edd05280e1be1b2acb8f8bdf791e00", "e012dfb7a442ed37b02b54aa7184e492b38bbc8b"]:
    fail(f"main's tip must be a merge commit of main (0510a17b) and feat/juniper (e012dfb7); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'allowlist.txt': 'cedar==5.6\ndelta==5.20\nember==5.1\nharbor==5.19\nindigo==3.9\nmaple==1.19\nnova==4.15\norbit==5.20\nquartz==9.13\n', 'README.md': '# orbit\n\nMaintained by the harbor team.\n'})
if read("/app/repo/allowlist.txt") != 'cedar==5.6\ndelta==5.20\nember==5.1\nharbor==5.19\nindigo==3.9\nmaple==1.19\nnova==4.15\norbit==5.20\nquartz==9.13\n':
    fail("allowlist.txt in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feat/juniper").strip() != "e012dfb7a442ed37b02b54aa7184e492b38bbc8b":
    fail("feat/juniper was changed")
print("PASS")
