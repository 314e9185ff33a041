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
if got != '/app/repo/deploy/sierra.tpl\n/app/repo/docs/pixel.md\n/app/repo/umber/settings.py\n':
    fail(f"matches.txt is {got!r}, expected 3 paths")
got = {}
for r, dirs, fs in os.walk('/app/repo'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/repo')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'umber/maple.py': 'ecff9a505565e8e6cf6572dccf3f71ae330736c3e8960d47c5f61fd067549bb0', 'deploy/raven.tpl': '413fe6f42cd87cf8ab5675b64390f6377358200600385c2211fb6fc5f1e80387', 'docs/alpha.md': 'd43a0febf687aeaa494411791085e921a851335973db8c51f3224795e7ae4e6f', '.config/gamma.env': '66106fa36150bb462451b64996e524142c78cbf52c18cc82fe99e589bbf320cb', 'fjord/notes.txt': '937a53c586458e7d2ed181c11d418ba998dc4b1ba030c021db328fc039e2d87e', 'scripts/nova.sh': '611feadfbc6c83c2f7dab283d4fa19db05c3ad4f69f03f1b04ec94e57ebd987f', '.cache/sierra.json': '4492ccc896b7aa4d0444f6280cf1b277f351e211c5bdcfa0e1ecd0bc359e6cde', 'docs/pixel.md': 'ad1d8957b6cb753b91040a668e133ad2aa6c0c7fabe8fa07c12eeb15e0b29387', 'umber/settings.py': '2b3b7c528a11366c3d19369cd123252f604c60e4fb974f79190fdc6eef683df8', 'deploy/sierra.tpl': '0b47d5832b9cc5e7f95fa2dd18abcd606a9e6b3fd4e7dfd27435d07c4fc222c9'}
if sorted(got) != sorted(want):
    fail(f"files under /app/repo: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/repo/{k} does not have its original content")
print("PASS")
