#!/bin/sh
# run-callgrind.sh BUILD_DIR -- the instructions tttd executes for a fixed
# workload, counted by valgrind's callgrind (Ir: instructions read): a
# figure that, unlike a rate, hardly depends on the machine or its load,
# for comparing two versions of the server.
#
# For each workload, BUILD_DIR/server/tttd runs under callgrind on a free
# loopback port (--port 0 --bind 127.0.0.1, --rate-limit 0 --max-per-addr
# 0, --seed 1, and no time limit that could cut a game: --line-timeout,
# --turn-timeout, --again-timeout, --idle-timeout, --ai-offer and
# --resume-grace all 0); ttt-bench runs the workload; SIGTERM then stops
# tttd, which must exit with status 0 and leave its callgrind file.  The
# workloads:
#
#   idle  tttd started and stopped with no client: the fixed cost
#   game  CG_CONNS (20) connections playing CG_GAMES (2000) whole games
#         (--games), --think 0
#   ping  CG_CONNS connections sending CG_PINGS (20000) PINGs in a closed
#         loop (--ops)
#   name  CG_CONNS connections, each in a room of its own, sending CG_NAMES
#         (20000) NAMEs in a closed loop (--mode name --ops): a rename's cost
#
# It prints, per workload and round, tttd's total Ir (the "totals:" line
# of the callgrind file), the moves or PINGs ttt-bench counted, Ir per op,
# and Ir per op net of the idle run; then a CALLGRIND line per run for
# scripts, and with CG_ROUNDS > 1 the spread of Ir per op.  Environment:
#
#   BENCH=PATH       the ttt-bench to use (default BUILD_DIR/tests/bench/
#                    ttt-bench): an old tttd with a new ttt-bench
#   CG_MODES         workloads, default "game ping" (idle always runs first)
#   CG_ROUNDS        rounds of each, default 1
#   CG_CONNS, CG_GAMES, CG_PINGS, CG_NAMES   the workload (defaults above)
#   CG_LOG_LEVEL     tttd's --log-level, default info (as in production)
#   CG_TOP           with callgrind_annotate, the N functions with the most
#                    Ir (self) of the first game run; default 0: none
#   CG_KEEP=DIR      keep the callgrind files and logs in DIR
#
# Exit status 0 when every run completed its workload without a connect
# error, drop, ERR or bad line and tttd exited 0 with its file written.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run-callgrind.sh BUILD_DIR}
. "$here/bench-lib.sh"

tttd=$build/server/tttd
bench=${BENCH:-$build/tests/bench/ttt-bench}
modes=${CG_MODES:-game ping}
rounds=${CG_ROUNDS:-1}
conns=${CG_CONNS:-20}
games=${CG_GAMES:-2000}
pings=${CG_PINGS:-20000}
names=${CG_NAMES:-20000}
loglevel=${CG_LOG_LEVEL:-info}
top=${CG_TOP:-0}
for f in "$tttd" "$bench"; do
	if [ ! -x "$f" ]; then
		echo "run-callgrind: $f is missing: build it first" >&2
		exit 1
	fi
done
command -v valgrind >/dev/null 2>&1 || {
	echo "run-callgrind: valgrind is not installed (apt-get install valgrind)" >&2
	exit 1
}
if [ -n "${CG_KEEP:-}" ]; then
	mkdir -p "$CG_KEEP" || exit 1
	tmp=$CG_KEEP
	trap 'bench_stop_all' EXIT
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-callgrind.XXXXXX")
	trap 'bench_stop_all; rm -rf "$tmp"' EXIT
fi
trap 'exit 1' INT TERM
status=0
lines=

fail() {
	echo "run-callgrind: $*" >&2
	status=1
}

# A tttd from before --http-port (an old ref, for comparison) gets none.
http=
if "$tttd" --help 2>&1 | grep -q -- --http-port; then
	http="--http-port 0"
fi

