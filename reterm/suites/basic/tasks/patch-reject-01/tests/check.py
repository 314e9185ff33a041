import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/lumen/conf/lumen.conf")
want = '; local changes: see CHANGELOG\n[queue]\nreplicas = 8461\nretries = 4874\nlinger = 4261\nramp = 3636\ntenure = 2991\npool = 1251\n\n[server]\nceiling = 5994\nhorizon = 8741\nmargin = 82\nkeepalive = 8118\nring = 6093\ninterval = 6492\nworkers = 751\n\n[auth]\nspool = 787\nburst = 8155\nquota = 3844\nshards = 8590\nbuffer = 6605\nlease = 3869\n\n[storage]\nbatch = 871\nthreshold = 6163\nlevel = 9755\ntimeout = 8096\njitter = 6908\nspread = 5887\n\n[logging]\ndelay = 8505\nstride = 5446\ngrace = 6983\nprefetch = 81\nchunk = 49\ncooldown = 6176\ncap = 135\n\n[database]\nlimit = 1662\nttl = 3762\nslots = 3838\nmax_size = 8192\nrate = 6288\n'
if got != want:
    bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
    fail(f"/app/lumen/conf/lumen.conf is not right (first differing line: {bad[:1] or 'length'})")
if hashlib.sha256(read("/app/patches/upstream-12.patch").encode()).hexdigest() != "9171298c7fc2a7952831c1ab87bb3027124935e65c26f3043eacdcc3dba1e49f":
    fail("/app/patches/upstream-12.patch was modified")
if hashlib.sha256(read("/app/lumen/README.txt").encode()).hexdigest() != "d684ee9ca6995cd2fae0cd5d60fda34d4af98e773e5f7c58a04b7b0c3e0d6684":
    fail("/app/lumen/README.txt was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
