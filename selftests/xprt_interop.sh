#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Interoperability of xrpcrdma with the in-tree RPC-over-RDMA transport,
# across two test-host guests (testhost/pair.sh): guest A is the NFS
# server, guest B the client; XR_ROLE says which one runs this. The two
# sides meet at barrier files in the directory both see.
#
#  1. A serves over the in-tree server (rpcrdma, "rdma 20049"); B mounts
#     through our client (xrpcrdma in drop-in mode): a 64 MiB random file
#     reads back with the same SHA-256, 1 MiB goes in one call each way
#     (rsize and wsize), 4 KiB reads back (our client must not expect
#     a reply inline that the in-tree server sends no larger than 4096
#     bytes), a 2000-entry directory lists
#     after a remount, mountstats parses the xprt line, and the in-tree
#     server invalidated regions with its replies (our client's
#     remote-invs). NFSv3 and NFSv4.1 (the versions in XPRT_VERS); then
#     NFSv4.2, a mount's default: 16 MiB round trip, a sparse file read
#     back and its holes found, a server-side copy, fallocate and user
#     extended attributes (nfs42_checks).
#  2. Still over that mount path, idle spells between small calls:
#     the client asks for a completion behind unsignaled Sends and
#     keeps the connection. Then an RPC timeout: B writes a file while
#     the host stops A's CPUs long enough for the client's RPC to time
#     out; A continues, our client disconnects and connects again (the
#     xprt line's connect count grows), and the file reads back intact.
#  3. B unloads xrpcrdma (every object released), and A adds our server
#     beside the in-tree one ("xrdma 20050"); B mounts it with the
#     in-tree client, NFSv3, NFSv4.1 and NFSv4.2, with the same checks.
#  4. Both unload xrpcrdma cleanly.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ROLE XR_ADDR XR_PEER_ADDR XR_PAIR_DIR XR_RDMA_DEV
need_rdmactl
nfs_need_server
command -v mountstats >/dev/null || skip_all "missing: mountstats"

INTREE_PORT=20049
OURS_PORT=20050
# NFS versions per client.
XPRT_VERS="3 4.1"
INTREE_VERS="3 4.1"
SIZE_MB=${XR_INTEROP_SIZE_MB:-64}
DIRENTS=${XR_INTEROP_DIRENTS:-2000}
# The RPC timeout case: the client's retransmit timeout (tenths of a
# second), how long A stands still (well past that, and short of the
# hung-task limit for the writer), and the file written meanwhile.
TIMEO=30
PAUSE_S=12
TIMEOUT_MB=64
# Bound on waiting for the other guest's step.
STEP_WAIT=600
MNT=$NFS_RUN/mnt-interop
# A's nfsd takes 1 MiB calls (not 512 KiB, its default in a 2 GiB guest).
# shellcheck disable=SC2034 # nfs_lib.sh's nfs_server_start reads it
NFS_MAX_BLOCK=1048576
BLOCK=/etc/modprobe.d/xr-interop.conf

mountstats_parses() {
	local out

	out=$(mountstats --xprt "$MNT" 2>&1) || { fail "mountstats: $out"; return 1; }
	echo "$out" | sed 's/^/# /' | grep -E "protocol|connect|segments|requests|replies"
	grep -q "Transport protocol: rdma" <<<"$out" || fail "no rdma transport in mountstats"
}

# readdir_large VERS PORT NAME: NAME (one per client and version: they
# share the export) gets the entries, is listed after a remount.
readdir_large() {
	local v=$1 port=$2 dir=$MNT/$3 n

	nfs_make_entries "$dir" "$DIRENTS" || fail "creating $DIRENTS entries" || return 1
	nfs_umount "$MNT" || fail "umount for the remount" || return 1
	nfs_mount "$v" "$port" "$MNT" nolock || fail "remount" || return 1
	n=$(nfs_count_entries "$dir") || fail "listing" || return 1
	[ "$n" -eq "$DIRENTS" ] || fail "dir lists $n entries, expected $DIRENTS"
}

