#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/guest.sh OUTDIR: the measurements of `make bench`, inside one test
# host (see bench/run.sh). Every figure of the three NFS transports is
# taken in this one guest run, so they can be compared:
#   tcp       nfsd's TCP listener and the in-kernel TCP client
#   in-tree   the in-tree rpcrdma (server and client)
#   xrpcrdma  xrpcrdma in drop-in mode (our server and our client)
# plus the soft-RoCE ceiling (RDMA Writes and Reads in the kernel from
# rdmactl bench, and perftest's ib_send_bw, ib_send_lat, and ib_write_bw
# and ib_read_bw over rdma_cm), RPC NULL rates at concurrency 1 and 16
# from the module's kernel-side benchmark (rdmactl bench) over all three,
# RPC NULL round trips from rdmactl ping against both RDMA servers, the
# kernel memory an idle server connection and an idle NFS mount (client
# and server ends) of each RDMA transport take with 16 and with 128 of
# them, and over each NFS mount fio's sequential and random I/O and a
# metadata load of many workers (xr-metaload). Results go to
# OUTDIR/raw.jsonl (one record per measurement and repetition); a step
# that fails is recorded with its error instead of a figure. Each
# repetition of the RPC and NFS figures measures the in-tree transport
# (and TCP) and xrpcrdma back to back, which goes first alternating, so
# that bench/report.py can compare them repetition by repetition.
#
# Knobs: XR_BENCH_REPS (3), XR_BENCH_SIZE_MB (256), XR_BENCH_RAND_S (5),
# XR_BENCH_VERS ("3 4.1"), XR_BENCH_PINGS (500), XR_BENCH_RPCS (5000 a
# bench run), XR_BENCH_CONNS ("16 128": the numbers of idle connections,
# and of mounts, the memory figures are taken with; the first is
# measured XR_BENCH_REPS times, the others once), XR_BENCH_META_S (10
# seconds of metadata load) and XR_BENCH_META_PROCS (8 workers).
set -u
# shellcheck source=selftests/nfs_lib.sh
source "$(dirname "$0")/../selftests/nfs_lib.sh"
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"

OUT=${1:?usage: guest.sh OUTDIR}
REPS=${XR_BENCH_REPS:-3}
SIZE_MB=${XR_BENCH_SIZE_MB:-256}
RAND_S=${XR_BENCH_RAND_S:-5}
VERS=${XR_BENCH_VERS:-3 4.1}
PINGS=${XR_BENCH_PINGS:-500}
RPCS=${XR_BENCH_RPCS:-5000}
CONNS=${XR_BENCH_CONNS:-16 128}
META_S=${XR_BENCH_META_S:-10}
META_PROCS=${XR_BENCH_META_PROCS:-8}
METALOAD=$XR_TOP/build/ctl/xr-metaload
MNT=$NFS_RUN/mnt/bench
RAW=$OUT/raw.jsonl
# The first of the nfsd ports the memory-per-mount figure mounts from.
MOUNT_PORT0=20100
# The bench is long: a stuck step ends by its own bound, not the guest's.
export XR_NFS_IO_TIMEOUT=$((120 + SIZE_MB))

need_env XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
command -v fio >/dev/null || skip_all "fio is not installed (make deps)"
[ -x "$METALOAD" ] || skip_all "xr-metaload is not built (make ctl)"
mkdir -p "$OUT" && : >"$RAW"
# What a failed workload said.
ERRS=$(mktemp)

# record KIND TRANSPORT VERS REP JSON-OBJECT
record() {
	printf '{"kind":"%s","transport":"%s","vers":"%s","rep":%s,"data":%s}\n' \
		"$1" "$2" "$3" "$4" "$5" >>"$RAW"
}

