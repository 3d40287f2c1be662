#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The server's guest dies under load, across two test-host guests
# (testhost/pair.sh): guest A is the NFS client, through our client
# (xrpcrdma in drop-in mode); guest B the NFS server, nfsd over our
# server, exporting an ext4 file system whose image file lives in the
# directory both guests see, so that it outlives B.
#
#  1. A mounts NFSv3 (hard) and writes a first file, fsync'd, which reads
#     back with its SHA-256.
#  2. A writes a second file with O_DIRECT and, once that is under way,
#     has the host kill B: its QEMU quits at once, with no shutdown and
#     no disconnect, as if the power went. The host boots B again.
#  3. B's second life recovers the file system from its journal and
#     serves the same export on the same port. A's client gives up on
#     the dead connection, connects to the new server (the mount's
#     connect count grows) and the write completes: what the first life
#     acknowledged only as unstable is sent again, since the server's
#     write verifier changed.
#  4. Both files read back with the SHA-256 they were written with. A
#     unmounts and unloads xrpcrdma with every object released; B's
#     second life stops nfsd, and the test host unloads the module.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ROLE XR_ADDR XR_PEER_ADDR XR_PAIR_DIR XR_RDMA_DEV
need_rdmactl
nfs_need_server
command -v mkfs.ext4 >/dev/null || skip_all "missing: mkfs.ext4"

PORT=20050
FIRST_MB=${XR_RESTART_FIRST_MB:-16}
SECOND_MB=${XR_RESTART_SECOND_MB:-64}
IMAGE=$XR_PAIR_DIR/pair-export.img
IMAGE_MB=256
# The client's retransmit timeout (tenths of a second) and reconnect
# backoff (ms): it finds the dead server and the new one quickly.
TIMEO=30
RECONNECT_MIN_MS=1000
RECONNECT_MAX_MS=4000
# Bound on waiting for the other guest's step; B's second life boots
# and starts nfsd within it.
STEP_WAIT=300
MNT=$NFS_RUN/mnt-restart
BLOCK=/etc/modprobe.d/xr-restart.conf
SUM_FIRST=
SUM_SECOND=

# ---- A: the client ----

a_load_dropin() {
	load_dropin "$BLOCK" || return 1
	"$RDMACTL" config set reconnect-min "$RECONNECT_MIN_MS" reconnect-max "$RECONNECT_MAX_MS" ||
		fail "config set reconnect-min/max"
}

a_mount() {
	XR_NFS_SERVER=$XR_PEER_ADDR nfs_mount 3 "$PORT" "$MNT" \
		"nolock,hard,timeo=$TIMEO,retrans=2"
}

# a_write_first: a file written and fsync'd before the kill.
a_write_first() {
	local src=$NFS_DATA/first got

	SUM_FIRST=$(nfs_random_file "$src" "$FIRST_MB") || fail "cannot make $src" || return 1
	nfs_write_file "$src" "$MNT/first" "$FIRST_MB" || fail "writing first" || return 1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/first" "$FIRST_MB") || fail "reading first back" || return 1
	[ "$got" = "$SUM_FIRST" ] || fail "first: sha256 $got, wrote $SUM_FIRST"
}

# a_write_across_restart: B is killed while the second file is being
# written with O_DIRECT; the write completes through its second life.
a_write_across_restart() {
	local src=$NFS_DATA/second before after pid rc=0 klines

	SUM_SECOND=$(nfs_random_file "$src" "$SECOND_MB") || fail "cannot make $src" || return 1
	before=$(nfs_xprt_field "$MNT" 5)
	klines=$(dmesg | wc -l)
	timeout -k 5 "$STEP_WAIT" dd if="$src" of="$MNT/second" bs=1M oflag=direct status=none &
	pid=$!
	wait_for 60 test -s "$MNT/second" || fail "the transfer did not start" || rc=1
	if [ "$rc" -eq 0 ]; then
		echo "# connects before the kill: $before"
		pair_restart B || rc=1
		# Else the kill proved nothing about writes in flight.
		kill -0 "$pid" 2>/dev/null || fail "the transfer ended before B was killed" || rc=1
	fi
	wait "$pid" || { fail "the transfer failed across the restart: $?"; rc=1; }
	[ "$rc" -eq 0 ] || return 1
	after=$(nfs_xprt_field "$MNT" 5)
	echo "# connects after: $after"
	dmesg | tail -n "+$((klines + 1))" | grep -E "nfs: server|xrpcrdma|rdma_rxe|rxe0" |
		sed 's/^/# kernel: /'
	[ "$after" -gt "$before" ] || fail "connect count $after, was $before: no reconnect"
}

# a_server_back: B's second life serves again, and has said so.
a_server_back() {
	pair_wait srv-up-2 "$STEP_WAIT"
}

