#!/bin/sh
# run-scale.sh BUILD_DIR CONNS [THINK_MS] [SECONDS] -- tttd with CONNS
# players at once, loaded by two ttt-bench processes (each under its own
# descriptor limit, on two loopback source addresses each) playing whole
# games with THINK_MS (default 2000) before each move; prints the server's
# RSS idle and loaded, its CPU, descriptors, and both RESULT lines.
set -eu
# No accounts: no tttd.db left behind (unless TTTD_DB says).
TTTD_DB=${TTTD_DB-none}
export TTTD_DB
build=$1
conns=$2
think=${3:-2000}
secs=${4:-30}
half=$((conns / 2))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-scale.XXXXXX")
trap 'kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT

"$build/server/tttd" --port 0 --http-port 0 --bind 127.0.0.1 --rate-limit 0 \
    --max-per-addr 0 --max-clients $((conns + 100)) >"$tmp/out" 2>"$tmp/log" &
pid=$!
i=0
until port=$(sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$tmp/out") &&
    [ -n "$port" ]; do
	sleep 0.1
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "run-scale: tttd did not start" >&2; exit 1; }
done
rss() { awk '/^VmRSS/ { print $2 }' /proc/$pid/status; }
cpu() { awk '{ print $14 + $15 }' /proc/$pid/stat; }
rss0=$(rss)
ramp=1500
for src in 127.0.0.1,127.0.0.2 127.0.0.3,127.0.0.4; do
	"$build/tests/bench/ttt-bench" 127.0.0.1 "$port" --mode game \
	    --conns $half --think "$think" --ramp $ramp --duration "$secs" \
	    --src "$src" >"$tmp/bench-$src" 2>&1 &
done
# Measure once every connection is up (the ramp) and for the run.
sleep $((half / ramp + 3))
rss1=$(rss)
fds=$(ls /proc/$pid/fd | wc -l)
cpu0=$(cpu)
t0=$(date +%s)
sleep $((secs / 2))
cpu1=$(cpu)
t1=$(date +%s)
wait %2 %3 2>/dev/null || wait
echo "run-scale: $conns connections (2 x $half), think $think ms, $secs s"
echo "run-scale: tttd descriptors while loaded: $fds"
echo "run-scale: tttd RSS idle $rss0 KiB, loaded $rss1 KiB: $(( (rss1 - rss0) * 1024 / conns )) bytes a connection"
echo "run-scale: tttd CPU while loaded: $(( (cpu1 - cpu0) * 100 / $(getconf CLK_TCK) / (t1 - t0) ))% of a core"
grep -h '^RESULT' "$tmp"/bench-*
grep -c ' warn \| error ' "$tmp/log" | sed 's/^/run-scale: warnings and errors logged: /'
