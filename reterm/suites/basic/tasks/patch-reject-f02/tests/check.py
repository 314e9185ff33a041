import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/cedar/src/cedar/settings.py")
want = '# local changes: see CHANGELOG\n# server\nSERVER_LEASE = 5046\nSERVER_KEEPALIVE = 8564\nSERVER_WORKERS = 3486\nSERVER_RAMP = 5924\nSERVER_COOLDOWN = 1239\nSERVER_CHUNK = 7304\n\n# auth\nAUTH_CAP = 3069\nAUTH_MAX_SIZE = 820\nAUTH_THRESHOLD = 6414\nAUTH_LINGER = 5120\nAUTH_TIMEOUT = 1305\nAUTH_DEPTH = 3465\n\n# database\nDATABASE_JITTER = 9287\nDATABASE_HORIZON = 4520\nDATABASE_MARGIN = 3669\nDATABASE_SHARDS = 4239\nDATABASE_STRIDE = 5075\nDATABASE_REPLICAS = 8253\n\n# logging\nLOGGING_BUFFER = 2863\nLOGGING_PREFETCH = 5748\nLOGGING_LEVEL = 279\nLOGGING_LIMIT = 7291\nLOGGING_GRACE = 3011\nLOGGING_DELAY = 9069\n\n# queue\nQUEUE_CEILING = 9777\nQUEUE_INTERVAL = 3683\nQUEUE_RATE = 934\nQUEUE_BACKLOG = 8376\nQUEUE_SPREAD = 9137\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/cedar/src/cedar/settings.py is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/upstream-23.patch").encode()).hexdigest() != "6c96deeea1ce6d37ef375ccd8889114d2ef984c9df19abfc567d5a6cf7d841a2":
    fail("/app/patches/upstream-23.patch was modified")
if hashlib.sha256(read("/app/cedar/README.txt").encode()).hexdigest() != "22a0adea06252021d20c4874b286608aa3283a12edcd9d94ed6efd3bb3afd6f2":
    fail("/app/cedar/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
