#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The server transport with nfsd: the module is reloaded side by side with
# the in-tree rpcrdma (which the NFS client needs), drop-in mode is refused
# while rpcrdma is loaded, and NFS mounts through "xrdma 20050" write and
# read back data and list a directory: NFSv3 with 1 KiB rsize/wsize, so
# every message is inline (the client may still offer a Reply chunk for
# calls whose reply could be large; the server answers inline when the
# reply fits); NFSv3 and NFSv4.1 at default sizes, with data in Read and
# Write chunks and listings in Reply chunks. Over NFSv4.1 a delegation is
# recalled through the backchannel (callbacks on the client's connection).
# With an inline-send that is no multiple of 1024, listings whose replies
# are just above the size the server advertised come back whole on the
# same connection. Then the RDMA device is deleted in the middle of a
# transfer and added back: the connection goes away cleanly, the client
# reconnects, and the data written is intact. NFSv4.2 with nconnect=2:
# a sparse file read back and its holes found, a server-side copy,
# fallocate and user extended attributes (nfs42_checks). Afterwards
# every transport object is gone.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV
need_rdmactl

reload_side_by_side() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod"; return 1; }
	fi
	load_rpcrdma || return 1
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside"
}

dropin_refused() {
	rmmod xrpcrdma || { fail "rmmod"; return 1; }
	if insmod "$XR_MODULE" mode=dropin 2>/dev/null; then
		fail "mode=dropin loaded beside rpcrdma"
		return 1
	fi
	dmesg | tail -n 20 | grep -q "drop-in mode: an rdma transport is already registered" ||
		{ fail "no clear message in the kernel log"; return 1; }
	if insmod "$XR_MODULE" mode=nosuchmode 2>/dev/null; then
		fail "mode=nosuchmode loaded"
		return 1
	fi
	insmod "$XR_MODULE" mode=sidebyside || { fail "insmod mode=sidebyside"; return 1; }
	[ "$(module_mode)" = sidebyside ]
}

