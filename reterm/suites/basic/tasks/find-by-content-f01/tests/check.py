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
if got != '/app/src/deploy/cedar.tpl\n/app/src/docs/nova.md\n/app/src/indigo/.quartzrc\n':
    fail(f"matches.txt is {got!r}, expected 3 paths")
got = {}
for r, dirs, fs in os.walk('/app/src'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/src')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'kepler/maple.py': 'afec90309afe83ce669503339134a4548395d0c6fe3cabe32a0ee1d005543f8b', 'deploy/raven.tpl': 'ead48e300c4c256ecf7875ef6d74c015811debab411454299f98c92aeefabad6', 'docs/fjord.md': '9c7981e7c6bfdf1f5e3168831f9f51c7f0a517a58bf0170e1ae17dc77a45c07c', '.config/sierra.env': 'bad82b6d94ef6589c8a1f995bb176ce597c21f96e36b6bfd041baa0a2b612ee3', 'indigo/notes.txt': '642f7e3187443db0136b087c985f7b7953540d8f7f436892b21bd5d4b7641be2', 'scripts/pixel.sh': '1de8a747df29d64d413fa9171a2df3f128b78428c9dbd07ecd95b8ee19cf184e', '.cache/cedar.json': '42bc4dd8875d365992566ce359a13ac2bc08063ef97e89903ecd470c01ca85da', 'docs/nova.md': '4ff6ce8c4b180064eb2a9bae5d3ebff143399edb2d358064ba37916de775e801', 'indigo/.quartzrc': '86c56ce052ed37f54c065f3985dd23213d5b9c172f40db61e476c011ec685103', 'deploy/cedar.tpl': 'dca153d6e36f3cabb5c55fd5ca865da7ca8a9e36cf35abee3e5d0030d9749a0f'}
if sorted(got) != sorted(want):
    fail(f"files under /app/src: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/src/{k} does not have its original content")
print("PASS")
