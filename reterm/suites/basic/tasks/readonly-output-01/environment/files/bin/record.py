#!/usr/bin/env python3
"""Records the batch /app/incoming/b54.csv into /app/journal/entries.log."""
import csv
import errno
import os
import stat
import sys

OUT = "/app/journal/entries.log"


# In production this job runs as the unprivileged owner of /app/journal: refuse what it could not write, even as root.
def denied(path):
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


if os.path.exists(OUT) and "b54: total" in open(OUT).read():
    sys.exit("b54 is already recorded in /app/journal/entries.log")
with open("/app/incoming/b54.csv") as f:
    rows = [(r["item"], int(r["amount"])) for r in csv.DictReader(f)]
target = OUT if os.path.exists(OUT) else os.path.dirname(OUT)
if not os.stat(target).st_mode & stat.S_IWUSR:
    raise denied(OUT)
with open(OUT, "a") as f:
    for item, amount in rows:
        f.write(f"b54: {item} {amount}\n")
    f.write(f"b54: total {sum(a for _, a in rows)}\n")