# Small I/O: every message inline, no data in chunks.
nfs_inline_through_xrdma() {
	XR_NFS_CLASS=xrdma XR_NFS_PORT=20050 XR_NFS_VERS=3 \
		XR_NFS_OPTS=rsize=1024,wsize=1024 XR_NFS_INLINE_DATA=1 \
		XR_NFS_SIZE_MB=${XR_SVC_NFS_SIZE_MB:-2} \
		XR_NFS_DIRENTS=${XR_SVC_NFS_DIRENTS:-200} \
		"$(dirname "$0")/nfs_rdma.sh" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# Default sizes: WRITE data in Read chunks, READ data in Write chunks,
# large directory listings in Reply chunks.
nfs_chunks_through_xrdma() {
	XR_NFS_CLASS=xrdma XR_NFS_PORT=20050 XR_NFS_VERS="3 4.1" \
		XR_NFS_SIZE_MB=${XR_SVC_NFS_CHUNK_MB:-64} \
		XR_NFS_DIRENTS=${XR_SVC_NFS_CHUNK_DIRENTS:-2000} \
		"$(dirname "$0")/nfs_rdma.sh" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

# After the mounts above: replies went inline, with their payload in
# Write chunks (READ) and whole in Reply chunks (READDIR), and the data of
# WRITEs came by RDMA Read.
reply_kinds_counted() {
	local c

	# remote-invs: the in-tree client allows Send With Invalidate, and
	# its calls with one chunk offer one region.
	for c in replies-inline replies-write-chunk replies-reply-chunk rdma-read-bytes \
		rdma-write-bytes remote-invs; do
		echo "# $c $(server_counter "$c")"
		[ "$(server_counter "$c")" -gt 0 ] || fail "$c is 0" || return 1
	done
	[ "$(server_counter bad-headers)" -eq 0 ] || fail "bad headers from the in-tree client"
}

MNT=$NFS_RUN/mnt-removal
DMNT=$NFS_RUN/mnt-deleg
M42=$NFS_RUN/mnt-v42
LEASE_BREAK=/proc/sys/fs/lease-break-time
LEASE_BREAK_ORIG=$(cat $LEASE_BREAK)

delegation_recall() {
	local f=deleg.txt rc=0

	# lockd's grace period holds delegations back: keep it short.
	modprobe lockd && echo 10 >/proc/sys/fs/nfs/nlm_grace_period ||
		fail "setting lockd's grace period" || return 1
	nfs_server_start && nfs_listen xrdma 20050 || return 1
	echo first >"$NFS_EXPORT/$f" || fail "writing $f on the server" || return 1
	nfs_mount 4.1 20050 "$DMNT" || { nfs_server_stop; return 1; }
	nfs_recall_on_local_write "$DMNT" "$f" || rc=1
	echo "$LEASE_BREAK_ORIG" >$LEASE_BREAK
	nfs_umount "$DMNT" || rc=1
	nfs_server_stop || rc=1
	return $rc
}

IMNT=$NFS_RUN/mnt-inline
INLINE_READ=/proc/sys/sunrpc/rdma_max_inline_read
# What the case found, put back by the case (and by cleanup if it is
# cut short): rpcrdma is loaded by the first case, not before.
INLINE_READ_ORIG=
INLINE_SEND_ORIG=

# The listings of inline_send_as_advertised: one READDIR each of 160 to
# 180 short names (5.3 to 6 KB) when the client asks for 64 KiB at
# once (6.12), a second one of that size after 4 KiB first (280 to 300).
INLINE_DIRS="160 170 180 280 290 300"

# An inline-send that is no multiple of 1024 (6000): RFC 8797 private
# data carries 5120, and the in-tree client, told so, makes the
# Receive buffers it adds 5120 bytes long (its rdma_max_inline_read is
# 8192 here). The server sends no more than it advertised: listings
# whose READDIR replies (NFSv3 without READDIRPLUS) are between 5 and
# 6 KB come back in the Reply chunks the client offers, not in Sends
# its Receives cannot hold (a length error, a reconnect, the same reply
# again, for ever).
inline_send_as_advertised() {
	local n got conns rc=0

	INLINE_READ_ORIG=$(cat $INLINE_READ) && [ -n "$INLINE_READ_ORIG" ] ||
		fail "no $INLINE_READ" || return 1
	INLINE_SEND_ORIG=$(config_value inline-send)
	"$RDMACTL" config set inline-send 6000 || fail "config set inline-send 6000" || return 1
	echo 8192 >$INLINE_READ || fail "rdma_max_inline_read 8192" || rc=1
	[ "$rc" -eq 0 ] && { nfs_server_start && nfs_listen xrdma 20050 || rc=1; }
	# In the export, which the server's start mounts.
	for n in $INLINE_DIRS; do
		[ "$rc" -eq 0 ] || break
		rm -rf "$NFS_EXPORT/inline-$n"
		nfs_make_entries "$NFS_EXPORT/inline-$n" "$n" ||
			fail "creating $n entries on the server" || rc=1
	done
	[ "$rc" -eq 0 ] && { nfs_mount 3 20050 "$IMNT" nordirplus || rc=1; }
	if [ "$rc" -eq 0 ]; then
		conns=$(nfs_xprt_field "$IMNT" 5)
		for n in $INLINE_DIRS; do
			got=$(nfs_count_entries "$IMNT/inline-$n")
			[ "${got:-0}" -eq "$n" ] ||
				fail "listed ${got:-none} entries of inline-$n, expected $n" || rc=1
		done
		[ "$(nfs_xprt_field "$IMNT" 5)" = "$conns" ] ||
			fail "mountstats connects $conns -> $(nfs_xprt_field "$IMNT" 5)" || rc=1
		echo "# replies-reply-chunk $(server_counter replies-reply-chunk)"
		nfs_umount "$IMNT" || rc=1
	fi
	nfs_server_stop || rc=1
	for n in $INLINE_DIRS; do
		rm -rf "$NFS_EXPORT/inline-$n"
	done
	echo "$INLINE_READ_ORIG" >$INLINE_READ || rc=1
	[ "$(cat $INLINE_READ)" = "$INLINE_READ_ORIG" ] ||
		fail "rdma_max_inline_read not put back to $INLINE_READ_ORIG" || rc=1
	"$RDMACTL" config set inline-send "$INLINE_SEND_ORIG" || rc=1
	INLINE_READ_ORIG=
	INLINE_SEND_ORIG=
	return $rc
}

# svc-xprt objects alive: the listener plus one per connection.
svc_xprts() {
	live_objects svc-xprt
}

cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_is_mounted "$M42" && umount -f -l "$M42"
	nfs_is_mounted "$DMNT" && umount -f -l "$DMNT"
	nfs_is_mounted "$IMNT" && umount -f -l "$IMNT"
	[ -z "$INLINE_READ_ORIG" ] || echo "$INLINE_READ_ORIG" >$INLINE_READ
	[ -z "$INLINE_SEND_ORIG" ] || "$RDMACTL" config set inline-send "$INLINE_SEND_ORIG"
	echo "$LEASE_BREAK_ORIG" >$LEASE_BREAK
	nfs_server_stop >/dev/null 2>&1
	"$RDMA" link show "$XR_RDMA_DEV/1" >/dev/null 2>&1 ||
		"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV"
}
trap cleanup EXIT

# Delete the device while a transfer runs, wait for the server's connection
# to go, add the device back; the client reconnects and the transfer ends.
# @listeners: svc-xprt objects that are listeners (nfsd listens on IPv4
# and IPv6, so usually two).
removal_during_transfer() {
	local src=$1 sum=$2 listeners=$3 pid got rc=0

	timeout -k 5 300 dd if="$src" of="$MNT/removal.bin" bs=64k conv=fsync status=none &
	pid=$!
	wait_for 60 test -s "$MNT/removal.bin" || { fail "the transfer did not start"; return 1; }
	"$RDMA" link delete "$XR_RDMA_DEV" || { fail "rdma link delete"; return 1; }
	wait_for 30 eval '[ "$(svc_xprts)" -eq "$listeners" ]' ||
		{ fail "the connection outlived its device: svc-xprt $(svc_xprts)"; return 1; }
	"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV" ||
		{ fail "rdma link add"; return 1; }
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || { fail "the transfer failed after the device came back: $rc"; return 1; }
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/removal.bin" 4)
	[ "$got" = "$sum" ] || { fail "sha256 $got, expected $sum"; return 1; }
}

device_removal_mid_transfer() {
	local src=$NFS_RUN/removal.bin sum listeners rc=0

	nfs_server_start && nfs_listen xrdma 20050 || return 1
	# Connections of the earlier tests are gone: only listeners are left.
	wait_for 30 eval '[ "$(svc_xprts)" -le 2 ]' ||
		{ fail "svc-xprt $(svc_xprts) before mounting"; nfs_server_stop; return 1; }
	listeners=$(svc_xprts)
	nfs_mount 3 20050 "$MNT" rsize=1024,wsize=1024 || { nfs_server_stop; return 1; }
	sum=$(nfs_random_file "$src" 4) || rc=1
	if [ "$rc" -eq 0 ] && [ "$(svc_xprts)" -ne $((listeners + 1)) ]; then
		fail "svc-xprt $(svc_xprts) with one mount, expected $((listeners + 1))"
		rc=1
	fi
	if [ "$rc" -eq 0 ]; then
		removal_during_transfer "$src" "$sum" "$listeners" || rc=1
	fi
	nfs_umount "$MNT" || rc=1
	nfs_server_stop || rc=1
	return $rc
}

# The in-tree client mounts NFSv4.2 (a mount's default version) from our
# server, with two connections (nconnect).
v42_mount() {
	nfs_server_start && nfs_listen xrdma 20050 || return 1
	nfs_mount 4.2 20050 "$M42" nconnect=2
}

v42_done() {
	local rc=0

	nfs_umount "$M42" || rc=1
	nfs_server_stop || rc=1
	return $rc
}

no_transport_left() {
	wait_for 30 transports_released ||
		fail "live objects left: $("$RDMACTL" -j module show)"
}

ktap_header 15
run_test reload_side_by_side reload_side_by_side
run_test dropin_refused_beside_rpcrdma dropin_refused
run_test nfs3_inline_through_xrdma nfs_inline_through_xrdma
run_test nfs3_nfs41_chunks_through_xrdma nfs_chunks_through_xrdma
run_test every_reply_kind_counted reply_kinds_counted
run_test nfs41_delegation_recall delegation_recall
run_test inline_send_as_advertised inline_send_as_advertised
run_test device_removal_mid_transfer device_removal_mid_transfer
run_test v42_mount_xrdma v42_mount
nfs42_checks v42 "$M42" svc
run_test v42_umount_server_stop v42_done
run_test no_transport_left no_transport_left
ktap_finish
