#!/usr/bin/env python3
"""Fetches the report from the sierra server and saves it to /app/out/sierra-report.txt."""
import argparse
import os
import socket
import sys

ap = argparse.ArgumentParser(description=__doc__)
args = ap.parse_args()
port = int(os.environ.get("SIERRA_PORT", "5009"))
try:
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
except OSError as e:
    sys.exit(f"sierra-client: cannot connect to 127.0.0.1:{port}: {e}")
conn.sendall(b"REPORT\n")
data = conn.makefile().read()
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/sierra-report.txt", "w") as f:
    f.write(data)
print(f"sierra-client: saved {len(data.splitlines())} lines")
