import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/harbor/conf/harbor.conf")
want = '; local changes: see CHANGELOG\n[storage]\ncap = 9332\nlimit = 9548\nttl = 5532\nmargin = 2059\nquota = 8131\nport = 5480\n\n[cache]\ncooldown = 3347\nspread = 7237\nwindow = 13720\ntimeout = 7923\ngrace = 1407\nchunk = 1631\n\n[server]\nfanout = 7168\nhorizon = 2530\nkeepalive = 8582\nrate = 9598\nretries = 2969\nramp = 3017\n\n[logging]\nceiling = 5770\nprefetch = 7607\nring = 7342\nspool = 5235\nlinger = 59\nburst = 7676\nshards = 3247\n\n[auth]\nmax_size = 8999\nbacklog = 5310\ndepth = 388\ndelay = 4274\ninterval = 7301\nthreshold = 2587\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/harbor/conf/harbor.conf is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/backport-63.patch").encode()).hexdigest() != "cce7ea958389269f3c84e89a50dc0465d2ecd8509ee3c1a7200c0630263ba0c0":
    fail("/app/patches/backport-63.patch was modified")
if hashlib.sha256(read("/app/harbor/README.txt").encode()).hexdigest() != "033423f74234ededbe385e2503cdc0214dafb7cdf09ba2590a8812af991dd966":
    fail("/app/harbor/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
