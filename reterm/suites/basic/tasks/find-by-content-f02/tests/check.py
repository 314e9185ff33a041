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
if got != '/app/src/.github/workflows/vertex.yml\n/app/src/deploy/gamma.tpl\n/app/src/docs/cedar.md\n/app/src/fjord/settings.py\n/app/src/scripts/run_alpha\n':
    fail(f"matches.txt is {got!r}, expected 5 paths")
got = {}
for r, dirs, fs in os.walk('/app/src'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/src')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'fjord/ember.py': 'a6d46143cb2d177027f97aeadb3394fd147916ecef37eb436ae2ee44d5d10e7a', 'deploy/pixel.tpl': 'b88870b11bf51a834e38f1c2a5508b9292abc2c40969500a381e9669983ba574', 'docs/tango.md': '0fd24af6daa3f8b46c752f4239ca8b5a9b546067bdbce42f1a15a94ad489e68e', '.config/alpha.env': '0631d9789cb8fceb81adf8480edb1a422af949732aaa5d92e37b9662c5dbb3d3', 'orbit/notes.txt': '8079aeeed60c9a47301d375767119a985b46ab28fdd586dba3c29b18b2b05fd5', 'scripts/indigo.sh': '0ad570f121f1c150c99a4511f16fd69ca979a04a42d5827dc779ee81096de414', '.cache/gamma.json': '86f7cecd40baf99833835ba307dd90be304ba0b7c4031b1980d061e9c1e049c1', 'scripts/run_alpha': 'a8e081004ffd602ac48d811810ef9ccab270a3088145265df6fe279bccc67c58', 'docs/cedar.md': '5825d9d59b725bef733c5b56b02c6eb63162570f5d4c205a0312a2be8d208022', 'deploy/gamma.tpl': '0c6c674f55de97eaf1d8f3e8b8ddbbbdad4943c34e6e7cd0e447b9191a75c6d8', '.github/workflows/vertex.yml': '366d87d67a14b26fd40490c5a957c629a2e8b30ac3c72e9e2e2e839a70ed493d', 'fjord/settings.py': 'a704678adf756d633dec08fc8ccec4a81c8e664c5aafdd30b5c3b9f324e0453f'}
if sorted(got) != sorted(want):
    fail(f"files under /app/src: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/src/{k} does not have its original content")
print("PASS")
