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
if parents != ["4524716d0a39622cf5f8895e53cb0b5eed59bb15", "7f9cd180612ded249921295fd6171d8ffd92c3e6"]:
    fail(f"main's tip must be a merge commit of main (4524716d) and feature/cedar (7f9cd180); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'packages.txt': 'gamma==2.12\njuniper==7.19\nlumen==8.1\npixel==2.10\nraven==6.14\nsierra==3.8\ntango==6.9\nvertex==2.13\n', 'README.md': '# cedar\n\nMaintained by the pixel team.\n', 'sierra.md': '# Sierra\n\nNotes on sierra.\n'})
if read("/app/repo/packages.txt") != 'gamma==2.12\njuniper==7.19\nlumen==8.1\npixel==2.10\nraven==6.14\nsierra==3.8\ntango==6.9\nvertex==2.13\n':
    fail("packages.txt in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feature/cedar").strip() != "7f9cd180612ded249921295fd6171d8ffd92c3e6":
    fail("feature/cedar was changed")
print("PASS")
