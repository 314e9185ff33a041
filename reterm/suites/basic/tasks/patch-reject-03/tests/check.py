import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/cedar/scripts/env.sh")
want = '# local changes: see CHANGELOG\n# auth\nexport AUTH_DEPTH=2855\nexport AUTH_RAMP=1764\nexport AUTH_PORT=8605\nexport AUTH_CEILING=7835\nexport AUTH_BUFFER=1581\nexport AUTH_MARGIN=7637\n\n# cache\nexport CACHE_LIMIT=727\nexport CACHE_TENURE=8911\nexport CACHE_THRESHOLD=30\nexport CACHE_TIMEOUT=2015\nexport CACHE_REPLICAS=8314\nexport CACHE_RING=4956\n\n# logging\nexport LOGGING_FANOUT=620\nexport LOGGING_GRACE=5084\nexport LOGGING_TTL=7287\nexport LOGGING_STRIDE=7800\nexport LOGGING_BURST=5991\nexport LOGGING_LINGER=1663\n\n# storage\nexport STORAGE_RATE=8887\nexport STORAGE_PREFETCH=3146\nexport STORAGE_INTERVAL=9225\nexport STORAGE_WORKERS=2576\nexport STORAGE_LEASE=3853\nexport STORAGE_KEEPALIVE=5998\n\n# queue\nexport QUEUE_LEVEL=3612\nexport QUEUE_SLOTS=3180\nexport QUEUE_CHUNK=1828\nexport QUEUE_CAP=7707\nexport QUEUE_POOL=9855\nexport QUEUE_DELAY=630\n\n# database\nexport DATABASE_HORIZON=3751\nexport DATABASE_SHARDS=9327\nexport DATABASE_RETRIES=6947\nexport DATABASE_BACKLOG=4252\nexport DATABASE_QUOTA=7631\nexport DATABASE_SPOOL=3377\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/cedar/scripts/env.sh is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/backport-34.patch").encode()).hexdigest() != "53d530a2dd75859097f085e94dde1ce3ed35c435dd456d8c50b19fc933146c28":
    fail("/app/patches/backport-34.patch was modified")
if hashlib.sha256(read("/app/cedar/README.txt").encode()).hexdigest() != "6f833a2ccb453780aa93e4cfdb2e3e3162ea96ff323c84d36f5d442183df4333":
    fail("/app/cedar/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
