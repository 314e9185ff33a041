import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/matches.txt")
if got != '/app/repo/.config/cedar.env\n/app/repo/.github/workflows/delta.yml\n/app/repo/deploy/maple.tpl\n/app/repo/scripts/run_indigo\n/app/repo/vertex/.fjordrc\n':
    fail(f"matches.txt is {got!r}, expected 5 paths")
got = {}
for r, dirs, fs in os.walk('/app/repo'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/repo')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'bravo/pixel.py': '25d9210fb8668ca54f7592aa97be04263741518dea83b51e2bf1705ac2a555eb', 'deploy/juniper.tpl': '74c007d0d6e290019e73ab5406ce6ad151f5ad5396573f120182ce2713d8a79b', 'docs/kepler.md': '7fe810618708efbb90e21becd81bb4c87955957cd4b475d870555db06d76ebb8', '.config/indigo.env': '0259b7aac0a6f517e3aa97e5b74928c0f24f808330afc70e4ce9444a21a28b5f', 'vertex/notes.txt': 'a6370094fbcc3d795055d29e9896bc85e9f765d4d1f2c55c2feaedd0a74a35c6', 'scripts/cedar.sh': '4d2ef53cd3c3a561aa2a1dbe6c202e105cab211749fd60e0d4ba34f48d90d209', '.cache/maple.json': '2e8f6fb419d1a40fd9432a272257a312c87dcc4dd607d41e9e3ff820cf580a7d', 'deploy/maple.tpl': '6d14e98a91c3139079c2a799b7a640cc03bea07b60c28213de14e09fae003022', 'scripts/run_indigo': '2778b8da765f19d9bb9657500778a691d25ada138141a1da997013a21eca6432', '.github/workflows/delta.yml': '8424f086280aea3b725fcb1f1fdf2ca1fde1a7f1e44495a0de295883b877d08d', '.config/cedar.env': 'e84b9f1f6aa2a15a4b7ee604128aca2fbf9fb15e3cc1a94e7e84b3132a076c64', 'vertex/.fjordrc': 'f4ade61c060b3f147749627d13074e34502c6376025283b5c35ac21fec46b93b'}
if sorted(got) != sorted(want):
    fail(f"files under /app/repo: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/repo/{k} does not have its original content")
print("PASS")
