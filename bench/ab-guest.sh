#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/ab-guest.sh LABEL=MODULE[:NAME=VALUE...]...: the measurements
# of bench/ab.sh,
# inside one test host. Each round loads every module in turn, in
# drop-in mode (our server and our client), and takes the same figures
# with each: RPC NULL at concurrency 1 and 16 (rdmactl bench), 4 KiB
# random read and write and a sequential write and read over an NFSv3
# mount (fio), and a metadata load on it (xr-metaload). Alternating within each round spreads the host's drift
# over all the modules alike. A first pass, not counted, warms the guest
# up. Prints one line per figure and module:
#   ab ROUND LABEL FIGURE VALUE
# Knobs: XR_AB_ROUNDS (7), XR_AB_RPCS (20000 calls at concurrency 16;
# a quarter of that at 1), XR_AB_RAND_S (4), XR_AB_SIZE_MB (32),
# XR_AB_META_S (4 seconds of metadata load, 8 workers).
set -u
source "$(dirname "$0")/../selftests/nfs_lib.sh"
source "$(dirname "$0")/lib.sh"

ROUNDS=${XR_AB_ROUNDS:-7}
RPCS=${XR_AB_RPCS:-20000}
RAND_S=${XR_AB_RAND_S:-4}
SIZE_MB=${XR_AB_SIZE_MB:-32}
META_S=${XR_AB_META_S:-4}
METALOAD=$XR_TOP/build/ctl/xr-metaload
MNT=$NFS_RUN/mnt/ab
FIRST=
export XR_NFS_IO_TIMEOUT=$((120 + SIZE_MB))

need_env XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
command -v fio >/dev/null || skip_all "fio is not installed (make deps)"
[ -x "$METALOAD" ] || skip_all "xr-metaload is not built (make ctl)"
[ $# -ge 2 ] || { echo "usage: ab-guest.sh LABEL=MODULE LABEL=MODULE..." >&2; exit 2; }

# Leave the guest as the runner left it: the first module, default mode.
cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	wait_for 30 rmmod xrpcrdma
	rm -f "$BLOCK"
	insmod "$FIRST"
}
trap cleanup EXIT

# emit ROUND LABEL PREFIX: "ab" lines from the JSON object on stdin.
emit() {
	python3 -c '
import json, sys
for k, v in json.load(sys.stdin).items():
    print("ab %s %s %s%s %.1f" % (sys.argv[1], sys.argv[2], sys.argv[3], k, v))' "$@"
}

rpc_null() {
	local c=$1 n=$2

	# stderr through a pipe: no progress bar on the console, whose lines
	# the report reads, and the errors still shown.
	"$RDMACTL" -j bench run "$XR_ADDR:20049" transport rdma count "$n" concurrency "$c" \
		2> >(cat >&2) |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
if d["errors"] or d["status"]:
    sys.exit(1)
print(json.dumps({"ops_s": d["ops-per-sec"], "p50_us": d["lat-p50-ns"] / 1e3,
                  "p99_us": d["lat-p99-ns"] / 1e3}))'
}

# fio_job {rand_rw|seq_write|seq_read}: that workload's figures.
fio_job() {
	local kind=$1 json FIO_ARGS

	fio_workload "$kind" "$RAND_S" || return 1
	json=$(fio_run ab "${FIO_ARGS[@]}" | fio_figures) || return 1
	python3 -c '
import json, sys
j = json.loads(sys.argv[2])
fig = {"rand_rw": {"read_iops": j["read_iops"], "write_iops": j["write_iops"]},
       "seq_write": {"mib_s": j["write_mib_s"]},
       "seq_read": {"mib_s": j["read_mib_s"]}}
print(json.dumps(fig[sys.argv[1]]))' "$kind" "$json"
}

# measure ROUND LABEL: every figure with the module loaded now.
measure() {
	local r=$1 l=$2 j

	j=$(rpc_null 1 $((RPCS / 4))) && emit "$r" "$l" rpc_c1_ <<<"$j"
	j=$(rpc_null 16 "$RPCS") && emit "$r" "$l" rpc_c16_ <<<"$j"
	mkdir -p "$MNT"
	timeout -k 5 "$NFS_OP_TIMEOUT" mount -t nfs -o vers=3,proto=rdma,port=20049 \
		"$XR_ADDR:$NFS_EXPORT" "$MNT" || return 1
	j=$(fio_job rand_rw) && emit "$r" "$l" rand_ <<<"$j"
	j=$(fio_job seq_write) && emit "$r" "$l" seq_write_ <<<"$j"
	j=$(fio_job seq_read) && emit "$r" "$l" seq_read_ <<<"$j"
	rm -f "$MNT"/ab.*
	j=$(timeout $((META_S + 120)) "$METALOAD" -w 8 -t "$META_S" "$MNT" |
		python3 -c 'import json, sys; print(json.dumps({"ops_s": json.load(sys.stdin)["ops_s"]}))') &&
		emit "$r" "$l" meta_ <<<"$j"
	timeout -k 5 60 rm -rf "$MNT"/metaload.*
	nfs_umount "$MNT"
}

# setup MODULE[:NAME=VALUE...]: load MODULE in drop-in mode with those
# tunables set before nfsd listens and before the mount.
setup() {
	local ko=${1%%:*} cfg=${1#*:} set=()

	[ "$cfg" != "$1" ] && IFS=':=' read -ra set <<<"$cfg"
	xrpcrdma_setup "$ko" "${set[@]}"
}

FIRST=${1#*=}
FIRST=${FIRST%%:*}
# The first figures after boot are low: a pass that is not counted.
setup "${1#*=}" >/dev/null && measure 0 warmup >/dev/null
for r in $(seq 1 "$ROUNDS"); do
	for arg in "$@"; do
		label=${arg%%=*}
		if setup "${arg#*=}" >/dev/null; then
			measure "$r" "$label" || echo "ab $r $label error measuring"
		else
			echo "ab $r $label error loading ${arg#*=}"
		fi
	done
done
