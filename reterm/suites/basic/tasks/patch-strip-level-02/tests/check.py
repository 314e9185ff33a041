import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = {'src/helpers.py': '"""alpha: limits and helpers."""\n\n\ndef ember_limit(x):\n    return min(x, 760)\n\n\ndef sierra_limit(x):\n    return min(x, 4 * 871)\n\n\ndef tango_limit(x):\n    return min(x, 602)\n\n\ndef raven_limit(x):\n    return min(x, 678)\n', 'src/alpha_config.py': '# metrics\nMETRICS_TENURE = 2684\nMETRICS_SLOTS = 8794\nMETRICS_COOLDOWN = 9239\nMETRICS_LINGER = 5436\nMETRICS_THRESHOLD = 3534\n\n# storage\nSTORAGE_BURST = 3822\nSTORAGE_WORKERS = 9879\nSTORAGE_DEPTH = 1101\nSTORAGE_LEVEL = 6703\nSTORAGE_WINDOW = 11212\n', 'conf/alpha.conf': '[metrics]\nport = 2026\nretries = 6813\nspread = 2898\nwindow = 3039\ngrace = 5032\n\n[auth]\nlinger = 9765\nttl = 9673\nlevel = 3019\nring = 4641\nbacklog = 4452\n\n[storage]\nprefetch = 5315\nhorizon = 3077\nkeepalive = 5737\nceiling = 4519\nworkers = 7879\n', 'scripts/env.sh': '# queue\nexport QUEUE_SHARDS=7984\nexport QUEUE_DEPTH=8230\nexport QUEUE_WORKERS=8346\nexport QUEUE_TIMEOUT=1709\nexport QUEUE_CHUNK=4252\n\n# logging\nexport LOGGING_WINDOW=602\nexport LOGGING_PORT=7407\nexport LOGGING_POOL=1106\nexport LOGGING_MARGIN=619\nexport LOGGING_RING=3572\n'}
for p, c in want.items():
    if read(f"/app/alpha/{p}") != c:
        fail(f"/app/alpha/{p} " + ("is not the patched version" if p in ['src/alpha_config.py', 'src/helpers.py']
                                     else "was changed"))
if hashlib.sha256(read("/app/patches/hotfix-215.patch").encode()).hexdigest() != "87978e6e41d4b704b4ea2f5f2bf94fab39c402ba79a172baad67f7fc4b13cbc1":
    fail("/app/patches/hotfix-215.patch was modified")
for root, _, fs in os.walk("/app"):
    for f in fs:
        if f.endswith((".rej", ".orig")):
            fail(f"{os.path.join(root, f)} was left behind")
print("PASS")