record_error() {
	local msg=${5//\"/\'}
	record "$1" "$2" "$3" "$4" "{\"error\":\"$msg\"}"
	echo "# $1 $2 vers=$3 rep=$4: $5"
}

cleanup() {
	rm -f "$ERRS"
	bench_restore "$MNT"
}
trap cleanup EXIT

# ---- soft-RoCE ceiling ----

# perftest TOOL ARGS...: server and client of one perftest tool on rxe0.
perftest() {
	local tool=$1 spid out

	shift
	timeout 60 "$tool" -d "$XR_RDMA_DEV" "$@" >/dev/null 2>&1 &
	spid=$!
	sleep 1
	out=$(timeout 60 "$tool" -d "$XR_RDMA_DEV" "$@" "$XR_ADDR" 2>&1)
	wait "$spid"
	echo "$out"
}

# ceiling_bw KIND REP TOOL ARGS...: TOOL's bandwidth with 1 MiB messages,
# recorded as KIND. perftest's MB/sec are MiB/s (2^20 bytes a second).
ceiling_bw() {
	local kind=$1 rep=$2 tool=$3 out bw

	shift 3
	out=$(perftest "$tool" -s 1048576 -F "$@")
	bw=$(echo "$out" | awk '$1 == 1048576 {print $4}')
	if [ -n "$bw" ]; then
		record "$kind" rxe - "$rep" "{\"mb_s\":$bw}"
	else
		record_error "$kind" rxe - "$rep" "no $tool result"
	fi
}

# Besides Sends on one QP, RDMA Writes and RDMA Reads on four QPs at once
# over rdma_cm, as NFS connects (one QP leaves a core idle under TCG
# while perftest busy-polls): what moves an NFS READ's payload (the
# server's RDMA Writes) and an NFS WRITE's (its RDMA Reads) at most.
# 64 messages each, 256 MiB in all. ib_read_bw waits for completion
# events (-e) instead of polling, which under TCG takes emulated CPU
# from rxe, as the kernel's completion handling does not; perftest has
# no events for RDMA Writes ("Events feature not available on WRITE
# verb"), so ib_write_bw polls and its ceiling stays low.
# ceiling_kernel KIND REP OP: the module's in-kernel ceiling (rdmactl
# bench, op rdma-write or rdma-read): 1 MiB messages on four QPs over
# rdma_cm, four in flight on each, 256 MiB in all, with completions
# handled in the kernel as the transports handle theirs and no user
# space process polling. This is the ceiling the sequential figures are
# set against; perftest's figures are kept beside it.
ceiling_kernel() {
	local kind=$1 rep=$2 op=$3 out bw

	module_loaded || insmod "$XR_MODULE"
	out=$("$RDMACTL" -j bench run "$XR_ADDR" op "$op" size 1M qps 4 count 256 \
		concurrency 4 2>&1)
	bw=$(echo "$out" | jq -r 'select(.status == 0) | .["bytes-per-sec"] / 1048576' 2>/dev/null)
	if [ -n "$bw" ]; then
		record "$kind" rxe - "$rep" "{\"mib_s\":$bw}"
	else
		record_error "$kind" rxe - "$rep" "rdmactl bench op $op: $(echo "$out" | tail -1)"
	fi
}

ceiling() {
	local rep out lat

	for rep in $(seq 1 "$REPS"); do
		ceiling_kernel kwrite_bw "$rep" rdma-write
		ceiling_kernel kread_bw "$rep" rdma-read
		ceiling_bw send_bw "$rep" ib_send_bw -n 200
		ceiling_bw write_bw "$rep" ib_write_bw -R -q 4 -n 64
		ceiling_bw read_bw "$rep" ib_read_bw -R -q 4 -n 64 -e
		out=$(perftest ib_send_lat -s 2 -n 1000 -F)
		lat=$(echo "$out" | awk '$1 == 2 {print $5}')
		if [ -n "$lat" ]; then
			record send_lat rxe - "$rep" "{\"typical_us\":$lat}"
		else
			record_error send_lat rxe - "$rep" "no ib_send_lat result"
		fi
	done
}

# ---- RPC NULL round trips (rdmactl ping, one call in flight) ----

ping_server() {
	local name=$1 port=$2 rep=$3 out

	if ! out=$(timeout 120 "$RDMACTL" ping -c "$PINGS" -i 0 "$XR_ADDR:$port"); then
		record_error rpc_null "$name" - "$rep" "rdmactl ping failed"
		return
	fi
	echo "$out" | awk -v k="$name" -v r="$rep" '
		/ time=/ { for (i = 1; i <= NF; i++) if ($i ~ /^time=/) {
			sub("time=", "", $i); v[n++] = $i } }
		END { printf "{\"kind\":\"rpc_null\",\"transport\":\"%s\",\"vers\":\"-\",", k
		      printf "\"rep\":%s,\"data\":{\"rtt_us\":[", r
		      for (i = 0; i < n; i++) printf "%s%s", (i ? "," : ""), v[i]
		      printf "]}}\n" }' >>"$RAW"
}

# ---- RPC NULL rates (rdmactl bench: the module's own RPC client) ----

# rpc_rate NAME TRANSPORT PORT REP: bench-run over TRANSPORT (tcp or
# rdma, the netid "rdma" being whichever RDMA transport is registered as
# such), at concurrency 1 and 16. A run that ends with an error status,
# or with calls that failed, is an error, not a figure.
rpc_rate() {
	local name=$1 t=$2 port=$3 rep=$4 c out

	for c in 1 16; do
		# stderr apart: the JSON stays whole, and no progress bar on
		# the console.
		if out=$(timeout 600 "$RDMACTL" -j bench run "$XR_ADDR:$port" \
				transport "$t" count "$RPCS" concurrency "$c" 2>"$ERRS") &&
		   jq -e '.status == 0 and .errors == 0' >/dev/null 2>&1 <<<"$out"; then
			record rpc_rate "$name" - "$rep" "$(jq -c . <<<"$out")"
		else
			record_error rpc_rate "$name" - "$rep" \
				"rdmactl bench (concurrency $c) failed: $(head -c 300 "$ERRS") $(head -c 300 <<<"$out")"
		fi
	done
}

# ---- memory of an idle server connection ----

# Kernel memory in use, KiB: what the kernel accounts to its own
# allocations (unreclaimable slab, large kmallocs included; vmalloc, where
# rxe keeps its queues; page tables; kernel stacks; per-CPU areas), after
# dropping what can be dropped. Not "all but free": pages parked on the
# page allocator's per-CPU lists are not free either, and their number
# moves by megabytes between two readings.
kernel_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '{ m[$1] = $2 }
	     END { print m["SUnreclaim:"] + m["VmallocUsed:"] + m["PageTables:"] \
		   + m["SecPageTables:"] + m["KernelStack:"] + m["Percpu:"] }' /proc/meminfo
}

