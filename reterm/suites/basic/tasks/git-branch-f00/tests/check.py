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

if not git("rev-parse", "--verify", "-q", "refs/heads/fix/queue-len-85", ok=True):
    fail("there is no branch fix/queue-len-85")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/fix/queue-len-85").split()[1:]
if parents != ["80fa134ebaf5c981e981ef1567d87866fb4af1eb"]:
    fail(f"fix/queue-len-85 must hold exactly one new commit on top of 80fa134e; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/fix/queue-len-85").strip() != "Set queue_len to 49":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/fix/queue-len-85", {**{'service.ini': 'cache_mb = 57\nqueue_len = 4\nbatch_size = 91\npoll_ms = 69\ntimeout = 10\nretries = 30\n', 'README.md': '# pixel service\n'}, "service.ini": 'cache_mb = 57\nqueue_len = 49\nbatch_size = 91\npoll_ms = 69\ntimeout = 10\nretries = 30\n'})
for ref, sha in {'refs/tags/v1.1': '58e1464c2bb57f5c57d2a9666d4e531cc98aee11', 'refs/tags/v1.2': '3263e24e4881023bf179fd3b419e20a3b060955c', 'refs/tags/v1.3': '80fa134ebaf5c981e981ef1567d87866fb4af1eb', 'refs/tags/v1.4': '21e9a112bc5bd81b8382dd6209bbfa83d06a366c', 'refs/heads/main': '21e9a112bc5bd81b8382dd6209bbfa83d06a366c'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
