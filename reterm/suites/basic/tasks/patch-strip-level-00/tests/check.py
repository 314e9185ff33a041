import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/limits.py': '"""nova: limits and helpers."""\n\n\ndef sierra_limit(x):\n    return min(x, 54)\n\n\ndef ember_limit(x):\n    return min(x, 453)\n\n\ndef raven_limit(x):\n    return min(x, 409)\n\n\ndef orbit_limit(x):\n    return min(x, 225)\n', 'src/nova_config.py': '# server\nSERVER_KEEPALIVE = 7844\nSERVER_BACKLOG = 7908\nSERVER_THRESHOLD = 8290\nSERVER_BURST = 11328\nSERVER_DEPTH = 7252\n\n# logging\nLOGGING_CHUNK = 276\nLOGGING_SPREAD = 5570\nLOGGING_STRIDE = 2215\nLOGGING_DELAY = 9408\nLOGGING_FANOUT = 4390\n', 'conf/nova.conf': '[server]\ntenure = 5419\nchunk = 1356\ngrace = 5810\nramp = 5582\nring = 7562\n\n[queue]\nbacklog = 1280\npool = 3454\nreplicas = 8641\nmax_size = 4308\nlease = 2517\n\n[auth]\nwindow = 5919\nthreshold = 4052\nceiling = 6117\nrate = 4141\nretries = 2554\n', 'scripts/env.sh': '# server\nexport SERVER_LINGER=7518\nexport SERVER_SLOTS=9769\nexport SERVER_TENURE=3619\nexport SERVER_QUOTA=7217\nexport SERVER_MARGIN=285\n\n# auth\nexport AUTH_SPOOL=7576\nexport AUTH_PORT=3007\nexport AUTH_DELAY=4368\nexport AUTH_PREFETCH=7254\nexport AUTH_TIMEOUT=2152\n'}
for p, c in want.items():
    if read(f"/app/nova/{p}") != c:
        fail(f"/app/nova/{p} " + ("is not the patched version" if p in ['conf/nova.conf', 'scripts/env.sh', 'src/nova_config.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/fix-863.patch").encode()).hexdigest() != "5fee79ed3f52c895be625d7b0f8421787c9db9a6ba70de60e2f501dcce53330a":
    fail("/app/patches/fix-863.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
