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
want = '; local changes: see CHANGELOG\n[cache]\nslots = 7477\nspool = 9532\nshards = 6236\nlinger = 1377\nreplicas = 8706\nfanout = 553\n\n[server]\ncooldown = 9164\nlimit = 2349\nworkers = 1582\nring = 226\nmargin = 617\n\n[auth]\nbuffer = 1416\nbacklog = 173\nttl = 7334\ngrace = 8066\nquota = 8994\n\n[storage]\nchunk = 1268\nceiling = 2587\nprefetch = 4598\nwindow = 3419\ndepth = 1742\nrate = 4079\n\n[logging]\nhorizon = 4749\nburst = 9047\nramp = 6567\nkeepalive = 760\npool = 5774\n\n[metrics]\nlevel = 6909\ncap = 6172\nretries = 867\ntimeout = 4609\nbatch = 493\nport = 3712\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/harbor/conf/harbor.conf is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/upstream-93.patch").encode()).hexdigest() != "8c27fba402520d4233c8661b6028ddbd466375ca1ed9b2617004f1f9c2e46368":
    fail("/app/patches/upstream-93.patch was modified")
if hashlib.sha256(read("/app/harbor/README.txt").encode()).hexdigest() != "033423f74234ededbe385e2503cdc0214dafb7cdf09ba2590a8812af991dd966":
    fail("/app/harbor/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
