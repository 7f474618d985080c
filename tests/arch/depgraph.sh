#!/bin/sh
# depgraph.sh SRC_DIR [BUILD_OBJ_DIR] -- the dependency graphs of one
# source directory, as plain, sorted text (POSIX sh, awk, find, sort, nm):
#
#  (a) the include graph: an edge f -> g for each `#include "g"` in f that
#      names a .c or .h file of SRC_DIR (looked up beside f, then from
#      SRC_DIR, then as the only file of SRC_DIR whose path ends in /g);
#      quoted includes of files elsewhere (proto.h, ttt.h, ...) are
#      counted apart; <...> includes are ignored;
#  (b) with BUILD_OBJ_DIR, the file-level call graph: an edge f.c -> g.c
#      when f.c's object leaves undefined a global symbol (function or
#      data) that g.c's object defines, from `nm -P -g`.  Objects are the
#      *.o under BUILD_OBJ_DIR (CMake: BUILD/server/CMakeFiles/<target>.dir/
#      *.c.o); each is matched to its source by its .o.d file (the first
#      dependency), or else by its path below <target>.dir/.  A source
#      built into several targets is taken from the first object in path
#      order.  Calls through function pointers and static inline
#      functions of headers are not seen.
#
# For each graph: the files, the edges (sorted), each file's fan-out and
# fan-in, and the strongly connected components of more than one file (the
# cycles), members sorted; then one DEPGRAPH line for scripts.  Files are
# named by their path below SRC_DIR.  Subdirectories of SRC_DIR are
# included.
set -eu
LC_ALL=C
export LC_ALL

usage() {
	echo "usage: depgraph.sh SRC_DIR [BUILD_OBJ_DIR]" >&2
	exit 2
}
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage
fi
[ -d "$1" ] || { echo "depgraph: $1: not a directory" >&2; exit 2; }
src=$(cd "$1" && pwd -P)
srclog=$(cd "$1" && pwd)
obj=${2:-}
if [ -n "$obj" ]; then
	[ -d "$obj" ] || { echo "depgraph: $obj: not a directory" >&2; exit 2; }
	obj=$(cd "$obj" && pwd -P)
	command -v nm >/dev/null 2>&1 ||
	    { echo "depgraph: nm is missing (apt-get install binutils)" >&2; exit 2; }
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/depgraph.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# The files of SRC_DIR, by path below it, sorted.
(cd "$src" && find . -type f \( -name '*.c' -o -name '*.h' \) |
    sed 's|^\./||' | sort) >"$tmp/files"

# scc_report KIND EDGES NODES: fan-out/fan-in and the cyclic SCCs (Tarjan)
# of the graph whose edges ("from to", sorted, unique) are in EDGES and
# whose nodes (one a line) are in NODES; the SCC count and the largest
# size go to $tmp/KIND.scc as "count largest".
scc_report() {
	awk -v kind="$1" -v sccfile="$tmp/$1.scc" '
	FILENAME == ARGV[1] { node[++nn] = $1; out[$1] = 0; in_[$1] = 0; next }
	{
		adj[$1, ++nadj[$1]] = $2
		out[$1]++
		in_[$2]++
	}
	function strong(v,	i, w, n, list, tmpv, a, b, t, arr) {
		idx[v] = low[v] = ++counter
		stack[++sp] = v
		onst[v] = 1
		for (i = 1; i <= nadj[v]; i++) {
			w = adj[v, i]
			if (!(w in idx)) {
				strong(w)
				if (low[w] < low[v])
					low[v] = low[w]
			} else if (onst[w] && idx[w] < low[v])
				low[v] = idx[w]
		}
		if (low[v] != idx[v])
			return
		n = 0
		do {
			w = stack[sp--]
			onst[w] = 0
			arr[++n] = w
		} while (w != v)
		if (n < 2)
			return
		for (a = 2; a <= n; a++)	# insertion sort: few members
			for (b = a; b > 1 && arr[b] < arr[b - 1]; b--) {
				t = arr[b]; arr[b] = arr[b - 1]; arr[b - 1] = t
			}
		list = arr[1]
		for (a = 2; a <= n; a++)
			list = list " " arr[a]
		nscc++
		if (n > largest)
			largest = n
		print n, list > (sccfile ".list")
	}
	END {
		printf "fan-out / fan-in (files this one %s / files %s this one):\n", kind == "include" ? "includes" : "uses", kind == "include" ? "including" : "using"
		for (i = 1; i <= nn; i++)
			printf "  %-24s %3d out %3d in\n", node[i], out[node[i]], in_[node[i]]
		for (i = 1; i <= nn; i++)
			if (!(node[i] in idx))
				strong(node[i])
		print nscc + 0, largest + 0 > sccfile
	}' "$3" "$2"
	read -r _n _l <"$tmp/$1.scc"
	if [ "$_n" = 0 ]; then
		echo "strongly connected components of more than one file (cycles): none"
	else
		echo "strongly connected components of more than one file (cycles): $_n, the largest $_l files"
		# Largest first, then by members.
		sort -k1,1nr -k2 "$tmp/$1.scc.list" |
		    awk '{ n = $1; $1 = ""; printf "  SCC of %d:%s\n", n, $0 }'
	fi
}

