#!/bin/sh
# run-rated.sh BUILD_DIR -- what rated games cost the moves around them
# (issue 25): RATED_MATCHES (1,000) matches playing whole games at a pace
# that ends about 500 games a second, once with every player a guest (G)
# and once with every player signed in (R: ttt-bench --register, so every
# game is rated: its record and both new ratings committed, one fsync,
# before its players see RESULT), the two alternating round by round (GR,
# RG, GR, ...) so that whatever else the machine does falls on both
# alike; and with RATED_MIXED (the default), a third run each round (M):
# both at once on one tttd, the signed-in players' 1,000 matches first,
# then 1,000 matches of guests (a second ttt-bench, started once the
# first's players are paired), measured over the same seconds: the
# guests' moves beside 500 rated results a second; and its control (D):
# the same two runs at once, the first's players guests too.  Prints each
# round's moves/s, games/s, rated results/s and the move latency (p50,
# p99), then the medians of each and the ratios of the p99s (R over G;
# M's guests over D's).
#
# Each round starts a fresh tttd of BUILD_DIR on a free loopback port with
# a new --db file of its own (--port 0 --bind 127.0.0.1, no rate limit,
# no limit per address, --seed 1, no clock that could cut a game), runs
# BUILD_DIR's ttt-bench --mode game with 2 x RATED_MATCHES players
# (--ramp 1000, --think RATED_THINK with 10 % jitter, --warmup 3: the
# players pair and, in R, register), measures RATED_SECONDS, and stops
# it.  A game is 7 moves (X wins on the diagonal the first-free-cell
# player makes) and its AGAIN?: RATED_THINK 280 ms makes one game about
# every 2 s a match.  Environment:
#
#   RATED_ROUNDS    rounds, G and R once each (default 3)
#   RATED_MATCHES   matches (default 1000): twice as many players
#   RATED_THINK     ms a player thinks before each move (default 280)
#   RATED_SECONDS   measured seconds a run (default 10)
#   RATED_DIR       where the --db files go (default a temporary
#                   directory: the disk it is on is the disk measured)
#   RATED_MIXED     1 (default): the M and D runs too; 0: G and R only
#
# Exit status 0 when every run completed without a connect error, drop,
# ERR or bad line, and every game of R was rated.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run-rated.sh BUILD_DIR}
rounds=${RATED_ROUNDS:-3}
matches=${RATED_MATCHES:-1000}
think=${RATED_THINK:-280}
secs=${RATED_SECONDS:-10}
mixed=${RATED_MIXED:-1}
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
tttd=$build/server/tttd
for f in "$bench" "$tttd"; do
	if [ ! -x "$f" ]; then
		echo "run-rated: $f is missing: build $build first" >&2
		exit 1
	fi
done
tmp=$(mktemp -d "${RATED_DIR:-${TMPDIR:-/tmp}}/tttd-rated.XXXXXX")
trap 'bench_stop_all; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
conns=$((matches * 2))
status=0
results=

# fields LABEL FILE: "LABEL MOVES_S GAMES_S RATED_S P50 P99 BAD" of a
# ttt-bench report; BAD counts errors, and with --register a run without
# rated games or with an unrated one.
fields() {
	awk -v label="$1" '/^RESULT / {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		bad = f["connect_errors"] + f["drops"] + f["errs"] + f["bad"]
		if ("registered" in f && (f["rated"] == 0 || f["unrated"] > 0))
			bad++
		printf "%s %s %.1f %.1f %s %s %d\n", label, f["ops_per_s"],
		    f["games"] / f["seconds"], f["rated"] / f["seconds"],
		    f["p50_us"], f["p99_us"], bad
	}' "$2"
}

