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
if parents != ["641f87376e53837f620b38f8f4d9263b8a9b9a48", "aa7fd3afcc8e566aa56f376989e568e28b9aa3c6"]:
    fail(f"main's tip must be a merge commit of main (641f8737) and feature/kepler (aa7fd3af); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'allowlist.txt': 'delta==5.7\nindigo==8.19\nkepler==6.1\npixel==9.1\nquartz==6.10\nsierra==3.10\nvertex==6.18\n', 'README.md': '# nova\n\nMaintained by the pixel team.\n'})
if read("/app/repo/allowlist.txt") != 'delta==5.7\nindigo==8.19\nkepler==6.1\npixel==9.1\nquartz==6.10\nsierra==3.10\nvertex==6.18\n':
    fail("allowlist.txt in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feature/kepler").strip() != "aa7fd3afcc8e566aa56f376989e568e28b9aa3c6":
    fail("feature/kepler was changed")
print("PASS")
