#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NFS over RDMA end to end in one test-host guest: nfsd listens on an RPC
# transport class, the in-kernel client (rpcrdma) mounts it with
# proto=rdma, and for each NFS version a file written through the mount
# reads back with the same SHA-256 after the page cache is dropped, and a
# directory's entries all list after a remount.
#
# By default the server side is the in-kernel one (rpcrdma, "rdma 20049"),
# which proves the harness; XR_NFS_CLASS/XR_NFS_PORT point it at another
# server transport. Environment:
#   XR_NFS_CLASS    transport class nfsd listens on (default rdma)
#   XR_NFS_PORT     its port (default 20049)
#   XR_NFS_VERS     NFS versions to mount, in turn (default "3 4.1")
#   XR_NFS_SIZE_MB  size of the data file, MiB (default 16)
#   XR_NFS_DIRENTS  directory entries to create and list (default 2000)
#   XR_NFS_OPTS     extra mount options, e.g. rsize=1024,wsize=1024
#   XR_NFS_INLINE_DATA=1  also check that no data moved in RDMA chunks
#                   (no Read or Write list: rsize/wsize small enough). The
#                   client still offers a Reply chunk for any call whose
#                   reply might not fit inline (every NFSv4 OPEN): those
#                   are counted, not checked.
# and those of nfs_lib.sh.
set -u
source "$(dirname "$0")/nfs_lib.sh"

CLASS=${XR_NFS_CLASS:-rdma}
PORT=${XR_NFS_PORT:-20049}
VERS=${XR_NFS_VERS:-3 4.1}
SIZE_MB=${XR_NFS_SIZE_MB:-16}
DIRENTS=${XR_NFS_DIRENTS:-2000}
OPTS=${XR_NFS_OPTS:-}
INLINE_DATA=${XR_NFS_INLINE_DATA:-0}
MNT=$NFS_RUN/mnt

need_env XR_TESTHOST XR_ADDR
nfs_need_server

cleanup() {
	nfs_server_stop >/dev/null 2>&1
}
trap cleanup EXIT

server_start() {
	# rpcrdma is the client transport, and the in-kernel server's "rdma".
	load_rpcrdma || return 1
	nfs_server_start
}

# Before a umount: the chunk counters of the mount's transport as a
# comment, added up over the version's mounts in chunks_seen; with
# XR_NFS_INLINE_DATA=1 a test case of their own.
chunks_seen=
show_chunks() {
	local c r w p
	local -a sum

	c=$(nfs_rdma_chunks "$MNT")
	echo "# RDMA chunks (read write reply) $1: ${c:-none}"
	[ -n "$c" ] || return 0
	read -r r w p <<<"$c"
	[ -n "$chunks_seen" ] || chunks_seen="0 0 0"
	read -r -a sum <<<"$chunks_seen"
	chunks_seen="$((sum[0] + r)) $((sum[1] + w)) $((sum[2] + p))"
}

inline_data() {
	local r w p

	[ -n "$chunks_seen" ] || fail "no RDMA transport statistics" || return 1
	read -r r w p <<<"$chunks_seen"
	[ "$r" -eq 0 ] && [ "$w" -eq 0 ] || fail "data chunks: $r read, $w write"
}

# One version: mount, data, directory, umount. The rest of a version's
# cases are skipped when the server is not up or the mount is gone.
test_version() {
	local v=$1 data=write_read_${SIZE_MB}M_v$1 dir=readdir_${DIRENTS}_v$1

	if [ "$server_up" = 1 ]; then
		run_test "mount_v$v" nfs_mount "$v" "$PORT" "$MNT" "$OPTS"
	else
		log_test 4 "mount_v$v"
	fi
	if ! nfs_is_mounted "$MNT"; then
		log_test 4 "$data"
		log_test 4 "$dir"
		[ "$INLINE_DATA" = 1 ] && log_test 4 "inline_data_v$v"
		log_test 4 "umount_v$v"
		return
	fi
	chunks_seen=
	run_test "$data" nfs_write_verify "$MNT" "$SIZE_MB" "data-v$v"
	run_test "$dir" readdir_check "$v"
	show_chunks "(listing)"
	[ "$INLINE_DATA" = 1 ] && run_test "inline_data_v$v" inline_data
	run_test "umount_v$v" nfs_umount "$MNT"
}

# N entries created, then counted after a remount (so READDIR goes over
# the wire).
readdir_check() {
	local v=$1 dir=dir-v$1 n rc=0

	nfs_make_entries "$MNT/$dir" "$DIRENTS" || rc=$?
	show_chunks "(data, creating the entries)"
	[ $rc -eq 0 ] || fail "creating $DIRENTS entries: $rc" || return 1
	nfs_umount "$MNT" || fail "umount for the remount" || return 1
	nfs_mount "$v" "$PORT" "$MNT" "$OPTS" || fail "remount" || return 1
	n=$(nfs_count_entries "$MNT/$dir") || fail "listing $dir" || return 1
	[ "$n" -eq "$DIRENTS" ] || fail "$dir lists $n entries, expected $DIRENTS"
}

nfsd_threads_running() {
	[ "$(nfsd_threads)" -gt 0 ]
}

server_stop() {
	nfs_server_stop || return 1
	[ "$(nfsd_threads)" -eq 0 ] || fail "nfsd threads left"
}

read -r -a vers_list <<<"$VERS"
per=4
[ "$INLINE_DATA" = 1 ] && per=5
ktap_header $((3 + per * ${#vers_list[@]}))
echo "# server: $CLASS $PORT; versions: $VERS; $SIZE_MB MiB; $DIRENTS entries; opts: ${OPTS:-none}"
server_up=0
run_test server_start server_start
if nfsd_threads_running; then
	run_test "listen_${CLASS}_$PORT" nfs_listen "$CLASS" "$PORT"
	nfs_portlist_has "$CLASS" "$PORT" && server_up=1
else
	log_test 4 "listen_${CLASS}_$PORT"
fi
for v in "${vers_list[@]}"; do
	test_version "$v"
done
run_test server_stop server_stop
ktap_finish
