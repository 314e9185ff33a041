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
A, B = {'src/helpers.py': '"""ember: limits and helpers."""\n\n\ndef delta_limit(x):\n    return min(x, 964)\n\n\ndef kepler_limit(x):\n    return min(x, 852)\n\n\ndef cedar_limit(x):\n    return min(x, 207)\n\n\ndef umber_limit(x):\n    return min(x, 604)\n', 'src/ember_config.py': '# storage\nSTORAGE_QUOTA = 1516\nSTORAGE_WORKERS = 9150\nSTORAGE_THRESHOLD = 6703\nSTORAGE_GRACE = 5288\nSTORAGE_REPLICAS = 9128\n\n# logging\nLOGGING_RETRIES = 1759\nLOGGING_POOL = 999\nLOGGING_FANOUT = 4849\nLOGGING_BUFFER = 9883\nLOGGING_TENURE = 1112\n', 'conf/ember.conf': '[cache]\nspread = 5962\nrate = 4952\njitter = 2637\ntimeout = 3765\nchunk = 7781\n\n[queue]\nthreshold = 7382\ncap = 3193\nstride = 2471\nbuffer = 9623\nfanout = 3222\n\n[server]\nlevel = 188\nlease = 4109\ntenure = 3886\nbacklog = 8575\nttl = 7126\n', 'scripts/env.sh': '# storage\nexport STORAGE_BATCH=5975\nexport STORAGE_BUFFER=6959\nexport STORAGE_SPREAD=4761\nexport STORAGE_JITTER=4520\nexport STORAGE_PREFETCH=47\n\n# logging\nexport LOGGING_QUOTA=5419\nexport LOGGING_FANOUT=7154\nexport LOGGING_SPOOL=4852\nexport LOGGING_MARGIN=6738\nexport LOGGING_TENURE=7420\n'}, {'src/helpers.py': '"""ember: limits and helpers."""\n\n\ndef delta_limit(x):\n    return min(x, 964)\n\n\ndef kepler_limit(x):\n    return min(x, 852)\n\n\ndef cedar_limit(x):\n    return min(x, 207)\n\n\ndef umber_limit(x):\n    return min(x, 604)\n', 'src/ember_config.py': '# storage\nSTORAGE_QUOTA = 1516\nSTORAGE_WORKERS = 9150\nSTORAGE_THRESHOLD = 6703\nSTORAGE_GRACE = 5572\nSTORAGE_REPLICAS = 9128\n\n# logging\nLOGGING_RETRIES = 1759\nLOGGING_POOL = 999\nLOGGING_FANOUT = 4849\nLOGGING_BUFFER = 9883\nLOGGING_TENURE = 1112\n', 'conf/ember.conf': '[cache]\nspread = 5962\nrate = 4952\njitter = 2637\ntimeout = 3765\nchunk = 7781\n\n[queue]\nthreshold = 7797\ncap = 3193\nstride = 2471\nbuffer = 9623\nfanout = 3222\n\n[server]\nlevel = 188\nlease = 4109\ntenure = 3886\nbacklog = 8575\nttl = 8946\n', 'scripts/env.sh': '# storage\nexport STORAGE_BATCH=5975\nexport STORAGE_BUFFER=6959\nexport STORAGE_SPREAD=4761\nexport STORAGE_JITTER=4900\nexport STORAGE_PREFETCH=47\n\n# logging\nexport LOGGING_QUOTA=5419\nexport LOGGING_FANOUT=7154\nexport LOGGING_SPOOL=4852\nexport LOGGING_MARGIN=6738\nexport LOGGING_TENURE=7420\n', 'conf/extra.conf': '# added in 3.1.1\ngrace = 83\n'}
for p, c in A.items():
    if read(f"/app/ember-3.1/{p}") != c:
        fail(f"/app/ember-3.1/{p} was changed")
for p, c in B.items():
    if read(f"/app/ember-3.1.1/{p}") != c:
        fail(f"/app/ember-3.1.1/{p} was changed")
text = read("/app/ember-3.1.1.patch")
if not any(l.startswith("@@ ") for l in text.splitlines()):
    fail("/app/ember-3.1.1.patch is not a unified diff")
with tempfile.TemporaryDirectory() as tmp:
    for p, c in A.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
        with open(os.path.join(tmp, p), "w") as f:
            f.write(c)
    r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "/app/ember-3.1.1.patch"], cwd=tmp,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"patch -p1 in a copy of /app/ember-3.1 failed: {(r.stdout + r.stderr)[-400:]}")
    got = {}
    for root, _, fs in os.walk(tmp):
        for f in fs:
            with open(os.path.join(root, f)) as fh:
                got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
if diff:
    fail(f"the patched copy differs from /app/ember-3.1.1 in {diff}")
print("PASS")
