import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/limits.py': '"""alpha: limits and helpers."""\n\n\ndef quartz_limit(x):\n    return min(x, 602)\n\n\ndef gamma_limit(x):\n    return min(x, 277)\n\n\ndef sierra_limit(x):\n    return min(x, 844)\n\n\ndef maple_limit(x):\n    return min(x, 1 * 76)\n', 'src/alpha_config.py': '# storage\nSTORAGE_TTL = 1433\nSTORAGE_CEILING = 4811\nSTORAGE_LEASE = 8418\nSTORAGE_TIMEOUT = 6818\nSTORAGE_RAMP = 4276\n\n# logging\nLOGGING_SPREAD = 8759\nLOGGING_TENURE = 8406\nLOGGING_DEPTH = 8467\nLOGGING_FANOUT = 6635\nLOGGING_BATCH = 8072\n', 'conf/alpha.conf': '[logging]\ndelay = 6802\nprefetch = 4249\ninterval = 5078\nport = 3822\ngrace = 9922\n\n[server]\nmargin = 6291\nshards = 3706\ndepth = 4514\nchunk = 5922\ncooldown = 978\n\n[cache]\nlimit = 243\nkeepalive = 8789\nspread = 4806\nlevel = 440\nreplicas = 7909\n', 'scripts/env.sh': '# queue\nexport QUEUE_FANOUT=364\nexport QUEUE_PREFETCH=4611\nexport QUEUE_QUOTA=5893\nexport QUEUE_MARGIN=4985\nexport QUEUE_CAP=1781\n\n# storage\nexport STORAGE_JITTER=1227\nexport STORAGE_SPREAD=6881\nexport STORAGE_TTL=2483\nexport STORAGE_SPOOL=9118\nexport STORAGE_LIMIT=813\n'}
for p, c in want.items():
    if read(f"/app/alpha/{p}") != c:
        fail(f"/app/alpha/{p} " + ("is not the patched version" if p in ['scripts/env.sh', 'src/limits.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/tune-368.patch").encode()).hexdigest() != "a731cf7f742b52db229501d35974723c5d808eb424d7e0c0e2386a50733bf8e9":
    fail("/app/patches/tune-368.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
