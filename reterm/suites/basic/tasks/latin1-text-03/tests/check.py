import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/members.csv", "rb").read() != b'name;city;visits\nLena Smith;Oslo;5\nRen\xc3\xa9e Fa\xc3\xa7ade;Z\xc3\xbcrich;71\nJos\xc3\xa9 Mu\xc3\xb1oz;Z\xc3\xbcrich;74\nI\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez;Besan\xc3\xa7on;54\nJ\xc3\xbcrgen Gro\xc3\x9f;Besan\xc3\xa7on;42\nZo\xc3\xab Bront\xc3\xab;Z\xc3\xbcrich;95\nFran\xc3\xa7ois Lef\xc3\xa8vre;Besan\xc3\xa7on;47\n':
    fail("/app/data/members.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/members_report.py", "rb").read()).hexdigest() != "31daae2a06ae6bd5c72561dde765600ff67fb204361b41d50d4884fb34f7ab11":
    fail("the report script was modified")
if open("/app/out/members-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (143): Fran\xc3\xa7ois Lef\xc3\xa8vre, I\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez, J\xc3\xbcrgen Gro\xc3\x9f\nOslo (5): Lena Smith\nZ\xc3\xbcrich (240): Jos\xc3\xa9 Mu\xc3\xb1oz, Ren\xc3\xa9e Fa\xc3\xa7ade, Zo\xc3\xab Bront\xc3\xab\n':
    fail("/app/out/members-by-city.txt is missing or wrong")
print("PASS")
