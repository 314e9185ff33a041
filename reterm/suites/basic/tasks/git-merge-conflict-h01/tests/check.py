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
if parents != ["625f5086068ddc2ef7fcc51759f865248eaf2848", "ffe0d5acbd8bd14a7bca41fc7e33ba20fb437650"]:
    fail(f"main's tip must be a merge commit of main (625f5086) and topic/harbor (ffe0d5ac); "
         f"its parents: {parents}")
same_tree("refs/heads/main", {'CHANGELOG.md': '# Changes\n\n## Unreleased\n- Fix alpha parsing\n- Add maple export\n- Bravo support\n- Nova support\n- Kepler support\n', 'README.md': '# cedar\n\nMaintained by the tango team.\n'})
if read("/app/repo/CHANGELOG.md") != '# Changes\n\n## Unreleased\n- Fix alpha parsing\n- Add maple export\n- Bravo support\n- Nova support\n- Kepler support\n':
    fail("CHANGELOG.md in the work tree is not the resolved content")
if os.path.exists("/app/repo/.git/MERGE_HEAD"):
    fail("the merge is still in progress")
if git("rev-parse", "refs/heads/topic/harbor").strip() != "ffe0d5acbd8bd14a7bca41fc7e33ba20fb437650":
    fail("topic/harbor was changed")
print("PASS")