### (a) The include graph.
(cd "$src" && awk '
NR == FNR { have[$0] = 1; file[++nf] = $0; next }
# Collapse "a/./b" and "a/x/../b"; "" if the path leaves SRC_DIR.
function norm(p,	n, i, parts, out, k, o) {
	n = split(p, parts, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "" || parts[i] == ".")
			continue
		if (parts[i] == "..") {
			if (k == 0)
				return ""
			k--
			continue
		}
		out[++k] = parts[i]
	}
	o = ""
	for (i = 1; i <= k; i++)
		o = o (i > 1 ? "/" : "") out[i]
	return o
}
function resolve(from, name,	dir, p, f, hit, n) {
	dir = from
	if (!sub(/\/[^\/]*$/, "", dir))
		dir = ""
	p = norm((dir != "" ? dir "/" : "") name)
	if (p != "" && (p in have))
		return p
	p = norm(name)
	if (p != "" && (p in have))
		return p
	n = 0
	for (f in have)
		if (length(f) > length(name) &&
		    substr(f, length(f) - length(name)) == "/" name) {
			hit = f
			n++
		}
	return n == 1 ? hit : ""
}
END {
	for (i = 1; i <= nf; i++) {
		while ((getline line < file[i]) > 0) {
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
				continue
			sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", line)
			sub(/".*/, "", line)
			to = resolve(file[i], line)
			if (to != "")
				print "E", file[i], to
			else
				print "X", file[i], line
		}
		close(file[i])
	}
}' "$tmp/files") >"$tmp/inc.raw"
awk '$1 == "E" { print $2, $3 }' "$tmp/inc.raw" | sort -u >"$tmp/inc.edges"
nfiles=$(wc -l <"$tmp/files" | tr -d ' ')
nc=$(grep -c '\.c$' "$tmp/files" || true)
nh=$(grep -c '\.h$' "$tmp/files" || true)
ninc=$(wc -l <"$tmp/inc.edges" | tr -d ' ')

echo "depgraph: $srclog"
echo
echo "== (a) include graph: quoted includes among the .c and .h files =="
echo "files: $nfiles ($nc .c, $nh .h); edges: $ninc"
echo "edges (file -> the files of this directory it includes):"
awk '
{ if ($1 != from) { if (NR > 1) print line; from = $1; line = "  " $1 " ->" } line = line " " $2 }
END { if (NR > 0) print line }' "$tmp/inc.edges"
echo "quoted includes of files not in this directory (how many files include each):"
awk '$1 == "X" { print $3, $2 }' "$tmp/inc.raw" | sort -u |
    awk '{ n[$1]++ } END { for (h in n) printf "  %s %d\n", h, n[h] }' | sort |
    awk 'BEGIN { any = 0 } { print; any = 1 } END { if (!any) print "  none" }'
scc_report include "$tmp/inc.edges" "$tmp/files"
read -r inc_scc inc_largest <"$tmp/include.scc"

if [ -z "$obj" ]; then
	echo
	echo "(b) call graph: skipped (no BUILD_OBJ_DIR)"
	echo "DEPGRAPH dir=$(basename "$src") files=$nfiles include_edges=$ninc include_sccs=$inc_scc include_largest_scc=$inc_largest"
	exit 0
fi

### (b) The call graph from the objects.
# Each object's source, by its .o.d file or its path below <target>.dir/.
grep '\.c$' "$tmp/files" >"$tmp/cfiles" || true
find "$obj" -type f -name '*.o' | sort >"$tmp/objs"
: >"$tmp/objmap"
while IFS= read -r o; do
	s=
	if [ -f "$o.d" ]; then
		s=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) { print $i; exit } }' "$o.d")
		case $s in
		"$src"/*)	s=${s#"$src"/} ;;
		"$srclog"/*)	s=${s#"$srclog"/} ;;
		*)		s= ;;
		esac
	else
		case $o in
		*.dir/*)	s=${o#*.dir/}; s=${s%.o} ;;
		esac
	fi
	[ -n "$s" ] && grep -qxF "$s" "$tmp/cfiles" && printf '%s\t%s\n' "$s" "$o" >>"$tmp/objmap"
done <"$tmp/objs"
# The first object of each source; the others noted.
sort -t "$(printf '\t')" -k1,1 -k2,2 "$tmp/objmap" | awk -F '\t' '
	$1 != prev { print $1 "\t" $2 > "'"$tmp/objfirst"'"; prev = $1; next }
	{ dup[$1]++ }
	END { for (s in dup) printf "%s %d\n", s, dup[s] > "'"$tmp/objdups"'" }'
touch "$tmp/objfirst" "$tmp/objdups"
cut -f 1 "$tmp/objfirst" >"$tmp/cnodes"
while IFS="$(printf '\t')" read -r s o; do
	nm -P -g "$o" | awk -v s="$s" '
	$2 == "U" || $2 == "w" || $2 == "v" { print "U", s, $1; next }
	$2 ~ /^[A-Z]$/ { print "D", s, $1 }'
done <"$tmp/objfirst" >"$tmp/syms"
awk '
$1 == "D" { def[$3] = def[$3] " " $2; next }
{ use[++n] = $2 " " $3 }
END {
	for (i = 1; i <= n; i++) {
		split(use[i], u, " ")
		if (!(u[2] in def))
			continue
		m = split(def[u[2]], d, " ")
		for (j = 1; j <= m; j++)
			if (d[j] != u[1])
				print u[1], d[j], u[2]
	}
}' "$tmp/syms" | sort -u >"$tmp/call.syms"
awk '{ print $1, $2 }' "$tmp/call.syms" | sort -u >"$tmp/call.edges"
ncobj=$(wc -l <"$tmp/cnodes" | tr -d ' ')
ncall=$(wc -l <"$tmp/call.edges" | tr -d ' ')
nsym=$(wc -l <"$tmp/call.syms" | tr -d ' ')

echo
echo "== (b) call graph: global symbols an object uses that another object of this directory defines =="
echo "objects: $ncobj of $nc .c files, under $obj; edges: $ncall; symbols across edges: $nsym"
missing=$(sort "$tmp/cfiles" | comm -23 - "$tmp/cnodes" | tr '\n' ' ')
[ -z "$missing" ] || echo "no object found for: $missing"
if [ -s "$tmp/objdups" ]; then
	echo "built into more than one target (the first object used): $(sort "$tmp/objdups" | awk '{ printf "%s%s (+%d)", sep, $1, $2; sep = ", " }')"
fi
echo "edges (file -> file whose symbols it uses: how many, which):"
awk '
{
	k = $1 " -> " $2
	if (k != prev) {
		if (NR > 1)
			printf "  %s (%d): %s\n", prev, n, list
		prev = k; n = 0; list = ""
	}
	n++
	list = list (n > 1 ? " " : "") $3
}
END { if (NR > 0) printf "  %s (%d): %s\n", prev, n, list }' "$tmp/call.syms"
scc_report call "$tmp/call.edges" "$tmp/cnodes"
read -r call_scc call_largest <"$tmp/call.scc"
echo
echo "DEPGRAPH dir=$(basename "$src") files=$nfiles include_edges=$ninc include_sccs=$inc_scc include_largest_scc=$inc_largest objects=$ncobj call_edges=$ncall call_symbols=$nsym call_sccs=$call_scc call_largest_scc=$call_largest"
