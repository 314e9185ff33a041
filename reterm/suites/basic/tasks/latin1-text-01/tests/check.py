import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/data/suppliers.csv", "rb").read() != b'name;city;visits\nAnne Smith;Oslo;5\nBj\xc3\xb6rn \xc3\x84hling;M\xc3\xa1laga;53\nJos\xc3\xa9 Mu\xc3\xb1oz;Troms\xc3\xb8;25\nH\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9;Troms\xc3\xb8;11\nJ\xc3\xbcrgen Gro\xc3\x9f;Troms\xc3\xb8;57\nZo\xc3\xab Bront\xc3\xab;M\xc3\xa1laga;28\nM\xc3\xb3nica G\xc3\xb3mez;Besan\xc3\xa7on;27\n':
    fail("/app/data/suppliers.csv is not the same text stored as UTF-8")
if hashlib.sha256(open("/app/suppliers_report.py", "rb").read()).hexdigest() != "a1adcdceed7fd13a25951afe08d4bc820e002acbe87bfd568657b8525072bcef":
    fail("the report script was modified")
if open("/app/out/suppliers-by-city.txt", "rb").read() != b'Besan\xc3\xa7on (27): M\xc3\xb3nica G\xc3\xb3mez\nM\xc3\xa1laga (81): Bj\xc3\xb6rn \xc3\x84hling, Zo\xc3\xab Bront\xc3\xab\nOslo (5): Anne Smith\nTroms\xc3\xb8 (93): H\xc3\xa9l\xc3\xa8ne Dupr\xc3\xa9, Jos\xc3\xa9 Mu\xc3\xb1oz, J\xc3\xbcrgen Gro\xc3\x9f\n':
    fail("/app/out/suppliers-by-city.txt is missing or wrong")
print("PASS")
