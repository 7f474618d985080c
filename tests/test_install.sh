#!/bin/sh
# test_install.sh BUILD_DIR -- cmake --install into a temporary prefix, then
# check what landed: the programs run, the manual pages render, the systemd
# unit is hardened and starts the installed tttd.
set -eu
build=$1
prefix=$(mktemp -d "${TMPDIR:-/tmp}/tttd-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT

fail() {
	echo "test_install: $*" >&2
	exit 1
}

cmake --install "$build" --prefix "$prefix" >/dev/null

for f in bin/tttd bin/ttt-client share/man/man8/tttd.8 \
    share/man/man1/ttt-client.1 lib/systemd/system/tttd.service; do
	[ -f "$prefix/$f" ] || fail "missing $f"
done
[ -x "$prefix/bin/tttd" ] || fail "bin/tttd is not executable"

"$prefix/bin/tttd" --version | grep -q '^tttd [0-9]' ||
    fail "installed tttd --version"
"$prefix/bin/ttt-client" --version | grep -q '^ttt-client [0-9]' ||
    fail "installed ttt-client --version"
# The load generator, an operator's tool too (built with the tests).
[ -x "$prefix/bin/ttt-bench" ] || fail "missing bin/ttt-bench"
"$prefix/bin/ttt-bench" --help 2>&1 | grep -q '^usage: ttt-bench' ||
    fail "installed ttt-bench --help"

# The unit starts the tttd of this prefix, and is hardened.
unit=$prefix/lib/systemd/system/tttd.service
grep -qx "ExecStart=$prefix/bin/tttd" "$unit" ||
    fail "ExecStart is not $prefix/bin/tttd: $(grep ExecStart "$unit")"
for line in DynamicUser=yes NoNewPrivileges=yes ProtectSystem=strict \
    Restart=on-failure ProtectHome=yes PrivateTmp=yes CapabilityBoundingSet=; do
	grep -qx "$line" "$unit" || fail "the unit lacks $line"
done
if command -v systemd-analyze >/dev/null 2>&1; then
	# Unknown keys or sections are errors; a missing binary is not ours.
	out=$(systemd-analyze verify "$unit" 2>&1 || true)
	if echo "$out" | grep -qi -e 'unknown' -e 'invalid' -e 'failed to parse'; then
		fail "systemd-analyze verify: $out"
	fi
fi

# The manual pages render without a warning.
if command -v groff >/dev/null 2>&1; then
	for page in share/man/man8/tttd.8 share/man/man1/ttt-client.1; do
		out=$(groff -man -Tutf8 -ww -z "$prefix/$page" 2>&1)
		[ -z "$out" ] || fail "groff warns about $page: $out"
		groff -man -Tascii -P-cbou "$prefix/$page" 2>/dev/null | grep -q "^NAME" ||
		    fail "$page renders no NAME section"
	done
fi
echo "test_install: installed and checked in $prefix"
