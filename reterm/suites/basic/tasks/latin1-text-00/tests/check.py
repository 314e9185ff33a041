import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/members.csv", "rb").read() != b'name;city;visits\nAnne Smith;Oslo;5\nZo\xc3\xab Bront\xc3\xab;Z\xc3\xbcrich;30\nJ\xc3\xbcrgen Gro\xc3\x9f;Troms\xc3\xb8;24\nS\xc3\xb8ren \xc3\x85g\xc3\xa5rd;Troms\xc3\xb8;36\nH\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9;Z\xc3\xbcrich;34\nI\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez;Besan\xc3\xa7on;11\nChlo\xc3\xa9 Dub\xc5\x93uf;Troms\xc3\xb8;96\nSe\xc3\xa1n O\xe2\x80\x99Brien;Z\xc3\xbcrich;77\n':
    fail("/app/data/members.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/members_report.py", "rb").read()).hexdigest() != "31daae2a06ae6bd5c72561dde765600ff67fb204361b41d50d4884fb34f7ab11":
    fail("the report script was modified")
if open("/app/out/members-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (11): I\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez\nOslo (5): Anne Smith\nTroms\xc3\xb8 (156): Chlo\xc3\xa9 Dub\xc5\x93uf, J\xc3\xbcrgen Gro\xc3\x9f, S\xc3\xb8ren \xc3\x85g\xc3\xa5rd\nZ\xc3\xbcrich (141): H\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9, Se\xc3\xa1n O\xe2\x80\x99Brien, Zo\xc3\xab Bront\xc3\xab\n':
    fail("/app/out/members-by-city.txt is missing or wrong")
print("PASS")
