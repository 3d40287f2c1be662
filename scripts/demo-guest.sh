#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo-guest.sh - what `make demo` runs inside the test host: NFS moving
# over xrpcrdma. It loads the module (its dependencies first, then the
# module in drop-in mode), starts nfsd with xrpcrdma's listener, mounts
# NFSv4.1 with proto=rdma (xrpcrdma's client, in drop-in mode), copies a
# file onto the mount and reads it back, and shows what moved: the
# transports' counters, RPC NULL round trips (rdmactl ping), the event
# stream (rdmactl monitor) and the module's RPC benchmark over RDMA and
# over TCP. Every step prints the command it runs.
#
# Exits non-zero, with "demo: FAILED: ..." as its last line, when a step
# fails, the data read back differs from what was written, or the
# counters show no traffic through xrpcrdma's client and server.
#
# Environment: XR_DEMO_MODULE (the xrpcrdma.ko for the running kernel),
# XR_ADDR and XR_RDMA_DEV (the test host's), XR_DEMO_MIB (size of the
# file, MiB, default 16), XR_DEMO_RPCS (calls per benchmark, default 2000).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# Commands print as an administrator types them: rdmactl from PATH.
export PATH=$top/build/ctl:$PATH
RDMACTL=rdmactl
# shellcheck source=selftests/nfs_lib.sh
source "$top/selftests/nfs_lib.sh"

KO=${XR_DEMO_MODULE:?XR_DEMO_MODULE: the module to load}
MIB=${XR_DEMO_MIB:-16}
RPCS=${XR_DEMO_RPCS:-2000}
PORT=20049
MNT=$NFS_RUN/mnt/demo
DEMO=$NFS_RUN/demo
MON_PID=

die() {
	echo "demo: FAILED: $*"
	exit 1
}

say() {
	echo
	echo "== $*"
}

# show CMD...: print the command, run it; a failure ends the demo.
show() {
	local rc=0

	echo "\$ $*"
	"$@" || rc=$?
	[ "$rc" -eq 0 ] || die "'$*' exited $rc"
}

# show_sh CMDLINE: the same for a command line with redirections.
show_sh() {
	echo "\$ $1"
	bash -c "$1" || die "'$1' exited $?"
}

cleanup() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	module_loaded && rmmod xrpcrdma 2>/dev/null
}
trap cleanup EXIT

# snapshot FILE: the counters of every transport of ours and the
# module-wide server counters, as one JSON object.
snapshot() {
	{
		echo '{"transports":'
		rdmactl -j transport show
		echo ',"server":'
		rdmactl -j stats show
		echo '}'
	} >"$1"
}

# moved BEFORE AFTER: print the counters that moved from one snapshot to
# the other (transports by id, then the server's module-wide counters);
# fails unless our client sent RPCs and our server received calls.
moved() {
	python3 - "$1" "$2" <<'EOF'
import json
import sys

before, after = (json.load(open(f)) for f in sys.argv[1:3])
old = {t["id"]: t.get("stats", {}) for t in before["transports"]}
client_rpcs = 0
for t in after["transports"]:
    if "stats" not in t:
        continue
    d = {k: v - old.get(t["id"], {}).get(k, 0) for k, v in t["stats"].items()
         if isinstance(v, int)}
    d = {k: v for k, v in d.items() if v}
    if not d:
        continue
    print("%d: %s (%s:%s): %s" % (t["id"], t["role"], t.get("peer_addr", "-"),
                                  t.get("peer_port", "-"),
                                  " ".join("%s +%d" % kv for kv in d.items())))
    if t["role"] == "client":
        client_rpcs += d.get("rpcs-sent", 0)
s0, s1 = before["server"]["server"], after["server"]["server"]
d = {k: v - s0.get(k, 0) for k, v in s1.items() if v - s0.get(k, 0)}
print("server (module-wide): %s" % " ".join("%s +%d" % kv for kv in d.items()))
calls = d.get("calls-received", 0)
print("xrpcrdma's client sent %d RPCs, its server received %d calls"
      % (client_rpcs, calls))
sys.exit(0 if client_rpcs > 0 and calls > 0 else 1)
EOF
}

# ops FILE: the calls a second of a `bench run` result.
ops() {
	sed -n 's/.* ops\/s \([0-9]*\).*/\1/p' "$1" | head -n 1
}

[ "$(id -u)" -eq 0 ] || die "needs root (run it through make demo)"
missing=$(nfs_missing_tools)
[ -z "$missing" ] || die "missing: ${missing//$'\n'/ }"
mkdir -p "$DEMO"
echo "kernel $(uname -r); soft-RoCE device $XR_RDMA_DEV on $XR_NETDEV ($XR_ADDR)"

say "load xrpcrdma: its dependencies, then the module in drop-in mode"
# shellcheck disable=SC2046 # modinfo's list, one module a word
show modprobe -a $(modinfo -F depends "$KO" | tr , ' ')
show insmod "$KO" mode=dropin
show rdmactl module show
[ "$(module_mode)" = dropin ] || die "mode $(module_mode), expected dropin"
show rdmactl dev show

