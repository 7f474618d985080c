#!/usr/bin/env python3
"""flood-renames.py TTTD WATCHERS SECONDS -- an unrelated player's PING while
two players rename themselves 45 times a second (under the line rate limit)
in front of WATCHERS watchers of their match (operations.md: renames and
watchers).  Starts its own tttd on a free loopback port, bounded in time;
prints the PING round trips' p50, p99 and max.  A manual tool (python3), not
run by ctest.  Run it under `ulimit -n 8192` for thousands of watchers."""
import socket, subprocess, sys, time, threading, re, statistics, selectors, os
tttd, nwatch, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
os.environ.setdefault("TTTD_DB", "none")  # no tttd.db left behind
p = subprocess.Popen([tttd, "--port", "0", "--max-per-addr", "0", "--log-level", "error", "--turn-timeout", "0", "--idle-timeout", "0", "--ai-offer", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
line = p.stdout.readline(); port = int(re.search(r":(\d+)", line).group(1))
def conn():
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5); s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1); return s
def readuntil(s, pat, buf=b""):
    while pat not in buf:
        d = s.recv(65536)
        if not d: raise SystemExit("eof")
        buf += d
    return buf
a = conn(); readuntil(a, b"WAIT"); b = conn(); buf = readuntil(b, b"TURN")
time.sleep(0.3)
a.sendall(b"GAMES\r\n"); g = readuntil(a, b"\r\nGAME ").decode()
gid = int(re.search(r"GAME (\d+)", g).group(1))
ws = []
for i in range(nwatch):
    w = conn(); readuntil(w, b"WAIT"); w.setblocking(False); w.sendall(b"WATCH %d\r\n" % gid); ws.append(w)
stop = False
def drain():
    sel = selectors.DefaultSelector()
    for s in ws + [a, b]:
        s.setblocking(False); sel.register(s, selectors.EVENT_READ)
    while not stop:
        for k, _ in sel.select(0.1):
            try: k.fileobj.recv(65536)
            except BlockingIOError: pass
threading.Thread(target=drain, daemon=True).start()
def flood(s, names):
    i = 0
    while not stop:
        s.sendall(b"NAME %s\r\n" % names[i % 2]); i += 1; time.sleep(1/45)
threading.Thread(target=flood, args=(a, [b"aaaaaaaaaaaaaaaa", b"bbbbbbbbbbbbbbbb"]), daemon=True).start()
threading.Thread(target=flood, args=(b, [b"cccccccccccccccc", b"dddddddddddddddd"]), daemon=True).start()
q = conn(); readuntil(q, b"WAIT")
# q is queued alone: measure PING
rtts = []; t_end = time.time() + secs
while time.time() < t_end:
    t0 = time.perf_counter(); q.sendall(b"PING\r\n"); readuntil(q, b"OK PONG"); rtts.append((time.perf_counter() - t0) * 1000); time.sleep(0.025)
stop = True
rtts.sort()
print("watchers=%d pings=%d p50=%.2fms p99=%.2fms max=%.2fms" % (nwatch, len(rtts), rtts[len(rtts)//2], rtts[int(len(rtts)*0.99)], rtts[-1]))
p.terminate(); p.wait()
