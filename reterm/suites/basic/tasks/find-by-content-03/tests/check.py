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
if got != '/app/repo/.config/kepler.env\n/app/repo/deploy/harbor.tpl\n/app/repo/docs/alpha.md\n/app/repo/orbit/.deltarc\n/app/repo/scripts/run_fjord\n':
    fail(f"matches.txt is {got!r}, expected 5 paths")
got = {}
for r, dirs, fs in os.walk('/app/repo'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/repo')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'bravo/maple.py': '3b0d9440f3031480fcc73f9fd50b94a50b46abf71353805bacb86e2cd516172b', 'deploy/lumen.tpl': '7d27f0e7e30eb9c8c1857b547ddf27a148c7fda25aae746a2ec8a9cd390c98fb', 'docs/quartz.md': '9f2e9f290d730460e003f5d010f973c3689b70e2fd0e185b0db51c1b018b9601', '.config/fjord.env': '57cccb2f086d17bcef2bda0153371989afe3835ecd99c183ae9dad084679f877', 'orbit/notes.txt': '4413ee05dd57b91d4c2d6c1e3a31c95d3ae3b919e723f1a44baa2ceb85263979', 'scripts/kepler.sh': '65cdc77533dab864ff9372ff45bda4cd7ec481d6f1aa3c51493ca86aad7a1e21', '.cache/harbor.json': 'afc845fa0ccc07be659912c0c462d7bdfa66614f141877f1e5f3f9c86b6f0ff5', 'orbit/.deltarc': '1787d7e85335bb01aadd8112a332034b6c2a73663b19aca9bedcc01dad8d7ae7', 'scripts/run_fjord': '6ab00e5a39b793b4fc1cdfd2a306ad2f6be081963208d33fa295f73bd5058629', '.config/kepler.env': 'f5d4bbf56126b3273fe5256267f390085165a2946710d8da588afa99f1080943', 'docs/alpha.md': '6c776c38c4c12e1adea9e226dbf17bdb9d4857ef43688d6191abbd35c2c35d66', 'deploy/harbor.tpl': 'c8d02707a7d7c0a10e7c93a73f7a50c6bd6c461908402b90c815724d33944b9a'}
if sorted(got) != sorted(want):
    fail(f"files under /app/repo: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/repo/{k} does not have its original content")
print("PASS")
