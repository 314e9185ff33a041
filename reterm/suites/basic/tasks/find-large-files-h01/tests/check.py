import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = {}
for r, dirs, fs in os.walk('/app/cache'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/cache')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'kepler/indigo/sierra copy.swp': 'fb051d5e562cc420cc14976ccad65e1889e97a4ed7593b914c2aaa7895a02f34', 'lumen/tango.swp': 'eea3e99d53d4efc522982918057be248d86cbe950433e6c57edd8e2cc7fe094b', 'cedar/pixel.txt': '109fbe95e998083bdb920970044cc4f93c5e240e1bc26d6e4b24b761c839ff99', 'lumen old/vertex.swp.keep': '9324eb0858147f5ccbe706709b3103f136958d51934afe90777e06e3568f3191', 'delta.swp/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '2e05cff1b6ead0546250b1f3c63266b8ac74419fea958c1f00c31005da79caf2', 'KEEP': '9566997634d115a25fe8672a31e7e46f9721e87cc543aa4923c7a62630c19e95'}
if sorted(got) != sorted(want):
    fail(f"files under /app/cache: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/cache/{k} does not have its original content")
for p in ['cedar', 'delta.swp', 'kepler', 'kepler/indigo', 'lumen', 'lumen old']:
    if not os.path.isdir(os.path.join('/app/cache', p)):
        fail(f"directory /app/cache/{p} was removed")
print("PASS")
