#!/usr/bin/env python3
"""Fetches the report from the vertex server and saves it to /app/out/vertex-report.txt."""
import argparse
import os
import socket
import sys

ap = argparse.ArgumentParser(description=__doc__)
args = ap.parse_args()
port = int(os.environ.get("VERTEX_PORT", "7078"))
try:
    conn = socket.create_connection(("127.0.0.1", port), timeout=10)
except OSError as e:
    sys.exit(f"vertex-client: cannot connect to 127.0.0.1:{port}: {e}")
conn.sendall(b"REPORT\n")
data = conn.makefile().read()
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/vertex-report.txt", "w") as f:
    f.write(data)
print(f"vertex-client: saved {len(data.splitlines())} lines")
