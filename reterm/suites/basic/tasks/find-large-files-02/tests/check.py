import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = {}
for r, dirs, fs in os.walk('/app/uploads'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/uploads')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'bravo/pixel.dump': 'eead6c1aecb64c639899c22a40062069283edb9991a0ffcbfed4d04f892b457c', 'umber/maple.dump': '283fbe73b805921aabe9784c38fe8618f457d4a80401a749e5b7daa23209aa5b', 'umber old/delta.txt': 'a0950b0bcc0355f24880a84f190666649c7511bb145d6f6908327333522d8ed7', 'bravo/nova.dump.gz': 'b75a5a5e116be04d18e9e9255c1bdaecd312a48292029fc629fba4941315a371', 'indigo.dump/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '62fd6035006ecfde6b6d0c955abbaa2c4eba8ee89251dd460fa3a2cf5e506855'}
if sorted(got) != sorted(want):
    fail(f"files under /app/uploads: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/uploads/{k} does not have its original content")
for p in ['bravo', 'harbor/ember', 'indigo.dump', 'umber', 'umber old']:
    if not os.path.isdir(os.path.join('/app/uploads', p)):
        fail(f"directory /app/uploads/{p} was removed")
print("PASS")
