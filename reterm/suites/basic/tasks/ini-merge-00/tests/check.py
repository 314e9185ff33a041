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
    cfg.read_string(read("/app/etc/sierra.ini"))
except configparser.Error as e:
    fail(f"sierra.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'server': {'host': '127.0.0.1', 'port': '8965', 'workers': '7'}, 'cache': {'backend': 'disk', 'ttl': '2162', 'size': '43'}, 'logging': {'level': 'debug', 'file': '/app/logs/service.log', 'rotate': 'no'}, 'database': {'host': 'nova.db.lan', 'port': '5186', 'name': 'pixel', 'timeout': '18'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/sierra.env") != 'SERVER_HOST=127.0.0.1\nSERVER_PORT=8965\nSERVER_WORKERS=7\nCACHE_BACKEND=disk\nCACHE_SIZE=43\nCACHE_TTL=2162\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=debug\nLOGGING_ROTATE=no\nDATABASE_HOST=nova.db.lan\nDATABASE_NAME=pixel\nDATABASE_PORT=5186\nDATABASE_TIMEOUT=18\n':
    fail("out/sierra.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "8061b6c2db90a44a745caa2d175c66e7a49b9658790b66bbdde755915e4a42e3":
    fail("render.py was modified")
print("PASS")
