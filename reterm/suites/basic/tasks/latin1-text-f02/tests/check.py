import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/members.csv", "rb").read() != b'name;city;visits\nPaul Smith;Oslo;5\nS\xc3\xb8ren \xc3\x85g\xc3\xa5rd;Troms\xc3\xb8;76\nAna Concei\xc3\xa7\xc3\xa3o;Z\xc3\xbcrich;38\nI\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez;Z\xc3\xbcrich;70\nJos\xc3\xa9 Mu\xc3\xb1oz;M\xc3\xa1laga;36\nM\xc3\xb3nica G\xc3\xb3mez;Troms\xc3\xb8;46\n':
    fail("/app/data/members.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/members_report.py", "rb").read()).hexdigest() != "31daae2a06ae6bd5c72561dde765600ff67fb204361b41d50d4884fb34f7ab11":
    fail("the report script was modified")
if open("/app/out/members-by-city.txt", "rb").read() != b'M\xc3\xa1laga (36): Jos\xc3\xa9 Mu\xc3\xb1oz\nOslo (5): Paul Smith\nTroms\xc3\xb8 (122): M\xc3\xb3nica G\xc3\xb3mez, S\xc3\xb8ren \xc3\x85g\xc3\xa5rd\nZ\xc3\xbcrich (108): Ana Concei\xc3\xa7\xc3\xa3o, I\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez\n':
    fail("/app/out/members-by-city.txt is missing or wrong")
print("PASS")
