#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The resource corners of the fault matrix, each under NFS load through
# the in-tree client mounting our server side by side ("xrdma 20050"),
# and each checked by the SHA-256 of everything it wrote:
#   tiny_send_queue    the least send queue (32) and 4 send contexts,
#                      16 credits and 16 nfsd threads: parallel readers
#                      make senders wait for a context (sendctx-waits
#                      grows), and every reply still arrives on the
#                      connection its call came on;
#   starved_send_queue a send queue sized for one nfsd thread, then 16
#                      threads answering 8 parallel O_DIRECT readers of
#                      a whole file each: every slot
#                      taken (sq-starves grows), and the calls that came
#                      meanwhile are still answered on their connection;
#   credit_exhaustion  4 credits against 8 parallel writers: the client
#                      queues behind the credits, nothing deadlocks;
#   transports_32      32 rdmactl ping peers connected at once while a
#                      copy runs: every call of every peer is answered;
#   unload_under_load  rmmod is refused while a copy runs, and succeeds
#                      once the mount and nfsd are gone.
# After each case no connection object is left. The module is reloaded
# side by side at the end, so every tunable is back at its default.
#
# Knobs: XR_STRESS_MB (MiB a file, default 8), XR_STRESS_PEERS (32).
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
nfs_need_server

MIB=${XR_STRESS_MB:-8}
PEERS=${XR_STRESS_PEERS:-32}
PORT=20050
MNT=$NFS_RUN/mnt-stress
# nfsd's two listeners (IPv4, IPv6) are svc-xprt objects with no connection.
LISTENERS=2
PEER_LOG=$(mktemp -d)
OUT=$PEER_LOG/out
ERR=$PEER_LOG/err

cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	rm -rf "$PEER_LOG"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

reload_side_by_side() {
	nfs_server_stop || { fail "stopping nfsd"; return 1; }
	if module_loaded; then
		wait_for 30 rmmod xrpcrdma || { fail "rmmod xrpcrdma"; return 1; }
	fi
	load_rpcrdma || return 1
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside"
}

server_up() {
	mkdir -p "$NFS_DATA"
	nfs_server_start && nfs_listen xrdma $PORT || return 1
	LISTENERS=$(live_objects svc-xprt)
}

# The connections of our server now.
server_conns() {
	"$RDMACTL" -j transport show | jq '[.[] | select(.role == "server-connection")] | length'
}

# make_files N: N random files of MIB MiB in NFS_DATA, stress-1..N, each
# with its SHA-256 beside it.
make_files() {
	local i

	for i in $(seq 1 "$1"); do
		nfs_random_file "$NFS_DATA/stress-$i" "$MIB" >"$NFS_DATA/stress-$i.sum" ||
			{ fail "cannot make stress-$i"; return 1; }
	done
}

# parallel_copy N: copy stress-1..N onto the mount at once.
parallel_copy() {
	local i pids=() rc=0

	for i in $(seq 1 "$1"); do
		nfs_write_file "$NFS_DATA/stress-$i" "$MNT/stress-$i" "$MIB" &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || { fail "copy of stress-$((i + 1))"; rc=1; }
	done
	return $rc
}

# parallel_verify N [direct]: read stress-1..N back at once from an empty
# page cache (with direct: each with O_DIRECT in one call) and compare
# each with the SHA-256 it was written with.
parallel_verify() {
	local i pids=() rc=0

	nfs_drop_caches
	for i in $(seq 1 "$1"); do
		if [ -n "${2:-}" ]; then
			direct_sha256 "$MNT/stress-$i" >"$NFS_DATA/stress-$i.got" &
		else
			nfs_read_sha256 "$MNT/stress-$i" "$MIB" >"$NFS_DATA/stress-$i.got" &
		fi
		pids+=($!)
	done
	# By PID: the NFS daemons are this shell's background jobs too.
	wait "${pids[@]}"
	for i in $(seq 1 "$1"); do
		cmp -s "$NFS_DATA/stress-$i.sum" "$NFS_DATA/stress-$i.got" ||
			{ fail "stress-$i: sha256 $(cat "$NFS_DATA/stress-$i.got"), wrote $(cat "$NFS_DATA/stress-$i.sum")"; rc=1; }
	done
	return $rc
}

