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
if parents != ["e8c1b76ba1787b1c0f483f99711e0c1f6c54cf98", "3e94ec880ba26422f8236c45fd1200f2517bf81e"]:
    fail(f"main's tip must be a merge commit of main (e8c1b76b) and feature/orbit (3e94ec88); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'NEWS.md': '# Changes\n\n## Unreleased\n- Fix cedar parsing\n- Add raven export\n- Vertex support\n- Fjord support\n- Nova support\n', 'README.md': '# bravo\n\nMaintained by the gamma team.\n'})
if read("/app/repo/NEWS.md") != '# Changes\n\n## Unreleased\n- Fix cedar parsing\n- Add raven export\n- Vertex support\n- Fjord support\n- Nova support\n':
    fail("NEWS.md in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/feature/orbit").strip() != "3e94ec880ba26422f8236c45fd1200f2517bf81e":
    fail("feature/orbit was changed")
print("PASS")
