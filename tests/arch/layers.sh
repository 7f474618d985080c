#!/bin/sh
# layers.sh SRC_ROOT BUILD_DIR -- calls and includes go one way
# (docs/architecture.md).
#
# Each file of server/ and client/ has a layer, a rank below; a file may
# include a header, and its object may call a function, only of its own
# rank or a lower one.  Files of one rank may use each other only in a
# layer marked "mesh" (the daemon's transport, the base libraries), and
# there calls go one way between two files; only the game world
# ("world") calls back and forth within itself, and only four of its
# files do (the world's circle, below).  Calls are read from the
# objects with nm (direct calls; the ops tables are the way down-calls
# come back up, by design, and are not seen).  A file missing from the
# table fails the test: a new file takes its place in it on purpose.
set -eu
LC_ALL=C
export LC_ALL

[ $# -eq 2 ] || { echo "usage: layers.sh SRC_ROOT BUILD_DIR" >&2; exit 2; }
root=$1
build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# module rank [mesh]: the higher rank is the higher layer.
cat >"$tmp/server" <<'EOF'
main 8
options 7
server 6 mesh
server-client 6 mesh
server-stage 6 mesh
server-web 6 mesh
server-proxy 6 mesh
telnet 6 mesh
http 6 mesh
ws 6 mesh
cluster 6 mesh
cluster-queue 6 mesh
cluster-ask 6 mesh
cluster-seat 6 mesh
cluster-relay 6 mesh
cluster-base 6 mesh
cluster-keep 6 mesh
cluster-drain 6 mesh
cluster-account 6 mesh
cluster-msg 6 mesh
cluster-int 6 mesh
service 6 mesh
store 6 mesh
store-db 6 mesh
store-pg 6 mesh
store-pglib 6 mesh
store-key 1 mesh
accounts 6 mesh
api 6 mesh
rlink 6 mesh
conn 5
session 4
cmd 3
lobby 2 world
match 2 world
match-keep 2 world
room 2 world
watch 2 world
resume 2 world
clock 2 world
place 2 world
name 2 world
counters 2 world
client 1.5
stats 1 mesh
log 1 mesh
printable 1 mesh
keytab 1 mesh
namecheck 1 mesh
ratelimit 1 mesh
addrtab 1 mesh
addrlimit 1 mesh
mix 1 mesh
page 1 mesh
favicon 1 mesh
EOF
cat >"$tmp/client" <<'EOF'
main 9
client 8 mesh
ping 8 mesh
client-event 6 mesh
client-input 6 mesh
client-account 6 mesh
out 4
net 3
edit 3
account 3
tls 2
args 2 mesh
render 2 mesh
render-account 2 mesh
keyfile 2 mesh
slash 2 mesh
backoff 2 mesh
keys 1
EOF

fail=0
for dir in server client; do
	# Include edges: "from to" by module.
	for f in "$root/$dir"/*.c "$root/$dir"/*.h; do
		m=$(basename "$f" | sed 's/\.[ch]$//')
		sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r h; do
			if [ -f "$root/$dir/$h.h" ]; then
				echo "$m $h"
			fi
		done
	done | sort -u >"$tmp/$dir.inc"
	# Call edges: an object's undefined symbols that another defines.
	for o in $(find "$build/$dir" -name '*.c.o' | sort); do
		m=$(basename "$o" .c.o)
		nm -P -g --defined-only "$o" | awk -v m="$m" \
		    '$2 ~ /^[TDBR]$/ { print $1, m }'
	done | sort -u >"$tmp/$dir.def"
	for o in $(find "$build/$dir" -name '*.c.o' | sort); do
		m=$(basename "$o" .c.o)
		nm -P -u "$o" | awk -v m="$m" '{ print $1, m }'
	done | sort -u >"$tmp/$dir.undef"
	join "$tmp/$dir.undef" "$tmp/$dir.def" |
	    awk '$2 != $3 { print $2, $3 }' | sort -u >"$tmp/$dir.call"
	if [ ! -s "$tmp/$dir.def" ]; then
		echo "layers: no objects of $dir/ under $build" >&2
		exit 2
	fi
	for kind in inc call; do
		awk -v dir="$dir" -v kind="$kind" '
		FILENAME == ARGV[1] { rank[$1] = $2; tag[$1] = $3; next }
		$1 == $2 { next }
		{ edge[$1, $2] = 1; from[++ne] = $1; to[ne] = $2 }
		{
			for (i = 1; i <= 2; i++)
				if (!($i in rank)) {
					printf "%s/%s: not in the layer table\n", dir, $i
					bad = 1
				}
			if (!($1 in rank) || !($2 in rank))
				next
			if (rank[$1] < rank[$2] ||
			    (rank[$1] == rank[$2] && tag[$1] == "")) {
				printf "%s: %s %s %s: against the layers (%d -> %d)\n",
				    dir, $1, kind == "inc" ? "includes" : "calls",
				    $2, rank[$1], rank[$2]
				bad = 1
			}
			n++
		}
		END {
			for (i = 1; i <= ne; i++)
				if (kind == "call" && tag[from[i]] == "mesh" &&
				    edge[to[i], from[i]]) {
					printf "%s: %s and %s call each other\n",
					    dir, from[i], to[i]
					bad = 1
				}
			printf "%s/ %s: %d edges checked\n", dir, kind, n
			exit bad
		}
		' "$tmp/$dir" "$tmp/$dir.$kind" || fail=1
	done
done
# The world's circle, its files that call each other back and forth
# (both ways, directly or not), is the four whose jobs call for it: the
# queue makes matches, a match sends its players back to the queue, its
# watchers and its lost seats.  Any other file of the world is called
# without calling back (place.c, a leaf) or calls without being called.
awk '
FILENAME == ARGV[1] { if ($3 == "world") world[$1] = 1; next }
($1 in world) && ($2 in world) { reach[$1, $2] = 1 }
END {
	for (k in world) for (i in world) for (j in world)
		if (reach[i, k] && reach[k, j])
			reach[i, j] = 1
	split("lobby match resume watch", a, " ")
	for (i in a)
		ok[a[i]] = 1
	for (i in world) for (j in world)
		if (i != j && reach[i, j] && reach[j, i])
			in_circle[i] = 1
	for (i in in_circle)
		if (!(i in ok)) {
			printf "server: %s is in the world'"'"'s circle (only lobby, match, resume, watch may be)\n", i
			bad = 1
		}
	exit bad
}
' "$tmp/server" "$tmp/server.call" || fail=1
# A game's result is recorded in one place however the game ended
# (match.c's funnel, match_end_game): where a game is counted as
# finished and where a score goes up.
where=$(awk '
/^[a-z_]+\(/ { fn = $0; sub(/\(.*/, "", fn) }
/stats\.games_finished\+\+|score\[[^]]*\]\+\+/ { print FILENAME ": " fn }
' "$root"/server/*.c | sort -u)
if [ "$where" != "$root/server/match.c: match_end_game" ]; then
	echo "layers: a game's result is recorded outside match_end_game:" >&2
	echo "$where" >&2
	fail=1
