import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/sierra/scripts/env.sh")
want = '# local changes: see CHANGELOG\n# logging\nexport LOGGING_COOLDOWN=6766\nexport LOGGING_THRESHOLD=4638\nexport LOGGING_JITTER=9912\nexport LOGGING_HORIZON=8127\nexport LOGGING_BURST=2876\nexport LOGGING_MARGIN=288\n\n# storage\nexport STORAGE_SHARDS=6831\n# tuned for the staging host\nexport STORAGE_CHUNK=6511\nexport STORAGE_SPREAD=623\nexport STORAGE_DELAY=7630\nexport STORAGE_SPOOL=6136\nexport STORAGE_RATE=3703\n\n# server\nexport SERVER_TTL=3849\nexport SERVER_MAX_SIZE=2012\nexport SERVER_BACKLOG=2524\nexport SERVER_BUFFER=1142\nexport SERVER_RAMP=6959\nexport SERVER_BATCH=4919\n\n# queue\nexport QUEUE_TIMEOUT=8649\nexport QUEUE_WINDOW=2936\nexport QUEUE_LEVEL=6177\nexport QUEUE_GRACE=64\nexport QUEUE_FANOUT=4026\nexport QUEUE_INTERVAL=9670\nexport QUEUE_LIMIT=9509\n\n# metrics\nexport METRICS_LINGER=224\nexport METRICS_RETRIES=2544\nexport METRICS_KEEPALIVE=2385\nexport METRICS_POOL=89\nexport METRICS_CAP=5761\nexport METRICS_RING=7591\n\n# cache\nexport CACHE_SLOTS=9278\nexport CACHE_DEPTH=5317\nexport CACHE_PREFETCH=8875\nexport CACHE_CEILING=4358\nexport CACHE_TENURE=5568\nexport CACHE_QUOTA=7\nexport CACHE_LEASE=1018\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/sierra/scripts/env.sh is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/backport-34.patch").encode()).hexdigest() != "57f7df16919ae06f34fbe1d6d9b5888f06c83385f9719b8f23f2e038d0eaef36":
    fail("/app/patches/backport-34.patch was modified")
if hashlib.sha256(read("/app/sierra/README.txt").encode()).hexdigest() != "2e04a64cb6ba90f5161150076540bc6c6b4370bcbb6759ec1dc8f58539561c88":
    fail("/app/sierra/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
