#!/bin/sh
# test_store_full.sh STORE_DRIVE -- a full disk while the store runs: on a
# small tmpfs of its own (a mount namespace: root only, else skipped),
# a register fails with STORE_EFULL, a read goes on, and once there is
# room again the same register succeeds.
set -eu
[ $# -eq 1 ] || { echo "usage: test_store_full.sh STORE_DRIVE" >&2; exit 2; }
drive=$1
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	echo "test_store_full: skipped (needs root and unshare -m for a tmpfs)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/store_full.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fs"
unshare -m --propagation private sh -c '
	mount -t tmpfs -o size=512k tmpfs "$1" || exit 77
	"$2" full "$1/tttd.db" "$1/fill"
' sh "$tmp/fs" "$drive" >"$tmp/out" || {
	rc=$?
	cat "$tmp/out"
	[ "$rc" -eq 77 ] && echo "test_store_full: skipped (no tmpfs)"
	exit "$rc"
}
cat "$tmp/out"
sed -n 's/^result //p' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'WANT'
the disk is full: database or disk is full
ok: 
ok: 
ok: 
WANT
diff -u "$tmp/want" "$tmp/got"
grep -qx done "$tmp/out"