# one LABEL: a fresh server on a new file, one measured run; its figures
# appended to $results as "LABEL MOVES_S GAMES_S RATED_S P50 P99" (M: the
# guests', and the signed-in players' rated results a second).
one() {
	_label=$1
	_reg=
	[ "$_label" = R ] && _reg="--register rated"
	rm -f "$tmp/$_label.db" "$tmp/$_label.db-wal" "$tmp/$_label.db-shm"
	bench_start "$tmp/$_label.stdout" "$tmp/$_label.log" "$tttd" \
	    --port 0 --http-port 0 --bind 127.0.0.1 --rate-limit 0 \
	    --max-per-addr 0 --seed 1 --log-level warn --line-timeout 0 \
	    --turn-timeout 0 --again-timeout 0 --idle-timeout 0 --ai-offer 0 \
	    --db "$tmp/$_label.db"
	_pid=$bench_pid
	if ! _port=$(bench_port "$tmp/$_label.stdout" "$_pid"); then
		echo "run-rated: $_label: tttd did not start" >&2
		cat "$tmp/$_label.log" >&2
		status=1
		return
	fi
	_rpid=
	if [ "$_label" = M ] || [ "$_label" = D ]; then
		# The signed-in players (D: guests) first, measured over the
		# same seconds as the guests who come 4 s later (ramps of 2 s).
		_first=
		[ "$_label" = M ] && _first="--register rated"
		# shellcheck disable=SC2086
		"$bench" 127.0.0.1 "$_port" --conns "$conns" --ramp 1000 \
		    --duration "$secs" --warmup 7 --mode game \
		    --think "$think" --think-jitter 10 $_first \
		    >"$tmp/MR.bench" 2>&1 &
		_rpid=$!
		sleep 4
	fi
	# shellcheck disable=SC2086
	"$bench" 127.0.0.1 "$_port" --conns "$conns" --ramp 1000 \
	    --duration "$secs" --warmup 3 --mode game --think "$think" \
	    --think-jitter 10 $_reg >"$tmp/$_label.bench" 2>&1 || status=1
	if [ -n "$_rpid" ]; then
		wait "$_rpid" || status=1
	fi
	bench_stop "$_pid"
	bench_pids=
	_line=$(fields "$_label" "$tmp/$_label.bench")
	if [ -n "$_rpid" ]; then
		_rated=$(fields MR "$tmp/MR.bench")
		[ -n "$_rated" ] && [ "${_rated##* }" = 0 ] || _line=
		# shellcheck disable=SC2086
		set -- $_rated
		_line=$(echo "$_line" | awk -v rated="$4" '{ $4 = rated; print }')
		_beside="$3 games/s, $4 rated/s, p50 $5 us, p99 $6 us"
	fi
	if [ -z "$_line" ] || [ "${_line##* }" != 0 ]; then
		echo "run-rated: $_label: the run failed" >&2
		sed 's/^/    /' "$tmp/$_label.bench" >&2
		status=1
		return
	fi
	echo "$_line" | awk -v r="$r" '{
		printf "run-rated: round %d %s: %s moves/s, %s games/s, %s rated/s, p50 %s us, p99 %s us\n", r, $1, $2, $3, $4, $5, $6
	}'
	if [ -n "$_rpid" ]; then
		echo "run-rated: round $r $_label: the guests' figures above; the first players' $_beside"
	fi
	results="$results${_line% *}
"
}

echo "run-rated: $tttd ($(git -C "$here" describe --always --dirty 2>/dev/null)), $matches matches ($conns players), think $think ms, $secs s a run, $rounds rounds; G guests, R signed in (every game rated), M both at once ($((conns * 2)) players), D its control (all guests); files in $tmp"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		one G
		one R
	else
		one R
		one G
	fi
	if [ "$mixed" = 1 ]; then
		one M
		one D
	fi
	r=$((r + 1))
done
printf '%s' "$results" | awk '
function median(a, n,    i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
}
{
	n[$1]++
	for (k = 2; k <= 6; k++)
		v[$1, k, n[$1]] = $k
}
END {
	if (n["G"] == 0 || n["R"] == 0)
		exit 1
	for (l = 1; l <= 4; l++) {
		x = substr("GRMD", l, 1)
		if (n[x] == 0)
			continue
		for (k = 2; k <= 6; k++) {
			for (i = 1; i <= n[x]; i++)
				a[i] = v[x, k, i]
			m[x, k] = median(a, n[x])
		}
		printf "run-rated: %s medians over %d runs: %.0f moves/s, %.1f games/s, %.1f rated/s, p50 %d us, p99 %d us\n", x, n[x], m[x, 2], m[x, 3], m[x, 4], m[x, 5], m[x, 6]
	}
	printf "RATED g_p99_us=%d r_p99_us=%d p99_ratio=%.2f g_p50_us=%d r_p50_us=%d r_rated_per_s=%.1f runs=%d", m["G", 6], m["R", 6], m["R", 6] / m["G", 6], m["G", 5], m["R", 5], m["R", 4], n["G"]
	if (n["M"] > 0)
		printf " m_guest_p99_us=%d d_guest_p99_us=%d m_over_d_p99=%.2f m_rated_per_s=%.1f", m["M", 6], m["D", 6], m["M", 6] / m["D", 6], m["M", 4]
	printf "\n"
}' || status=1
exit $status
