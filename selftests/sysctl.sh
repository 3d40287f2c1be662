#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-tree transport's sysctls in drop-in mode. With xrpcrdma in
# place of rpcrdma, /proc/sys/sunrpc/rdma_* (the client's) and
# /proc/sys/sunrpc/svc_rdma/* (the server's) exist and are the tunables
# of the same meaning: a write shows in `rdmactl config show`, a
# config-set shows in the sysctl, out-of-range values are refused, and
# the values reach new transports: the credits and receive inline size
# our server offers (seen by rdmactl ping) and the slots and send inline
# size of a new NFS mount through our client. Side by side, the module
# registers none of them (rpcrdma owns them). The module is left in the
# mode it was found in, every tunable at its default.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV
need_rdmactl

CLIENT=/proc/sys/sunrpc
SERVER=/proc/sys/sunrpc/svc_rdma
MNT=$NFS_RUN/mnt/sysctl
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT
START_MODE=$(module_loaded && module_mode)
START_RPCRDMA=0
rpcrdma_loaded && START_RPCRDMA=1

# name=tunable pairs: each sysctl and the tunable behind it.
MAPPED="$CLIENT/rdma_slot_table_entries=client-credits
$CLIENT/rdma_max_inline_read=inline-recv
$CLIENT/rdma_max_inline_write=inline-send
$SERVER/max_requests=credits
$SERVER/max_req_size=inline-recv"
# The server's counters (the in-tree's rdma_stat_*), those xrpcrdma
# keeps, and those the in-tree keeps no more, which read 0.
STATS="rdma_stat_read rdma_stat_recv rdma_stat_write rdma_stat_sq_starve"
UNUSED="rdma_stat_rq_starve rdma_stat_rq_poll rdma_stat_rq_prod rdma_stat_sq_poll rdma_stat_sq_prod"

ktap_header 8

reload() {
	if module_loaded; then
		unload_clean || return 1
	fi
	insmod "$XR_MODULE" "$@" || fail "insmod $*"
}

dropin() {
	if rpcrdma_loaded; then
		unload_clean || return 1
		rmmod rpcrdma || { fail "rmmod rpcrdma"; return 1; }
	fi
	reload mode=dropin || return 1
	[ "$(module_mode)" = dropin ] || fail "mode $(module_mode), expected dropin"
}

# Every name exists, and each mapped one reads as its tunable.
names_match_config() {
	local pair file tunable got want name rc=0

	dropin || return 1
	while IFS== read -r file tunable; do
		got=$(cat "$file") || { fail "no $file"; rc=1; continue; }
		want=$(config_value "$tunable")
		echo "# $file = $got ($tunable $want)"
		[ "$got" = "$want" ] || fail "$file is $got, $tunable is $want" || rc=1
	done <<<"$MAPPED"
	for pair in rdma_inline_write_padding=0 rdma_memreg_strategy=5 rdma_pad_optimize=0; do
		got=$(cat "$CLIENT/${pair%=*}") || { fail "no $CLIENT/${pair%=*}"; rc=1; continue; }
		[ "$got" = "${pair#*=}" ] || fail "${pair%=*} is $got" || rc=1
	done
	[ "$(cat "$SERVER/max_bc_requests" 2>/dev/null)" = 2 ] ||
		fail "max_bc_requests: $(cat "$SERVER/max_bc_requests" 2>&1)" || rc=1
	[ "$(cat "$SERVER/max_outbound_read_requests" 2>/dev/null)" = 16 ] ||
		fail "max_outbound_read_requests: $(cat "$SERVER/max_outbound_read_requests" 2>&1)" ||
		rc=1
	for name in $STATS; do
		got=$(cat "$SERVER/$name") || { fail "no $SERVER/$name"; rc=1; continue; }
		[[ $got =~ ^[0-9]+$ ]] || fail "$name reads '$got'" || rc=1
	done
	for name in $UNUSED; do
		[ "$(cat "$SERVER/$name" 2>/dev/null)" = 0 ] ||
			fail "$name: $(cat "$SERVER/$name" 2>&1)" || rc=1
	done
	return $rc
}

