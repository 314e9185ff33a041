#!/usr/bin/env python3
"""Signs /app/manifest-91.txt with the key /app/credentials/pixel.pem (HMAC-SHA256) into /app/manifest-91.sig."""
import hashlib
import hmac
import os
import stat
import sys

KEY = "/app/credentials/pixel.pem"
# Like ssh, refuse a key that anyone but its owner could read, or that sits in a directory others can reach.
dmode = stat.S_IMODE(os.stat(os.path.dirname(KEY)).st_mode)
if dmode & 0o077:
    sys.exit(f"stamp: bad permissions {dmode:04o} on directory '/app/credentials'; it must be 0700")
kmode = stat.S_IMODE(os.stat(KEY).st_mode)
if kmode & 0o077:
    sys.exit(f"stamp: permissions {kmode:04o} for '{KEY}' are too open; it must be 0600")
with open(KEY, "rb") as f:
    secret = f.read().strip()
with open("/app/manifest-91.txt", "rb") as f:
    digest = hmac.new(secret, f.read(), hashlib.sha256).hexdigest()
with open("/app/manifest-91.sig", "w") as f:
    f.write(f"hmac-sha256 {digest}  manifest-91.txt\n")
