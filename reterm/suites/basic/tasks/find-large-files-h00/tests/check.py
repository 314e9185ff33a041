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
want = {'bravo/cedar copy.part': '5f88789ba6636490c9578f2f884837bc0d01590b553d70bb3852c1388466dea3', 'maple/juniper.part': '43fbf7e7914886eea3fa018f2cb05ed6e09dab906e791ab760caa9ae0c99a775', 'umber/delta/quartz.txt': '3a8ce8a90b0add07d4a67b7c5e5ba6f8461cc0173cee0fb16f73a5f90766e583', 'umber/delta/tango.part.keep': '2d445c5412f134b6d33367519a014f76034a8cb823f65dff267b25dab34b8e31', 'vertex.part/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '65614ad4538c9aa87c32c922b8da9ace771c5872d29e1d2031f7ebfea3416737', 'KEEP': '6b37d28ac908520859401ffdb4dc1161bc42b9cbf0c78f42bf9a22e638821432'}
if sorted(got) != sorted(want):
    fail(f"files under /app/cache: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/cache/{k} does not have its original content")
for p in ['bravo', 'maple', 'maple old', 'umber/delta', 'vertex.part']:
    if not os.path.isdir(os.path.join('/app/cache', p)):
        fail(f"directory /app/cache/{p} was removed")
print("PASS")
