import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals.txt")
if got != 'central 362\nvalley 194\nwest 81\n':
    fail(f"/app/totals.txt is {got!r}, expected 'central 362\nvalley 194\nwest 81\n'")
for path, digest in {'/app/incoming/west/fjord.txt': '218b1a9f6c538c3178d05d2bc29b8df194a42e3d206fd9a47ad35ae977e839ec', '/app/incoming/valley/alpha.txt': 'ac52d1d751ad105edc936bdab355d860b98641da614de778c5af7c45e8a2d497', '/app/incoming/valley/pixel.txt': 'ef0cd74f6553e0f4c936424707eb8330a8914ed500b5954a0fd1eb91944c19a5', '/app/incoming/central/orbit.txt': 'c25fdee3186c3255a8341c03684156a12cf546e5c9040091f9490bf5ec3863b9', '/app/incoming/central/juniper.txt': '1066b2790f274f23fb8f8b305066c2aa4c591f173b6a2ddaac66912dca795d72', '/app/bin/tally.py': 'daf9dbda562c132876dfd18b10dcfe4aea3de51d915addcc08958d7176687287'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/incoming': 493, '/app/incoming/west': 493, '/app/incoming/valley': 493, '/app/incoming/central': 493, '/app/incoming/west/fjord.txt': 420, '/app/incoming/valley/alpha.txt': 420, '/app/incoming/valley/pixel.txt': 420, '/app/incoming/central/orbit.txt': 420, '/app/incoming/central/juniper.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
