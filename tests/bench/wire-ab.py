#!/usr/bin/env python3
"""wire-ab.py OLD_TTTD NEW_TTTD [OUT_DIR] -- the same scripted sessions
played against two tttd binaries, every byte each connection receives
recorded, and the two records compared: for a refactoring that must change
nothing on the wire (issue 24).  Each binary runs alone on a free loopback
port with --seed 1 (the same first movers), a turn of 5 s (a forfeit by
time is in the record; no step takes that long) and its web listener; with
redis-server on PATH, a second part runs two nodes of a cluster on their
own redis-server (a player on each node, the match on one, relayed lines,
GAMES and WATCH across the nodes, a name taken on the other node).

What differs by nature from run to run is masked before the compare: the
RESUME tokens and room codes (drawn from the OS random source), STATS's
uptime, the cluster's instance ids.  Steps wait until every connection has
been quiet for a while, so the order of lines between connections is the
order of the steps.  Prints the first difference of each connection and
exits 1 when any differs, 0 when the records are byte for byte the same.
A manual tool (python3), not run by ctest; about a minute a binary."""
import os, re, shutil, socket, subprocess, sys, tempfile, time, base64

QUIET = 0.25            # a step is over when nothing came for this long
FRESH = 0.7             # a new connection is paired after 500 ms

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]
    s.close(); return p

class Run:
    """One binary's sessions: its connections and what each received."""
    def __init__(self, ports):
        self.ports = ports          # node name -> (game port, http port)
        self.conns = {}             # name -> socket
        self.rec = {}               # name -> bytes received

    def connect(self, name, node="a", web=False, wait=True):
        s = socket.create_connection(("127.0.0.1",
            self.ports[node][1 if web else 0]))
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.setblocking(False)
        self.conns[name] = s; self.rec.setdefault(name, b"")
        if wait:
            time.sleep(FRESH)
        self.settle()

    def send(self, name, data, settle=True):
        if isinstance(data, str):
            data = data.encode()
        if name not in self.conns:      # closed by the server: recorded
            self.rec[name] += b"<SEND AFTER EOF>"
            return
        self.conns[name].sendall(data)
        if settle:
            self.settle()

    def close(self, name):
        self.conns.pop(name).close(); self.settle()

    def settle(self, quiet=QUIET, most=10.0):
        end = time.time() + most; last = time.time()
        while time.time() < end and time.time() - last < quiet:
            got = False
            for n, s in list(self.conns.items()):
                try:
                    d = s.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionError:
                    d = b""
                if d:
                    self.rec[n] += d; got = True
                else:
                    self.rec[n] += b"<EOF>"; del self.conns[n]
            if got:
                last = time.time()
            else:
                time.sleep(0.01)

    def find(self, name, pat):
        m = re.findall(pat, self.rec[name].decode("utf-8", "replace"))
        return m[-1] if m else "NONE"

    def end(self):
        for s in self.conns.values():
            s.close()

def ws_frame(text):
    """A masked client text frame."""
    b = text.encode(); mask = b"\x01\x02\x03\x04"
    return bytes([0x81, 0x80 | len(b)]) + mask + bytes(
        c ^ mask[i % 4] for i, c in enumerate(b))

