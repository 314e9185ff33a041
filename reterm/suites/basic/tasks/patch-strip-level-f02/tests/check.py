import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/helpers.py': '"""tango: limits and helpers."""\n\n\ndef juniper_limit(x):\n    return min(x, 54)\n\n\ndef ember_limit(x):\n    return min(x, 159)\n\n\ndef raven_limit(x):\n    return min(x, 694)\n\n\ndef harbor_limit(x):\n    return min(x, 325)\n', 'src/tango_config.py': '# queue\nQUEUE_THRESHOLD = 9782\nQUEUE_KEEPALIVE = 2392\nQUEUE_LIMIT = 9445\nQUEUE_BURST = 546\nQUEUE_PORT = 1553\n\n# storage\nSTORAGE_INTERVAL = 3127\nSTORAGE_RETRIES = 10221\nSTORAGE_CAP = 8978\nSTORAGE_FANOUT = 8609\nSTORAGE_LEVEL = 8006\n', 'conf/tango.conf': '[auth]\nquota = 4021\nbacklog = 9853\nslots = 437\nmax_size = 6097\nburst = 4868\n\n[cache]\nramp = 5023\ndelay = 1748\nmargin = 5981\nbatch = 3227\ninterval = 1574\n\n[storage]\nthreshold = 4569\ndepth = 9204\ncooldown = 6074\nttl = 4224\njitter = 9098\n', 'scripts/env.sh': '# server\nexport SERVER_JITTER=676\nexport SERVER_LEVEL=1051\nexport SERVER_SHARDS=9707\nexport SERVER_DEPTH=4488\nexport SERVER_TENURE=5812\n\n# storage\nexport STORAGE_BURST=6421\nexport STORAGE_KEEPALIVE=6914\nexport STORAGE_TIMEOUT=6457\nexport STORAGE_INTERVAL=767\nexport STORAGE_SPREAD=9297\n'}
for p, c in want.items():
    if read(f"/app/tango/{p}") != c:
        fail(f"/app/tango/{p} " + ("is not the patched version" if p in ['conf/tango.conf', 'src/tango_config.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/tune-963.patch").encode()).hexdigest() != "5c5d86968176dae270001dd316b49b19331a4dec45459688042581157be503e2":
    fail("/app/patches/tune-963.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
