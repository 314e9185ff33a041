import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/counts.txt")
want = '23 ivo\n22 alice\n21 bruno\n11 chen\n10 emeka\n2 farah\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/wed.txt': 'bb42d5dd4df5a9c8f2d29187fbb540eb20523a70f7f63b60c35601e0ec521163', '/app/data/tue.txt': 'bbd1cfb939200f471489846a43d36dcd2368450a30c81427136e1a18dff219e0', '/app/data/mon.txt': '63df7ee4f6bf83a6551c607711c629fc786c46d77f287f0386030c45150105b4'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
