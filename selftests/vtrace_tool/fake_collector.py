#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# fake_collector.py MODE PORT - a "trace-cmd listen" on 127.0.0.1:PORT
# that misbehaves once the session is set up, for net_record_test.sh:
#   mute    takes the version, the CPUs and the data connections, then
#           reads nothing more from anyone;
#   chatty  takes the whole session, and after CLOSE sends 12 bytes a
#           second without ever closing.
# Prints "up" once it listens; gives up after 90 s.

import socket
import struct
import sys
import threading
import time

RINIT = 2
CLOSE = 0


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        part = sock.recv(n - len(buf))
        if not part:
            raise EOFError("peer closed")
        buf += part
    return buf


def recv_msg(sock):
    size, cmd, _ = struct.unpack(">III", recv_exact(sock, 12))
    return cmd, recv_exact(sock, size - 12)


def drain(sock):
    while sock.recv(65536):
        pass


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(1)
    print("up", flush=True)
    ctl, _ = srv.accept()
    ctl.sendall(b"tracecmd")
    recv_exact(ctl, 5)  # "-1V3\0"
    ctl.sendall(b"V3\0")
    recv_exact(ctl, 8)  # the magic
    ctl.sendall(b"OK")
    _, body = recv_msg(ctl)  # TINIT: cpus, page size, options
    cpus = struct.unpack(">I", body[:4])[0]
    listeners = []
    for _ in range(cpus):
        d = socket.socket()
        d.bind(("127.0.0.1", 0))
        d.listen(1)
        listeners.append(d)
    ports = b"".join(b"%d\0" % d.getsockname()[1] for d in listeners)
    ctl.sendall(struct.pack(">III", 12 + 4 + len(ports), RINIT, 4) +
                struct.pack(">I", cpus) + ports)
    data = [d.accept()[0] for d in listeners]
    end = time.time() + 90
    if mode == "mute":
        time.sleep(90)
        return
    for d in data:
        threading.Thread(target=drain, args=(d,), daemon=True).start()
    while recv_msg(ctl)[0] != CLOSE:
        pass
    while time.time() < end:
        ctl.sendall(b"x" * 12)
        time.sleep(1)


main()
