#!/bin/sh
# test_store_strace.sh STORE_DRIVE -- the loop never waits on the disk:
# under strace -f, every fsync, fdatasync and pwrite of a run of every
# store request comes from the store's thread, none from the main thread
# (the loop's) once store_open is done (the driver's getppid(2) marks it:
# the file is opened, made and migrated on the main thread, before any
# loop runs, and the thread starts with the first request); and each
# commit is synced (synchronous=FULL: at least one sync per write
# request).
set -eu
[ $# -eq 1 ] || { echo "usage: test_store_strace.sh STORE_DRIVE" >&2; exit 2; }
drive=$1
command -v strace >/dev/null || { echo "strace is missing (.ci/install-deps)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/store_strace.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Once as it is (the sanitizers' leak check, which cannot run under
# ptrace), then traced.
"$drive" strace "$tmp/plain.db" >"$tmp/plain"
grep -qx done "$tmp/plain" || { cat "$tmp/plain"; exit 1; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -o "$tmp/trace" \
    -e trace=fsync,fdatasync,pwrite64,pwritev,pwritev2,sync_file_range,getppid \
    "$drive" strace "$tmp/tttd.db" >"$tmp/out"
cat "$tmp/out"
grep -qx done "$tmp/out" || { echo "the driver did not finish" >&2; exit 1; }
main=$(sed -n 's/^main \([0-9]*\)$/\1/p' "$tmp/out")
[ -n "$main" ] || { echo "no main thread id" >&2; exit 1; }

# "TID name(args) = result": by the main thread, and by the others.
awk -v main="$main" '
$1 == main && $2 ~ /^getppid\(/ {
	opened = 1
}
$2 ~ /^(fsync|fdatasync|pwrite64|pwritev|pwritev2|sync_file_range)\(/ {
	if ($1 == main && !opened)
		atopen++
	else if ($1 == main) {
		print "the main thread (" main "): " $0
		bad = 1
	} else if ($2 ~ /^(fsync|fdatasync)\(/)
		syncs++
	else
		writes++
}
END {
	printf "store thread: %d syncs, %d writes; main thread: %s (%d at the open)\n",
	    syncs, writes, bad ? "some" : "none", atopen
	if (!opened) {
		print "no mark of the open (getppid) from the main thread"
		bad = 1
	}
	# Writes: 2 registers, 20 games, a rekey, a forget: 24 commits,
	# each synced (synchronous=NORMAL syncs only at checkpoints: 8).
	if (syncs < 24 || writes < 24) {
		print "too few syncs or writes: synchronous is not FULL, or strace sees nothing"
		bad = 1
	}
	exit bad
}' "$tmp/trace"
