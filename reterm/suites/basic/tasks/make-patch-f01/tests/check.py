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
A, B = {'src/helpers.py': '"""nova: limits and helpers."""\n\n\ndef raven_limit(x):\n    return min(x, 735)\n\n\ndef umber_limit(x):\n    return min(x, 447)\n\n\ndef delta_limit(x):\n    return min(x, 270)\n\n\ndef indigo_limit(x):\n    return min(x, 383)\n', 'src/nova_config.py': '# server\nSERVER_JITTER = 5120\nSERVER_PORT = 4668\nSERVER_FANOUT = 8029\nSERVER_COOLDOWN = 6811\nSERVER_MAX_SIZE = 5664\n\n# logging\nLOGGING_RAMP = 498\nLOGGING_LEASE = 789\nLOGGING_HORIZON = 3936\nLOGGING_MARGIN = 5689\nLOGGING_WORKERS = 2355\n', 'conf/nova.conf': '[database]\nbacklog = 2377\nkeepalive = 9282\nburst = 546\nlevel = 3003\nspread = 1288\n\n[server]\nwindow = 944\ndelay = 2404\nramp = 3159\nfanout = 7577\nceiling = 463\n\n[storage]\ndepth = 199\nquota = 904\nmargin = 6369\nrate = 6227\ncooldown = 1554\n', 'scripts/env.sh': '# auth\nexport AUTH_THRESHOLD=7048\nexport AUTH_CHUNK=482\nexport AUTH_TENURE=7530\nexport AUTH_DEPTH=5770\nexport AUTH_PORT=3238\n\n# database\nexport DATABASE_INTERVAL=8480\nexport DATABASE_BACKLOG=4012\nexport DATABASE_SHARDS=5002\nexport DATABASE_WINDOW=5441\nexport DATABASE_RETRIES=2374\n'}, {'src/helpers.py': '"""nova: limits and helpers."""\n\n\ndef raven_limit(x):\n    return min(x, 735)\n\n\ndef umber_limit(x):\n    return min(x, 447)\n\n\ndef delta_limit(x):\n    return min(x, 270)\n\n\ndef indigo_limit(x):\n    return min(x, 383)\n', 'src/nova_config.py': '# server\nSERVER_JITTER = 5120\nSERVER_PORT = 4668\nSERVER_FANOUT = 8029\nSERVER_COOLDOWN = 7053\nSERVER_MAX_SIZE = 5664\n\n# logging\nLOGGING_RAMP = 498\nLOGGING_LEASE = 789\nLOGGING_HORIZON = 3936\nLOGGING_MARGIN = 5689\nLOGGING_WORKERS = 2355\n', 'conf/nova.conf': '[database]\nbacklog = 2377\nkeepalive = 9282\nburst = 546\nlevel = 3003\nspread = 1288\n\n[server]\nwindow = 944\ndelay = 2404\nramp = 3159\nfanout = 7577\nceiling = 463\n\n[storage]\ndepth = 199\nquota = 1137\nmargin = 6369\nrate = 6227\ncooldown = 1554\n', 'scripts/env.sh': '# auth\nexport AUTH_THRESHOLD=7048\nexport AUTH_CHUNK=482\nexport AUTH_TENURE=7530\nexport AUTH_DEPTH=5770\nexport AUTH_PORT=3238\n\n# database\nexport DATABASE_INTERVAL=8480\nexport DATABASE_BACKLOG=4012\nexport DATABASE_SHARDS=5002\nexport DATABASE_WINDOW=5441\nexport DATABASE_RETRIES=2374\n'}
for p, c in A.items():
    if read(f"/app/nova.orig/{p}") != c:
        fail(f"/app/nova.orig/{p} was changed")
for p, c in B.items():
    if read(f"/app/nova/{p}") != c:
        fail(f"/app/nova/{p} was changed")
text = read("/app/nova-2.2.6.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/nova-2.2.6.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/nova-2.2.6.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/nova.orig failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/nova in {diff}")
print("PASS")
