#!/usr/bin/env python3
"""Fetches the report from the alpha server and saves it to /app/out/alpha-report.txt."""
import argparse
import os
import socket
import sys

ap = argparse.ArgumentParser(description=__doc__)
args = ap.parse_args()
port = int(os.environ.get("ALPHA_PORT", "5003"))
try:
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
except OSError as e:
    sys.exit(f"alpha-client: cannot connect to 127.0.0.1:{port}: {e}")
conn.sendall(b"REPORT\n")
data = conn.makefile().read()
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/alpha-report.txt", "w") as f:
    f.write(data)
print(f"alpha-client: saved {len(data.splitlines())} lines")
