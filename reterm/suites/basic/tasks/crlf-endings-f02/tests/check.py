import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/juniper", "rb").read() != b'#!/usr/bin/env bash\n# Totals the stock counts of /app/data/juniper.txt (item,count per line).\nset -eu\ntotal=0\nlines=0\nwhile IFS=, read -r item count; do\n  total=$((total + count))\n  lines=$((lines + 1))\ndone < /app/data/juniper.txt\nmkdir -p /app/out\necho "juniper: $lines items, $total in stock" > /app/out/juniper.txt\n':
    fail("/app/bin/juniper is not the original program with working line endings")
if not os.access("/app/bin/juniper", os.X_OK):
    fail("/app/bin/juniper is no longer executable")
if open('/app/data/juniper.txt', "rb").read() != b'alpha,22\nember,61\nkepler,66\nvertex,36\n':
    fail("/app/data/juniper.txt does not hold the original data in a form the program reads")
if read("/app/out/juniper.txt") != 'juniper: 4 items, 185 in stock\n':
    fail("/app/out/juniper.txt is missing or wrong")
print("PASS")
