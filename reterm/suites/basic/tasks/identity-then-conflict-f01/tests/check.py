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
def git(*args):
    r = subprocess.run(["git", "-c", "safe.directory=*", "-C", "/app/bravo-site", *args], capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail(f"git {' '.join(args)} failed: {r.stderr.strip()}")
    return r.stdout
parents = git("log", "-1", "--format=%P", "main").split()
if git("rev-parse", "--abbrev-ref", "HEAD").strip() != "main" or len(parents) != 2:
    fail("the repository is not on main, or main's last commit is not a merge")
if git("log", "-1", "--format=%s", parents[0]).strip() != 'main: vertex fixes':
    fail("the merge's first parent is not main's previous commit")
if parents[1] != git("rev-parse", "feature").strip() or \
        git("log", "-1", "--format=%s", "feature").strip() != 'feature: pixel support':
    fail("the merge's second parent is not the feature branch")
if git("log", "-1", "--format=%an <%ae>", "main").strip() != 'Ada Lane <ada@maple.example>':
    fail("the merge commit has the wrong author")
if git("show", "main:CHANGES") != 'ember-75\nbravo-87\nnova-9\nquartz-12\nraven-59\nindigo-92\nmaple-96\nfjord-65\nvertex-9\n':
    fail("CHANGES is not resolved as asked")
if git("show", "main:docs/bravo.md") != '# pixel\n\nAdded on the feature branch.\n':
    fail("the feature branch's other changes are missing")
if git("status", "--porcelain").strip():
    fail("the work tree is not clean")
print("PASS")