# B: our client's counters after the transfer: every region was
# invalidated, some by the in-tree server's replies (the calls whose
# chunks are one region); no reply was dropped.
ours_client_counters() {
	local bad

	nfs_client_regions_released "$XR_PEER_ADDR" "$INTREE_PORT" || return 1
	bad=$(nfs_client_eval "$XR_PEER_ADDR" "$INTREE_PORT" '.stats["bad-replies"]')
	[ "$bad" = 0 ] || fail "bad-replies $bad"
}

# client_checks CLIENT VERS PORT: mount from A with CLIENT's transport
# (ours or intree), then data, directory, mountstats, umount. The cases
# after the mount are skipped when it failed.
client_checks() {
	local who=$1 v=$2 port=$3 t

	run_test "${who}_client_mount_v$v" nfs_mount "$v" "$port" "$MNT" nolock
	if ! nfs_is_mounted "$MNT"; then
		for t in "write_read_${SIZE_MB}M" full_size_io small_io \
			$([ "$who" = ours ] && echo counters) \
			"readdir_$DIRENTS" mountstats_xprt umount; do
			log_test 4 "${who}_client_${t}_v$v"
		done
		return
	fi
	run_test "${who}_client_write_read_${SIZE_MB}M_v$v" \
		nfs_write_verify "$MNT" "$SIZE_MB" "data-$who-v$v"
	run_test "${who}_client_full_size_io_v$v" \
		nfs_full_size_io "$MNT" 4 "full-$who-v$v"
	run_test "${who}_client_small_io_v$v" nfs_small_io "$MNT" "small-$who-v$v"
	[ "$who" = ours ] &&
		run_test "ours_client_counters_v$v" ours_client_counters
	run_test "${who}_client_readdir_${DIRENTS}_v$v" readdir_large "$v" "$port" "dir-$who-v$v"
	run_test "${who}_client_mountstats_xprt_v$v" mountstats_parses
	run_test "${who}_client_umount_v$v" nfs_umount "$MNT"
}

# client_v42 CLIENT PORT: NFSv4.2, the version a mount gets by default,
# through CLIENT's transport: a 16 MiB round trip, then the operations
# 4.2 adds (nfs42_checks).
client_v42() {
	local who=$1 port=$2 t

	run_test "${who}_client_mount_v4.2" nfs_mount 4.2 "$port" "$MNT" nolock
	if ! nfs_is_mounted "$MNT"; then
		for t in write_read_16M umount; do
			log_test 4 "${who}_client_v4.2_$t"
		done
		nfs42_checks "${who}_client_v4.2" "$MNT" "$who"
		return
	fi
	run_test "${who}_client_v4.2_write_read_16M" nfs_write_verify "$MNT" 16 "data-$who-v42"
	NFS42_SERVER_XATTRS=$(cat "$XR_PAIR_DIR/pair-srv-xattrs" 2>/dev/null) \
		nfs42_checks "${who}_client_v4.2" "$MNT" "$who"
	run_test "${who}_client_v4.2_umount" nfs_umount "$MNT"
}

# B: our client alone: rpcrdma unloaded and kept from loading, xrpcrdma
# in drop-in mode (its client registers as "rdma").
b_reload_dropin() {
	load_dropin "$BLOCK"
}

