import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/fjord/src/fjord/settings.py")
want = '# local changes: see CHANGELOG\n# auth\nAUTH_MARGIN = 3658\nAUTH_CHUNK = 6489\nAUTH_KEEPALIVE = 9249\nAUTH_SPREAD = 2823\nAUTH_SHARDS = 6439\nAUTH_FANOUT = 1547\n\n# database\nDATABASE_THRESHOLD = 4848\nDATABASE_LINGER = 8418\nDATABASE_WORKERS = 9236\nDATABASE_STRIDE = 6527\nDATABASE_LEVEL = 3393\nDATABASE_LEASE = 301\n\n# storage\nSTORAGE_INTERVAL = 4806\nSTORAGE_PREFETCH = 8218\nSTORAGE_WINDOW = 5577\nSTORAGE_REPLICAS = 5175\nSTORAGE_MAX_SIZE = 7563\nSTORAGE_TTL = 3998\n\n# server\nSERVER_BATCH = 1869\nSERVER_POOL = 1596\nSERVER_RING = 7293\nSERVER_RATE = 7438\nSERVER_RETRIES = 3862\nSERVER_BACKLOG = 1763\n\n# logging\nLOGGING_LIMIT = 6491\nLOGGING_QUOTA = 1324\nLOGGING_CEILING = 3416\nLOGGING_PORT = 4309\n# tuned for the staging host\nLOGGING_GRACE = 4212\nLOGGING_COOLDOWN = 2629\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/fjord/src/fjord/settings.py is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/backport-68.patch").encode()).hexdigest() != "9a76076a4090f473febdde131adf138a1aa5367edebcbc0512f73b254cf6bd9d":
    fail("/app/patches/backport-68.patch was modified")
if hashlib.sha256(read("/app/fjord/README.txt").encode()).hexdigest() != "9f94e90528e1eeddc56197526154317aa6af255d661b5be1347174a72ad359b1":
    fail("/app/fjord/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
