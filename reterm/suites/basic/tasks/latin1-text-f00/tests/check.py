import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/guests.csv", "rb").read() != b'name;city;visits\nLena Berg;Oslo;5\nM\xc3\xb3nica G\xc3\xb3mez;Z\xc3\xbcrich;75\nI\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez;Troms\xc3\xb8;4\nFran\xc3\xa7ois Lef\xc3\xa8vre;Besan\xc3\xa7on;38\nAna Concei\xc3\xa7\xc3\xa3o;Besan\xc3\xa7on;2\nJos\xc3\xa9 Mu\xc3\xb1oz;Besan\xc3\xa7on;99\n':
    fail("/app/data/guests.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/guests_report.py", "rb").read()).hexdigest() != "4ca400c56fa012f13b85f9a643a3e5d95b0606dba0025d39d1e6a62b521cdd10":
    fail("the report script was modified")
if open("/app/out/guests-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (139): Ana Concei\xc3\xa7\xc3\xa3o, Fran\xc3\xa7ois Lef\xc3\xa8vre, Jos\xc3\xa9 Mu\xc3\xb1oz\nOslo (5): Lena Berg\nTroms\xc3\xb8 (4): I\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez\nZ\xc3\xbcrich (75): M\xc3\xb3nica G\xc3\xb3mez\n':
    fail("/app/out/guests-by-city.txt is missing or wrong")
print("PASS")
