#!/usr/bin/env python3
"""Records the batch /app/incoming/batch63.csv into /app/records/journal.log."""
import csv
import errno
import os
import stat
import sys

OUT = "/app/records/journal.log"


# In production this job runs as the unprivileged owner of /app/records: refuse what it could not write, even as root.
def denied(path):
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


if os.path.exists(OUT) and "batch63: total" in open(OUT).read():
    sys.exit("batch63 is already recorded in /app/records/journal.log")
with open("/app/incoming/batch63.csv") as f:
    rows = [(r["item"], int(r["amount"])) for r in csv.DictReader(f)]
target = OUT if os.path.exists(OUT) else os.path.dirname(OUT)
if not os.stat(target).st_mode & stat.S_IWUSR:
    raise denied(OUT)
with open(OUT, "a") as f:
    for item, amount in rows:
        f.write(f"batch63: {item} {amount}\n")
    f.write(f"batch63: total {sum(a for _, a in rows)}\n")
