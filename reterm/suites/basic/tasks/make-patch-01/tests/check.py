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
A, B = {'src/limits.py': '"""quartz: limits and helpers."""\n\n\ndef cedar_limit(x):\n    return min(x, 458)\n\n\ndef pixel_limit(x):\n    return min(x, 102)\n\n\ndef fjord_limit(x):\n    return min(x, 364)\n\n\ndef orbit_limit(x):\n    return min(x, 982)\n', 'src/quartz_config.py': '# metrics\nMETRICS_INTERVAL = 8959\nMETRICS_POOL = 5970\nMETRICS_WINDOW = 9726\nMETRICS_LIMIT = 1834\nMETRICS_CAP = 4492\n\n# queue\nQUEUE_MAX_SIZE = 4023\nQUEUE_COOLDOWN = 4043\nQUEUE_BATCH = 8036\nQUEUE_DEPTH = 7906\nQUEUE_SHARDS = 4859\n', 'conf/quartz.conf': '[auth]\ntenure = 3932\nspread = 3232\nbuffer = 602\nlimit = 4950\nprefetch = 7004\n\n[database]\nport = 2260\nstride = 2506\ncooldown = 7589\npool = 9683\nmax_size = 7251\n\n[cache]\nburst = 8243\nbatch = 9612\nlinger = 722\nrate = 2855\nfanout = 342\n', 'scripts/env.sh': '# logging\nexport LOGGING_PORT=3387\nexport LOGGING_HORIZON=2970\nexport LOGGING_PREFETCH=3942\nexport LOGGING_POOL=2296\nexport LOGGING_LEVEL=7512\n\n# cache\nexport CACHE_TIMEOUT=591\nexport CACHE_WORKERS=6721\nexport CACHE_REPLICAS=6554\nexport CACHE_BACKLOG=9365\nexport CACHE_CEILING=1561\n'}, {'src/limits.py': '"""quartz: limits and helpers."""\n\n\ndef cedar_limit(x):\n    return min(x, 8 * 458)\n\n\ndef pixel_limit(x):\n    return min(x, 102)\n\n\ndef fjord_limit(x):\n    return min(x, 4 * 364)\n\n\ndef orbit_limit(x):\n    return min(x, 982)\n', 'src/quartz_config.py': '# metrics\nMETRICS_INTERVAL = 8959\nMETRICS_POOL = 5970\nMETRICS_WINDOW = 9768\nMETRICS_LIMIT = 1834\nMETRICS_CAP = 4492\n\n# queue\nQUEUE_MAX_SIZE = 4246\nQUEUE_COOLDOWN = 4043\nQUEUE_BATCH = 8036\nQUEUE_DEPTH = 7906\nQUEUE_SHARDS = 4859\n', 'conf/quartz.conf': '[auth]\ntenure = 3932\nspread = 3232\nbuffer = 602\nlimit = 4950\nprefetch = 7004\n\n[database]\nport = 2260\nstride = 2506\ncooldown = 7589\npool = 9683\nmax_size = 7251\n\n[cache]\nburst = 8243\nbatch = 9612\nlinger = 722\nrate = 2855\nfanout = 342\n', 'scripts/env.sh': '# logging\nexport LOGGING_PORT=3387\nexport LOGGING_HORIZON=2970\nexport LOGGING_PREFETCH=3942\nexport LOGGING_POOL=2296\nexport LOGGING_LEVEL=7512\n\n# cache\nexport CACHE_TIMEOUT=591\nexport CACHE_WORKERS=6721\nexport CACHE_REPLICAS=6554\nexport CACHE_BACKLOG=9365\nexport CACHE_CEILING=1561\n', 'conf/extra.conf': '# added in 2.7.1\nlease = 30\n'}
for p, c in A.items():
    if read(f"/app/old/quartz/{p}") != c:
        fail(f"/app/old/quartz/{p} was changed")
for p, c in B.items():
    if read(f"/app/new/quartz/{p}") != c:
        fail(f"/app/new/quartz/{p} was changed")
text = read("/app/quartz-2.7.1.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/quartz-2.7.1.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/quartz-2.7.1.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/old/quartz failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/new/quartz in {diff}")
print("PASS")
