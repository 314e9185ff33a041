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
A, B = {'src/limits.py': '"""juniper: limits and helpers."""\n\n\ndef sierra_limit(x):\n    return min(x, 29)\n\n\ndef delta_limit(x):\n    return min(x, 795)\n\n\ndef vertex_limit(x):\n    return min(x, 186)\n\n\ndef ember_limit(x):\n    return min(x, 105)\n', 'src/juniper_config.py': '# auth\nAUTH_STRIDE = 6826\nAUTH_TIMEOUT = 5094\nAUTH_POOL = 5421\nAUTH_SLOTS = 3227\nAUTH_QUOTA = 2974\n\n# storage\nSTORAGE_LINGER = 4762\nSTORAGE_WINDOW = 5081\nSTORAGE_DEPTH = 4906\nSTORAGE_JITTER = 5024\nSTORAGE_SPOOL = 2581\n', 'conf/juniper.conf': '[metrics]\nburst = 4748\nmax_size = 4023\nmargin = 6329\nttl = 9228\ntimeout = 1161\n\n[logging]\nprefetch = 7244\nbatch = 1437\ncooldown = 4052\nwindow = 6948\ngrace = 2155\n\n[server]\nport = 990\nkeepalive = 9455\nslots = 4330\nspool = 6763\nreplicas = 1672\n', 'scripts/env.sh': '# storage\nexport STORAGE_POOL=5354\nexport STORAGE_RETRIES=1818\nexport STORAGE_DEPTH=6548\nexport STORAGE_CAP=7592\nexport STORAGE_WORKERS=8427\n\n# auth\nexport AUTH_LINGER=1005\nexport AUTH_MAX_SIZE=9749\nexport AUTH_SPOOL=4505\nexport AUTH_SPREAD=9625\nexport AUTH_REPLICAS=2411\n'}, {'src/limits.py': '"""juniper: limits and helpers."""\n\n\ndef sierra_limit(x):\n    return min(x, 29)\n\n\ndef delta_limit(x):\n    return min(x, 795)\n\n\ndef vertex_limit(x):\n    return min(x, 186)\n\n\ndef ember_limit(x):\n    return min(x, 8 * 105)\n', 'src/juniper_config.py': '# auth\nAUTH_STRIDE = 6826\nAUTH_TIMEOUT = 5094\nAUTH_POOL = 5421\nAUTH_SLOTS = 3227\nAUTH_QUOTA = 2974\n\n# storage\nSTORAGE_LINGER = 4762\nSTORAGE_WINDOW = 5081\nSTORAGE_DEPTH = 4906\nSTORAGE_JITTER = 5024\nSTORAGE_SPOOL = 2581\n', 'conf/juniper.conf': '[metrics]\nburst = 5848\nmax_size = 4023\nmargin = 6329\nttl = 9228\ntimeout = 1161\n\n[logging]\nprefetch = 7244\nbatch = 1437\ncooldown = 4052\nwindow = 6948\ngrace = 2155\n\n[server]\nport = 990\nkeepalive = 9455\nslots = 4330\nspool = 6763\nreplicas = 1672\n', 'scripts/env.sh': '# storage\nexport STORAGE_POOL=5354\nexport STORAGE_RETRIES=1818\nexport STORAGE_DEPTH=6548\nexport STORAGE_CAP=7592\nexport STORAGE_WORKERS=8427\n\n# auth\nexport AUTH_LINGER=1005\nexport AUTH_MAX_SIZE=9749\nexport AUTH_SPOOL=4505\nexport AUTH_SPREAD=11755\nexport AUTH_REPLICAS=2411\n', 'docs/CHANGES.txt': '# added in 2.2.2\nprefetch = 86\n'}
for p, c in A.items():
    if read(f"/app/juniper-2.2/{p}") != c:
        fail(f"/app/juniper-2.2/{p} was changed")
for p, c in B.items():
    if read(f"/app/juniper-2.2.2/{p}") != c:
        fail(f"/app/juniper-2.2.2/{p} was changed")
text = read("/app/juniper-2.2.2.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/juniper-2.2.2.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/juniper-2.2.2.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/juniper-2.2 failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/juniper-2.2.2 in {diff}")
print("PASS")
