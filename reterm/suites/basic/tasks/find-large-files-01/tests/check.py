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
want = {'cedar/indigo copy.part': '5352dd9c237541b2b3c49180238e9a87a6ba3812845ebc2ccdcfa2ba7a1394ac', 'cedar/sierra.part': '6f2c6f44b59625a490d05007d8d52a6f4adc923592ba99933ae4a79093283ce8', 'pixel/kepler/maple.txt': '7dc74a6fff6d3d82e8664d49d0a63677c5c92106ff7127cb1191d56f1a2a2723', 'delta old/vertex.part.keep': '75eab2b0c40daa05d61ec98b8dfc1f3fe56b5ac7b7ec3e40fc13f89f4b44f751', 'quartz.part/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '4f73be721b2d5cb30a1f88cd5540defc91e2393a5944458f5ef134a1f0c97bb0', 'KEEP': 'dfe9084eb217bfb484470bda12fbae0d2b3a2501b67a47ec37cc6d55063d9562'}
if sorted(got) != sorted(want):
    fail(f"files under /app/uploads: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/uploads/{k} does not have its original content")
for p in ['cedar', 'delta', 'delta old', 'pixel/kepler', 'quartz.part']:
    if not os.path.isdir(os.path.join('/app/uploads', p)):
        fail(f"directory /app/uploads/{p} was removed")
print("PASS")
