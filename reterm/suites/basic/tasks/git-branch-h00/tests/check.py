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

if not git("rev-parse", "--verify", "-q", "refs/heads/fix/cache-mb-35", ok=True):
    fail("there is no branch fix/cache-mb-35")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/fix/cache-mb-35").split()[1:]
if parents != ["22f0d53d6417881402fe63bbe69f6357aaf7aadf"]:
    fail(f"fix/cache-mb-35 must hold exactly one new commit on top of 22f0d53d; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/fix/cache-mb-35").strip() != "Set cache_mb to 51":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/fix/cache-mb-35", {**{'settings.conf': 'timeout = 86\ncache_mb = 79\npoll_ms = 85\nmax_conn = 21\nbatch_size = 88\nport = 57\n', 'README.md': '# sierra service\n'}, "settings.conf": 'timeout = 86\ncache_mb = 51\npoll_ms = 85\nmax_conn = 21\nbatch_size = 88\nport = 57\n'})
for ref, sha in {'refs/tags/v1.1': '22f0d53d6417881402fe63bbe69f6357aaf7aadf', 'refs/tags/v1.2': '69653ce886fbdd26596535f20a3670fce8942cc5', 'refs/tags/v1.3': 'ae2213c70f89fb106d9a6d3f02621e49d4507967', 'refs/tags/v1.4': '1f028a6292f8daec63805e3993e1e81744fb55d2', 'refs/tags/v1.5': '65670261854ce1c69290f70169abfb0c92c659ba', 'refs/heads/main': '65670261854ce1c69290f70169abfb0c92c659ba'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
