#!/bin/sh
# test_docker.sh SOURCE_DIR BUILD_DIR -- what can be checked of docker/
# without a Docker engine: the paths the Dockerfile copies exist, its build
# command is the README's, the runtime stage's packages provide every
# library the built binaries load, and it runs as a non-root user with a
# health check; and the cluster (compose.cluster.yml, Dockerfile.cluster,
# haproxy.cfg) fits together.
set -eu
src=$1
build=$2
dockerfile=$src/docker/Dockerfile
compose=$src/docker/compose.yml
cluster=$src/docker/compose.cluster.yml
cluster_dockerfile=$src/docker/Dockerfile.cluster
haproxy_cfg=$src/docker/haproxy.cfg

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
copies_exist() {	# copies_exist DOCKERFILE
	grep '^COPY ' "$1" | grep -v -- '--from=' | while read -r _ rest; do
		set -- $rest
		while [ $# -gt 1 ]; do
			[ -e "$src/$1" ] ||
			    fail "COPY $1: no such path in the repository"
			shift
		done
	done
}
copies_exist "$dockerfile"

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
# docker/README.md names each of them (it once left out libhiredis0.14).
for p in $pkgs; do
	grep -q "\`$p\`" "$src/docker/README.md" ||
	    fail "docker/README.md does not name the runtime package $p"
done
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

# The cluster: three nodes on one Redis behind HAProxy (docs/cluster.md).
for f in "$cluster" "$cluster_dockerfile" "$haproxy_cfg"; do
	[ -f "$f" ] || fail "no docker/${f##*/}"
done
copies_exist "$cluster_dockerfile"
for d in $(sed -n 's/^ *dockerfile: *//p' "$cluster"); do
	[ -f "$src/$d" ] || fail "compose.cluster.yml builds $d: no such file"
done
for t in $(sed -n 's/^ *target: *//p' "$cluster"); do
	grep -q "^FROM .* AS $t\$" "$cluster_dockerfile" ||
	    fail "compose.cluster.yml: no stage $t in Dockerfile.cluster"
done
# A service's fixed address on the network (none: empty).
service_ip() {
	awk -v s="  $1:" '$0 == s { in_s = 1; next }
	    /^  [a-z]/ { in_s = 0 }
	    in_s && $1 == "ipv4_address:" { print $2 }' "$cluster"
}
# tttd wants a numeric --redis: Redis's fixed address, in the subnet.
redis_ip=$(service_ip redis)
[ -n "$redis_ip" ] || fail "compose.cluster.yml: Redis has no ipv4_address"
grep -q "TTTD_REDIS: \"$redis_ip:6379\"" "$cluster" ||
    fail "compose.cluster.yml: TTTD_REDIS is not $redis_ip:6379"
grep -q "subnet: ${redis_ip%.*}.0/24" "$cluster" ||
    fail "compose.cluster.yml: $redis_ip is not in the network's subnet"
# Behind HAProxy (issue 26): its PROXY v2 headers believed from its fixed
# address alone, and the per-address cap at its default.
lb_ip=$(service_ip haproxy)
[ -n "$lb_ip" ] || fail "compose.cluster.yml: HAProxy has no ipv4_address"
grep -q "TTTD_PROXY_FROM: \"$lb_ip/32\"" "$cluster" ||
    fail "compose.cluster.yml: TTTD_PROXY_FROM is not HAProxy's $lb_ip/32"
! grep -q 'TTTD_MAX_PER_ADDR' "$cluster" ||
    fail "compose.cluster.yml: behind HAProxy, --max-per-addr stays at its default"
grep -q '^ *default-server .* send-proxy-v2' "$haproxy_cfg" ||
    fail "haproxy.cfg: the servers are not sent PROXY v2 headers"
# The accounts on PostgreSQL (issue 27): TTTD_DB at its fixed address.
pg_ip=$(service_ip postgres)
[ -n "$pg_ip" ] || fail "compose.cluster.yml: postgres has no ipv4_address"
grep -q "TTTD_DB: \"postgresql://[^@]*@$pg_ip:5432/" "$cluster" ||
    fail "compose.cluster.yml: TTTD_DB does not point at $pg_ip:5432"
# Each node: a service, a name of its own, and HAProxy's default for it.
for k in 1 2 3; do
	grep -q "^  tttd$k:\$" "$cluster" ||
	    fail "compose.cluster.yml: no service tttd$k"
	[ "$(grep -c "TTTD_NODE: n$k\$" "$cluster")" = 1 ] ||
	    fail "compose.cluster.yml: node name n$k not given once"
	grep -q "\${TTTD_NODE$k-tttd$k:4000}" "$haproxy_cfg" ||
	    fail "haproxy.cfg: TTTD_NODE$k does not default to tttd$k:4000"
	grep -q "\${TTTD_NODE${k}_HTTP-tttd$k:8080}" "$haproxy_cfg" ||
	    fail "haproxy.cfg: TTTD_NODE${k}_HTTP does not default to tttd$k:8080"
done
for port in 4000 8080 4443 8443; do
	grep -q "\"$port:$port\"" "$cluster" ||
	    fail "compose.cluster.yml: HAProxy does not publish $port"
	grep -q "bind \"\${TTTD_LB_[A-Z_]*-:$port}\"" "$haproxy_cfg" ||
	    fail "haproxy.cfg: no frontend on :$port by default"
done
grep -q '^ *mode tcp$' "$haproxy_cfg" || fail "haproxy.cfg: not in TCP mode"
# HAProxy's own check of the file, with the Docker defaults (names that
# do not resolve here only warn).
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
if [ -x "$haproxy" ]; then
	if ! "$haproxy" -c -q -f "$haproxy_cfg"; then
		"$haproxy" -c -f "$haproxy_cfg" >&2 || true
		fail "haproxy -c -f docker/haproxy.cfg failed"
	fi
	# And with TLS on: a certificate of the test's own, as compose mounts.
	grep -q 'TTTD_LB_CERT: /etc/haproxy/certs/tttd.pem' "$cluster" ||
	    fail "compose.cluster.yml: TTTD_LB_CERT is not the mounted certificate"
	grep -q -- '- ./certs:/etc/haproxy/certs:ro' "$cluster" ||
	    fail "compose.cluster.yml: docker/certs is not mounted"
	certdir=$(mktemp -d)
	trap 'rm -rf "$certdir"' EXIT
	openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
	    -keyout "$certdir/key.pem" -out "$certdir/cert.pem" 2>/dev/null ||
	    fail "openssl cannot make a certificate"
	cat "$certdir/cert.pem" "$certdir/key.pem" > "$certdir/tttd.pem"
	if ! TTTD_LB_CERT=$certdir/tttd.pem "$haproxy" -c -q -f "$haproxy_cfg"
	then
		TTTD_LB_CERT=$certdir/tttd.pem "$haproxy" -c -f "$haproxy_cfg" >&2
		fail "haproxy -c -f docker/haproxy.cfg failed with TLS on"
	fi
else
	echo "test_docker: haproxy not installed: haproxy.cfg not checked by it"
fi

echo "test_docker: Dockerfile, compose.yml and the cluster's files check out (runtime: $have)"