qp_count() {
	rdma resource show qp 2>/dev/null | wc -l
}

qps_at_least() {
	[ "$(qp_count)" -ge "$1" ]
}

qps_at_most() {
	[ "$(qp_count)" -le "$1" ]
}

# conn_reps N: how often the memory figures with N peers are taken: the
# first of CONNS REPS times; the others once, their figure being an
# average over more connections already, and 128 mounts taking minutes.
conn_reps() {
	local first

	read -r first _ <<<"$CONNS"
	if [ "$1" = "$first" ]; then echo "$REPS"; else echo 1; fi
}

# nfsd closes the oldest of its connections beyond a limit: 64 of those
# that have not used a file handle yet (6.12), or, in kernels without
# that change, 20 a thread and 60 more of all (140 with 4 threads). Idle
# ping peers never use one: 128 of them were cut to 64 on 6.12. The
# memory steps raise the limit for their peers (nfsd_conn_limit N) and
# put the one before back (nfsd_conn_limit).
NFSD_MAXCONN=/proc/fs/nfsd/max_connections
NFSD_MAXCONN_SAVED=
nfsd_conn_limit() {
	if [ $# -eq 0 ]; then
		[ -z "$NFSD_MAXCONN_SAVED" ] || echo "$NFSD_MAXCONN_SAVED" >"$NFSD_MAXCONN"
		NFSD_MAXCONN_SAVED=
		return
	fi
	[ -n "$NFSD_MAXCONN_SAVED" ] || NFSD_MAXCONN_SAVED=$(cat "$NFSD_MAXCONN")
	echo "$1" >"$NFSD_MAXCONN"
}

# mem_server NAME PORT: for each N of CONNS, N rdmactl ping peers each
# open a connection, make one call and then sit idle; the growth of kernel
# memory over N is one idle connection's share. It includes the peers'
# own QPs and CQs (the same for both servers).
mem_server() {
	local name=$1 port=$2 n rep qps base after pids i

	for n in $CONNS; do
		nfsd_conn_limit $((n + 32))
		for rep in $(seq 1 "$(conn_reps "$n")"); do
			qps=$(qp_count)
			base=$(kernel_kib)
			pids=()
			# Killed once measured: the second call never comes.
			for i in $(seq 1 "$n"); do
				timeout 900 "$RDMACTL" ping -c 2 -i 600 -t 60 "$XR_ADDR:$port" \
					>/dev/null 2>&1 &
				pids+=($!)
			done
			if ! wait_for 120 qps_at_least $((qps + 2 * n)); then
				record_error mem_idle "$name" - "$rep" \
					"$(($(qp_count) - qps)) QPs of $((2 * n)): not every one of $n peers connected"
			else
				sleep 3
				after=$(kernel_kib)
				record mem_idle "$name" - "$rep" \
					"{\"kib_per_conn\":$(((after - base) / n)),\"conns\":$n}"
			fi
			kill "${pids[@]}" 2>/dev/null
			wait "${pids[@]}" 2>/dev/null
			wait_for 60 qps_at_most "$qps"
		done
		nfsd_conn_limit
	done
}

# mem_mount NAME: for each N of CONNS, N NFSv3 mounts, each from an nfsd
# port of its own so that each has its own client transport, make one
# call (a listing) and sit idle; the growth of kernel memory over N is
# one idle mount's share. Both ends are in this guest: it is a client
# transport, a server connection and NFS's own objects for the mount (the
# last the same for both transports); with mem_idle (a server
# connection) it tells the client's share. 128 in-tree mounts take some
# 920 MiB of the guest's 2 GiB (7.2 MiB each on 6.12), and about 90 s
# to mount.
mem_mount() {
	local name=$1 max=0 n rep base after i got

	for n in $CONNS; do
		[ "$n" -gt "$max" ] && max=$n
	done
	for i in $(seq 1 "$max"); do
		if ! nfs_listen rdma $((MOUNT_PORT0 + i)) >/dev/null; then
			record_error mem_mount "$name" - 0 "nfsd refused rdma $((MOUNT_PORT0 + i))"
			return
		fi
	done
	for n in $CONNS; do
		nfsd_conn_limit $((n + 32))
		for rep in $(seq 1 "$(conn_reps "$n")"); do
			base=$(kernel_kib)
			got=0
			for i in $(seq 1 "$n"); do
				nfs_mount 3 $((MOUNT_PORT0 + i)) "$NFS_RUN/mem-$i" nolock >/dev/null &&
					ls "$NFS_RUN/mem-$i" >/dev/null && got=$((got + 1))
			done
			if [ "$got" -ne "$n" ]; then
				record_error mem_mount "$name" - "$rep" "$got of $n mounts"
			else
				sleep 3
				after=$(kernel_kib)
				record mem_mount "$name" - "$rep" \
					"{\"kib_per_mount\":$(((after - base) / n)),\"mounts\":$n}"
			fi
			umount_mem "$n"
		done
		nfsd_conn_limit
	done
}

# umount_mem N: unmount mem-1 to mem-N, eight at a time: each waits for
# its transport to close, and the waits overlap (mounting does not gain
# so: it keeps the guest's CPUs busy).
umount_mem() {
	local i pids=()

	for i in $(seq 1 "$1"); do
		nfs_umount "$NFS_RUN/mem-$i" >/dev/null &
		pids+=($!)
		if [ ${#pids[@]} -eq 8 ] || [ "$i" -eq "$1" ]; then
			wait "${pids[@]}"
			pids=()
		fi
	done
}

# ---- NFS with fio ----

# metaload_run: xr-metaload's metadata load on the mount, META_PROCS
# workers for META_S seconds; its JSON on stdout, its error on stderr.
# It removes its files, unless it failed.
metaload_run() {
	local rc=0

	timeout $((META_S + 120)) "$METALOAD" -w "$META_PROCS" -t "$META_S" "$MNT" || rc=$?
	[ $rc -eq 0 ] && return 0
	[ $rc -ne 124 ] || echo "xr-metaload: no result in $((META_S + 120)) s" >&2
	timeout -k 5 60 rm -rf "$MNT"/metaload.*
	return $rc
}

# workload KIND: one workload on the mount, its figures as JSON on
# stdout, or why it failed on stderr.
workload() {
	local json FIO_ARGS

	case $1 in
	meta) metaload_run; return ;;
	rand_rw) fio_workload "$1" "$RAND_S" && json=$(fio_run rr "${FIO_ARGS[@]}") ;;
	*) fio_workload "$1" && json=$(fio_run sw "${FIO_ARGS[@]}") ;;
	esac || { echo "fio failed" >&2; return 1; }
	echo "$json" | fio_figures || { echo "fio gave no figures" >&2; return 1; }
}

