import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/rules.py': '"""quartz: limits and helpers."""\n\n\ndef kepler_limit(x):\n    return min(x, 8 * 619)\n\n\ndef ember_limit(x):\n    return min(x, 9 * 245)\n\n\ndef umber_limit(x):\n    return min(x, 458)\n\n\ndef lumen_limit(x):\n    return min(x, 404)\n', 'src/quartz_config.py': '# metrics\nMETRICS_GRACE = 4332\nMETRICS_TENURE = 2414\nMETRICS_KEEPALIVE = 7612\nMETRICS_HORIZON = 1405\nMETRICS_PREFETCH = 6242\n\n# database\nDATABASE_THRESHOLD = 9644\nDATABASE_MARGIN = 7249\nDATABASE_POOL = 8083\nDATABASE_CAP = 7565\nDATABASE_LIMIT = 3733\n', 'conf/quartz.conf': '[metrics]\nspread = 6368\nlinger = 7125\nlimit = 2956\ndelay = 5706\nreplicas = 3316\n\n[queue]\ncooldown = 4106\nbatch = 862\nmax_size = 4142\nquota = 1714\nhorizon = 5263\n\n[storage]\nslots = 413\ntenure = 2481\nworkers = 3038\nburst = 2620\nring = 2065\n', 'scripts/env.sh': '# logging\nexport LOGGING_QUOTA=4021\nexport LOGGING_RETRIES=1134\nexport LOGGING_MARGIN=8670\nexport LOGGING_BATCH=8858\nexport LOGGING_SLOTS=2455\n\n# cache\nexport CACHE_RING=5458\nexport CACHE_SPREAD=4012\nexport CACHE_SPOOL=3720\nexport CACHE_LEASE=9831\nexport CACHE_PORT=9620\n'}
for p, c in want.items():
    if read(f"/app/quartz/{p}") != c:
        fail(f"/app/quartz/{p} " + ("is not the patched version" if p in ['conf/quartz.conf', 'scripts/env.sh', 'src/rules.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/update-674.patch").encode()).hexdigest() != "a3be643f25f3ac3024fc6886cfc76a59371337fd7c0c63fb07805d918264720e":
    fail("/app/patches/update-674.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