fi
# The world reaches no layer above it: not even a header of one.
if grep -l '#include "\(session\|cmd\|conn\|server\)\.h"' \
    "$root"/server/lobby.c "$root"/server/match.c "$root"/server/room.c \
    "$root"/server/watch.c "$root"/server/resume.c "$root"/server/clock.c \
    "$root"/server/place.c "$root"/server/counters.c "$root"/server/name.c \
    "$root"/server/client.c; then
	echo "layers: a file of the world includes a header above it" >&2
	fail=1
fi
# A file's exported functions are named after it, as in tmux and redis
# (cluster-seat.c: cluster_seat_*; main.c: main).  The exceptions: telnet.c's
# tn_ (libtelnet owns telnet_*), addrtab.c's addrkey_ (its key's type) and
# log.c's fatalx (tmux's name).
for o in $(find "$build/server" -name '*.c.o' | sort); do
	m=$(basename "$o" .c.o)
	nm -P -g --defined-only "$o" | awk -v m="$m" '$2 == "T" { print m, $1 }'
done | sort -u | awk '
BEGIN {
	ok["telnet"] = "tn_"; ok["addrtab"] = "addrkey_"; ok["log"] = "fatalx"
}
{
	p = $1
	gsub("-", "_", p)
	if ($2 == p || index($2, p "_") == 1)
		next
	if (($1 in ok) && index($2, ok[$1]) == 1)
		next
	printf "layers: server/%s.c exports %s, not named after its file\n",
	    $1, $2
	bad = 1
}
END { exit bad }' || fail=1
if [ "$fail" -ne 0 ]; then
	echo "layers: FAILED"
	exit 1
fi
echo "layers: calls and includes go one way"