# direct_sha256 FILE: FILE read with O_DIRECT in one call of MIB MiB
# (every READ of it in flight at once), its SHA-256.
direct_sha256() {
	local sum rest

	read -r sum rest < <(timeout -k 5 "$(nfs_io_timeout "$MIB")" dd if="$1" bs="${MIB}M" \
		iflag=direct status=none | sha256sum)
	echo "$sum"
}

# finish_case: remove the files, unmount, and wait for every connection
# object to go away.
finish_case() {
	local rc=0

	rm -f "$MNT"/stress-* "$NFS_DATA"/stress-*
	nfs_umount "$MNT" || rc=1
	wait_for 30 transports_released "$LISTENERS" ||
		fail "live objects left: $("$RDMACTL" -j module show)" || rc=1
	return $rc
}

# load_case N: mount (new tunables take effect on the new connection),
# copy N files at once, remount, read them back at once.
load_case() {
	local n=$1 rc=0 conn

	make_files "$n" || return 1
	nfs_mount 3 $PORT "$MNT" || return 1
	conn=$(nfs_newest_conn)
	parallel_copy "$n" || rc=1
	same_conn "$conn" copy || rc=1
	nfs_umount "$MNT" || rc=1
	nfs_mount 3 $PORT "$MNT" || return 1
	conn=$(nfs_newest_conn)
	parallel_verify "$n" || rc=1
	same_conn "$conn" reads || rc=1
	finish_case || rc=1
	return $rc
}

# same_conn ID WHAT: the mount's connection ID carried all of WHAT. A
# reply the server never sent shows as the client's RPC timeout (60 s),
# after which it connects again: every call must have been answered on
# the connection it was sent on, however short of resources the server.
same_conn() {
	local now

	now=$(nfs_newest_conn)
	[ "$now" = "$1" ] || fail "the client connected again during the $2: connection $1 -> $now"
}

tiny_send_queue() {
	local before after threads rc=0

	# 16 nfsd threads replying at once to 8 readers, with 4 send
	# contexts: senders wait at the cap, and the smallest send queue
	# (32 Sends plus what rdma_rw adds for each credit) may run out.
	threads=$(nfsd_threads)
	echo 16 >"$NFSD_FS/threads" || fail "16 nfsd threads" || return 1
	expect 0 "$RDMACTL" config set sq-depth 32 sendctx-max 4 credits 16 || return 1
	before=$(server_counter sendctx-waits)
	load_case 8 || rc=1
	after=$(server_counter sendctx-waits)
	echo "# sendctx-waits: $before -> $after, sq-starves: $(server_counter sq-starves)"
	[ "$after" -gt "$before" ] || fail "no sender waited for a send context" || rc=1
	expect 0 "$RDMACTL" config set sq-depth 66 sendctx-max 0 credits 64 || rc=1
	echo "$threads" >"$NFSD_FS/threads" || rc=1
	return $rc
}

# A send queue sized for one nfsd thread (the connection is made while
# nfsd has one, at the least sq-depth), then 16 threads answering 8
# parallel readers, each reading its file with O_DIRECT in one call (all
# its READs in flight at once): large replies whose RDMA Writes hold their slots
# until the Send after them completes take every slot (sq-starves
# grows), and a call that arrives meanwhile finds no write space. It
# must still be answered, once slots come back, on the same connection.
starved_send_queue() {
	local before after threads conn rc=0

	threads=$(nfsd_threads)
	make_files 8 || return 1
	expect 0 "$RDMACTL" config set sq-depth 32 || return 1
	echo 1 >"$NFSD_FS/threads" || fail "1 nfsd thread" || rc=1
	nfs_mount 3 $PORT "$MNT" || rc=1
	echo 16 >"$NFSD_FS/threads" || fail "16 nfsd threads" || rc=1
	if [ $rc -eq 0 ]; then
		parallel_copy 8 || rc=1
		conn=$(nfs_newest_conn)
		before=$(server_counter sq-starves)
		parallel_verify 8 direct || rc=1
		after=$(server_counter sq-starves)
		echo "# sq-starves: $before -> $after"
		same_conn "$conn" reads || rc=1
		[ "$after" -gt "$before" ] || fail "no sender waited for a send queue slot" || rc=1
	fi
	finish_case || rc=1
	expect 0 "$RDMACTL" config set sq-depth 66 || rc=1
	echo "$threads" >"$NFSD_FS/threads" || rc=1
	return $rc
}

