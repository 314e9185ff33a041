#!/usr/bin/env python3
"""Signs /app/release-95.txt with the key /app/.secrets/harbor_ed25519 (HMAC-SHA256) into /app/release-95.sig."""
import hashlib
import hmac
import os
import stat
import sys

KEY = "/app/.secrets/harbor_ed25519"
# Like ssh, refuse a key that anyone but its owner could read, or that sits in a directory others can reach.
dmode = stat.S_IMODE(os.stat(os.path.dirname(KEY)).st_mode)
if dmode & 0o077:
    sys.exit(f"stamp: bad permissions {dmode:04o} on directory '/app/.secrets'; it must be 0700")
kmode = stat.S_IMODE(os.stat(KEY).st_mode)
if kmode & 0o077:
    sys.exit(f"stamp: permissions {kmode:04o} for '{KEY}' are too open; it must be 0600")
with open(KEY, "rb") as f:
    secret = f.read().strip()
with open("/app/release-95.txt", "rb") as f:
    digest = hmac.new(secret, f.read(), hashlib.sha256).hexdigest()
with open("/app/release-95.sig", "w") as f:
    f.write(f"hmac-sha256 {digest}  release-95.txt\n")
