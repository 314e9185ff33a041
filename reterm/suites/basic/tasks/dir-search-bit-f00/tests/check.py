import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/report.txt")
if got != 'central 660\ncoast 700\neast 363\nwest 390\n':
    fail(f"/app/report.txt is {got!r}, expected 'central 660\ncoast 700\neast 363\nwest 390\n'")
for path, digest in {'/app/inbox/central/cedar.txt': 'b6aa126c8bf03412b581bb530a7d10ebce5cb586ebc34aeaba99ce46ed9567cb', '/app/inbox/central/bravo.txt': 'c65ea4c12018acfb8beeacfd8e6b7f70f95bc227c40ac9160996ed1b26b386f4', '/app/inbox/central/harbor.txt': '59082cd7c2838c57247362fe34cdb3ce0fec99d664c2487cef1e36518c65c0c0', '/app/inbox/west/bravo.txt': 'cfdde0b0d643f11c23025e5089b850f26d181ae904a3a0207348810d7d744838', '/app/inbox/west/kepler.txt': '94104db12d7a51e76436f17555bcecdf752b520fa6f5010b2636d0bf4b0bbbba', '/app/inbox/coast/sierra.txt': '8fcf5554f462f667cfabf3e967b8c31e3a20a5b35f21cd88139d5a06d83967e6', '/app/inbox/coast/gamma.txt': '402ec43a92c5dbee5283416dce62b7ae65bb7283dedfca5f961f2538c722eac5', '/app/inbox/coast/tango.txt': '7d8fc2b23906fa4f9d641ae51fa0708604101a0380377c162eaea16e375807b2', '/app/inbox/east/fjord.txt': '767492eb63708ff1c6acbeb0bdc413e9f91522e593426b01bb22e424b85270e9', '/app/inbox/east/juniper.txt': '2df11209d3f15fed53524882b18920bc29f4ef2c38636fc491e84e6747bd46cd', '/app/inbox/east/tango.txt': 'a1750086f29294dbed8730eceadea24fd3977016ad3169c38796ed558e8534c4', '/app/bin/sumup.py': '7bb0204ee6e44ff63ddbb739ee2bedc8f5c7655c923feb1ffffad133f451dd5e'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/inbox': 493, '/app/inbox/central': 493, '/app/inbox/west': 493, '/app/inbox/coast': 493, '/app/inbox/east': 493, '/app/inbox/central/cedar.txt': 420, '/app/inbox/central/bravo.txt': 420, '/app/inbox/central/harbor.txt': 420, '/app/inbox/west/bravo.txt': 420, '/app/inbox/west/kepler.txt': 420, '/app/inbox/coast/sierra.txt': 420, '/app/inbox/coast/gamma.txt': 420, '/app/inbox/coast/tango.txt': 420, '/app/inbox/east/fjord.txt': 420, '/app/inbox/east/juniper.txt': 420, '/app/inbox/east/tango.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
