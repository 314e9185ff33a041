#!/usr/bin/env python3
"""delta stats server: answers one `REPORT` request on 127.0.0.1, then exits (or after 60 s idle)."""
import json
import os
import socket

PORT_FILE = "/app/var/delta-server.port"
TABLE = {'raven': 6484, 'juniper': 7317, 'orbit': 145, 'umber': 493, 'ember': 9931}
srv = socket.socket()
srv.bind(("127.0.0.1", 0))  # any free port: see PORT_FILE
srv.listen(5)
srv.settimeout(60)
port = srv.getsockname()[1]
os.makedirs(os.path.dirname(PORT_FILE), exist_ok=True)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(f"host=127.0.0.1\nport={port}\n")
os.replace(PORT_FILE + ".tmp", PORT_FILE)
print(f"delta-server: listening on 127.0.0.1, port written to {PORT_FILE}", flush=True)
while True:
    try:
        conn, _ = srv.accept()
    except socket.timeout:
        raise SystemExit("delta-server: no request within 60 s, exiting")
    with conn:
        if conn.makefile().readline().strip() != "REPORT":
            conn.sendall(b"ERR unknown request\n")
            continue
        conn.sendall("".join(f"{k} {v}\n" for k, v in sorted(TABLE.items())).encode())
        print("delta-server: served one report, exiting", flush=True)
        break
