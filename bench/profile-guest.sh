#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/profile-guest.sh OUTDIR: the measurements of bench/profile.sh,
# inside one test host. For the in-tree rpcrdma and for xrpcrdma in
# drop-in mode (each as server and client), each workload of `make bench`
# runs once under `perf record -a` (every CPU, 999 samples a second):
# a 1 MiB sequential write and read, 4 KiB random read and write and a
# metadata load over an NFSv3 mount, and RPC NULL at concurrency 16
# (rdmactl bench). For each, OUTDIR gets TRANSPORT.WORKLOAD.samples
# (every sample's address and symbol, from perf script),
# TRANSPORT.WORKLOAD.modules (/proc/modules then: where each module's
# code lies, to tell whose each address is), TRANSPORT.WORKLOAD.sym
# (perf report by symbol, for reading) and TRANSPORT.WORKLOAD.out (what
# the workload printed). A workload that fails, or gives no samples,
# leaves TRANSPORT.WORKLOAD.error instead; a transport whose set-up or
# mount fails leaves TRANSPORT.error.
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

FIO=(fio --directory="$MNT" --direct=1 --ioengine=psync --output-format=terse)

# workload_cmd WORKLOAD: the command line of one workload, in CMD.
workload_cmd() {
	local FIO_ARGS

	case $1 in
	seq_write|seq_read) fio_workload "$1" && CMD=("${FIO[@]}" --name=sw "${FIO_ARGS[@]}") ;;
	rand_rw) fio_workload "$1" "$SECONDS_LOAD" &&
		CMD=("${FIO[@]}" --name=rr "${FIO_ARGS[@]}") ;;
	meta) CMD=("$METALOAD" -w 8 -t "$SECONDS_LOAD" "$MNT") ;;
	rpc_null) CMD=("$RDMACTL" -j bench run "$XR_ADDR:20049" transport rdma \
		count "$RPCS" concurrency 16) ;;
	esac
}

# profile TRANSPORT WORKLOAD: one workload under perf: its samples, the
# modules' places, perf's report by symbol.
profile() {
	local t=$1 w=$2 base=$OUT/$1.$2 CMD

	workload_cmd "$w"
	if ! timeout -k 5 "$XR_NFS_IO_TIMEOUT" perf record -q -a -F 999 -o "$PERF_DATA" -- \
			"${CMD[@]}" >"$base.out" 2>&1; then
		echo "perf record or the workload failed: $(tail -c 300 "$base.out")" >"$base.error"
		echo "# $t $w: failed"
		return
	fi
	cat /proc/modules >"$base.modules"
	perf script -i "$PERF_DATA" -F ip,sym 2>/dev/null >"$base.samples"
	perf report -i "$PERF_DATA" --sort sym --stdio 2>/dev/null | grep -v '^#' | grep . >"$base.sym"
	if ! [ -s "$base.samples" ]; then
		echo "perf gave no samples" >"$base.error"
		echo "# $t $w: no samples"
		return
	fi
	echo "# $t $w: $(wc -l <"$base.samples") samples"
}

# transport TRANSPORT: every workload over TRANSPORT.
transport() {
	local t=$1 w

	set_up "$t" || { echo "$t set-up failed" >"$OUT/$t.error"; return; }
	if ! nfs_mount 3 20049 "$MNT" >/dev/null; then
		echo "NFSv3 mount failed" >"$OUT/$t.error"
		return
	fi
	# The random I/O's file is laid out before, not while, it is profiled.
	"${FIO[@]}" --name=rr --rw=randrw --bs=4k --size=32M --create_only=1 >/dev/null ||
		echo "fio could not lay out the random I/O's file" >"$OUT/$t.rand_rw.error"
	for w in seq_write seq_read rand_rw meta; do
		[ -e "$OUT/$t.$w.error" ] || profile "$t" "$w"
	done
	rm -rf "${MNT:?}"/sw* "${MNT:?}"/rr* "${MNT:?}"/metaload.*
	nfs_umount "$MNT"
	profile "$t" rpc_null
}

transport in-tree
transport xrpcrdma
echo "# done in $SECONDS s"
