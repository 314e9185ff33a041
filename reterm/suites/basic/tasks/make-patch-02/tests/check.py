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
A, B = {'src/rules.py': '"""quartz: limits and helpers."""\n\n\ndef orbit_limit(x):\n    return min(x, 131)\n\n\ndef pixel_limit(x):\n    return min(x, 418)\n\n\ndef maple_limit(x):\n    return min(x, 378)\n\n\ndef delta_limit(x):\n    return min(x, 592)\n', 'src/quartz_config.py': '# server\nSERVER_RATE = 3163\nSERVER_MARGIN = 1269\nSERVER_BUFFER = 1844\nSERVER_STRIDE = 1243\nSERVER_SHARDS = 4410\n\n# metrics\nMETRICS_INTERVAL = 2870\nMETRICS_SLOTS = 4719\nMETRICS_PREFETCH = 688\nMETRICS_POOL = 8140\nMETRICS_LEASE = 1421\n', 'conf/quartz.conf': '[logging]\nramp = 3480\nport = 7892\nbuffer = 3655\nburst = 7918\nrate = 7153\n\n[server]\njitter = 8860\nspool = 3373\ntenure = 2226\nfanout = 3033\nbacklog = 8317\n\n[database]\npool = 7899\nkeepalive = 3957\nquota = 5320\nshards = 2806\nlimit = 4589\n', 'scripts/env.sh': '# queue\nexport QUEUE_SLOTS=2810\nexport QUEUE_GRACE=6429\nexport QUEUE_CAP=974\nexport QUEUE_PORT=4959\nexport QUEUE_SPREAD=4339\n\n# cache\nexport CACHE_SPOOL=711\nexport CACHE_WINDOW=1937\nexport CACHE_WORKERS=7625\nexport CACHE_BURST=2898\nexport CACHE_RING=8364\n'}, {'src/rules.py': '"""quartz: limits and helpers."""\n\n\ndef orbit_limit(x):\n    return min(x, 131)\n\n\ndef pixel_limit(x):\n    return min(x, 418)\n\n\ndef maple_limit(x):\n    return min(x, 378)\n\n\ndef delta_limit(x):\n    return min(x, 592)\n', 'src/quartz_config.py': '# server\nSERVER_RATE = 3163\nSERVER_MARGIN = 1269\nSERVER_BUFFER = 1844\nSERVER_STRIDE = 1243\nSERVER_SHARDS = 4410\n\n# metrics\nMETRICS_INTERVAL = 3024\nMETRICS_SLOTS = 4719\nMETRICS_PREFETCH = 688\nMETRICS_POOL = 8140\nMETRICS_LEASE = 1421\n', 'conf/quartz.conf': '[logging]\nramp = 3480\nport = 7892\nbuffer = 3655\nburst = 7918\nrate = 7153\n\n[server]\njitter = 8860\nspool = 3373\ntenure = 2226\nfanout = 3033\nbacklog = 8317\n\n[database]\npool = 7899\nkeepalive = 3957\nquota = 5320\nshards = 2806\nlimit = 4589\n', 'scripts/env.sh': '# queue\nexport QUEUE_SLOTS=3070\nexport QUEUE_GRACE=6429\nexport QUEUE_CAP=974\nexport QUEUE_PORT=4959\nexport QUEUE_SPREAD=4339\n\n# cache\nexport CACHE_SPOOL=711\nexport CACHE_WINDOW=1937\nexport CACHE_WORKERS=7625\nexport CACHE_BURST=2898\nexport CACHE_RING=8364\n', 'conf/extra.conf': '# added in 3.1.9\nport = 39\n'}
for p, c in A.items():
    if read(f"/app/quartz-3.1/{p}") != c:
        fail(f"/app/quartz-3.1/{p} was changed")
for p, c in B.items():
    if read(f"/app/quartz-3.1.9/{p}") != c:
        fail(f"/app/quartz-3.1.9/{p} was changed")
text = read("/app/quartz-3.1.9.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/quartz-3.1.9.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/quartz-3.1.9.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/quartz-3.1 failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/quartz-3.1.9 in {diff}")
print("PASS")
