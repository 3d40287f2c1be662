#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/profile-guest.sh OUTDIR: the measurements of bench/profile.sh,
# inside one test host. For the in-tree rpcrdma and for xrpcrdma in
# drop-in mode (each as server and client), each workload of `make bench`
# runs once under `perf record -a` (every CPU, 999 samples a second):
# a 1 MiB sequential write and read, 4 KiB random read and write and a
# metadata load over an NFSv3 mount, and RPC NULL at concurrency 16
# (rdmactl bench). For each, OUTDIR gets TRANSPORT.WORKLOAD.sym (perf's
# samples by symbol) and TRANSPORT.WORKLOAD.kallsyms (the symbols of the
# modules loaded then, to tell whose each one is), and
# TRANSPORT.WORKLOAD.out (what the workload printed). A workload that
# fails leaves TRANSPORT.WORKLOAD.error instead.
#
# Knobs: XR_PROF_SIZE_MB (64: the sequential file), XR_PROF_SECONDS (5:
# the random I/O and the metadata load), XR_PROF_RPCS (10000).
set -u
# shellcheck source=selftests/nfs_lib.sh
source "$(dirname "$0")/../selftests/nfs_lib.sh"
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

OUT=${1:?usage: profile-guest.sh OUTDIR}
SIZE_MB=${XR_PROF_SIZE_MB:-64}
SECONDS_LOAD=${XR_PROF_SECONDS:-5}
RPCS=${XR_PROF_RPCS:-10000}
METALOAD=$XR_TOP/build/ctl/xr-metaload
MNT=$NFS_RUN/mnt/profile
PERF_DATA=$(mktemp)
export XR_NFS_IO_TIMEOUT=$((120 + SIZE_MB))

need_env XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
command -v perf >/dev/null || skip_all "perf is not installed (make deps)"
command -v fio >/dev/null || skip_all "fio is not installed (make deps)"
[ -x "$METALOAD" ] || skip_all "xr-metaload is not built (make ctl)"
mkdir -p "$OUT" "$MNT"

cleanup() {
	rm -f "$PERF_DATA"
	bench_restore "$MNT"
}
trap cleanup EXIT

# workload_cmd WORKLOAD: the command line of one workload.
workload_cmd() {
	local fio=(fio --directory="$MNT" --direct=1 --ioengine=psync --output-format=terse)

	case $1 in
	seq_write) echo "${fio[@]}" --name=sw --rw=write --bs=1M --size="${SIZE_MB}M" --end_fsync=1 ;;
	seq_read) echo "${fio[@]}" --name=sw --rw=read --bs=1M --size="${SIZE_MB}M" ;;
	rand_rw) echo "${fio[@]}" --name=rr --rw=randrw --bs=4k --size=32M --time_based \
		--runtime="$SECONDS_LOAD" ;;
	meta) echo "$METALOAD" -w 8 -t "$SECONDS_LOAD" "$MNT" ;;
	rpc_null) echo "$RDMACTL" -j bench run "$XR_ADDR:20049" transport rdma \
		count "$RPCS" concurrency 16 ;;
	esac
}

# profile TRANSPORT WORKLOAD: one workload under perf, its samples by
# symbol and the modules' symbols.
profile() {
	local t=$1 w=$2 base=$OUT/$1.$2

	# shellcheck disable=SC2046 # the command line, word by word
	if ! timeout -k 5 "$XR_NFS_IO_TIMEOUT" perf record -q -a -F 999 -o "$PERF_DATA" -- \
			$(workload_cmd "$w") >"$base.out" 2>&1; then
		echo "perf record or the workload failed: $(tail -c 300 "$base.out")" >"$base.error"
		echo "# $t $w: failed"
		return
	fi
	perf report -i "$PERF_DATA" --sort sym --stdio 2>/dev/null | grep -v '^#' | grep . >"$base.sym"
	grep '\[[a-z0-9_]*\]$' /proc/kallsyms >"$base.kallsyms"
	echo "# $t $w: $(wc -l <"$base.sym") symbols"
}

# transport TRANSPORT: every workload over TRANSPORT.
transport() {
	local t=$1 w

	set_up "$t" || { echo "$t set-up failed" >"$OUT/$t.error"; return; }
	if ! nfs_mount 3 20049 "$MNT" >/dev/null; then
		echo "NFSv3 mount failed" >"$OUT/$t.error"
		return
	fi
	for w in seq_write seq_read rand_rw meta; do
		profile "$t" "$w"
	done
	rm -rf "${MNT:?}"/sw* "${MNT:?}"/rr* "${MNT:?}"/metaload.*
	nfs_umount "$MNT"
	profile "$t" rpc_null
}

transport in-tree
transport xrpcrdma
echo "# done in $SECONDS s"
