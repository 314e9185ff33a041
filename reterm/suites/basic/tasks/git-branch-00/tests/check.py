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

if not git("rev-parse", "--verify", "-q", "refs/heads/hotfix/queue-len-82", ok=True):
    fail("there is no branch hotfix/queue-len-82")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/hotfix/queue-len-82").split()[1:]
if parents != ["3d5466c53a13580c8185ee174aafadaf78c621a3"]:
    fail(f"hotfix/queue-len-82 must hold exactly one new commit on top of 3d5466c5; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/hotfix/queue-len-82").strip() != "Set queue_len to 23":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/hotfix/queue-len-82", {**{'service.ini': 'poll_ms = 21\nretries = 27\nbackoff_s = 37\nport = 28\ncache_mb = 43\nqueue_len = 42\n', 'README.md': '# sierra service\n'}, "service.ini": 'poll_ms = 21\nretries = 27\nbackoff_s = 37\nport = 28\ncache_mb = 43\nqueue_len = 23\n'})
for ref, sha in {'refs/tags/v1.1': 'b1644a9777cc75262bbc03d5d9b68c861fe46d9b', 'refs/tags/v1.2': '02b23ff6969d9579b41803c3ebec2f199260bfad', 'refs/tags/v1.3': '3d5466c53a13580c8185ee174aafadaf78c621a3', 'refs/tags/v1.4': '4429f352ec15a59c3d8e0a27469a179413ebb564', 'refs/heads/main': '4429f352ec15a59c3d8e0a27469a179413ebb564'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
