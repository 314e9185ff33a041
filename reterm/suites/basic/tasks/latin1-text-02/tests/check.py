import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/customers.csv", "rb").read() != b'name;city;visits\nAnne Smith;Oslo;5\nZo\xc3\xab Bront\xc3\xab;M\xc3\xa1laga;45\n\xc3\x98yvind N\xc3\xa6ss;Z\xc3\xbcrich;35\nFran\xc3\xa7ois Lef\xc3\xa8vre;Besan\xc3\xa7on;43\nJos\xc3\xa9 Mu\xc3\xb1oz;M\xc3\xa1laga;43\nAna Concei\xc3\xa7\xc3\xa3o;Besan\xc3\xa7on;36\nI\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez;Besan\xc3\xa7on;87\nJ\xc3\xbcrgen Gro\xc3\x9f;M\xc3\xa1laga;47\n':
    fail("/app/data/customers.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/customers_report.py", "rb").read()).hexdigest() != "be73c2bbe2e74f9aa5ff07dfb881d9ef7c48b826f18fd41a7363eb20cba95203":
    fail("the report script was modified")
if open("/app/out/customers-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (166): Ana Concei\xc3\xa7\xc3\xa3o, Fran\xc3\xa7ois Lef\xc3\xa8vre, I\xc3\xb1aki Ib\xc3\xa1\xc3\xb1ez\nM\xc3\xa1laga (135): Jos\xc3\xa9 Mu\xc3\xb1oz, J\xc3\xbcrgen Gro\xc3\x9f, Zo\xc3\xab Bront\xc3\xab\nOslo (5): Anne Smith\nZ\xc3\xbcrich (35): \xc3\x98yvind N\xc3\xa6ss\n':
    fail("/app/out/customers-by-city.txt is missing or wrong")
print("PASS")
