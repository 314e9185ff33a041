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
if got != '/app/src/.config/lumen.env\n/app/src/.github/workflows/orbit.yml\n/app/src/deploy/sierra.tpl\n/app/src/kepler/settings.py\n':
    fail(f"matches.txt is {got!r}, expected 4 paths")
got = {}
for r, dirs, fs in os.walk('/app/src'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/src')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'kepler/bravo.py': 'caa2c5afbdc961549d56db0be2cb3deb485794e10a161d05bfe50432c6048f2b', 'deploy/ember.tpl': '7994c88b246bf4dcac99e73e2302d0f22d22e51bcfbfde8e903b15734b7182a2', 'docs/maple.md': '35ca79a0dbb5bf8d621fa416d4042cb40b5c7400bb0ea6d18e71f0b47caa0668', '.config/gamma.env': '50ca28b2b98f5b54117c7f560976581471e447b140593b1f130aa5d41fb2c4f1', 'raven/notes.txt': '35657339ebe6b9964d661606c25b7e07efc7cbb6adce860e1f09ee6d4224bf83', 'scripts/lumen.sh': '8654deaa6184b91c304cdb65839f192199419ae388153b2763e32ec9fd348d9d', '.cache/sierra.json': 'fee88749778d3465a3b3767623fa02117b3d7084a99ec7a7f45839cfc6781959', '.github/workflows/orbit.yml': '6b6ead75e0e1d459dcfb3748952c372ab37e344998e01659f574684c23667010', 'deploy/sierra.tpl': '9ea9f8c757175637cf0d2eeafff2f506bbdde9c153494f6f4acddb8531891fcc', '.config/lumen.env': 'a2f212917885a729ee362b33fdc49db249a231b600ada8cb5c8176d9189b6454', 'kepler/settings.py': '5817104ef9a290ac9bed71be2cb13717833df7d751ccb8df053ba53d478e4ad6'}
if sorted(got) != sorted(want):
    fail(f"files under /app/src: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/src/{k} does not have its original content")
print("PASS")
