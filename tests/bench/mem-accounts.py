#!/usr/bin/env python3
"""mem-accounts.py TTTD N SIGNED DB -- tttd's memory with N players connected,
each having sent NAME (SIGNED 0) or NAME and REGISTER (SIGNED 1), on the
store DB (made anew): prints VmRSS in KiB.  Run it with SIGNED 0 and 1 for
the memory a signed-in player costs (docs/performance.md).  Starts its own
tttd on a free loopback port, bounded in count; a manual tool (python3, nc),
not run by ctest.  Run it under `ulimit -n` above N."""
import socket, subprocess, sys, time, re, os
tttd=sys.argv[1]; n=int(sys.argv[2]); signed=sys.argv[3]=="1"; db=sys.argv[4]
for f in [db, db+"-wal", db+"-shm"]:
    try: os.remove(f)
    except FileNotFoundError: pass
p=subprocess.Popen([tttd,"--port","0","--http-port","0","--bind","127.0.0.1","--max-per-addr","0","--rate-limit","0","--db",db,"--log-level","error","--idle-timeout","0","--turn-timeout","0","--ai-offer","0"],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL,text=True)
port=int(re.search(r":(\d+)",p.stdout.readline()).group(1))
def rss():
    return int(re.search(r"VmRSS:\s+(\d+)",open("/proc/%d/status"%p.pid).read()).group(1))
cs=[]
for i in range(n):
    s=socket.create_connection(("127.0.0.1",port)); cs.append(s)
    s.sendall(("NAME u%05d\r\n"%i + ("REGISTER\r\n" if signed else "")).encode())
time.sleep(3)
for s in cs:
    s.setblocking(False)
    try:
        while s.recv(65536): pass
    except BlockingIOError: pass
time.sleep(1)
r=rss()
out=subprocess.run(["sh","-c","printf 'STATS\\r\\nQUIT\\r\\n' | nc -q 1 127.0.0.1 %d"%port],capture_output=True,text=True).stdout
cur=re.search(r"connections_current (\d+)",out).group(1)
print("signed" if signed else "guests", n, "rss_kb", r, "connected", cur)
p.terminate(); p.wait()
