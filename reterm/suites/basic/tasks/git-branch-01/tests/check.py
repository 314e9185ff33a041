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

if not git("rev-parse", "--verify", "-q", "refs/heads/patch/cache-mb-31", ok=True):
    fail("there is no branch patch/cache-mb-31")
parents = git("rev-list", "--parents", "-n", "1", "refs/heads/patch/cache-mb-31").split()[1:]
if parents != ["73e16fcf4d2b1301a3a5d6749972325e1ea513f7"]:
    fail(f"patch/cache-mb-31 must hold exactly one new commit on top of 73e16fcf; its parents: {parents}")
if git("log", "-1", "--format=%s", "refs/heads/patch/cache-mb-31").strip() != "Set cache_mb to 118":
    fail("the commit message is not the one asked for")
same_tree("refs/heads/patch/cache-mb-31", {**{'app.conf': 'retries = 49\ncache_mb = 89\nbackoff_s = 111\nworkers = 61\nbatch_size = 60\nmax_conn = 75\n', 'README.md': '# harbor service\n'}, "app.conf": 'retries = 49\ncache_mb = 118\nbackoff_s = 111\nworkers = 61\nbatch_size = 60\nmax_conn = 75\n'})
for ref, sha in {'refs/tags/v1.1': '73e16fcf4d2b1301a3a5d6749972325e1ea513f7', 'refs/tags/v1.2': 'be73b261795235c558a0d0fbbd6d8fa407d7647e', 'refs/tags/v1.3': '0d142ea1f0763209caf19e630267f5fe6e620976', 'refs/tags/v1.4': '58f7b17f63f5903cd57f279d2862b25e8842cd27', 'refs/heads/main': '58f7b17f63f5903cd57f279d2862b25e8842cd27'}.items():
    if git("rev-parse", ref).strip() != sha:
        fail(f"{ref} was moved or removed")
print("PASS")
