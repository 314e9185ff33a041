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
if got != '/app/src/.config/bravo.env\n/app/src/.github/workflows/nova.yml\n/app/src/alpha/settings.py\n/app/src/ember/.vertexrc\n':
    fail(f"matches.txt is {got!r}, expected 4 paths")
got = {}
for r, dirs, fs in os.walk('/app/src'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/src')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'alpha/cedar.py': '954ff64a0346d3269ceed1de0f144b6561cd1536ebca3ca07d4edb4b227f53d6', 'deploy/harbor.tpl': 'afb0d8fbb92b44bdbbeed1b985e9b63cb4fd0bcff4efb1932f481fc8600edcc5', 'docs/quartz.md': '4445e851fcbb0f0f1021c349ccbd40ffac5bbb1f20523926f437fc340b5e3144', '.config/maple.env': 'c08dae83a5a1396128436eac760fa4555565376676d0e6ff1ace620f425dd10c', 'ember/notes.txt': 'ba78c65d2752948893a17a4851ee816af2527a542d5ab66676feef453f9b7742', 'scripts/bravo.sh': '808b0ee30f59a20b334571af287a99aca4a3b072c02ebf9b59799b211a3ac69f', '.cache/gamma.json': '45216a5d17b1f657d6f3d2aaabf281d2fc5644429eb635b9732226f4dec92daa', '.config/bravo.env': 'bf73b7cac28585ce6628106c662425069fc8352598e2c19f8eedcda67a337c3e', 'ember/.vertexrc': '4acdfacc17f829b5f3db8f48634547785f1471c72fa28cf5393493d6cd551e6a', 'alpha/settings.py': '3a235a940bab4c3ac8caaf0d0570eee2f8da2dffd85049878fbb97852de8b88e', '.github/workflows/nova.yml': 'b8cd3987805b99abca88a8bccd4209e21b6f68db8b41af958e704e7a6fa1accb'}
if sorted(got) != sorted(want):
    fail(f"files under /app/src: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/src/{k} does not have its original content")
print("PASS")