# sysctl_write FILE VALUE: the write succeeds.
sysctl_write() {
	echo "$2" >"$1" 2>"$ERR" || fail "echo $2 > $1: $(cat "$ERR")"
}

# sysctl_refused FILE VALUE: the write fails and leaves the value.
sysctl_refused() {
	local before

	before=$(cat "$1")
	if echo "$2" >"$1" 2>"$ERR"; then
		fail "$1 took $2"
		return 1
	fi
	[ "$(cat "$1")" = "$before" ] || fail "$1 changed to $(cat "$1") after a refused $2"
}

writes_reach_config() {
	local rc=0

	sysctl_write "$CLIENT/rdma_slot_table_entries" 16 || rc=1
	sysctl_write "$CLIENT/rdma_max_inline_write" 2048 || rc=1
	sysctl_write "$CLIENT/rdma_max_inline_read" 2048 || rc=1
	sysctl_write "$SERVER/max_requests" 20 || rc=1
	[ "$(config_value client-credits)" = 16 ] || fail "client-credits $(config_value client-credits)" || rc=1
	[ "$(config_value inline-send)" = 2048 ] || fail "inline-send $(config_value inline-send)" || rc=1
	[ "$(config_value inline-recv)" = 2048 ] || fail "inline-recv $(config_value inline-recv)" || rc=1
	[ "$(config_value credits)" = 20 ] || fail "credits $(config_value credits)" || rc=1
	# One tunable, two names: the server's view of the receive size.
	[ "$(cat "$SERVER/max_req_size")" = 2048 ] ||
		fail "max_req_size $(cat "$SERVER/max_req_size") after rdma_max_inline_read 2048" || rc=1
	return $rc
}

config_reaches_sysctl() {
	expect 0 "$RDMACTL" config set credits 24 || return 1
	[ "$(cat "$SERVER/max_requests")" = 24 ] ||
		fail "max_requests $(cat "$SERVER/max_requests") after config set credits 24" || return 1
	sysctl_write "$SERVER/max_requests" 20
}

out_of_range_refused() {
	local rc=0

	sysctl_refused "$SERVER/max_requests" 3 || rc=1
	sysctl_refused "$SERVER/max_requests" 16385 || rc=1
	sysctl_refused "$SERVER/max_requests" -1 || rc=1
	sysctl_refused "$SERVER/max_requests" abc || rc=1
	sysctl_refused "$CLIENT/rdma_slot_table_entries" 257 || rc=1
	sysctl_refused "$CLIENT/rdma_max_inline_write" 1023 || rc=1
	sysctl_refused "$CLIENT/rdma_memreg_strategy" 4 || rc=1
	sysctl_refused "$CLIENT/rdma_inline_write_padding" 65537 || rc=1
	sysctl_refused "$SERVER/max_bc_requests" 4 || rc=1
	sysctl_refused "$SERVER/max_outbound_read_requests" 0 || rc=1
	sysctl_refused "$SERVER/max_outbound_read_requests" 256 || rc=1
	sysctl_refused "$SERVER/rdma_stat_rq_poll" 1 || rc=1
	return $rc
}

# New transports take the values: our server offers 20 credits and
# receives 2048 bytes inline (less than rdmactl ping sends, so it shows
# as it is); a mount through our client has 16 slots and sends 2048
# bytes inline.
new_transports_take_them() {
	local port=20049 got rc=0

	nfs_our_server_start || return 1
	"$RDMACTL" ping -c 1 -t 5 "$XR_ADDR:$port" >"$OUT" 2>&1 ||
		{ sed 's/^/# /' "$OUT"; fail "ping"; return 1; }
	sed 's/^/# /' "$OUT" | head -n 1
	grep -q "server inline send [0-9]* receive 2048" "$OUT" ||
		fail "the server does not receive 2048 bytes inline" || rc=1
	grep -q "credits 20$" "$OUT" || fail "the server does not grant 20 credits" || rc=1

	nfs_mount 3 "$port" "$MNT" || return 1
	ls "$MNT" >/dev/null || fail "ls $MNT" || rc=1
	got=$(nfs_client_eval "$XR_ADDR" "$port" '"credits \(.credits) inline send \(.inline_send)"') ||
		fail "no client transport" || rc=1
	echo "# client transport: $got"
	[ "$got" = "credits 16 inline send 2048" ] ||
		fail "the mount's transport has $got, expected credits 16 inline send 2048" || rc=1
	nfs_umount "$MNT" || rc=1
	nfs_server_stop || rc=1
	return $rc
}