# cg_start NAME: tttd under callgrind, its pid in $pid and port in $port
# (valgrind runs tttd in its own process: the pid is tttd's).
cg_start() {
	# shellcheck disable=SC2086
	bench_start "$tmp/$1.stdout" "$tmp/$1.log" valgrind --tool=callgrind \
	    --callgrind-out-file="$tmp/$1.callgrind" \
	    --log-file="$tmp/$1.valgrind" \
	    "$tttd" --port 0 $http --bind 127.0.0.1 --rate-limit 0 \
	    --max-per-addr 0 --seed 1 --log-level "$loglevel" \
	    --line-timeout 0 --turn-timeout 0 --again-timeout 0 \
	    --idle-timeout 0 --ai-offer 0 --resume-grace 0
	pid=$bench_pid
	_i=0
	until port=$(bench_port "$tmp/$1.stdout" "$pid"); do
		_i=$((_i + 1))
		if [ $_i -ge 6 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "run-callgrind: tttd did not start under valgrind" >&2
			cat "$tmp/$1.log" "$tmp/$1.valgrind" >&2
			exit 1
		fi
	done
}

# cg_stop NAME: SIGTERM; tttd must exit 0 within 60 s and leave its
# callgrind file; its total Ir in $ir ("" on failure).
cg_stop() {
	ir=
	kill -TERM "$pid"
	_i=0
	while kill -0 "$pid" 2>/dev/null && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		wait "$pid"
		fail "$1: tttd did not exit within 60 s of SIGTERM"
		return
	fi
	wait "$pid"
	_rc=$?
	bench_pids=
	[ "$_rc" = 0 ] || fail "$1: tttd exited with status $_rc"
	# "totals:" (or else "summary:") holds one figure per event; Ir first.
	ir=$(awk '$1 == "totals:" { t = $2 } $1 == "summary:" { s = $2 }
	    END { print (t != "" ? t : s) }' "$tmp/$1.callgrind" 2>/dev/null)
	[ -n "$ir" ] || fail "$1: no callgrind totals in $tmp/$1.callgrind"
}

# The fixed cost: start, listen, stop.
cg_start idle
cg_stop idle
idle=${ir:-0}
echo "run-callgrind: $("$tttd" --version 2>/dev/null | head -n 1), $(valgrind --version), $conns connections, log level $loglevel"
echo "run-callgrind: idle (start, listen, SIGTERM): Ir $idle"

r=1
while [ "$r" -le "$rounds" ]; do
	for mode in $modes; do
		name=$mode-$r
		case $mode in
		game)	args="--mode game --games $games --think 0" ;;
		ping)	args="--mode ping --ops $pings" ;;
		name)	args="--mode name --ops $names" ;;
		*)	echo "run-callgrind: unknown workload $mode" >&2
			exit 1 ;;
		esac
		cg_start "$name"
		# shellcheck disable=SC2086
		"$bench" 127.0.0.1 "$port" --conns "$conns" --duration 600 \
		    $args >"$tmp/$name.bench" 2>&1 || fail "$name: ttt-bench failed"
		cg_stop "$name"
		ops=$(bench_field "$tmp/$name.bench" ops)
		g=$(bench_field "$tmp/$name.bench" games)
		if [ -z "$ir" ] || [ -z "$ops" ] || [ "$ops" = 0 ]; then
			fail "$name: no figure"
			sed 's/^/    /' "$tmp/$name.bench" >&2
			continue
		fi
		line=$(awk -v m="$mode" -v r="$r" -v ir="$ir" -v ops="$ops" \
		    -v g="$g" -v idle="$idle" 'BEGIN {
			printf "CALLGRIND mode=%s round=%d ir=%.0f ops=%d games=%d ir_per_op=%.1f idle_ir=%.0f net_ir_per_op=%.1f\n", m, r, ir, ops, g, ir / ops, idle, (ir - idle) / ops
		}')
		echo "$line" | awk '{
			for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
			what = f["mode"] == "game" ? "moves" : f["mode"] == "name" ? "NAMEs" : "PINGs"
			printf "run-callgrind: %s round %s: tttd Ir %s, %s %s%s, Ir/op %s, net of idle %s\n", f["mode"], f["round"], f["ir"], what, f["ops"], f["mode"] == "game" ? " (" f["games"] " games)" : "", f["ir_per_op"], f["net_ir_per_op"]
		}'
		lines="$lines$line
"
		if [ "$mode" = game ] && [ "$r" = 1 ] && [ "$top" -gt 0 ] &&
		    command -v callgrind_annotate >/dev/null 2>&1; then
			echo "run-callgrind: the $top functions with the most Ir (self), game round 1:"
			callgrind_annotate "$tmp/$name.callgrind" 2>/dev/null |
			    awk -v n="$top" '
			    /file:function/ { on = 1; next }
			    on && /%\)/ && shown < n { print "    " $0; shown++ }'
		fi
	done
	r=$((r + 1))
done

printf '%s' "$lines"
if [ "$rounds" -gt 1 ]; then
	printf '%s' "$lines" | awk '
	{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		m = f["mode"]; v = f["ir_per_op"] + 0
		if (!(m in n)) { order[++k] = m; lo[m] = hi[m] = v }
		n[m]++; sum[m] += v
		if (v < lo[m]) lo[m] = v
		if (v > hi[m]) hi[m] = v
	}
	END {
		for (i = 1; i <= k; i++) {
			m = order[i]
			printf "run-callgrind: %s over %d rounds: Ir/op mean %.1f, min %.1f, max %.1f, spread %.2f%%\n", m, n[m], sum[m] / n[m], lo[m], hi[m], (hi[m] - lo[m]) / (sum[m] / n[m]) * 100
		}
	}'
fi
exit $status
