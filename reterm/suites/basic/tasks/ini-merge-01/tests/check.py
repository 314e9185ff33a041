import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import configparser
cfg = configparser.ConfigParser(interpolation=None)
try:
    cfg.read_string(read("/app/etc/umber.ini"))
except configparser.Error as e:
    fail(f"umber.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'database': {'host': 'maple.db.lan', 'port': '5488', 'name': 'ember', 'timeout': '45'}, 'server': {'host': '0.0.0.0', 'port': '6245', 'workers': '4'}, 'auth': {'provider': 'ldap', 'timeout': '76', 'realm': 'bravo'}, 'logging': {'level': 'warning', 'file': '/app/logs/service.log', 'rotate': 'yes'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/umber.env") != 'DATABASE_HOST=maple.db.lan\nDATABASE_NAME=ember\nDATABASE_PORT=5488\nDATABASE_TIMEOUT=45\nSERVER_HOST=0.0.0.0\nSERVER_PORT=6245\nSERVER_WORKERS=4\nAUTH_PROVIDER=ldap\nAUTH_REALM=bravo\nAUTH_TIMEOUT=76\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=warning\nLOGGING_ROTATE=yes\n':
    fail("out/umber.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "6f3879836304a329b9f5667af8769ff8df85aa064d82308974cc306c0f1efa5c":
    fail("render.py was modified")
print("PASS")