# The counters: after a write to each (any value resets it, as in-tree),
# NFS traffic through our server shows in them: rdma_stat_recv is the
# messages received (the calls-received the netlink counters add up
# meanwhile), rdma_stat_read and rdma_stat_write the segments pulled by
# RDMA Read (a 1 MiB WRITE's Read chunk) and pushed by RDMA Write (a
# 1 MiB READ's Write chunk). A reset is of the sysctl's view alone: the
# netlink counters go on.
stat_counters() {
	local port=20049 name calls0 calls recv reads writes rc=0

	for name in $STATS; do
		sysctl_write "$SERVER/$name" 0 || return 1
		[ "$(cat "$SERVER/$name")" = 0 ] || fail "$name reads $(cat "$SERVER/$name") after a reset" ||
			return 1
	done
	calls0=$(server_counter calls-received)
	[[ $calls0 =~ ^[0-9]+$ ]] || fail "calls-received: '$calls0'" || return 1
	nfs_our_server_start || return 1
	if nfs_mount 3 "$port" "$MNT"; then
		nfs_write_verify "$MNT" 1 xr-stat || rc=1
		nfs_umount "$MNT" || rc=1
	else
		rc=1
	fi
	nfs_server_stop || rc=1
	[ "$rc" -eq 0 ] || return 1
	calls=$(server_counter calls-received)
	[[ $calls =~ ^[0-9]+$ ]] || fail "calls-received: '$calls'" || return 1
	calls=$((calls - calls0))
	recv=$(cat "$SERVER/rdma_stat_recv")
	reads=$(cat "$SERVER/rdma_stat_read")
	writes=$(cat "$SERVER/rdma_stat_write")
	echo "# rdma_stat_recv $recv, rdma_stat_read $reads, rdma_stat_write $writes;" \
		"calls-received +$calls"
	[ "$recv" = "$calls" ] || fail "rdma_stat_recv $recv, calls-received grew by $calls" || rc=1
	[ "$reads" -ge 1 ] || fail "rdma_stat_read $reads after a 1 MiB WRITE" || rc=1
	[ "$writes" -ge 1 ] || fail "rdma_stat_write $writes after a 1 MiB READ" || rc=1
	sysctl_write "$SERVER/rdma_stat_recv" 7 || rc=1
	[ "$(cat "$SERVER/rdma_stat_recv")" = 0 ] ||
		fail "rdma_stat_recv reads $(cat "$SERVER/rdma_stat_recv") after a reset" || rc=1
	[ "$(server_counter calls-received)" = $((calls0 + calls)) ] ||
		fail "calls-received $(server_counter calls-received) after the sysctl's reset" || rc=1
	return $rc
}

# Side by side: none of the names is the module's. With rpcrdma loaded
# they are rpcrdma's; without it they do not exist.
sidebyside_registers_none() {
	local name rc=0

	reload mode=sidebyside || return 1
	for name in rdma_slot_table_entries rdma_max_inline_read svc_rdma/max_requests; do
		[ -e "$CLIENT/$name" ] && fail "$CLIENT/$name exists side by side without rpcrdma" && rc=1
	done
	return $rc
}

restore_mode() {
	unload_clean || return 1
	[ "$START_RPCRDMA" = 1 ] && { load_rpcrdma || return 1; }
	[ -z "$START_MODE" ] && return 0
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = "$START_MODE" ] || fail "mode $(module_mode), was $START_MODE"
}

run_test names_match_config names_match_config
run_test writes_reach_config writes_reach_config
run_test config_reaches_sysctl config_reaches_sysctl
run_test out_of_range_refused out_of_range_refused
run_test new_transports_take_them new_transports_take_them
run_test stat_counters stat_counters
run_test sidebyside_registers_none sidebyside_registers_none
run_test mode_restored restore_mode
ktap_finish
