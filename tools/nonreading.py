#!/usr/bin/env python3
"""Measures a running Parlor server's memory under sockets that never read.

Fills the lobby with public tables (their creators stay connected and read), then opens sockets that ask for the
lobby again and again and never read a byte, and samples the server's VmRSS from /proc/PID/status every second.
Tables are created from several loopback addresses (127.0.0.2, ...) so the per-address creation limit is not what
is measured. Standard library only.

    python3 tools/nonreading.py --port 8080 --pid $(pgrep -n parlor) --tables 300 --sockets 50 --seconds 60
"""

import argparse
import base64
import json
import os
import socket
import threading
import time


def http_cookie(host, port, src):
    s = socket.create_connection((host, port), source_address=(src, 0))
    s.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    for line in data.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n"):
        if line.lower().startswith("set-cookie:"):
            return line.split(":", 1)[1].strip().split(";")[0]
    raise RuntimeError("no cookie")


def frame(text):
    """A masked client text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytearray([0x81])
    n = len(payload)
    if n < 126:
        head.append(0x80 | n)
    else:
        head.append(0x80 | 126)
        head += n.to_bytes(2, "big")
    return bytes(head) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def ws_connect(host, port, src, cookie, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((src, 0))
    s.connect((host, port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        ).encode()
    )
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(1)
    if b" 101 " not in data.split(b"\r\n")[0]:
        raise RuntimeError(data.split(b"\r\n")[0].decode())
    s.sendall(frame(json.dumps({"t": "hello", "protocol": 1})))
    return s


def drain(s):
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--tables", type=int, default=300)
    p.add_argument("--sockets", type=int, default=50)
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--per-second", type=float, default=5.0, help="lobby requests per silent socket per second")
    p.add_argument("--toggle", action="store_true", help="alternate lobby off/on (each on is a new snapshot)")
    a = p.parse_args()

    print(f"rss at start: {rss_kb(a.pid) / 1024:.1f} MB")
    creators = []
    made = 0
    while made < a.tables:
        # Five tables per player, 25 players per loopback address: under the per-player and per-address limits.
        src = f"127.0.0.{2 + (made // 125)}"
        c = ws_connect(a.host, a.port, src, http_cookie(a.host, a.port, src))
        threading.Thread(target=drain, args=(c,), daemon=True).start()
        for _ in range(min(5, a.tables - made)):
            spec = {"game": "chess", "seats": [{"kind": "me"}, {"kind": "open"}]}
            c.sendall(frame(json.dumps({"t": "create", "spec": spec})))
            made += 1
        creators.append(c)
    time.sleep(2)
    print(f"rss with {made} tables: {rss_kb(a.pid) / 1024:.1f} MB")

    silent = []
    for i in range(a.sockets):
        src = f"127.1.0.{2 + i // 50}"
        s = ws_connect(a.host, a.port, src, http_cookie(a.host, a.port, src))
        s.setblocking(False)
        silent.append(s)
    start = time.time()
    peak = 0
    n = 0
    on = True
    next_sample = start
    closed = 0
    while time.time() - start < a.seconds:
        msg = {"t": "lobby", "on": on}
        if a.toggle:
            on = not on
        data = frame(json.dumps(msg))
        closed = 0
        for s in silent:
            try:
                s.send(data)
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        n += 1
        now = time.time()
        if now >= next_sample:
            rss = rss_kb(a.pid)
            peak = max(peak, rss)
            print(f"t={now - start:5.1f}s rss={rss / 1024:7.1f} MB sockets_refused_writes={closed}", flush=True)
            next_sample += 1.0
        time.sleep(1.0 / a.per_second)
    print(f"peak rss: {peak / 1024:.1f} MB; final {rss_kb(a.pid) / 1024:.1f} MB; {n} lobby requests per socket")
    for s in silent + creators:
        s.close()


if __name__ == "__main__":
    main()
