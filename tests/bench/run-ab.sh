#!/bin/sh
# run-ab.sh BUILD_DIR REF -- tttd of BUILD_DIR against tttd built from the
# git ref REF (a commit, a tag, a branch), in the same run: whole games at
# full speed, the two binaries alternating round by round (AB, BA, AB,
# ...) so that whatever else the machine does falls on both alike.  Prints
# each round's moves/s and, at the end, each binary's median and the
# ratio of the medians (BUILD_DIR's over REF's); then the median of the
# rounds' own ratios (A's run over B's, the two back to back: the figure
# least moved by the machine's drift from round to round, which on a
# shared machine can be 30 %) and in how many rounds A made at least as
# many moves as B.
#
# REF is checked out in a temporary git worktree of this repository and
# built there (RelWithDebInfo, as BUILD_DIR's default); BUILD_DIR's
# ttt-bench drives both.  Each round starts a fresh tttd on a free
# loopback port (--port 0 --bind 127.0.0.1, no rate limit, no limit per
# address, --seed 1, no clock that could cut a game: --turn-timeout,
# --again-timeout, --idle-timeout, --line-timeout, --ai-offer 0), runs
# ttt-bench --mode game --think 0 for AB_SECONDS after a second's warm-up,
# and stops it.  Environment:
#
#   AB_ROUNDS    rounds, each binary once a round (default 6)
#   AB_CONNS     players (default 100)
#   AB_SECONDS   measured seconds a run (default 3)
#   AB_KEEP=DIR  keep the reference's worktree and build in DIR (reused
#                when it is there: building takes a minute)
#
# Exit status 0 when every run completed without a connect error, drop,
# ERR or bad line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run-ab.sh BUILD_DIR REF}
ref=${2:?usage: run-ab.sh BUILD_DIR REF}
rounds=${AB_ROUNDS:-6}
conns=${AB_CONNS:-100}
secs=${AB_SECONDS:-3}
. "$here/bench-lib.sh"

bench=$build/tests/bench/ttt-bench
new=$build/server/tttd
for f in "$bench" "$new"; do
	if [ ! -x "$f" ]; then
		echo "run-ab: $f is missing: build $build first" >&2
		exit 1
	fi
done
repo=$(git -C "$here" rev-parse --show-toplevel) || exit 1
sha=$(git -C "$repo" rev-parse --verify "$ref^{commit}") || {
	echo "run-ab: no commit $ref" >&2
	exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tttd-ab.XXXXXX")
wt=${AB_KEEP:-$tmp/ref}
cleanup() {
	bench_stop_all
	if [ -z "${AB_KEEP:-}" ]; then
		git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The reference, checked out and built once.
if [ ! -x "$wt/build/server/tttd" ] ||
    [ "$(git -C "$wt" rev-parse HEAD 2>/dev/null)" != "$sha" ]; then
	git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1
	git -C "$repo" worktree add --detach "$wt" "$sha" >/dev/null 2>&1 || {
		echo "run-ab: cannot check $ref out in $wt" >&2
		exit 1
	}
	echo "run-ab: building $ref ($sha) in $wt"
	{ cmake -S "$wt" -B "$wt/build" >/dev/null &&
	    cmake --build "$wt/build" -j2 --target tttd >/dev/null; } || {
		echo "run-ab: $ref does not build" >&2
		exit 1
	}
fi
old=$wt/build/server/tttd

status=0
results=

# one LABEL TTTD: a fresh server, one measured run, its moves/s appended
# to $results as "LABEL VALUE".
one() {
	_label=$1
	_bin=$2
	_http=
	if "$_bin" --help 2>&1 | grep -q -- --http-port; then
		_http="--http-port 0"
	fi
	# shellcheck disable=SC2086
	bench_start "$tmp/$_label.stdout" "$tmp/$_label.log" "$_bin" \
	    --port 0 $_http --bind 127.0.0.1 --rate-limit 0 --max-per-addr 0 \
	    --seed 1 --log-level warn --line-timeout 0 --turn-timeout 0 \
	    --again-timeout 0 --idle-timeout 0 --ai-offer 0
	_pid=$bench_pid
	if ! _port=$(bench_port "$tmp/$_label.stdout" "$_pid"); then
		echo "run-ab: $_label: tttd did not start" >&2
		cat "$tmp/$_label.log" >&2
		status=1
		return
	fi
	"$bench" 127.0.0.1 "$_port" --conns "$conns" --duration "$secs" \
	    --warmup 1 --mode game --think 0 >"$tmp/$_label.bench" 2>&1 ||
	    status=1
	bench_stop "$_pid"
	bench_pids=
	_ops=$(bench_field "$tmp/$_label.bench" ops_per_s)
	_bad=$(awk '/^RESULT / {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		print f["connect_errors"] + f["drops"] + f["errs"] + f["bad"]
	}' "$tmp/$_label.bench")
	if [ -z "$_ops" ] || [ "${_bad:-1}" != 0 ]; then
		echo "run-ab: $_label: the run failed" >&2
		sed 's/^/    /' "$tmp/$_label.bench" >&2
		status=1
		return
	fi
	echo "run-ab: round $r $_label: $_ops moves/s"
	results="$results$_label $r $_ops
"
}

echo "run-ab: A = $new ($(git -C "$repo" describe --always --dirty 2>/dev/null)), B = $ref ($sha)"
echo "run-ab: $conns players at full speed, ${secs} s a run, $rounds rounds"
r=1
while [ "$r" -le "$rounds" ]; do
	if [ $((r % 2)) = 1 ]; then
		one A "$new"
		one B "$old"
	else
		one B "$old"
		one A "$new"
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
$1 == "A" { a[++na] = $3; ra[$2] = $3 }
$1 == "B" { b[++nb] = $3; rb[$2] = $3 }
END {
	if (na == 0 || nb == 0)
		exit 1
	# Each round ran A and B one after the other: its ratio is the
	# least touched by the machine drifting between rounds.
	for (r in ra)
		if (r in rb && rb[r] > 0) {
			q[++nq] = ra[r] / rb[r]
			if (ra[r] >= rb[r])
				ahead++
		}
	ma = median(a, na); mb = median(b, nb); mq = median(q, nq)
	printf "run-ab: median moves/s: A %.0f (%d runs), B %.0f (%d runs); A/B %.3f\n", ma, na, mb, nb, ma / mb
	printf "run-ab: median of the rounds'"'"' A/B: %.3f (%d rounds, A ahead in %d)\n", mq, nq, ahead
	printf "AB a_median=%.0f b_median=%.0f ratio=%.3f runs=%d round_ratio=%.3f ahead=%d\n", ma, mb, ma / mb, na, mq, ahead + 0
}' || status=1
exit $status
