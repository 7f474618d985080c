#!/bin/sh
# run-tls.sh [BUILD_DIR] -- what TLS at the balancer costs (issue 26): a
# tttd for the direct runs and one alike behind HAProxy from
# docker/haproxy.cfg (which sends it PROXY headers) with TLS on (a
# certificate made here by openssl, RSA 2048 unless CERT_KEY=ec); and a
# second HAProxy on the client's side, since ttt-bench speaks no TLS: it
# listens in plain TCP and connects on to the balancer either in plain TCP
# (to 4000's frontend) or inside TLS (to 4443's, `ssl verify none`), so
# the two paths through two HAProxies differ by TLS alone.  ttt-bench
# runs GAME_CONNS players at full speed for BENCH_SECONDS against each
# path in turn, BENCH_ROUNDS rounds: direct, through the balancer, through
# both in plain TCP, through both with TLS between them.  Then the
# handshakes a second one HAProxy core does: the balancer again, alone on
# CPU 0 (taskset: HAProxy starts one thread per CPU it may use), and
# S_TIME_CLIENTS `openssl s_time -new` loops on CPU 1 for S_TIME_SECONDS,
# full handshakes only; the handshakes counted by s_time, and HAProxy's
# CPU time over the same seconds.
#
# Environment: BENCH_SECONDS (5), BENCH_ROUNDS (3), GAME_CONNS (100),
# S_TIME_SECONDS (10), S_TIME_CLIENTS (2), CERT_KEY (rsa or ec).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
secs=${BENCH_SECONDS:-5}
rounds=${BENCH_ROUNDS:-3}
conns=${GAME_CONNS:-100}
st_secs=${S_TIME_SECONDS:-10}
st_clients=${S_TIME_CLIENTS:-2}
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tttd=$build/server/tttd
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-tls.XXXXXX")
trap 'bench_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

if [ "${CERT_KEY:-rsa}" = ec ]; then
	key="-newkey ec -pkeyopt ec_paramgen_curve:P-256"
else
	key="-newkey rsa:2048"
fi
# shellcheck disable=SC2086
openssl req -x509 $key -nodes -days 1 -subj /CN=localhost \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null || exit 1
cat "$tmp/cert.pem" "$tmp/key.pem" >"$tmp/tttd.pem"

# Two tttds alike: one for the direct runs, one behind the balancer, which
# sends each connection's PROXY header (send-proxy-v2) from 127.0.0.1.  All
# of ttt-bench's players come from 127.0.0.1: --max-per-addr 0 on both.
bench_start "$tmp/tttd.out" "$tmp/tttd.log" "$tttd" --port 0 \
    --http-port 0 --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
    --max-clients 20000 --turn-timeout 0
tpid=$bench_pid
port=$(bench_port "$tmp/tttd.out" "$tpid") || exit 1
bench_start "$tmp/tttd2.out" "$tmp/tttd2.log" "$tttd" --port 0 \
    --http-port 0 --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
    --max-clients 20000 --turn-timeout 0 --proxy-from 127.0.0.1/32
tpid2=$bench_pid
port2=$(bench_port "$tmp/tttd2.out" "$tpid2") || exit 1

# lb CPUS: the balancer from docker/haproxy.cfg, its pid in $lpid.
lb() {
	lb_plain=$(bench_free_port)
	lb_tls=$(bench_free_port "$lb_plain")
	TTTD_LB_BIND=127.0.0.1:$lb_plain TTTD_LB_TLS_BIND=127.0.0.1:$lb_tls \
	TTTD_LB_HTTP_BIND=127.0.0.1:$(bench_free_port) \
	TTTD_LB_HTTPS_BIND=127.0.0.1:$(bench_free_port) \
	TTTD_NODE1=127.0.0.1:$port2 TTTD_NODE2=127.0.0.1:$port2 \
	TTTD_NODE3=127.0.0.1:$port2 TTTD_NODE1_HTTP=127.0.0.1:1 \
	TTTD_NODE2_HTTP=127.0.0.1:1 TTTD_NODE3_HTTP=127.0.0.1:1 \
	TTTD_LB_MAXCONN=4000 TTTD_LB_CERT=$tmp/tttd.pem \
	    bench_start "$tmp/lb.out" "$tmp/lb.err" taskset -c "$1" \
	    "$haproxy" -db -f "$root/docker/haproxy.cfg"
	lpid=$bench_pid
	bench_wait_ping "$lpid" "$bench" "$tmp/probe.out" "$lb_plain" ||
	    { cat "$tmp/lb.err" >&2; exit 1; }
}

lb 0-1
c_plain=$(bench_free_port)
c_tls=$(bench_free_port "$c_plain")
cat >"$tmp/client.cfg" <<EOF
global
    maxconn 4000
defaults
    mode tcp
    timeout connect 5s
    timeout client 1h
    timeout server 1h
listen plain
    bind 127.0.0.1:$c_plain
    server lb 127.0.0.1:$lb_plain
listen tls
    bind 127.0.0.1:$c_tls
    server lb 127.0.0.1:$lb_tls ssl verify none sni str(localhost)
EOF
bench_start "$tmp/c.out" "$tmp/c.err" "$haproxy" -db -f "$tmp/client.cfg"
cpid=$bench_pid
bench_wait_ping "$cpid" "$bench" "$tmp/probe.out" "$c_tls" ||
    { cat "$tmp/c.err" >&2; exit 1; }
echo "run-tls: tttd $port (behind the balancer $port2), balancer $lb_plain (TLS $lb_tls), client side $c_plain (TLS $c_tls); load $(cut -d ' ' -f 1-3 /proc/loadavg)"

r=0
while [ $r -lt "$rounds" ]; do
	for path in direct:$port lb:$lb_plain lb2:$c_plain lb2-tls:$c_tls; do
		"$bench" 127.0.0.1 "${path#*:}" --mode game --conns "$conns" \
		    --duration "$secs" >"$tmp/run.out" 2>"$tmp/run.err" ||
		    cat "$tmp/run.err" >&2
		echo "${path%%:*} $(grep '^RESULT' "$tmp/run.out")"
	done
	r=$((r + 1))
done
bench_stop "$cpid" >/dev/null
bench_stop "$lpid" >/dev/null

# Handshakes: the balancer alone on CPU 0, s_time's loops on CPU 1.
lb 0
cpu0=$(bench_cpu "$lpid")
i=0
st_pids=
while [ $i -lt "$st_clients" ]; do
	taskset -c 1 openssl s_time -connect "127.0.0.1:$lb_tls" -new \
	    -time "$st_secs" >"$tmp/st.$i" 2>&1 &
	st_pids="$st_pids $!"
	i=$((i + 1))
done
for p in $st_pids; do
	wait "$p"
done
cpu1=$(bench_cpu "$lpid")
grep -h 'connections in [0-9]* real' "$tmp"/st.* | awk \
    -v t="$(getconf CLK_TCK)" -v c="$((cpu1 - cpu0))" -v s="$st_secs" '
	{ n += $1 }
	END {
		printf "handshakes %d in %d s: %.0f/s; HAProxy CPU %.2f s: " \
		    "%.0f a CPU second\n", n, s, n / s, c / t, n / (c / t)
	}'
bench_stop "$lpid" >/dev/null
bench_stop "$tpid" >/dev/null
bench_stop "$tpid2" >/dev/null
