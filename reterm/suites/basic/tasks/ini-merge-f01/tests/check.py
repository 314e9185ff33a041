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
    cfg.read_string(read("/app/etc/tango.ini"))
except configparser.Error as e:
    fail(f"tango.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'logging': {'level': 'warning', 'file': '/app/logs/service.log', 'rotate': 'yes'}, 'server': {'host': 'localhost', 'port': '8111', 'workers': '14'}, 'auth': {'provider': 'ldap', 'timeout': '68', 'realm': 'tango'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/tango.env") != 'LOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=warning\nLOGGING_ROTATE=yes\nSERVER_HOST=localhost\nSERVER_PORT=8111\nSERVER_WORKERS=14\nAUTH_PROVIDER=ldap\nAUTH_REALM=tango\nAUTH_TIMEOUT=68\n':
    fail("out/tango.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "9a6d0fe79603b9bcbb2ad64a3b49acf52ac360bfbe52724ada13853deaf64b6c":
    fail("render.py was modified")
print("PASS")
