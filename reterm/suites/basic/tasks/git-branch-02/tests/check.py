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

if not git("rev-parse", "--verify", "-q", "refs/heads/fix/port-45", ok=True):
    fail("there is no branch fix/port-45")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/fix/port-45").split()[1:]
if parents != ["e3c4a5814b195ba8f90df8107b39f4addc05ea6e"]:
    fail(f"fix/port-45 must hold exactly one new commit on top of e3c4a581; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/fix/port-45").strip() != "Set port to 75":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/fix/port-45", {**{'settings.conf': 'retries = 12\nport = 43\npoll_ms = 17\nbackoff_s = 17\nbatch_size = 76\ntimeout = 57\n', 'README.md': '# orbit service\n'}, "settings.conf": 'retries = 12\nport = 75\npoll_ms = 17\nbackoff_s = 17\nbatch_size = 76\ntimeout = 57\n'})
for ref, sha in {'refs/tags/v1.1': 'adf47fab9a22fda044e4044d9cf0484a421346b8', 'refs/tags/v1.2': '3b0f9433786dae43f92ba8375cb1c46bbb3633ce', 'refs/tags/v1.3': 'e3c4a5814b195ba8f90df8107b39f4addc05ea6e', 'refs/tags/v1.4': 'a1f7dd4e843c80d9c09949f7c767d0eb5eec17b4', 'refs/heads/main': 'a1f7dd4e843c80d9c09949f7c767d0eb5eec17b4'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
