#!/bin/sh
# test_docker.sh SOURCE_DIR BUILD_DIR -- what can be checked of docker/
# without a Docker engine: the paths the Dockerfile copies exist, its build
# command is the README's, the runtime stage's packages provide every
# library the built binaries load, and it runs as a non-root user with a
# health check.
set -eu
src=$1
build=$2
dockerfile=$src/docker/Dockerfile
compose=$src/docker/compose.yml

fail() {
	echo "test_docker: $*" >&2
	exit 1
}

[ -f "$dockerfile" ] || fail "no docker/Dockerfile"
[ -f "$compose" ] || fail "no docker/compose.yml"

# Every COPY from the build context names existing paths (the context is
# the repository's top, as compose.yml and the README say).
grep -q 'context: \.\.' "$compose" || fail "compose.yml: context is not .."
grep -q 'dockerfile: docker/Dockerfile' "$compose" ||
    fail "compose.yml does not build docker/Dockerfile"
grep -q 'restart: ' "$compose" || fail "compose.yml has no restart policy"
grep '^COPY ' "$dockerfile" | grep -v -- '--from=' | while read -r _ rest; do
	set -- $rest
	while [ $# -gt 1 ]; do
		[ -e "$src/$1" ] || fail "COPY $1: no such path in the repository"
		shift
	done
done

# The build stage builds as the README's first command does (without
# running the server at its end).
readme_cmd=$(awk '/^## Quick start/ { q = 1; next }
	q && /^```/ { if (b) exit; b = 1; next }
	q && b && NF { print; exit }' "$src/README.md")
want=${readme_cmd% && ./build/server/tttd --port 4000}
[ "$want" != "$readme_cmd" ] ||
    fail "README's first command does not end by running the server: $readme_cmd"
grep -qxF "RUN $want" "$dockerfile" ||
    fail "the Dockerfile does not RUN the README's build: $want"

# The runtime stage: what it installs, and who it runs as.
runtime=$(awk '/^FROM / { n++ } n == 2' "$dockerfile")
[ -n "$runtime" ] || fail "no second (runtime) stage"
pkgs=$(echo "$runtime" | tr '\\' '\n' |
    sed -n 's/.*apt-get install -y --no-install-recommends \([^&]*\).*/\1/p')
[ -n "$pkgs" ] || fail "the runtime stage installs no packages"
user=$(echo "$runtime" | sed -n 's/^USER //p')
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] ||
    fail "the runtime stage runs as root"
echo "$runtime" | grep -q '^EXPOSE 4000' || fail "no EXPOSE 4000"
echo "$runtime" | grep -A1 '^HEALTHCHECK' |
    grep -q 'ttt-client --healthz .*TTTD_HTTP_PORT' ||
    fail "no HEALTHCHECK with ttt-client --healthz on \$TTTD_HTTP_PORT"

# Every library the binaries load comes from a runtime package or one it
# depends on (apt installs those too: libedit2 brings libbsd0 and
# libtinfo6), or from libc6, which every Debian image has.
have="libc6"
todo=$pkgs
while [ -n "$todo" ]; do
	set -- $todo
	todo=""
	for p in "$@"; do
		case " $have " in *" $p "*) continue ;; esac
		have="$have $p"
		deps=$(dpkg-query -W -f '${Pre-Depends}, ${Depends}' "$p" \
		    2>/dev/null | tr ',' '\n' | sed 's/|.*//; s/(.*//; s/:any//' |
		    tr -d ' ')
		todo="$todo $deps"
	done
done
for bin in "$build/server/tttd" "$build/client/ttt-client"; do
	[ -x "$bin" ] || fail "no $bin: build first"
	for lib in $(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
		pkg=""
		for path in "$lib" "$(readlink -f "$lib")" "/usr$lib" \
		    "$(readlink -f "$lib" | sed 's|^/usr||')"; do
			pkg=$(dpkg -S "$path" 2>/dev/null | head -1 |
			    cut -d: -f1) && [ -n "$pkg" ] && break
		done
		[ -n "$pkg" ] || fail "$bin: no package owns $lib"
		case " $have " in
		*" $pkg "*) ;;
		*) fail "$bin loads $lib from $pkg, which the runtime stage does not install (it has: $have)" ;;
		esac
	done
done
echo "test_docker: Dockerfile and compose.yml check out (runtime: $have)"