def single(r):
    """One node: the games of every kind, the errors, the web side."""
    r.connect("a"); r.send("a", "NAME alice\r\n")
    r.connect("b"); r.send("b", "NAME bob\r\n")
    for m in ["B2", "a1", "MOVE C3", "A3", "C1", "b1"]:
        r.send("a", m + "\r\n"); r.send("b", m + "\r\n")
    r.send("a", "BOARD\r\nHELP\r\nPING\r\nMOVE Z9\r\nfoo\r\n\x01\r\n")
    r.send("b", "SAY hello there\r\nGAMES\r\n")
    r.send("a", "y\r\n"); r.send("b", "AGAIN y\r\n")
    for m in ["A1", "B2", "C3", "A2", "B1", "C1", "A3", "B3", "C2"]:
        r.send("a", m + "\r\n"); r.send("b", m + "\r\n")
    r.send("a", "AGAIN y\r\n"); r.send("b", "y\r\n")
    r.send("a", "RESIGN\r\n"); r.send("b", "RESIGN\r\n")
    r.connect("w"); r.send("w", "GAMES\r\n")
    gid = r.find("w", r"GAME (\d+) ")
    r.send("w", "WATCH %s\r\n" % gid)
    r.send("a", "y\r\n"); r.send("b", "y\r\n")
    r.send("a", "B2\r\n"); r.send("b", "B2\r\n")
    # a lost player, its seat held, then back with its token
    tok = r.find("a", r"TOKEN (\S+)")
    r.close("a")
    r.send("b", "A1\r\nC3\r\n")
    r.connect("a2", wait=False); r.send("a2", "RESUME %s\r\n" % tok)
    r.send("a2", "BOARD\r\nSAY back\r\n")
    # a forfeit by leaving, watched
    r.send("b", "QUIT\r\n")
    r.send("w", "UNWATCH\r\n")
    r.send("w", "ROOM NEW\r\n")
    code = r.find("w", r"OK ROOM (\S+)")
    r.connect("f", wait=False); r.send("f", "ROOM JOIN %s\r\n" % code)
    r.send("f", "ROOM JOIN ABCDEF\r\nRESUME ZZZZ-ZZZZ\r\nWATCH 999\r\n")
    r.send("w", "B2\r\nA1\r\n"); r.send("f", "B2\r\nA1\r\n")
    # a forfeit by time (--turn-timeout 5 here)
    r.settle(quiet=6.5, most=12)
    r.send("w", "n\r\n"); r.send("f", "n\r\n")
    r.send("a2", "PLAY AI\r\n")
    for m in ["B2", "A1", "C3", "A3", "C1", "C2", "B1"]:
        r.send("a2", m + "\r\n")
    r.send("a2", "PLAY AI perfect\r\nPLAY AI hard\r\nPLAY\r\n")
    r.send("a2", "NAME " + "x" * 40 + "\r\nNAME \xc3\xa9l\xc3\xa8ve\r\n")
    r.send("a2", b"MOVE \xff\xfe\r\n" + b"A" * 5000 + b"\r\nPING\r\n")
    # telnet bytes
    r.connect("t"); r.send("t", b"\xff\xfd\x06PING\r\n")
    r.send("t", "STATS\r\n")
    # the web side: a page, the health check, a WebSocket player
    r.connect("h", web=True, wait=False)
    r.send("h", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    r.connect("h2", web=True, wait=False)
    r.send("h2", "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")
    r.connect("s", web=True, wait=False)
    key = base64.b64encode(b"0123456789abcdef").decode()
    r.send("s", "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n" % key)
    time.sleep(FRESH); r.settle()
    r.send("s", ws_frame("NAME sam")); r.send("t", "NAME tom\r\n")
    r.send("s", ws_frame("B2")); r.send("t", "B2\r\n")
    r.send("s", ws_frame("QUIT"))
    r.send("t", b"\xff\xf4"); r.send("a2", "QUIT\r\n")

def cluster(r):
    """Two nodes: a player on each, their match on one, the other's lines
    relayed; GAMES and WATCH across nodes; a name taken elsewhere."""
    r.connect("p", "a"); r.send("p", "NAME pat\r\n")
    r.connect("q", "b"); r.send("q", "NAME quin\r\n")
    r.settle(quiet=1.5)
    for q, p in [("B2", "A1"), ("A2", "C2"), ("B1", "B3"), ("C1", "A3")]:
        r.send("q", q + "\r\n"); r.send("p", p + "\r\n")
    r.send("q", "C3\r\nBOARD\r\n"); r.send("p", "y\r\n")
    r.send("q", "y\r\n")
    r.send("p", "B2\r\n"); r.send("q", "B2\r\n")
    r.connect("v", "b"); r.send("v", "NAME pat\r\nNAME vic\r\nGAMES\r\n")
    gid = r.find("v", r"GAME (\d+) ")
    r.send("v", "WATCH %s\r\n" % gid); r.settle(quiet=1.0)
    r.send("p", "SAY hi\r\nA1\r\n"); r.send("q", "SAY yo\r\nA1\r\n")
    r.send("q", "RESIGN\r\n"); r.send("p", "n\r\n")
    r.send("q", "QUIT\r\n"); r.send("v", "QUIT\r\n")

MASKS = [
    (rb"\b[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}\b", b"<TOKEN>"),
    (rb"(OK ROOM |room )[2-9A-HJKMNP-Z]{6}\b", rb"\1<CODE>"),
    (rb"STAT uptime \d+", b"STAT uptime <N>"),
    (rb"Date: [^\r]*", b"Date: <DATE>"),
]

def masked(b):
    for pat, rep in MASKS:
        b = re.sub(pat, rep, b)
    return b

def start(binary, args, tmp, tag):
    os.environ.setdefault("TTTD_DB", "none")  # no tttd.db left behind
    out = open(os.path.join(tmp, tag + ".out"), "w+")
    err = open(os.path.join(tmp, tag + ".err"), "w")
    p = subprocess.Popen([binary] + args, stdout=out, stderr=err)
    for _ in range(200):
        out.seek(0); m = re.search(r"listening on .*:(\d+)\n", out.read())
        if m:
            return p
        if p.poll() is not None:
            sys.exit("wire-ab: %s %s died" % (binary, tag))
        time.sleep(0.05)
    sys.exit("wire-ab: %s never listened" % binary)

COMMON = ["--bind", "127.0.0.1", "--seed", "1", "--again-timeout", "0", "--idle-timeout", "0", "--ai-offer", "0",
          "--log-level", "error"]

def play(binary, tmp, tag):
    procs = []; records = {}
    try:
        gp, hp = free_port(), free_port()
        procs.append(start(binary, COMMON + ["--port", str(gp),
            "--http-port", str(hp), "--turn-timeout", "5"], tmp,
            tag + "-single"))
        r = Run({"a": (gp, hp)})
        single(r); r.end()
        records.update({"single/" + k: v for k, v in r.rec.items()})
        if shutil.which("redis-server"):
            rp = free_port()
            procs.append(subprocess.Popen(["redis-server", "--port",
                str(rp), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no"], stdout=subprocess.DEVNULL))
            time.sleep(0.5)
            ports = {}
            for n in ["a", "b"]:
                gp, hp = free_port(), free_port()
                procs.append(start(binary, COMMON + ["--port", str(gp),
                    "--http-port", str(hp), "--turn-timeout", "0", "--redis",
                    "127.0.0.1:%d" % rp, "--node", n], tmp,
                    tag + "-node-" + n))
                ports[n] = (gp, hp)
            time.sleep(1.5)
            r = Run(ports); cluster(r); r.end()
            records.update({"cluster/" + k: v for k, v in r.rec.items()})
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
    return records

def main():
    if len(sys.argv) < 3:
        sys.exit("usage: wire-ab.py OLD_TTTD NEW_TTTD [OUT_DIR]")
    tmp = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    old = play(sys.argv[1], tmp, "old"); new = play(sys.argv[2], tmp, "new")
    bad = 0; nbytes = 0
    for k in sorted(set(old) | set(new)):
        a = masked(old.get(k, b"<none>")); b = masked(new.get(k, b"<none>"))
        open(os.path.join(tmp, "old." + k.replace("/", ".")), "wb").write(a)
        open(os.path.join(tmp, "new." + k.replace("/", ".")), "wb").write(b)
        nbytes += len(b)
        if a != b:
            bad += 1
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                     min(len(a), len(b)))
            print("wire-ab: %s differs at byte %d:\n  old %r\n  new %r" %
                  (k, i, a[max(0, i - 40):i + 60], b[max(0, i - 40):i + 60]))
    print("wire-ab: %d connections, %d bytes received (new), %d differ; "
          "records in %s" % (len(set(old) | set(new)), nbytes, bad, tmp))
    sys.exit(1 if bad else 0)

main()
