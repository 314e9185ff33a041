#!/usr/bin/env python3
"""Totals the numbers in the files of each directory under /app/shared into /app/tally.txt."""
import errno
import os
import stat

ROOT = "/app/shared"


# The nightly job runs as the files' unprivileged owner: honour the modes it would meet, even as root.
def denied(path):
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


def allowed(path, bit):
    parent = os.path.dirname(path)
    while parent.startswith(ROOT):  # every directory on the way needs its search (x) bit
        if not os.stat(parent).st_mode & stat.S_IXUSR:
            raise denied(path)
        parent = os.path.dirname(parent)
    if not os.stat(path).st_mode & bit:
        raise denied(path)


totals = {}
allowed(ROOT, stat.S_IRUSR)
for group in sorted(os.listdir(ROOT)):
    allowed(os.path.join(ROOT, group), stat.S_IRUSR)
    for name in sorted(os.listdir(os.path.join(ROOT, group))):
        path = os.path.join(ROOT, group, name)
        allowed(path, stat.S_IRUSR)
        with open(path) as f:
            totals[group] = totals.get(group, 0) + sum(int(x) for x in f.read().split())
with open("/app/tally.txt", "w") as f:
    f.writelines(f"{g} {totals[g]}\n" for g in sorted(totals))