# nfs_figures TRANSPORT VERS REP: sequential write, then read after a fresh
# mount (no cache), then 4 KiB random read and write, then the metadata
# load. Over RDMA each record carries what its workload did to the
# mount's transport counters (xprt_counters).
nfs_figures() {
	local t=$1 v=$2 rep=$3 kind json x0 x

	for kind in seq_write seq_read rand_rw meta; do
		x0=$(xprt_counters "$MNT")
		if json=$(workload "$kind" 2>"$ERRS"); then
			if [ -n "$x0" ] &&
			   x=$(with_xprt_delta "$x0" "$(xprt_counters "$MNT")" "$json"); then
				json=$x
			fi
			record "$kind" "$t" "$v" "$rep" "$json"
		else
			record_error "$kind" "$t" "$v" "$rep" \
				"$(head -c 300 "$ERRS" | tr -c '[:print:]' ' ')"
		fi
	done
}

# mount_for TRANSPORT VERS
mount_for() {
	local t=$1 v=$2 src opts

	case "$v" in
	3) src=$XR_ADDR:$NFS_EXPORT ;;
	*) src=$XR_ADDR:/ ;;
	esac
	case "$t" in
	tcp) opts=vers=$v,proto=tcp ;;
	*) opts=vers=$v,proto=rdma,port=20049 ;;
	esac
	mkdir -p "$MNT"
	timeout -k 5 "$NFS_OP_TIMEOUT" mount -t nfs -o "$opts" "$src" "$MNT"
}

