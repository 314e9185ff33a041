#!/usr/bin/env python3
"""Fetches the report from the delta server and saves it to /app/out/delta-report.txt."""
import argparse
import os
import socket
import sys

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--port", type=int, default=7078)
args = ap.parse_args()
port = args.port
try:
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
except OSError as e:
    sys.exit(f"delta-client: cannot connect to 127.0.0.1:{port}: {e}")
conn.sendall(b"REPORT\n")
data = conn.makefile().read()
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/delta-report.txt", "w") as f:
    f.write(data)
print(f"delta-client: saved {len(data.splitlines())} lines")
