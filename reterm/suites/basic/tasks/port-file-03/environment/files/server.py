#!/usr/bin/env python3
"""lumen stats server: answers one `REPORT` request on 127.0.0.1, then exits (or after 60 s idle)."""
import json
import os
import socket

PORT_FILE = "/app/var/lumen-server.port"
TABLE = {'alpha': 3198, 'orbit': 2326, 'sierra': 1105}
srv = socket.socket()
srv.bind(("127.0.0.1", 0))  # any free port: see PORT_FILE
srv.listen(5)
srv.settimeout(60)
port = srv.getsockname()[1]
os.makedirs(os.path.dirname(PORT_FILE), exist_ok=True)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(f"host=127.0.0.1\nport={port}\n")
os.replace(PORT_FILE + ".tmp", PORT_FILE)
print(f"lumen-server: listening on 127.0.0.1, port written to {PORT_FILE}", flush=True)
while True:
    try:
        conn, _ = srv.accept()
    except socket.timeout:
        raise SystemExit("lumen-server: no request within 60 s, exiting")
    with conn:
        if conn.makefile().readline().strip() != "REPORT":
            conn.sendall(b"ERR unknown request\n")
            continue
        conn.sendall("".join(f"{k} {v}\n" for k, v in sorted(TABLE.items())).encode())
        print("lumen-server: served one report, exiting", flush=True)
        break
