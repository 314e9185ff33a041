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
if got != '/app/project/.github/workflows/gamma.yml\n/app/project/scripts/run_nova\n/app/project/sierra/.quartzrc\n':
    fail(f"matches.txt is {got!r}, expected 3 paths")
got = {}
for r, dirs, fs in os.walk('/app/project'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/project')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'alpha/umber.py': 'd5275a38fd87bd4b2f1cef38d24e2c25dac74ec2ab0871cd4a75c99a41cc1941', 'deploy/pixel.tpl': 'b8536150a5793f881156616ccec4a3c3a95ce1daf7ae6b1c74e0639747512316', 'docs/raven.md': 'ca22107ea64ac4cc24c2daf31f01d3627e1bf5810656b9cb49d0e3e9202e75b1', '.config/nova.env': 'eae509aad84da5638b9b46333b31ee7b41259cbf9b2077ede99347cad9f4ac32', 'sierra/notes.txt': 'b930a022129cd70a6b1c2a50b96d7a3e71a8a4d8ac291e0d5aa4da1aa882ebbf', 'scripts/cedar.sh': '0a600ec8a2cb494303609484953afc19b34d68d3ea422aa4a6da0b23a687ccc3', '.cache/bravo.json': '87f7e09acab6f6d33a3391467ecbcbe99abeedf9acd480afdc69d081aaf63e4e', '.github/workflows/gamma.yml': 'ca02f547e6c9653f826393d322a96d6e6fbec8fcc357d8f2e912577419631377', 'sierra/.quartzrc': '4dea11225d0f329facc8eae215dbb4028b5488375171d8d08916e09949f9b0d8', 'scripts/run_nova': '594ca90786e93def6cf6a282a66d44df0dec4864fde6d21b1c6f369631cccb99'}
if sorted(got) != sorted(want):
    fail(f"files under /app/project: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/project/{k} does not have its original content")
print("PASS")
