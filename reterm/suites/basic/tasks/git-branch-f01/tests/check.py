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

if not git("rev-parse", "--verify", "-q", "refs/heads/fix/queue-len-35", ok=True):
    fail("there is no branch fix/queue-len-35")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/fix/queue-len-35").split()[1:]
if parents != ["b9f0956da9b83ef6799ae190889368f2f1f12d55"]:
    fail(f"fix/queue-len-35 must hold exactly one new commit on top of b9f0956d; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/fix/queue-len-35").strip() != "Set queue_len to 92":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/fix/queue-len-35", {**{'app.conf': 'backoff_s = 20\nqueue_len = 85\nworkers = 9\nport = 51\ncache_mb = 14\npoll_ms = 2\n', 'README.md': '# pixel service\n'}, "app.conf": 'backoff_s = 20\nqueue_len = 92\nworkers = 9\nport = 51\ncache_mb = 14\npoll_ms = 2\n'})
for ref, sha in {'refs/tags/v1.1': 'b9f0956da9b83ef6799ae190889368f2f1f12d55', 'refs/tags/v1.2': '93d0a564dd880e3cb2742c271749943593630d65', 'refs/tags/v1.3': '9b99488358ecd2c086aad4d957fcd93d860015a0', 'refs/heads/main': '9b99488358ecd2c086aad4d957fcd93d860015a0'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