say "start nfsd, exporting a tmpfs, and its RDMA listener through xrpcrdma"
echo "\$ nfs_server_start   # selftests/nfs_lib.sh: rpcbind, rpc.mountd, rpc.statd, nfsdcld, rpc.nfsd $NFS_THREADS"
nfs_server_start >"$DEMO/nfsd.log" 2>&1 || { cat "$DEMO/nfsd.log"; die "nfsd did not start"; }
show rdmactl listener add
show cat /proc/fs/nfsd/portlist

say "watch the module's events"
echo "\$ rdmactl monitor -t > $DEMO/monitor.log &"
rdmactl monitor -t >"$DEMO/monitor.log" 2>&1 &
MON_PID=$!
wait_for 5 rdmactl -j module show || die "no module"

say "mount NFSv4.1 over RDMA: xrpcrdma's client to xrpcrdma's server"
mkdir -p "$MNT"
show timeout 60 mount -t nfs -o vers=4.1,proto=rdma,port=$PORT "$XR_ADDR:/" "$MNT"
show findmnt -r -o SOURCE,FSTYPE,OPTIONS "$MNT"
show rdmactl transport show
snapshot "$DEMO/before.json"

say "copy a file onto the mount, read it back from the server, compare"
show dd if=/dev/urandom of="$NFS_DATA/file" bs=1M count="$MIB" status=none
show timeout 120 cp "$NFS_DATA/file" "$MNT/file"
show sync
show_sh "echo 3 > /proc/sys/vm/drop_caches   # the read-back comes from the server"
echo "\$ sha256sum $NFS_DATA/file $MNT/file"
want=$(nfs_sha256 "$NFS_DATA/file") || die "sha256sum $NFS_DATA/file"
got=$(timeout 120 sha256sum "$MNT/file" | cut -d' ' -f1) || die "sha256sum $MNT/file"
echo "$want  $NFS_DATA/file"
echo "$got  $MNT/file"
[ -n "$got" ] && [ "$got" = "$want" ] ||
	die "checksums differ: wrote $want, read $got"
echo "checksums match: $MIB MiB went to the server and came back intact"
snapshot "$DEMO/after.json"

say "the transports, and the counters the copy moved"
show rdmactl -d transport show
show rdmactl stats show
echo "counters that moved during the copy:"
moved "$DEMO/before.json" "$DEMO/after.json" ||
	die "the counters show no traffic through xrpcrdma's client and server"

say "RPC NULL round trips from userspace (rdmactl ping, its own RPC/RDMA client)"
show rdmactl ping -c 5 "$XR_ADDR:$PORT"

say "the module's kernel-side RPC benchmark: xrpcrdma's client over RDMA, then TCP"
echo "\$ rdmactl bench run $XR_ADDR transport rdma port $PORT count $RPCS concurrency 16"
rdmactl bench run "$XR_ADDR" transport rdma port "$PORT" count "$RPCS" concurrency 16 \
	>"$DEMO/bench-rdma.txt" 2>&1 || { cat "$DEMO/bench-rdma.txt"; die "bench over rdma"; }
cat "$DEMO/bench-rdma.txt"
echo "\$ rdmactl bench run $XR_ADDR transport tcp count $RPCS concurrency 16"
rdmactl bench run "$XR_ADDR" transport tcp count "$RPCS" concurrency 16 \
	>"$DEMO/bench-tcp.txt" 2>&1 || { cat "$DEMO/bench-tcp.txt"; die "bench over tcp"; }
cat "$DEMO/bench-tcp.txt"
r=$(ops "$DEMO/bench-rdma.txt")
t=$(ops "$DEMO/bench-tcp.txt")
[ -n "$r" ] && [ -n "$t" ] && [ "$t" -gt 0 ] || die "no ops/s in the bench results"
echo "RPC NULL, 16 in flight: xrpcrdma $r calls/s, TCP $t calls/s," \
	"ratio $(awk -v r="$r" -v t="$t" 'BEGIN { printf "%.2f", r / t }')" \
	"(a TCG-emulated guest on soft-RoCE: the ratio, not the rates, carries over)"

say "what the monitor saw"
kill "$MON_PID" && wait "$MON_PID"
MON_PID=
show_sh "grep -v bench-progress $DEMO/monitor.log | head -n 8"
grep -q transport-connect "$DEMO/monitor.log" || die "the monitor saw no connection"

say "clean up"
show timeout 60 umount "$MNT"
echo "\$ nfs_server_stop"
nfs_server_stop >/dev/null 2>&1 || die "nfs_server_stop"
wait_for 30 objects_released || die "live objects left: $(rdmactl -j module show)"
show rmmod xrpcrdma
echo
echo "demo: ok: NFSv4.1 over xrpcrdma, $MIB MiB with matching sha256, counters moved"
