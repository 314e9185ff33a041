import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/rules.py': '"""sierra: limits and helpers."""\n\n\ndef juniper_limit(x):\n    return min(x, 43)\n\n\ndef indigo_limit(x):\n    return min(x, 8 * 546)\n\n\ndef quartz_limit(x):\n    return min(x, 957)\n\n\ndef nova_limit(x):\n    return min(x, 808)\n', 'src/sierra_config.py': '# server\nSERVER_HORIZON = 4595\nSERVER_LINGER = 5258\nSERVER_RATE = 469\nSERVER_MAX_SIZE = 5708\nSERVER_WORKERS = 6411\n\n# auth\nAUTH_CAP = 8295\nAUTH_SLOTS = 7068\nAUTH_THRESHOLD = 4709\nAUTH_RAMP = 7443\nAUTH_DEPTH = 9811\n', 'conf/sierra.conf': '[logging]\nmax_size = 3384\nbacklog = 5309\nbatch = 9983\nceiling = 8258\ndelay = 5492\n\n[queue]\nchunk = 3442\nreplicas = 4784\nlimit = 6826\ninterval = 3196\nrate = 9917\n\n[auth]\nprefetch = 8783\ntimeout = 5150\ntenure = 1341\nlevel = 613\ncooldown = 1100\n', 'scripts/env.sh': '# queue\nexport QUEUE_BACKLOG=3502\nexport QUEUE_MARGIN=233\nexport QUEUE_LINGER=5208\nexport QUEUE_BATCH=7997\nexport QUEUE_CEILING=533\n\n# cache\nexport CACHE_RETRIES=2740\nexport CACHE_RING=8777\nexport CACHE_TTL=9831\nexport CACHE_RAMP=5280\nexport CACHE_FANOUT=5544\n'}
for p, c in want.items():
    if read(f"/app/sierra/{p}") != c:
        fail(f"/app/sierra/{p} " + ("is not the patched version" if p in ['src/rules.py', 'src/sierra_config.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/fix-739.patch").encode()).hexdigest() != "78a1dd6d13b2723bb4882105c2a43cbf946e9b9aa85935538c83e0d12adf0f58":
    fail("/app/patches/fix-739.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
