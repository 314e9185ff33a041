import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/members.csv", "rb").read() != b'name;city;visits\nLena Berg;Oslo;5\nRen\xc3\xa9e Fa\xc3\xa7ade;Besan\xc3\xa7on;10\nH\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9;Z\xc3\xbcrich;71\nJ\xc3\xbcrgen Gro\xc3\x9f;M\xc3\xa1laga;47\nS\xc3\xb8ren \xc3\x85g\xc3\xa5rd;M\xc3\xa1laga;64\nAna Concei\xc3\xa7\xc3\xa3o;M\xc3\xa1laga;53\n\xc3\x98yvind N\xc3\xa6ss;Z\xc3\xbcrich;1\nFran\xc3\xa7ois Lef\xc3\xa8vre;Z\xc3\xbcrich;9\nZo\xc3\xab Bront\xc3\xab;Troms\xc3\xb8;51\n':
    fail("/app/data/members.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/members_report.py", "rb").read()).hexdigest() != "31daae2a06ae6bd5c72561dde765600ff67fb204361b41d50d4884fb34f7ab11":
    fail("the report script was modified")
if open("/app/out/members-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (10): Ren\xc3\xa9e Fa\xc3\xa7ade\nM\xc3\xa1laga (164): Ana Concei\xc3\xa7\xc3\xa3o, J\xc3\xbcrgen Gro\xc3\x9f, S\xc3\xb8ren \xc3\x85g\xc3\xa5rd\nOslo (5): Lena Berg\nTroms\xc3\xb8 (51): Zo\xc3\xab Bront\xc3\xab\nZ\xc3\xbcrich (81): Fran\xc3\xa7ois Lef\xc3\xa8vre, H\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9, \xc3\x98yvind N\xc3\xa6ss\n':
    fail("/app/out/members-by-city.txt is missing or wrong")
print("PASS")