# B: a hard mount with a short timeout; a file written with O_DIRECT (so
# its WRITEs are on the wire throughout) while A stands still for
# PAUSE_S seconds. The client's RPC times out, it disconnects and
# connects again once A answers, and the write completes intact.
b_rpc_timeout() {
	local src=$NFS_DATA/timeout.bin sum got before after pid rc=0 klines

	nfs_mount 3 "$INTREE_PORT" "$MNT" "nolock,hard,timeo=$TIMEO,retrans=2" || return 1
	sum=$(nfs_random_file "$src" "$TIMEOUT_MB") || fail "cannot make $src" || return 1
	before=$(nfs_xprt_field "$MNT" 5)
	klines=$(dmesg | wc -l)
	timeout -k 5 300 dd if="$src" of="$MNT/timeout.bin" bs=1M oflag=direct status=none &
	pid=$!
	wait_for 60 test -s "$MNT/timeout.bin" || fail "the transfer did not start" || rc=1
	if [ "$rc" -eq 0 ]; then
		echo "# connects before the pause: $before"
		pair_pause A "$PAUSE_S" || rc=1
	fi
	wait "$pid" || { fail "the transfer failed across the pause: $?"; rc=1; }
	rm -f "$src"
	[ "$rc" -eq 0 ] || return 1
	after=$(nfs_xprt_field "$MNT" 5)
	echo "# connects after: $after"
	# What the NFS client, our module and soft-RoCE said meanwhile.
	dmesg | tail -n "+$((klines + 1))" | grep -E "nfs: server|xrpcrdma|rdma_rxe|rxe0" |
		sed 's/^/# kernel: /'
	[ "$after" -gt "$before" ] || fail "connect count $after, was $before: no reconnect" ||
		return 1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/timeout.bin" "$TIMEOUT_MB")
	[ "$got" = "$sum" ] || fail "sha256 $got, expected $sum" || return 1
	mountstats_parses
}

# B: our client with a Send asking for a completion every 16 and
# send-timeout 1000 ms, against the in-tree server: a few small writes
# and reads a little apart leave unsignaled Sends at the end of the
# queue each time, with nothing to say they went. The client asks for a
# completion behind them (a zero-length RDMA Write, which the in-tree
# server's queue pair takes) and keeps the connection: no reconnect, no
# stuck queue in the kernel log, the data intact.
b_idle_probe() {
	local sig timeout before after probes i rc=0
	local msg='the send queue made no progress'
	local logged

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	logged=$(dmesg | grep -c "$msg")
	"$RDMACTL" config set signal-interval 16 send-timeout 1000 || return 1
	nfs_mount 3 "$INTREE_PORT" "$MNT" nolock || rc=1
	before=$(nfs_xprt_field "$MNT" 5)
	trace_start sq_probe || rc=1
	for i in 1 2 3; do
		[ "$rc" -eq 0 ] || break
		echo "idle $i" >"$MNT/idle-$i" && sync "$MNT/idle-$i" ||
			fail "write $i" || rc=1
		sleep 2.5
	done
	probes=$(trace_stop sq_probe)
	nfs_drop_caches
	for i in 1 2 3; do
		[ "$(cat "$MNT/idle-$i" 2>/dev/null)" = "idle $i" ] ||
			fail "idle-$i does not read back" || rc=1
	done
	after=$(nfs_xprt_field "$MNT" 5)
	echo "# connects $before then $after; $probes completions asked for behind unsignaled Sends"
	rm -f "$MNT"/idle-*
	nfs_umount "$MNT" || rc=1
	"$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	[ "$after" = "$before" ] || fail "the client connected again" || rc=1
	[ "$probes" -ge 2 ] || fail "expected a probe after each idle spell" || rc=1
	[ "$(dmesg | grep -c "$msg")" -eq "$logged" ] ||
		fail "a healthy idle connection was taken for a stuck one" || rc=1
	return $rc
}

b_unload_ours() {
	unload_clean || return 1
	rm -f "$BLOCK"
}

b_intree_client() {
	load_rpcrdma
}

# B's end: rpcrdma goes, and xrpcrdma is loaded as the test host loaded
# it (it unloads it again and checks that).
b_finish() {
	rm -f "$BLOCK"
	if rpcrdma_loaded; then
		wait_for 30 rmmod rpcrdma || fail "rmmod rpcrdma" || return 1
	fi
	module_loaded || insmod "$XR_MODULE" || fail "insmod again"
}

b_cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}

