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

if not git("merge-base", "--is-ancestor", "bf140b051339571a88c629f0edae9cd94c785785", "refs/heads/main", ok=True):
    fail("main's history was rewritten: its earlier commits are no longer all in it")
if git("rev-parse", "refs/heads/main").strip() == "bf140b051339571a88c629f0edae9cd94c785785":
    fail("main has no new commit")
same_tree("refs/heads/main", {'config.ini': 'backoff_s = 68\nport = 23\nretries = 45\ncache_mb = 45\nbatch_size = 60\nqueue_len = 69\nmax_conn = 50\nworkers = 3\npoll_ms = 20\n', 'README.md': '# juniper\n- 1.1.0: bravo fixes\n- 1.2.0: delta fixes\n', 'VERSION': '1.2.0\n'})
print("PASS")