credit_exhaustion() {
	local rc=0

	expect 0 "$RDMACTL" config set credits 4 || return 1
	load_case 8 || rc=1
	expect 0 "$RDMACTL" config set credits 64 || rc=1
	return $rc
}

# One rdmactl ping peer: twenty calls, a second apart, so every peer's
# connection lasts about twenty seconds, long enough for the last of 32
# to connect before the first is done: under emulation 32 rdmactl
# processes take many seconds to start. Each step of the connection
# (address, route, connect) may take 30 s for the same reason.
peer() {
	timeout 150 "$RDMACTL" -j ping -c 20 -i 1 -t 30 "$XR_ADDR:$PORT" >"$PEER_LOG/$1" 2>&1
}

all_peers_connected() {
	[ "$(server_conns)" -ge $((PEERS + 1)) ]
}

transports_32() {
	local i pids=() rc=0 copy peak

	make_files 1 || return 1
	nfs_mount 3 $PORT "$MNT" || return 1
	nfs_write_file "$NFS_DATA/stress-1" "$MNT/stress-1" "$MIB" &
	copy=$!
	for i in $(seq 1 "$PEERS"); do
		peer "$i" &
		pids+=($!)
	done
	wait_for 60 all_peers_connected ||
		fail "only $(server_conns) connections, expected $((PEERS + 1))" || rc=1
	peak=$(server_conns)
	echo "# $peak server connections at once"
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" ||
			{ fail "peer $((i + 1)): $(tail -n 3 "$PEER_LOG/$((i + 1))")"; rc=1; }
	done
	wait "$copy" || fail "the copy beside the peers" || rc=1
	nfs_umount "$MNT" || rc=1
	nfs_mount 3 $PORT "$MNT" || return 1
	parallel_verify 1 || rc=1
	finish_case || rc=1
	return $rc
}

unload_under_load() {
	local copy rc=0

	make_files 1 || return 1
	nfs_mount 3 $PORT "$MNT" || return 1
	nfs_write_file "$NFS_DATA/stress-1" "$MNT/stress-1" "$MIB" &
	copy=$!
	wait_for 30 test -s "$MNT/stress-1"
	if rmmod xrpcrdma 2>"$PEER_LOG/rmmod"; then
		fail "rmmod succeeded under load"
		rc=1
	else
		echo "# rmmod refused: $(cat "$PEER_LOG/rmmod")"
	fi
	module_loaded || { fail "module gone under load"; wait "$copy"; return 1; }
	wait "$copy" || fail "the copy during rmmod" || rc=1
	nfs_umount "$MNT" || rc=1
	nfs_mount 3 $PORT "$MNT" || return 1
	parallel_verify 1 || rc=1
	finish_case || rc=1
	nfs_server_stop || fail "stopping nfsd" || rc=1
	wait_for 30 rmmod xrpcrdma || fail "rmmod after umount and nfsd stop" || rc=1
	return $rc
}

restore() {
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside"
}

ktap_header 8
run_test reload_side_by_side reload_side_by_side
run_test nfs_server_up server_up
run_test tiny_send_queue_no_lost_replies tiny_send_queue
run_test starved_send_queue_no_lost_calls starved_send_queue
run_test credit_exhaustion_no_deadlock credit_exhaustion
run_test "transports_${PEERS}_at_once" transports_32
run_test unload_refused_under_load unload_under_load
run_test reload_defaults restore
ktap_finish
