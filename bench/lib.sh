# SPDX-License-Identifier: GPL-2.0
# bench/lib.sh: what bench/guest.sh and bench/ab-guest.sh share, in the
# test host. Sourced after selftests/nfs_lib.sh; the caller sets MNT (the
# mount point fio runs in) and XR_NFS_IO_TIMEOUT (its bound).

BLOCK=/etc/modprobe.d/xr-bench.conf
# nfsd takes 1 MiB calls, as it does by default with 4 GiB of memory or
# more (a 2 GiB test host would get 512 KiB): fio's 1 MiB blocks go in
# one call each wherever the transport allows.
# shellcheck disable=SC2034 # nfs_lib.sh's nfs_server_start reads it
NFS_MAX_BLOCK=${XR_BENCH_MAX_BLOCK:-1048576}

# xrpcrdma_setup [MODULE [NAME VALUE...]]: xrpcrdma (MODULE, else
# XR_MODULE) alone in drop-in mode, those tunables set, rpcrdma kept out,
# nfsd listening on it at port 20049.
xrpcrdma_setup() {
	nfs_server_stop || return 1
	wait_for 30 rmmod xrpcrdma
	# The in-tree client lets go of its module from a work item.
	if [ -d /sys/module/rpcrdma ]; then
		wait_for 30 rmmod rpcrdma || return 1
	fi
	echo "install rpcrdma /bin/false" >"$BLOCK"
	insmod "${1:-$XR_MODULE}" mode=dropin || return 1
	[ "$(module_mode)" = dropin ] || return 1
	if [ $# -gt 1 ]; then
		"$RDMACTL" config set "${@:2}" || return 1
	fi
	nfs_server_start && nfs_listen rdma 20049
}

# intree_setup: the in-tree rpcrdma, nfsd listening on it at port 20049,
# and xrpcrdma (XR_MODULE) side by side: its netlink family runs the
# benchmark, the netid "rdma" is the in-tree rpcrdma's. rpcrdma first:
# with xrpcrdma in drop-in mode its init fails and modprobe still
# reports success. nfsd lets go of xrpcrdma in drop-in mode
# (xrpcrdma_setup's) when it stops.
intree_setup() {
	nfs_server_stop || return 1
	if module_loaded && [ "$(module_mode)" != sidebyside ]; then
		wait_for 30 rmmod xrpcrdma || return 1
	fi
	rm -f "$BLOCK"
	load_rpcrdma || return 1
	module_loaded || insmod "$XR_MODULE" mode=sidebyside || return 1
	[ "$(module_mode)" = sidebyside ] || return 1
	nfs_server_start && nfs_listen rdma 20049
}

# set_up TRANSPORT: intree_setup for in-tree, xrpcrdma_setup for
# xrpcrdma (TCP is measured with either).
# shellcheck disable=SC2119 # xrpcrdma_setup: the module of XR_MODULE
set_up() {
	case $1 in
	in-tree) intree_setup ;;
	xrpcrdma) xrpcrdma_setup ;;
	esac
}

# bench_restore MNT: on the way out, leave the guest as the runner left
# it: MNT unmounted, nfsd stopped, rpcrdma no longer blocked, xrpcrdma
# (XR_MODULE) loaded in its default mode if it was not loaded.
bench_restore() {
	nfs_is_mounted "$1" && umount -f -l "$1"
	nfs_server_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}

# xprt_counters MNT: the RPC-over-RDMA counters of the mount on MNT, from
# its xprt line in /proc/self/mountstats (the same fields for the
# in-tree client and ours), as JSON: calls sent, segments offered in
# Read lists, Write chunks and Reply chunks (each one registered memory
# region, and one RDMA Read or Write for the server), and calls sent as
# RDMA_NOMSG. Nothing for a mount that is not RDMA.
xprt_counters() {
	awk -v mnt="$1" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" && $2 == "rdma" {
			printf "{\"rpcs\":%d,\"read_segs\":%d,\"write_segs\":%d,", $8, $13, $14
			printf "\"reply_segs\":%d,\"nomsg_calls\":%d}\n", $15, $23
			exit
		}' /proc/self/mountstats
}

# with_xprt_delta BEFORE AFTER JSON: JSON with "xprt", the growth of each
# xprt_counters field from BEFORE to AFTER.
with_xprt_delta() {
	jq -c --argjson a "$1" --argjson b "$2" \
		'. + {xprt: ($b | with_entries(.value -= $a[.key]))}' <<<"$3"
}

# fio_workload KIND SECONDS: the fio options of a bench workload, in
# FIO_ARGS: seq_write and seq_read, SIZE_MB MiB in 1 MiB calls (the
# write ends with an fsync; the read reads the file the write wrote,
# under the same job name), rand_rw, 4 KiB random reads and writes one
# at a time for SECONDS. One definition for make bench, bench/ab.sh and
# bench/profile.sh, so that they measure the same thing.
fio_workload() {
	# shellcheck disable=SC2034 # the caller's array, by name
	case $1 in
	seq_write) FIO_ARGS=(--rw=write --bs=1M --size="${SIZE_MB}M" --end_fsync=1) ;;
	seq_read) FIO_ARGS=(--rw=read --bs=1M --size="${SIZE_MB}M") ;;
	rand_rw) FIO_ARGS=(--rw=randrw --bs=4k --size=32M --time_based --runtime="$2" \
		--iodepth=1) ;;
	*) echo "fio_workload: no workload $1" >&2; return 1 ;;
	esac
}

# fio_run NAME ARGS...: one fio job on the mount, its JSON on stdout.
fio_run() {
	local name=$1

	shift
	timeout "$XR_NFS_IO_TIMEOUT" fio --name="$name" --directory="$MNT" --direct=1 \
		--ioengine=psync --output-format=json "$@" 2>/dev/null
}

# fio_figures JSON: {"read_mib_s":..,"write_mib_s":..,"read_iops":..,"write_iops":..}
fio_figures() {
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(json.dumps({"read_mib_s": j["read"]["bw"] / 1024, "write_mib_s": j["write"]["bw"] / 1024,
                  "read_iops": j["read"]["iops"], "write_iops": j["write"]["iops"]}))'
}
