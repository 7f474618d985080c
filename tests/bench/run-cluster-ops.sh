#!/bin/sh
# run-cluster-ops.sh BUILD_DIR [MATCHES] -- Redis per move between two
# nodes: a redis-server and two tttd --redis on loopback ports, then
# cluster-ops.py; everything stopped at the end.
set -eu
# No accounts: no tttd.db left behind (unless TTTD_DB says).
TTTD_DB=${TTTD_DB-none}
export TTTD_DB
build=${1:?usage: run-cluster-ops.sh BUILD_DIR [MATCHES]}
n=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
rport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
    >/dev/null 2>&1 &
rpid=$!
trap 'kill $apid $bpid $rpid 2>/dev/null || true' EXIT
sleep 0.5
"$build/server/tttd" --port 0 --http-port 0 --bind 127.0.0.1 \
    --redis "127.0.0.1:$rport" --node a >/tmp/cluster-ops-a.out 2>/dev/null &
apid=$!
"$build/server/tttd" --port 0 --http-port 0 --bind 127.0.0.1 \
    --redis "127.0.0.1:$rport" --node b >/tmp/cluster-ops-b.out 2>/dev/null &
bpid=$!
sleep 1.5
pa=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' /tmp/cluster-ops-a.out)
pb=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' /tmp/cluster-ops-b.out)
python3 -u "$here/cluster-ops.py" "$rport" "$pa $pb" "$n"
