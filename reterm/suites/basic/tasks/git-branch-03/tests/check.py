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

if not git("rev-parse", "--verify", "-q", "refs/heads/hotfix/workers-64", ok=True):
    fail("there is no branch hotfix/workers-64")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/hotfix/workers-64").split()[1:]
if parents != ["d3d801d197c417ca13c5b6f62009f0fc3f7e7bfb"]:
    fail(f"hotfix/workers-64 must hold exactly one new commit on top of d3d801d1; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/hotfix/workers-64").strip() != "Set workers to 64":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/hotfix/workers-64", {**{'settings.conf': 'workers = 33\nqueue_len = 50\npoll_ms = 21\ntimeout = 87\nport = 89\nretries = 58\n', 'README.md': '# umber service\n'}, "settings.conf": 'workers = 64\nqueue_len = 50\npoll_ms = 21\ntimeout = 87\nport = 89\nretries = 58\n'})
for ref, sha in {'refs/tags/v1.1': 'c7bfdda077e4a22db3766116599710ef0101046a', 'refs/tags/v1.2': 'd3d801d197c417ca13c5b6f62009f0fc3f7e7bfb', 'refs/tags/v1.3': '618b44cb12c533e223e0495169d65039ba455cd7', 'refs/tags/v1.4': '05eb5c18f352632d78f97cdffd799c3eca3e1326', 'refs/heads/main': '05eb5c18f352632d78f97cdffd799c3eca3e1326'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
