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
if got != 'central 397\nsouth 242\nvalley 393\nwest 145\n':
    fail(f"/app/totals.txt is {got!r}, expected 'central 397\nsouth 242\nvalley 393\nwest 145\n'")
for path, digest in {'/app/shared/south/sierra.txt': 'e3d98df40ad3e7873e75ec0066bbe251d270d8cdd368daa2ef1690d7223486ad', '/app/shared/south/indigo.txt': '1c079c0c3d1f226d65d9836546f9e9c45c51137eed8dcefd1aab40d0be29ca86', '/app/shared/valley/bravo.txt': 'e8539fe1d90075c665d2911348d2654750c2138b0e36d57b75bb930cf16526fa', '/app/shared/valley/nova.txt': 'b404a506ed2d97e063697224127f545cb85bdd48af80b168b46e41b478fbef25', '/app/shared/west/fjord.txt': '7f132a311627d5dddd4b6891d328a1a260c3cd26a98fcf8cc4200f17b562a530', '/app/shared/west/nova.txt': '59b18210666b87e0e0829bef97449306f87e4eb434156975dd4829e4fd0a9e5a', '/app/shared/central/pixel.txt': '28bbb559c87babae85f65e63ae21678905d2aaa348679820f11c65d194abce6f', '/app/shared/central/bravo.txt': '11d7c1924a37e4b7ee3ff5028452135b08bcb900f05b8b502d323f047ab69525', '/app/bin/sumup.py': 'a2223826545085084bb3c75ccea7bc1fd50fdfe35c51e1edd7bd75080504b328'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/shared': 493, '/app/shared/south': 493, '/app/shared/valley': 493, '/app/shared/west': 493, '/app/shared/central': 493, '/app/shared/south/sierra.txt': 420, '/app/shared/south/indigo.txt': 420, '/app/shared/valley/bravo.txt': 420, '/app/shared/valley/nova.txt': 420, '/app/shared/west/fjord.txt': 420, '/app/shared/west/nova.txt': 420, '/app/shared/central/pixel.txt': 420, '/app/shared/central/bravo.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
