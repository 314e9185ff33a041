import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import subprocess, tempfile
A, B = {'src/helpers.py': '"""pixel: limits and helpers."""\n\n\ndef sierra_limit(x):\n    return min(x, 914)\n\n\ndef delta_limit(x):\n    return min(x, 218)\n\n\ndef orbit_limit(x):\n    return min(x, 620)\n\n\ndef fjord_limit(x):\n    return min(x, 480)\n', 'src/pixel_config.py': '# logging\nLOGGING_TTL = 835\nLOGGING_QUOTA = 1537\nLOGGING_SPREAD = 7304\nLOGGING_DEPTH = 3348\nLOGGING_SPOOL = 3485\n\n# queue\nQUEUE_KEEPALIVE = 4415\nQUEUE_POOL = 751\nQUEUE_COOLDOWN = 1242\nQUEUE_RATE = 7038\nQUEUE_MAX_SIZE = 2365\n', 'conf/pixel.conf': '[storage]\ntimeout = 8432\nhorizon = 7859\nmargin = 2947\ntenure = 1396\nfanout = 5547\n\n[logging]\nlevel = 6071\nchunk = 7309\nspool = 3603\nspread = 6364\ngrace = 5479\n\n[cache]\ninterval = 2792\ndepth = 9583\npool = 1226\nstride = 5221\nshards = 2788\n', 'scripts/env.sh': '# database\nexport DATABASE_CAP=9130\nexport DATABASE_SHARDS=2792\nexport DATABASE_CHUNK=3859\nexport DATABASE_QUOTA=3494\nexport DATABASE_DEPTH=4219\n\n# server\nexport SERVER_LIMIT=9955\nexport SERVER_JITTER=5953\nexport SERVER_POOL=1857\nexport SERVER_PORT=2762\nexport SERVER_TTL=9366\n'}, {'src/helpers.py': '"""pixel: limits and helpers."""\n\n\ndef sierra_limit(x):\n    return min(x, 914)\n\n\ndef delta_limit(x):\n    return min(x, 3 * 218)\n\n\ndef orbit_limit(x):\n    return min(x, 620)\n\n\ndef fjord_limit(x):\n    return min(x, 6 * 480)\n', 'src/pixel_config.py': '# logging\nLOGGING_TTL = 835\nLOGGING_QUOTA = 1537\nLOGGING_SPREAD = 7304\nLOGGING_DEPTH = 3348\nLOGGING_SPOOL = 6495\n\n# queue\nQUEUE_KEEPALIVE = 8175\nQUEUE_POOL = 751\nQUEUE_COOLDOWN = 1242\nQUEUE_RATE = 7038\nQUEUE_MAX_SIZE = 2365\n', 'conf/pixel.conf': '[storage]\ntimeout = 8432\nhorizon = 7859\nmargin = 2947\ntenure = 1396\nfanout = 7737\n\n[logging]\nlevel = 6071\nchunk = 7309\nspool = 3603\nspread = 6364\ngrace = 5479\n\n[cache]\ninterval = 2792\ndepth = 9583\npool = 1226\nstride = 5221\nshards = 2788\n', 'scripts/env.sh': '# database\nexport DATABASE_CAP=9130\nexport DATABASE_SHARDS=2792\nexport DATABASE_CHUNK=3859\nexport DATABASE_QUOTA=3494\nexport DATABASE_DEPTH=4219\n\n# server\nexport SERVER_LIMIT=9955\nexport SERVER_JITTER=5953\nexport SERVER_POOL=1857\nexport SERVER_PORT=2762\nexport SERVER_TTL=9366\n', 'src/cedar.py': '# added in 1.7.1\ninterval = 6\n'}
for p, c in A.items():
    if read(f"/app/old/pixel/{p}") != c:
        fail(f"/app/old/pixel/{p} was changed")
for p, c in B.items():
    if read(f"/app/new/pixel/{p}") != c:
        fail(f"/app/new/pixel/{p} was changed")
text = read("/app/pixel-1.7.1.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/pixel-1.7.1.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/pixel-1.7.1.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/old/pixel failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/new/pixel in {diff}")
print("PASS")