# a_read_back: both files, from the server's second life.
a_read_back() {
	local got rc=0

	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/first" "$FIRST_MB") || fail "reading first" || return 1
	[ "$got" = "$SUM_FIRST" ] || fail "first: sha256 $got, wrote $SUM_FIRST" || rc=1
	got=$(nfs_read_sha256 "$MNT/second" "$SECOND_MB") || fail "reading second" || return 1
	[ "$got" = "$SUM_SECOND" ] || fail "second: sha256 $got, wrote $SUM_SECOND" || rc=1
	return $rc
}

a_unload() {
	unload_clean || return 1
	rm -f "$BLOCK"
	insmod "$XR_MODULE" || fail "insmod again"
}

a_cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	rm -f "$BLOCK" "$NFS_DATA/first" "$NFS_DATA/second"
	module_loaded || insmod "$XR_MODULE"
}

role_a() {
	trap a_cleanup EXIT
	mkdir -p "$NFS_DATA"
	ktap_header 9
	echo "# client guest A ($XR_ADDR), server guest B ($XR_PEER_ADDR)"
	run_test client_dropin a_load_dropin
	run_test wait_server pair_wait srv-up-1 "$STEP_WAIT"
	run_test mount_v3 a_mount
	if nfs_is_mounted "$MNT"; then
		run_test write_read_before_kill a_write_first
		run_test server_killed_mid_transfer a_write_across_restart
		run_test server_back a_server_back
		run_test data_after_restart a_read_back
		run_test umount nfs_umount "$MNT"
	else
		log_test 4 write_read_before_kill
		log_test 4 server_killed_mid_transfer
		log_test 4 server_back
		log_test 4 data_after_restart
		log_test 4 umount
	fi
	pair_signal cli-done
	run_test client_unload_clean a_unload
	ktap_finish
}

# ---- B: the server, killed once ----

# b_export NEW: mount the image (made afresh when NEW is 1) on the export.
b_export() {
	local dev

	if [ "$1" -eq 1 ]; then
		rm -f "$IMAGE"
		truncate -s "${IMAGE_MB}M" "$IMAGE" && mkfs.ext4 -q -F "$IMAGE" ||
			fail "mkfs.ext4 $IMAGE" || return 1
	fi
	modprobe loop || fail "modprobe loop" || return 1
	dev=$(losetup -f --show "$IMAGE") || fail "losetup $IMAGE" || return 1
	mkdir -p "$NFS_EXPORT"
	mount -t ext4 "$dev" "$NFS_EXPORT" || fail "mount $dev" || return 1
	chmod 0777 "$NFS_EXPORT"
}

# b_serve LIFE: nfsd on our server, whichever mode the test host loaded
# the module in ("rdma" in drop-in mode, "xrdma" beside rpcrdma).
b_serve() {
	b_export "$1" && nfs_server_start && nfs_listen "$(b_class)" "$PORT"
}

b_class() {
	if [ "$(module_mode)" = dropin ]; then
		echo rdma
	else
		echo xrdma
	fi
}

# b_served: the second life's server took the rest of the write (RDMA
# Read) and sent the files back (RDMA Write).
b_served() {
	local c

	for c in rdma-read-bytes rdma-write-bytes; do
		echo "# $c $(server_counter "$c")"
		[ "$(server_counter "$c")" -gt 0 ] || fail "$c is 0" || return 1
	done
	! rpcrdma_loaded || fail "rpcrdma was loaded: not our server alone"
}

b_stop() {
	local dev

	nfs_server_stop || return 1
	[ "$(nfsd_threads)" -eq 0 ] || fail "nfsd threads left" || return 1
	for dev in $(losetup -j "$IMAGE" | cut -d: -f1); do
		losetup -d "$dev" || fail "losetup -d $dev" || return 1
	done
}

b_cleanup() {
	nfs_server_stop >/dev/null 2>&1
	losetup -j "$IMAGE" | cut -d: -f1 | xargs -r -n1 losetup -d
}

role_b() {
	local life status=ok

	life=$(pair_life)
	trap b_cleanup EXIT
	echo "# server guest B ($XR_ADDR), client guest A ($XR_PEER_ADDR), life $life"
	if [ "$life" -eq 1 ]; then
		# Killed during the wait, unless A failed before.
		ktap_header 3
		run_test server_start b_serve 1
		nfs_portlist_has "$(b_class)" "$PORT" 2>/dev/null || status=failed
		pair_signal srv-up-1 "$status"
		run_test wait_client_done pair_wait cli-done "$STEP_WAIT"
		run_test server_stop b_stop
		ktap_finish
	fi
	ktap_header 4
	run_test server_restart b_serve 2
	nfs_portlist_has "$(b_class)" "$PORT" 2>/dev/null || status=failed
	pair_signal srv-up-2 "$status"
	run_test wait_client_done pair_wait cli-done "$STEP_WAIT"
	run_test server_served b_served
	run_test server_stop b_stop
	ktap_finish
}

case "$XR_ROLE" in
A) role_a ;;
B) role_b ;;
*) skip_all "XR_ROLE is $XR_ROLE, not A or B" ;;
esac
