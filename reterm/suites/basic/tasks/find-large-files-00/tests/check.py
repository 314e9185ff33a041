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
want = {'maple/orbit copy.tmp': 'a5c79b4150be1687e31992141c21f2cda9e8e05d9bdb08a6b5be75a380520765', 'indigo/lumen.tmp': '2b2d4bf3c35d7cbfaad86b28a30201c16d200c10551f67f34d43d7dc06a0656d', 'indigo/delta.txt': 'b7b11b8334db3c5aaaf69a5f86aee9f8d412ee25a5f2cbc23e88542b012f15be', 'quartz/ember/bravo.tmp.keep': 'e958b94da1b156140589cdf751fa0d2e809d488bb4d8fa5878e6e21f1dd296d8', 'gamma.tmp/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '07379c51e971ddd54fef8088aed6b32e245544a3db800274477ef90fb156ff91', 'KEEP': 'd73214dd3e4b8c78b8b927516e83035a41515b715f30c87ff7648afc31c7f2d7'}
if sorted(got) != sorted(want):
    fail(f"files under /app/cache: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/cache/{k} does not have its original content")
for p in ['gamma.tmp', 'indigo', 'maple', 'maple old', 'quartz/ember']:
    if not os.path.isdir(os.path.join('/app/cache', p)):
        fail(f"directory /app/cache/{p} was removed")
print("PASS")