role_b() {
	local v nvers_ours nvers_intree

	XR_NFS_SERVER=$XR_PEER_ADDR
	export XR_NFS_SERVER
	trap b_cleanup EXIT
	read -r -a nvers_ours <<<"$XPRT_VERS"
	read -r -a nvers_intree <<<"$INTREE_VERS"
	mkdir -p "$NFS_DATA"
	ktap_header $((23 + 8 * ${#nvers_ours[@]} + 7 * ${#nvers_intree[@]}))
	echo "# client guest B ($XR_ADDR), server guest A ($XR_PEER_ADDR)"
	run_test ours_client_dropin b_reload_dropin
	run_test wait_intree_server pair_wait srv-intree "$STEP_WAIT"
	for v in "${nvers_ours[@]}"; do
		client_checks ours "$v" "$INTREE_PORT"
	done
	client_v42 ours "$INTREE_PORT"
	run_test ours_client_idle_probe b_idle_probe
	run_test ours_client_rpc_timeout_reconnect b_rpc_timeout
	run_test ours_client_umount nfs_umount "$MNT"
	run_test ours_client_unload b_unload_ours
	pair_signal cli-ours-done

	run_test intree_client_load b_intree_client
	run_test wait_ours_server pair_wait srv-ours "$STEP_WAIT"
	for v in "${nvers_intree[@]}"; do
		client_checks intree "$v" "$OURS_PORT"
	done
	client_v42 intree "$OURS_PORT"
	pair_signal cli-intree-done
	run_test client_finish b_finish
	ktap_finish
}

# A: nfsd over the in-tree server alone (xrpcrdma unloaded).
a_intree_server() {
	if module_loaded; then
		rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
	fi
	load_rpcrdma || return 1
	nfs_server_start && nfs_listen rdma "$INTREE_PORT"
}

# A: our server beside the in-tree one, nfsd listening on both.
a_ours_server() {
	insmod "$XR_MODULE" || fail "insmod" || return 1
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside" ||
		return 1
	nfs_listen xrdma "$OURS_PORT"
}

# A: our server carried the in-tree client's calls: replies of every
# kind, data by RDMA Read and Write, replies that invalidated the
# client's region, no header it could not parse.
a_ours_served() {
	local c

	for c in replies-inline replies-write-chunk replies-reply-chunk rdma-read-bytes \
		rdma-write-bytes remote-invs; do
		echo "# $c $(server_counter "$c")"
		[ "$(server_counter "$c")" -gt 0 ] || fail "$c is 0" || return 1
	done
	[ "$(server_counter bad-headers)" -eq 0 ] || fail "bad headers from the in-tree client"
}

a_server_stop() {
	nfs_server_stop || return 1
	[ "$(nfsd_threads)" -eq 0 ] || fail "nfsd threads left"
}

a_finish() {
	unload_clean || return 1
	wait_for 30 rmmod rpcrdma || fail "rmmod rpcrdma" || return 1
	insmod "$XR_MODULE" || fail "insmod again"
}

a_cleanup() {
	nfs_server_stop >/dev/null 2>&1
	module_loaded || insmod "$XR_MODULE"
}

role_a() {
	local status=ok xattrs

	trap a_cleanup EXIT
	ktap_header 7
	echo "# server guest A ($XR_ADDR), client guest B ($XR_PEER_ADDR)"
	run_test intree_server_start a_intree_server
	nfs_portlist_has rdma "$INTREE_PORT" 2>/dev/null || status=failed
	# Whether the export takes user extended attributes (nfs42_xattrs).
	xattrs=$(nfs42_local_xattrs) || xattrs=unknown
	pair_signal srv-xattrs "$xattrs"
	pair_signal srv-intree "$status"
	run_test wait_ours_client_done pair_wait cli-ours-done "$STEP_WAIT"
	status=ok
	run_test ours_server_start a_ours_server
	nfs_portlist_has xrdma "$OURS_PORT" 2>/dev/null || status=failed
	pair_signal srv-ours "$status"
	run_test wait_intree_client_done pair_wait cli-intree-done "$STEP_WAIT"
	run_test ours_server_served a_ours_served
	run_test server_stop a_server_stop
	run_test server_unload a_finish
	ktap_finish
}

case "$XR_ROLE" in
A) role_a ;;
B) role_b ;;
*) skip_all "XR_ROLE is '$XR_ROLE', not A or B" ;;
esac