# nfs_transport TRANSPORT REP: the NFS figures of each version, one
# repetition.
nfs_transport() {
	local t=$1 rep=$2 v

	for v in $VERS; do
		if ! mount_for "$t" "$v"; then
			record_error seq_write "$t" "$v" "$rep" "mount failed"
			continue
		fi
		nfs_figures "$t" "$v" "$rep"
		rm -f "$MNT"/sw* "$MNT"/rr*
		nfs_umount "$MNT"
	done
}

# ---- the repetitions ----

# set_up_failed TRANSPORT REP KIND...: the set-up for TRANSPORT failed:
# an error for each KIND of figure it would have given.
set_up_failed() {
	local t=$1 rep=$2 kind

	shift 2
	for kind in "$@"; do
		record_error "$kind" "$t" - "$rep" "set-up failed"
	done
}

# speed TRANSPORT REP: one repetition of TRANSPORT's RPC rates, round
# trips (RDMA) and NFS figures; TCP's with the in-tree set-up's.
speed() {
	local t=$1 rep=$2

	echo "# $t: repetition $rep (at $SECONDS s)"
	if ! set_up "$t"; then
		set_up_failed "$t" "$rep" rpc_rate rpc_null seq_write
		[ "$t" = in-tree ] && set_up_failed tcp "$rep" rpc_rate seq_write
		return
	fi
	if [ "$t" = in-tree ]; then
		rpc_rate tcp tcp 2049 "$rep"
		nfs_transport tcp "$rep"
	fi
	rpc_rate "$t" rdma 20049 "$rep"
	ping_server "$t" 20049 "$rep"
	nfs_transport "$t" "$rep"
}

# memory TRANSPORT: its idle server connection's and idle mount's memory.
memory() {
	echo "# $1: memory (at $SECONDS s)"
	if ! set_up "$1"; then
		set_up_failed "$1" 0 mem_idle mem_mount
		return
	fi
	mem_server "$1" 20049
	mem_mount "$1"
}

echo "# ceiling (at $SECONDS s)"
ceiling
# The host's speed drifts over minutes, by a third on a bad day: each
# repetition measures both RDMA transports back to back, in turn first,
# so that the ratio of each repetition compares like with like.
for rep in $(seq 1 "$REPS"); do
	if [ $((rep % 2)) -eq 1 ]; then
		speed in-tree "$rep"
		speed xrpcrdma "$rep"
	else
		speed xrpcrdma "$rep"
		speed in-tree "$rep"
	fi
done
memory in-tree
memory xrpcrdma
echo "# done: $(wc -l <"$RAW") records in $SECONDS s"
