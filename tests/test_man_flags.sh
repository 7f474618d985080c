#!/bin/sh
# test_man_flags.sh TTTD TTT_CLIENT MAN_DIR -- every option that a
# program's --help lists has an entry of its own in its manual page: a tag
# line (the line after .TP) that names it.  tttd(8) once lacked
# --node-timeout; this keeps the pages as complete as --help.
set -eu
tttd=$1
client=$2
man=$3
failed=0

# The tag lines of a page, one a line, with groff's \- made plain -.
tags() {
	awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' "$1" | sed 's/\\-/-/g'
}

# check PROGRAM PAGE: the options of PROGRAM's --help against PAGE's tags.
check() {
	prog=$1
	page=$2
	help=$("$prog" --help 2>&1) || true
	# The options that begin a line of the help ("  -p, --port N",
	# "  --name NAME"); others named in the text (ttt-client's
	# "--http-port" is tttd's) are not the program's.
	flags=$(printf '%s\n' "$help" | sed -n \
	    -e 's/^ *\(-[a-zA-Z]\), *\(--[a-z][a-z-]*[a-z]\).*/\1 \2/p' \
	    -e 's/^ *\(--[a-z][a-z-]*[a-z]\).*/\1/p' | tr ' ' '\n' | sort -u)
	[ -n "$flags" ] || { echo "test_man_flags: $prog --help lists no option" >&2;
	    failed=1; return; }
	n=0
	for f in $flags; do
		n=$((n + 1))
		# The option itself, not a longer one it begins
		# (--ai in --ai-offer).
		if ! tags "$page" | grep -q -e "$f\([^a-zA-Z-]\|\$\)"; then
			echo "test_man_flags: $(basename "$prog") --help lists $f;" \
			    "$(basename "$page") has no entry for it" >&2
			failed=1
		fi
	done
	echo "test_man_flags: $(basename "$page"): $n options of --help checked"
}

check "$tttd" "$man/tttd.8"
check "$client" "$man/ttt-client.1"
exit $failed
