import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/lumen", "rb").read() != b'#!/bin/bash\n# Totals the stock counts of /app/data/lumen.txt (item,count per line).\nset -eu\ntotal=0\nlines=0\nwhile IFS=, read -r item count; do\n  total=$((total + count))\n  lines=$((lines + 1))\ndone < /app/data/lumen.txt\nmkdir -p /app/out\necho "lumen: $lines items, $total in stock" > /app/out/lumen.txt\n':
    fail("/app/bin/lumen is not the original program with working line endings")
if not os.access("/app/bin/lumen", os.X_OK):
    fail("/app/bin/lumen is no longer executable")
if open('/app/data/lumen.txt', "rb").read() != b'pixel,32\nsierra,54\ndelta,75\ngamma,70\ntango,53\nfjord,3\n':
    fail("/app/data/lumen.txt does not hold the original data in a form the program reads")
if read("/app/out/lumen.txt") != 'lumen: 6 items, 287 in stock\n':
    fail("/app/out/lumen.txt is missing or wrong")
print("PASS")
