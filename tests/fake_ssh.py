#!/usr/bin/env python3
"""Stands in for `ssh -L LOCAL.sock:REMOTE.sock HOST` where no sshd runs: forwards the local unix socket to the
remote one on this machine and records its command line in $FAKE_SSH_LOG. Only the forwarding is faked; what goes
through it (the docker API, hijacked exec streams) is real."""

import os
import socket
import sys
import threading
import time

args = sys.argv[1:]
with open(os.environ["FAKE_SSH_LOG"], "a") as f:
    f.write(" ".join(args) + "\n")
local, remote = args[args.index("-L") + 1].split(":", 1)


def pump(src, dst):
    try:
        while data := src.recv(65536):
            dst.sendall(data)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


server = socket.socket(socket.AF_UNIX)
server.bind(local)
time.sleep(0.5)  # the socket file exists before anything listens on it, as with ssh on a loaded machine: a caller
server.listen(64)  # that connects the moment the file appears is refused (what SshTunnel.url waits out)
while True:
    conn, _ = server.accept()
    up = socket.socket(socket.AF_UNIX)
    up.connect(remote)
    for a, b in ((conn, up), (up, conn)):
        threading.Thread(target=pump, args=(a, b), daemon=True).start()
