import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals_umber.txt")
if got != 'indigo: 9 x 8 = 72\ntango: 20 x 8 = 160\npixel: 1 x 8 = 8\nalpha: 23 x 8 = 184\number: 22 x 8 = 176\ntotal: 600 (cataloglib 3.4)\n':
    fail(f"/app/totals_umber.txt is {got!r}, expected 'indigo: 9 x 8 = 72\ntango: 20 x 8 = 160\npixel: 1 x 8 = 8\nalpha: 23 x 8 = 184\number: 22 x 8 = 176\ntotal: 600 (cataloglib 3.4)\n'")
for path, digest in {'/app/src/cataloglib/__init__.py': '04dd276c5f01703dd30fd290450fa48b414ba2dcdc0ae8ad7967bedf524a934a', '/app/src/cataloglib/core.py': '151587470bb1beacbf6aaae0811eb8ec3bb72af51c3a6fde26b5f59ada5ad7b1', '/app/src/cataloglib/report.py': 'f55f0428b6c23b394ff0540aefe8d8e1ab40b738737ef500b7ec274fbb1f9e5d'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
