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
A, B = {'src/limits.py': '"""quartz: limits and helpers."""\n\n\ndef delta_limit(x):\n    return min(x, 993)\n\n\ndef alpha_limit(x):\n    return min(x, 668)\n\n\ndef ember_limit(x):\n    return min(x, 808)\n\n\ndef cedar_limit(x):\n    return min(x, 733)\n', 'src/quartz_config.py': '# logging\nLOGGING_DEPTH = 7658\nLOGGING_SPOOL = 5719\nLOGGING_LEVEL = 7837\nLOGGING_SPREAD = 845\nLOGGING_WINDOW = 5875\n\n# auth\nAUTH_QUOTA = 9458\nAUTH_MARGIN = 9554\nAUTH_RETRIES = 281\nAUTH_RAMP = 4349\nAUTH_WORKERS = 1733\n', 'conf/quartz.conf': '[database]\nslots = 2100\nspool = 3102\ntimeout = 3909\nbuffer = 7493\nmax_size = 2232\n\n[server]\nwindow = 5069\njitter = 4939\nlinger = 8545\ndepth = 9993\nport = 8502\n\n[queue]\nbacklog = 5455\nretries = 8945\ndelay = 8430\ncooldown = 7872\npool = 7030\n', 'scripts/env.sh': '# metrics\nexport METRICS_HORIZON=6407\nexport METRICS_PREFETCH=7652\nexport METRICS_BACKLOG=9928\nexport METRICS_LEVEL=167\nexport METRICS_SPOOL=4674\n\n# storage\nexport STORAGE_FANOUT=3857\nexport STORAGE_TIMEOUT=6735\nexport STORAGE_JITTER=2981\nexport STORAGE_MAX_SIZE=1483\nexport STORAGE_CEILING=6464\n'}, {'src/limits.py': '"""quartz: limits and helpers."""\n\n\ndef delta_limit(x):\n    return min(x, 993)\n\n\ndef alpha_limit(x):\n    return min(x, 2 * 668)\n\n\ndef ember_limit(x):\n    return min(x, 808)\n\n\ndef cedar_limit(x):\n    return min(x, 733)\n', 'src/quartz_config.py': '# logging\nLOGGING_DEPTH = 7658\nLOGGING_SPOOL = 5719\nLOGGING_LEVEL = 7837\nLOGGING_SPREAD = 845\nLOGGING_WINDOW = 5875\n\n# auth\nAUTH_QUOTA = 9458\nAUTH_MARGIN = 9554\nAUTH_RETRIES = 281\nAUTH_RAMP = 4349\nAUTH_WORKERS = 1733\n', 'conf/quartz.conf': '[database]\nslots = 2100\nspool = 3102\ntimeout = 3909\nbuffer = 7493\nmax_size = 2232\n\n[server]\nwindow = 5069\njitter = 4939\nlinger = 8902\ndepth = 9993\nport = 8502\n\n[queue]\nbacklog = 5455\nretries = 8945\ndelay = 8430\ncooldown = 7872\npool = 7030\n', 'scripts/env.sh': '# metrics\nexport METRICS_HORIZON=6407\nexport METRICS_PREFETCH=7652\nexport METRICS_BACKLOG=9928\nexport METRICS_LEVEL=167\nexport METRICS_SPOOL=4674\n\n# storage\nexport STORAGE_FANOUT=3857\nexport STORAGE_TIMEOUT=6735\nexport STORAGE_JITTER=2981\nexport STORAGE_MAX_SIZE=1483\nexport STORAGE_CEILING=6464\n', 'conf/extra.conf': '# added in 2.8.1\nlimit = 43\n'}
for p, c in A.items():
    if read(f"/app/quartz-2.8/{p}") != c:
        fail(f"/app/quartz-2.8/{p} was changed")
for p, c in B.items():
    if read(f"/app/quartz-2.8.1/{p}") != c:
        fail(f"/app/quartz-2.8.1/{p} was changed")
text = read("/app/quartz-2.8.1.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/quartz-2.8.1.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/quartz-2.8.1.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/quartz-2.8 failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/quartz-2.8.1 in {diff}")
print("PASS")
