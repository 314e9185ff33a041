import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/records/journal.log")
if got != 'b0: total 1464\nb1: total 958\nb69: gamma 336\nb69: bravo 288\nb69: raven 220\nb69: indigo 123\nb69: total 967\n':
    fail(f"/app/records/journal.log is {got!r}, expected 'b0: total 1464\nb1: total 958\nb69: gamma 336\nb69: bravo 288\nb69: raven 220\nb69: indigo 123\nb69: total 967\n'")
for path, digest in {'/app/incoming/b69.csv': '91686f8a4cd1afd00614232c4f7ecb0f18eca86cbab326e459ae9159da77b474', '/app/bin/record.py': 'd21da80ea75b8ea535f54d4e376bd66ac370e52160a5e6fcd26cfe98b4200a4f'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/records/journal.log': 420, '/app/records': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
