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
for r, dirs, fs in os.walk('/app/collected'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/collected')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'kepler cedar.yaml': 'ce0d8cb4137ab0529472950bf620719d27a64ae0f2947dd3e055176c6f30e185', 'gamma.yaml': 'c0826a654263e7224ef93b28e53253faf580973b78a5a26904f27577ab236dbc', 'final raven v6.yaml': '5d8573e7e2bc922e97dcdada46d54f93ef8e1cdd87432465f042490344334b40', 'umber\norbit.yaml': 'ee74018099b5d9403bfce99054d4bd03378ee9ccc24dead4cff41f739b8b12ed', 'juniper.yaml': '4895c9127c0835377af4f836ee83c93e7903ac9d66df86d132f4288f8f5ae2c6'}
if sorted(got) != sorted(want):
    fail(f"files under /app/collected: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/collected/{k} does not have its original content")
got = {}
for r, dirs, fs in os.walk('/app/exports'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/exports')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'indigo/vertex/kepler cedar.yaml': 'ce0d8cb4137ab0529472950bf620719d27a64ae0f2947dd3e055176c6f30e185', 'gamma.yaml': 'c0826a654263e7224ef93b28e53253faf580973b78a5a26904f27577ab236dbc', 'ember backup/final raven v6.yaml': '5d8573e7e2bc922e97dcdada46d54f93ef8e1cdd87432465f042490344334b40', 'umber\norbit.yaml': 'ee74018099b5d9403bfce99054d4bd03378ee9ccc24dead4cff41f739b8b12ed', 'ember backup/juniper.yaml': '4895c9127c0835377af4f836ee83c93e7903ac9d66df86d132f4288f8f5ae2c6', 'ember backup/kepler cedar.yaml.bak': '292604b39424cdeafa62a477d9395c27a7d5c7c6a4123661741d4b461dcd2f43', 'gamma.txt': 'b66febfa0ba25530777de13f4fe5dbecf4f82a52d43313607d621d12782a6637', 'notes pixel.txt': 'dd716f521dae09d429cc6a09c471db06bdfe86cfdd2bbe712b1f4798e140cdf8', 'indigo/bravo.yaml.old': '7ee11274748f6cef704586bb74ae97ebda7e0f2155d2e836abeb363cc864d961', 'old.yaml/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/exports: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/exports/{k} does not have its original content")
print("PASS")
