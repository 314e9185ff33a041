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
cfg = configparser.ConfigParser()
try:
    cfg.read_string(read("/app/etc/indexer.ini"))
    section = cfg["index"]
    ok = section["source"].rstrip("/") == "/app/docs" and section.getint("min_length") == 4
except (KeyError, ValueError, configparser.Error) as e:
    fail(f"indexer.ini is not a valid settings file: {e!r}")
if not ok:
    fail("indexer.ini does not hold the settings asked for")
if read("/app/index.txt") != 'alpha\ncedar\nfjord\nindigo\nkepler\norbit\npixel\nquartz\nsierra\n':
    fail("index.txt is wrong")
print("PASS")
