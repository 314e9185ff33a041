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
    cfg.read_string(read("/app/etc/raven.ini"))
except configparser.Error as e:
    fail(f"raven.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'logging': {'level': 'warning', 'file': '/app/logs/service.log', 'rotate': 'no'}, 'database': {'host': 'maple.db.lan', 'port': '5727', 'name': 'nova', 'timeout': '7'}, 'cache': {'backend': 'redis', 'ttl': '1272', 'size': '456'}, 'auth': {'provider': 'ldap', 'timeout': '49', 'realm': 'lumen'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/raven.env") != 'LOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=warning\nLOGGING_ROTATE=no\nDATABASE_HOST=maple.db.lan\nDATABASE_NAME=nova\nDATABASE_PORT=5727\nDATABASE_TIMEOUT=7\nCACHE_BACKEND=redis\nCACHE_SIZE=456\nCACHE_TTL=1272\nAUTH_PROVIDER=ldap\nAUTH_REALM=lumen\nAUTH_TIMEOUT=49\n':
    fail("out/raven.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "6456e3a225c8cba734358484424abf6681e4d83bfa64c7b9a5d729a9b1c5e0ff":
    fail("render.py was modified")
print("PASS")
