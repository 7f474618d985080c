#!/usr/bin/env python3
# cluster-ops.py REDIS_PORT "NODE_A_PORT NODE_B_PORT" [MATCHES] -- Redis
# operations and bytes per move between two nodes (docs/performance.md).
# Starts nothing: run redis-server and two tttd --redis first (see
# run-cluster-ops.sh).  Pairs MATCHES players of node A with players of
# node B, measures Redis idle for IDLE seconds (the nodes' heartbeats and
# PINGs), then plays one five-move game to a result in each match and
# ends it with AGAIN n from both players, and counts Redis's commands
# (INFO commandstats) and bytes over the whole of it, less the idle rate
# over as long a time.  What a match costs whatever its moves (pairing,
# its first save, the end) is in the per-move figures.
import select, socket, subprocess, sys, time
RP = sys.argv[1]
PA, PB = (int(x) for x in sys.argv[2].split())
N = int(sys.argv[3]) if len(sys.argv) > 3 else 20
IDLE = 5.0
MOVES = ["A1", "A2", "B1", "B2", "C1"]	# X wins on the fifth


def stats():
	out = subprocess.run(["redis-cli", "-p", RP, "info", "commandstats"],
	    capture_output=True, text=True).stdout
	d = {}
	for l in out.splitlines():
		if l.startswith("cmdstat_"):
			k, v = l.split(":", 1)
			d[k[8:]] = int(v.split(",")[0].split("=")[1])
	net = subprocess.run(["redis-cli", "-p", RP, "info", "stats"],
	    capture_output=True, text=True).stdout
	for l in net.splitlines():
		if l.startswith(("total_net_input_bytes", "total_net_output_bytes")):
			k, v = l.strip().split(":")
			d[k] = int(v)
	return d


def drain(socks, quiet=0.3):
	"""Everything the sockets have, until none sends for QUIET s."""
	got = {s: b"" for s in socks}
	live = [s for s in socks if s.fileno() >= 0]
	while live:
		r, _, _ = select.select(live, [], [], quiet)
		if not r:
			break
		for s in r:
			d = s.recv(65536)
			if d:
				got[s] += d
			else:
				live.remove(s)
	return got


a = []
b = []
for i in range(N):
	a.append(socket.create_connection(("127.0.0.1", PA)))
	time.sleep(0.55)	# a's player alone and ready: in the shared queue
	b.append(socket.create_connection(("127.0.0.1", PB)))
	time.sleep(0.6)
time.sleep(1)
got = drain(a + b)
starts = []
for i in range(N):
	ra = got[a[i]].decode()
	rb = got[b[i]].decode()
	assert "MATCH" in ra and "MATCH" in rb, (ra, rb)
	starts.append(0 if "START X" in ra else 1)

i0 = stats()
time.sleep(IDLE)
i1 = stats()
s0 = stats()
t0 = time.time()
for k, m in enumerate(MOVES):
	for i in range(N):
		p = [a[i], b[i]][(starts[i] + k) % 2]
		p.sendall(("MOVE %s\r\n" % m).encode())
	got = drain(a + b)
won = sum(1 for i in range(N) if "RESULT" in got[a[i]].decode())
assert won == N, "%d of %d matches ended with a result" % (won, N)
for s in a + b:
	s.sendall(b"AGAIN n\r\n")
got = drain(a + b)
byes = sum(1 for s in a + b if b"BYE" in got[s])
assert byes == 2 * N, "%d of %d players said goodbye" % (byes, 2 * N)
time.sleep(1)		# the last messages and saves through Redis
s1 = stats()
el = time.time() - t0
rate = el / IDLE

mv = N * len(MOVES)
print("%d matches across two nodes, %d moves, then AGAIN n from both: "
    "%.1f s, less %.1f s idle scaled" % (N, mv, el, IDLE))
tot = 0.0
for k in sorted(set(s1) | set(s0)):
	if k.startswith("total_"):
		continue
	d = s1.get(k, 0) - s0.get(k, 0)
	bg = (i1.get(k, 0) - i0.get(k, 0)) * rate
	if d - bg > 0.5:
		print("%-10s %6d  idle %6.1f  per move %.2f" % (k, d, bg, (d - bg) / mv))
	tot += d - bg
print("moves %d redis commands per move %.2f" % (mv, tot / mv))
for k in ("total_net_input_bytes", "total_net_output_bytes"):
	d = s1[k] - s0[k]
	bg = (i1[k] - i0[k]) * rate
	print(k, "per move %.0f" % ((d - bg) / mv))
