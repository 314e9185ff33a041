import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/limits.py': '"""maple: limits and helpers."""\n\n\ndef indigo_limit(x):\n    return min(x, 323)\n\n\ndef vertex_limit(x):\n    return min(x, 7 * 786)\n\n\ndef alpha_limit(x):\n    return min(x, 660)\n\n\ndef gamma_limit(x):\n    return min(x, 181)\n', 'src/maple_config.py': '# database\nDATABASE_FANOUT = 1113\nDATABASE_PORT = 5458\nDATABASE_COOLDOWN = 2086\nDATABASE_CHUNK = 7607\nDATABASE_STRIDE = 7405\n\n# cache\nCACHE_BACKLOG = 7904\nCACHE_RETRIES = 8008\nCACHE_SLOTS = 6402\nCACHE_KEEPALIVE = 5439\nCACHE_TIMEOUT = 5428\n', 'conf/maple.conf': '[metrics]\nbuffer = 8530\nretries = 5941\nbacklog = 1058\nmargin = 3926\nspool = 8571\n\n[auth]\ndepth = 9807\nquota = 6205\ncooldown = 8397\nprefetch = 6136\nchunk = 7874\n\n[logging]\nreplicas = 9526\nbatch = 3788\nworkers = 4212\nlimit = 3769\nwindow = 1162\n', 'scripts/env.sh': '# auth\nexport AUTH_SLOTS=9854\nexport AUTH_BURST=9013\nexport AUTH_DEPTH=2925\nexport AUTH_TTL=1634\nexport AUTH_GRACE=5516\n\n# logging\nexport LOGGING_MARGIN=4204\nexport LOGGING_REPLICAS=8050\nexport LOGGING_LIMIT=208\nexport LOGGING_RATE=4767\nexport LOGGING_TENURE=1034\n'}
for p, c in want.items():
    if read(f"/app/maple/{p}") != c:
        fail(f"/app/maple/{p} " + ("is not the patched version" if p in ['src/limits.py', 'src/maple_config.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/tune-423.patch").encode()).hexdigest() != "5440d24bda8ec2b681e30c199ead6dce150a1bf51a1b78f6ce5296be33bc2b4c":
    fail("/app/patches/tune-423.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
