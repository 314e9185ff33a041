#!/usr/bin/env python3
"""Records the batch /app/incoming/b71.csv into /app/var/log/b71.summary."""
import csv
import errno
import os
import stat
import sys

OUT = "/app/var/log/b71.summary"


# In production this job runs as the unprivileged owner of /app/var/log: refuse what it could not write, even as root.
def denied(path):
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


if os.path.exists(OUT) and "batch b71" in open(OUT).read():
    sys.exit("b71 is already recorded in /app/var/log/b71.summary")
with open("/app/incoming/b71.csv") as f:
    rows = [(r["item"], int(r["amount"])) for r in csv.DictReader(f)]
target = OUT if os.path.exists(OUT) else os.path.dirname(OUT)
if not os.stat(target).st_mode & stat.S_IWUSR:
    raise denied(OUT)
with open(OUT, "w") as f:
    f.write(f"batch b71\nitems {len(rows)}\ntotal {sum(a for _, a in rows)}\n")
