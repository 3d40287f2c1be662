#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fault injection under NFS load: the module is reloaded side by side with
# the in-tree rpcrdma (whose client mounts our server through "xrdma
# 20050"). For each of the server's fault points, a random file is copied
# onto the mount while the point is armed; the point must fire, the copy
# must finish (the client reconnects after the failure closed the
# connection, or retransmits what was lost; the test checks that a newer
# connection is up, or for the points that only slow things down, that
# the connection stayed the same), and after a fresh mount the
# file must read back with the SHA-256 it was written with. Afterwards no
# connection object is left and the kernel logged no warning.
# Then: every state-changing netlink operation is refused to a root
# without CAP_NET_ADMIN, and changes nothing. Last, the module is reloaded
# in drop-in mode (rpcrdma unloaded) for the client's point, frwr-reg,
# through our client against our server: under the copy, and failing at
# the second region of READDIR calls (the first region, never posted,
# must be let go without a LOCAL_INV); reply-delay under the copy and a
# listing; bc-release-delay while nfsd recalls delegations over NFSv4.1;
# and post-send limited to our client's transport under the copy; then
# reloaded side by side again.
#
# Knobs: XR_FAULTS_MB (MiB per copy, default 16), XR_FAULTS_CASES (the
# server's points to run, default all of them), XR_FAULTS_CLIENT (0: leave
# out the client's point). addr-change is no copy: a listener that sees an
# address change must keep accepting connections.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
nfs_need_server

MIB=${XR_FAULTS_MB:-16}
MNT=$NFS_RUN/mnt-faults
SRC=$NFS_DATA/faults.bin
PORT=20050
# A lost call is retransmitted after the RPC timeout (tenths of a second)
# forces a reconnect: keep it short, and far above a call's service time.
MOUNT_OPTS=timeo=100
# When set: most seconds the copy with the point armed may take.
COPY_MAX=
OUT=$(mktemp)
ERR=$(mktemp)
SUM=
BLOCK=/etc/modprobe.d/xr-faults.conf
# svc-xprt objects with no connection: nfsd's listeners (IPv4, IPv6).
LISTENERS=2
# References to rpcrdma with no mount: each connection endpoint of the
# in-tree client holds one until its connection is torn down.
RPCRDMA_REFS=0

cleanup() {
	"$RDMACTL" fault clear all >/dev/null 2>&1
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT" "$ERR" "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

reload_side_by_side() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod"; return 1; }
	fi
	load_rpcrdma || return 1
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside"
}

server_up() {
	nfs_server_start && nfs_listen xrdma $PORT || return 1
	LISTENERS=$(live_objects svc-xprt)
	RPCRDMA_REFS=$(rpcrdma_refs)
	mkdir -p "$NFS_DATA"
	SUM=$(nfs_random_file "$SRC" "$MIB") || fail "cannot make $SRC"
}

# fault_field POINT FIELD: one field of rdmactl's JSON for a point.
fault_field() {
	"$RDMACTL" -j fault show |
		jq -r --arg p "$1" --arg f "$2" '.[] | select(.point == $p) | .[$f] // ""'
}

# Every point disarmed.
all_disarmed() {
	"$RDMACTL" -j fault show | jq -e 'all(.[]; .trigger == "off")' >/dev/null
}

# References to rpcrdma; 0 when it is not loaded (our client's cases).
rpcrdma_refs() {
	cat /sys/module/rpcrdma/refcnt 2>/dev/null || echo 0
}

# The in-tree client let go of every endpoint it made to us: one it
# keeps outlives its mount and, at a device removal, is used after its
# transport is freed.
client_released() {
	[ "$(rpcrdma_refs)" -le "$RPCRDMA_REFS" ]
}

# Kernel messages since the case began that mean trouble.
log_clean() {
	local bad

	bad=$(dmesg | sed -n "/xr-faults: $1 begin/,\$p" |
		grep -E "WARNING:|BUG|Oops|Call Trace|refcount_t|list_(add|del) corruption")
	[ -z "$bad" ] || fail "kernel log after $1: $bad"
}

# What the module logs when it closes a connection for a fatal event of
# its queue pair.
QP_FATAL_LOGGED="xrpcrdma: queue pair [0-9]+: QP fatal error"

# logged_since TAG REGEX: the kernel logged a line matching REGEX since
# the case TAG began.
logged_since() {
	dmesg | awk -v tag="xr-faults: $1 begin" '$0 ~ tag { buf = "" } { buf = buf $0 "\n" }
		END { printf "%s", buf }' | grep -Eq "$2"
}

# After the copy: FSSTAT is never answered from a cache, so the client
# has a connection up (a new one if the last was closed), and its id is
# compared with the one from before the fault: newer with reconnect,
# the same with same.
check_conn() {
	local expect=$1 before=$2 now

	timeout -k 5 60 stat -f "$MNT" >/dev/null || fail "statfs after the copy" || return 1
	now=$(nfs_newest_conn)
	echo "# connection $before -> $now"
	case "$expect" in
	reconnect) [ "$now" -gt "$before" ] || fail "the client did not reconnect" ;;
	same) [ "$now" -eq "$before" ] || fail "the connection changed: $before -> $now" ;;
	any) ;;
	esac
}

# read_back NAME: after a fresh mount, from an empty page cache, NAME
# reads back with the SHA-256 the copy was made from; then it goes.
read_back() {
	local got rc=0

	nfs_mount 3 $PORT "$MNT" || return 1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/$1" "$MIB") || fail "reading $1 back" || rc=1
	[ "$got" = "$SUM" ] || fail "$1: sha256 $got, wrote $SUM" || rc=1
	rm -f "$MNT/$1"
	nfs_umount "$MNT" || rc=1
	return $rc
}

# fault_case {reconnect|same|any} POINT ARGS...: arm POINT with ARGS (rdmactl
# fault set), copy the file, check the connection, disarm, check the point
# fired, remount, compare.
fault_case() {
	local conn=$1 point=$2 name fired rc=0 t0 took before

	shift 2
	name=faults-$point.bin
	echo "xr-faults: $point begin" >/dev/kmsg
	nfs_mount 3 $PORT "$MNT" "$MOUNT_OPTS" || return 1
	before=$(nfs_newest_conn)
	[ "$before" -gt 0 ] || fail "no server connection for the mount" || rc=1
	expect 0 "$RDMACTL" fault set "$point" "$@" || { nfs_umount "$MNT"; return 1; }
	[ "$(fault_field "$point" trigger)" != off ] || fail "$point not armed" || rc=1
	t0=$(date +%s)
	nfs_write_file "$SRC" "$MNT/$name" "$MIB" || fail "copy with $point armed" || rc=1
	took=$(($(date +%s) - t0))
	fired=$(fault_field "$point" fired)
	echo "# $("$RDMACTL" fault show | grep "^$point:"), copy $took s"
	[ -z "$COPY_MAX" ] || [ "$took" -le "$COPY_MAX" ] ||
		fail "copy took $took s, more than $COPY_MAX s" || rc=1
	expect 0 "$RDMACTL" fault clear "$point" || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "$point never fired" || rc=1
	check_conn "$conn" "$before" || rc=1
	nfs_umount "$MNT" || rc=1
	[ "$rc" -eq 0 ] || return 1

	read_back "$name" || rc=1
	wait_for 30 transports_released $LISTENERS ||
		fail "live objects left after $point: $("$RDMACTL" -j module show)" || rc=1
	wait_for 30 client_released ||
		fail "the in-tree client holds $(rpcrdma_refs) references to rpcrdma after $point, $RPCRDMA_REFS before" || rc=1
	log_clean "$point" || rc=1
	return $rc
}

# Each point where a real failure closes the connection fires twice, so
# the second failure hits a connection the client made again. A failed
# mapping closes the connection: the client retransmits on a new one.
# Counts are
# hits of one 16 MiB copy (some hundred Sends and Receives).
post_send() { fault_case reconnect post-send every 40 times 2 errno EIO; }
post_recv() { fault_case reconnect post-recv every 25 times 2 errno ENOMEM; }
dma_map() { fault_case reconnect dma-map every 10 times 2 errno ENOMEM; }
# A DMA mapping can also fail with EINVAL (dma_map_sgtable()): still the
# server's trouble, not the call's, so the connection closes and the
# call is sent again; an ERR_CHUNK would fail the client's WRITE with
# EIO (the copy's hits land on its Read chunks' RDMA Reads).
dma_map_einval() { fault_case reconnect dma-map every 10 times 2 errno EINVAL; }
# Whether a failed send-context allocation closes the connection depends
# on which send hit it (on 6.1 under load a run was seen with no
# reconnect): the data and the clean-up are what is checked.
sendctx_alloc() { fault_case any sendctx-alloc every 30 times 2; }
completion_error() { fault_case reconnect completion-error every 50 times 2; }
# A lost call: the client's RPC times out, it reconnects and retransmits.
recv_drop() { fault_case reconnect recv-drop nth 20; }
# A failed post of an RDMA Read or Write chain (some of its work requests
# may be on the queue pair) closes the connection; its contexts stay
# mapped until the teardown's drain, the one drain, after which nothing
# of the connection may complete (the module warns if anything does,
# which fails the run). Firing often makes some firings hit a chain,
# which the module logs: at least one must have.
post_send_rw() {
	fault_case reconnect post-send every 2 times 6 errno EIO || return 1
	logged_since post-send "RDMA (Read|Write) post:" ||
		fail "no RDMA Read or Write chain post failed"
}
# An RDMA Read that cannot be set up (no memory region left in the pool:
# EAGAIN) closes the connection, and the client retransmits the call at
# once on a new one: with the client's default RPC timeout (60 s) the
# copy takes seconds, not a timeout per failure.
rw_ctx() {
	local MOUNT_OPTS=timeo=600 COPY_MAX=30

	fault_case reconnect rw-ctx every 5 times 2 errno EAGAIN
}
# The ids of the server's listeners, one line.
listener_ids() {
	"$RDMACTL" -j listener show | jq -r '[.[].id | tostring] | join(" ")'
}

ping_ours() {
	"$RDMACTL" ping -c 1 -t 5 "$XR_ADDR:$PORT" >"$OUT" 2>&1
}

# An address change under a listener (as on a bonding fail-over; the
# point makes the listener handle one at a connection request, which is
# refused) must not close it: the same listeners stay, and a new
# connection is accepted within seconds ("copy": from arming the point
# to that connection).
addr_change() {
	local before after fired shown t0 rc=0

	ping_ours || { sed 's/^/# ping: /' "$OUT"; fail "ping before the change"; return 1; }
	before=$(listener_ids)
	t0=$(date +%s)
	expect 0 "$RDMACTL" fault set addr-change nth 1 || return 1
	ping_ours && fail "the request that met the address change was accepted" && rc=1
	fired=$(fault_field addr-change fired)
	shown=$("$RDMACTL" fault show | grep "^addr-change:")
	expect 0 "$RDMACTL" fault clear addr-change || rc=1
	[ "${fired:-0}" -eq 1 ] || fail "addr-change fired ${fired:-0} times, expected 1" || rc=1
	wait_for 10 ping_ours ||
		{ sed 's/^/# ping: /' "$OUT"; fail "no connection accepted after the address change"; rc=1; }
	echo "# $shown, copy $(($(date +%s) - t0)) s"
	after=$(listener_ids)
	echo "# listeners: $before -> $after"
	[ "$after" = "$before" ] || fail "the listeners changed: $before -> $after" || rc=1
	return $rc
}
# The device reports a fatal error on the connection's queue pair, an
# asynchronous event (a catastrophic error, an access error it could not
# tie to a work request): the point raises one and leaves the queue pair
# alone, so it is the module's handling of the event that closes the
# connection, which it logs. The client reconnects and sends again.
qp_fatal() {
	fault_case reconnect qp-fatal every 10 times 2 || return 1
	logged_since qp-fatal "$QP_FATAL_LOGGED" ||
		fail "nothing in the kernel log about the fatal event"
}
# Slow completions: nothing fails, the copy only waits.
completion_delay() { fault_case same completion-delay every 20 times 3 delay 500; }
# What the module logs when a send queue made no progress for 1000 ms.
SQ_TIMEOUT_MSG='the send queue made no progress for 1000 ms'

# short_send_timeout CMD...: run CMD (which mounts: a transport takes
# both settings when it is made) with every Send signaled and
# send-timeout at its least, 1000 ms, and put both back after; sets
# SQ_TIMEOUTS_LOGGED to the lines the kernel logged about a send queue
# that made no progress meanwhile. Fails when CMD or a setting fails.
short_send_timeout() {
	local sig timeout logged rc=0

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	logged=$(dmesg | grep -c "$SQ_TIMEOUT_MSG")
	expect 0 "$RDMACTL" config set signal-interval 1 send-timeout 1000 || return 1
	"$@" || rc=1
	expect 0 "$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	SQ_TIMEOUTS_LOGGED=$(($(dmesg | grep -c "$SQ_TIMEOUT_MSG") - logged))
	return $rc
}

# Slow but moving: with send-timeout at its least (1000 ms) and every
# Send signaled (both set before the mount: the transport takes them
# when it is made), forty completions in a row are each handled 600 ms
# late. An RDMA Read chain posted while the completion of a reply's
# Send waits its turn is handled after that one and its own: it waits
# past send-timeout, while something on the send queue completes every
# 600 ms, a busy queue, not a stuck one. The connection stays, and
# nothing says the queue made no progress. The delays add up to 24 s:
# the client's RPC timeout is 60 s here, so that it keeps its
# connection too.
completion_delay_moving() {
	local rc=0 MOUNT_OPTS=timeo=600

	short_send_timeout fault_case same completion-delay every 1 times 40 delay 600 || rc=1
	[ "$SQ_TIMEOUTS_LOGGED" = 0 ] ||
		fail "a moving send queue was timed out: $(dmesg | grep "$SQ_TIMEOUT_MSG" | tail -n 1)" ||
		rc=1
	return $rc
}

# setpriv without CAP_NET_ADMIN (root otherwise): RC must be 1 and the
# message must say the operation is not permitted.
unprivileged() {
	expect 1 setpriv --inh-caps=-net_admin --bounding-set=-net_admin -- "$@" || return 1
	grep -q "Operation not permitted" "$ERR" || fail "no EPERM from '$*': $(cat "$ERR")"
}

no_net_admin_no_change() {
	local rc=0 listener

	# Reading needs no privilege.
	expect 0 setpriv --inh-caps=-net_admin --bounding-set=-net_admin -- \
		"$RDMACTL" fault show || rc=1
	unprivileged "$RDMACTL" fault set post-send nth 1 || rc=1
	[ "$(fault_field post-send trigger)" = off ] || fail "post-send armed anyway" || rc=1
	expect 0 "$RDMACTL" fault set recv-drop nth 1000000 || rc=1
	unprivileged "$RDMACTL" fault clear recv-drop || rc=1
	[ "$(fault_field recv-drop trigger)" = nth ] || fail "recv-drop disarmed anyway" || rc=1
	expect 0 "$RDMACTL" fault clear recv-drop || rc=1
	unprivileged "$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || rc=1
	expect 0 "$RDMACTL" -j dev show "$XR_RDMA_DEV" && json_check '.[0].enabled' || rc=1
	listener=$("$RDMACTL" -j listener show | jq -r '.[0].id')
	unprivileged "$RDMACTL" listener del id "$listener" || rc=1
	[ "$(live_objects svc-xprt)" -eq $LISTENERS ] || fail "a listener went away" || rc=1
	all_disarmed || fail "a point is armed" || rc=1
	return $rc
}

# Our client (frwr-reg is a client point): the module in drop-in mode
# with rpcrdma unloaded and kept from loading, nfsd on "rdma 20049".

reload_dropin() {
	nfs_server_stop || { fail "stopping nfsd"; return 1; }
	load_dropin "$BLOCK" || return 1
	# lockd's grace period holds delegations back: keep it short.
	modprobe lockd && echo 10 >/proc/sys/fs/nfs/nlm_grace_period ||
		fail "setting lockd's grace period" || return 1
	PORT=20049
	nfs_server_start && nfs_listen rdma $PORT || return 1
	LISTENERS=$(live_objects svc-xprt)
	SUM=$(nfs_random_file "$SRC" "$MIB") || fail "cannot make $SRC"
}

# A registration that fails for want of memory is tried again later: the
# calls go through, only later.
frwr_reg() { fault_case same frwr-reg every 5 times 3 errno ENOMEM; }

# A registration that fails at the second region of a call, after the
# first was mapped and given a new key but before anything was posted:
# a READDIR's Reply chunk registers its head, then its pages, so with
# every second registration failing, each failure hits the pages of a
# READDIR. The call is sent again later; the region registered for the
# head never reached the device, so nothing may be posted to invalidate
# it (a LOCAL_INV of a key the device never saw puts the queue pair in
# error). The listing must come back complete on the same connection,
# and every region posted must have been invalidated once.
DIR_ENTRIES=200

# uncached_listing DIR: DIR made on the mount with DIR_ENTRIES entries,
# then the mount made again, so that listing DIR needs READDIRs.
uncached_listing() {
	nfs_mount 3 $PORT "$MNT" "$MOUNT_OPTS" || return 1
	rm -rf "$1"
	if ! nfs_make_entries "$1" $DIR_ENTRIES; then
		fail "creating $DIR_ENTRIES entries"
		nfs_umount "$MNT"
		return 1
	fi
	nfs_umount "$MNT" && nfs_mount 3 $PORT "$MNT" "$MOUNT_OPTS"
}

frwr_reg_second_region() {
	local dir=$MNT/faults-dir n fired conns recons rc=0 before

	echo "xr-faults: frwr-reg-second begin" >/dev/kmsg
	uncached_listing "$dir" || return 1
	before=$(nfs_newest_conn)
	conns=$(nfs_xprt_field "$MNT" 5)
	recons=$(nfs_client_eval "$XR_ADDR" $PORT .stats.reconnects) ||
		fail "no client transport" || rc=1
	expect 0 "$RDMACTL" fault set frwr-reg every 2 times 3 errno ENOMEM || rc=1
	n=$(nfs_count_entries "$dir") || fail "listing with frwr-reg armed" || rc=1
	fired=$(fault_field frwr-reg fired)
	echo "# $("$RDMACTL" fault show | grep "^frwr-reg:")"
	expect 0 "$RDMACTL" fault clear frwr-reg || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "frwr-reg never fired" || rc=1
	[ "${n:-0}" -eq $DIR_ENTRIES ] || fail "listed ${n:-none} entries, expected $DIR_ENTRIES" || rc=1
	check_conn same "$before" || rc=1
	[ "$(nfs_xprt_field "$MNT" 5)" = "$conns" ] ||
		fail "mountstats connects $conns -> $(nfs_xprt_field "$MNT" 5)" || rc=1
	[ "$(nfs_client_eval "$XR_ADDR" $PORT .stats.reconnects)" = "$recons" ] ||
		fail "the client reconnected: $(nfs_client_eval "$XR_ADDR" $PORT .stats)" || rc=1
	wait_for 10 nfs_client_invs_balanced "$XR_ADDR" $PORT ||
		fail "registrations, local-invs, remote-invs: $(nfs_client_invs "$XR_ADDR" $PORT)" ||
		rc=1
	rm -rf "$dir"
	nfs_umount "$MNT" || rc=1
	wait_for 30 transports_released $LISTENERS ||
		fail "live objects left: $("$RDMACTL" -j module show)" || rc=1
	log_clean frwr-reg-second || rc=1
	return $rc
}

# Our client's reply worker held back 200 ms before it takes a call's
# lock: a slow worker is no failure. The worker has the replies the
# Receive handler cannot complete at once, those whose regions need a
# LOCAL_INV: a listing's READDIRs (a Reply chunk of two regions) while
# the file is copied. Every reply is taken late, on the same
# connection, none is lost or matched twice (well inside the 10 s RPC
# timeout, nothing is sent again), the listing is whole and the file
# reads back intact.
reply_delay() {
	local dir=$MNT/faults-rdelay name=faults-reply-delay.bin n fired t0 took before rc=0

	echo "xr-faults: reply-delay begin" >/dev/kmsg
	uncached_listing "$dir" || return 1
	before=$(nfs_newest_conn)
	expect 0 "$RDMACTL" fault set reply-delay every 1 times 10 delay 200 || rc=1
	t0=$(date +%s)
	nfs_write_file "$SRC" "$MNT/$name" "$MIB" &
	n=$(nfs_count_entries "$dir") || fail "listing with reply-delay armed" || rc=1
	wait $! || fail "copy with reply-delay armed" || rc=1
	took=$(($(date +%s) - t0))
	fired=$(fault_field reply-delay fired)
	echo "# $("$RDMACTL" fault show | grep "^reply-delay:"), copy $took s"
	expect 0 "$RDMACTL" fault clear reply-delay || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "reply-delay never fired" || rc=1
	[ "${n:-0}" -eq $DIR_ENTRIES ] || fail "listed ${n:-none} entries, expected $DIR_ENTRIES" || rc=1
	check_conn same "$before" || rc=1
	rm -rf "$dir"
	nfs_umount "$MNT" || rc=1
	[ "$rc" -eq 0 ] || return 1

	read_back "$name" || rc=1
	log_clean reply-delay || rc=1
	return $rc
}

# Our client's callback service slow to give a callback's request back
# (bc-release-delay: the first two wait 200 ms each, their replies sent)
# while nfsd recalls BC_FILES delegations at once over an NFSv4.1 mount.
# The delay stays well inside nfsd's callback timeout (a tenth of the
# lease, at least a second): a callback that times out takes the
# backchannel down, and the client then returns every delegation
# without being asked. The session has two backchannel slots; nfsd
# (since 6.14) keeps both busy, and sends its next recall as soon as a
# reply frees a slot, before the client has its request back. The
# client keeps two requests per slot: no call is dropped, every writer
# gets through, every delegation comes back, on the same connection,
# and the client sees the writes. The client returns by itself a
# delegation unused over a lease renewal (a few seconds here): the files
# are read once more just before the writers, and each delegation held
# then must be recalled.
BC_FILES=16

bc_release_delay() {
	local p=faults-bcr i id fired t0 took drops calls held=0 before rc=0

	echo "xr-faults: bc-release-delay begin" >/dev/kmsg
	nfs_mount 4.1 $PORT "$MNT" || return 1
	nfs_delegate_files "$MNT" $p $BC_FILES || rc=1
	id=$(nfs_client_eval "$XR_ADDR" $PORT .id) || fail "no client transport" || rc=1
	drops=$(nfs_client_eval "$XR_ADDR" $PORT '.stats["bc-calls-dropped"]')
	calls=$(server_counter bc-calls-sent)
	before=$(nfs_newest_conn)
	t0=$(date +%s)
	if [ "$rc" -eq 0 ]; then
		expect 0 "$RDMACTL" fault set bc-release-delay every 1 times 2 delay 200 \
			transport "$id" || rc=1
		for ((i = 1; i <= BC_FILES; i++)); do
			cat "$MNT/$p$i" >/dev/null || rc=1
		done
		held=$(nfsd_delegations)
		echo "# $held delegations held when the writers start"
		[ "$held" -ge 4 ] || fail "too few delegations held for recalls at once" || rc=1
		# shellcheck disable=SC2046 # one word per file name
		nfs_write_delegated $(seq -f "$p%g" "$BC_FILES") || rc=1
	fi
	took=$(($(date +%s) - t0))
	fired=$(fault_field bc-release-delay fired)
	echo "# $("$RDMACTL" fault show | grep "^bc-release-delay:"), copy $took s"
	expect 0 "$RDMACTL" fault clear bc-release-delay || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "bc-release-delay never fired" || rc=1
	echo "# callbacks sent $calls -> $(server_counter bc-calls-sent)," \
		"dropped by the client $drops -> $(nfs_client_eval "$XR_ADDR" $PORT '.stats["bc-calls-dropped"]')"
	[ "$(server_counter bc-calls-sent)" -ge $((calls + held)) ] ||
		fail "fewer than $held callbacks sent" || rc=1
	[ "$(nfs_client_eval "$XR_ADDR" $PORT '.stats["bc-calls-dropped"]')" = "$drops" ] ||
		fail "the client dropped callbacks" || rc=1
	# shellcheck disable=SC2016 # expanded by eval
	wait_for 20 eval '[ "$(nfsd_delegations)" -eq 0 ]' ||
		fail "$(nfsd_delegations) delegations not returned" || rc=1
	check_conn same "$before" || rc=1
	nfs_drop_caches
	for ((i = 1; i <= BC_FILES; i++)); do
		grep -q second "$MNT/$p$i" || fail "the client does not see the write to $p$i" || rc=1
		rm -f "$NFS_EXPORT/$p$i"
	done
	nfs_umount "$MNT" || rc=1
	log_clean bc-release-delay || rc=1
	return $rc
}

# client_fault_case TAG POINT ARGS...: through our client, with POINT
# armed with ARGS for our client's transport only, a copy finishes, the
# point fired, the client reconnected, and the file reads back intact.
client_fault_case() {
	local tag=$1 point=$2 name=faults-$1.bin id recons fired rc=0

	shift 2
	echo "xr-faults: $tag begin" >/dev/kmsg
	nfs_mount 3 $PORT "$MNT" "$MOUNT_OPTS" || return 1
	id=$(nfs_client_eval "$XR_ADDR" $PORT .id) || fail "no client transport" || rc=1
	recons=$(nfs_client_eval "$XR_ADDR" $PORT .stats.reconnects) || rc=1
	[ "$rc" -eq 0 ] && { expect 0 "$RDMACTL" fault set "$point" "$@" transport "$id" ||
		rc=1; }
	[ "$rc" -eq 0 ] && { nfs_write_file "$SRC" "$MNT/$name" "$MIB" ||
		fail "copy with $point armed on the client" || rc=1; }
	fired=$(fault_field "$point" fired)
	echo "# $("$RDMACTL" fault show | grep "^$point:")"
	expect 0 "$RDMACTL" fault clear "$point" || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "$point never fired" || rc=1
	[ "$(nfs_client_eval "$XR_ADDR" $PORT .stats.reconnects)" -gt "${recons:-0}" ] ||
		fail "the client did not reconnect" || rc=1
	nfs_umount "$MNT" || rc=1
	[ "$rc" -eq 0 ] || return 1

	read_back "$name" || rc=1
	log_clean "$tag" || rc=1
	return $rc
}

# A Send that cannot be posted, on our client, for calls that carry
# memory regions (the copy's 1 MiB WRITEs, their data in Read chunks):
# the connection closes, and the regions stay with the call until the
# close has drained them. The call is sent under the transport's write
# lock, which the close needs: a call that waited for the drain there
# would hang the mount.
post_send_client() {
	client_fault_case post-send-client post-send every 6 times 2 errno EIO
}

# Our client's Sends stop completing: completion-delay holds the first
# completions of our client's transport 4 s each, with every Send
# signaled and send-timeout at 1000 ms (both set before the mount: the
# transport takes them when it is made). Past send-timeout the client
# breaks the connection itself, says so in the kernel log, and
# reconnects; the copy completes intact. A server that takes no call
# (it posts no Receive and had the client retry its Sends for ever)
# would otherwise hold the client's calls until their RPC timeout, and
# a thread waiting on the client's send queue or for its invalidations
# for ever.
send_timeout_client() {
	local rc=0

	short_send_timeout client_fault_case send-timeout-client \
		completion-delay every 1 times 3 delay 4000 || rc=1
	[ "$SQ_TIMEOUTS_LOGGED" -gt 0 ] ||
		fail "nothing in the kernel log about the client's send queue" || rc=1
	return $rc
}

# The same fatal event on our client's queue pair: the client closes the
# connection and reconnects.
qp_fatal_client() {
	client_fault_case qp-fatal-client qp-fatal every 10 times 2 || return 1
	logged_since qp-fatal-client "$QP_FATAL_LOGGED" ||
		fail "nothing in the kernel log about the fatal event"
}

# A server whose READ reply says its Write chunk holds more than the
# payload it wrote (write-chunk-long: half the chunk's room beyond it):
# the client takes no more than the reply's XDR counts, and nothing past
# its receive buffer. A 1.5 MiB file read with O_DIRECT in 1 MiB blocks
# makes the last READ short (1 MiB offered, 512 KiB written, 768 KiB
# claimed); a client that trusted the claim overran its reply buffer by
# 256 KiB as the XDR decoder moved the surplus into the buffer's tail.
write_chunk_long_client() {
	local name=faults-wlong.bin src=$NFS_DATA/faults-wlong.bin want got fired t0 rc=0

	echo "xr-faults: write-chunk-long begin" >/dev/kmsg
	dd if=/dev/urandom of="$src" bs=512K count=3 status=none || fail "cannot make $src" || return 1
	want=$(nfs_sha256 "$src")
	nfs_mount 3 $PORT "$MNT" || return 1
	nfs_write_file "$src" "$MNT/$name" 2 || fail "copy" || rc=1
	nfs_drop_caches
	expect 0 "$RDMACTL" fault set write-chunk-long every 1 || rc=1
	t0=$(date +%s)
	read -r got _ < <(timeout -k 5 60 dd if="$MNT/$name" bs=1M iflag=direct status=none |
		sha256sum)
	[ "$got" = "$want" ] || fail "O_DIRECT read: sha256 $got, wrote $want" || rc=1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/$name" 2)
	[ "$got" = "$want" ] || fail "cached read: sha256 $got, wrote $want" || rc=1
	fired=$(fault_field write-chunk-long fired)
	echo "# $("$RDMACTL" fault show | grep "^write-chunk-long:"), copy $(($(date +%s) - t0)) s"
	expect 0 "$RDMACTL" fault clear write-chunk-long || rc=1
	[ "${fired:-0}" -ge 1 ] || fail "write-chunk-long never fired" || rc=1
	rm -f "$MNT/$name" "$src"
	nfs_umount "$MNT" || rc=1
	log_clean write-chunk-long || rc=1
	return $rc
}

# Back to side by side, as the later tests expect.
restore_side_by_side() {
	nfs_server_stop || { fail "stopping nfsd"; return 1; }
	rm -f "$BLOCK"
	reload_side_by_side
}

ALL_CASES="post_send post_send_rw post_recv dma_map dma_map_einval rw_ctx sendctx_alloc completion_error recv_drop qp_fatal completion_delay completion_delay_moving addr_change"
CASES=${XR_FAULTS_CASES:-$ALL_CASES}
# The client's point, through our client in drop-in mode (0: leave out).
CLIENT=${XR_FAULTS_CLIENT:-1}

# shellcheck disable=SC2086 # a list of words
ktap_header $((3 + $(echo $CASES | wc -w) + 10 * CLIENT))
run_test reload_side_by_side reload_side_by_side
run_test nfs_server_up server_up
for c in $CASES; do
	run_test "fault_${c}_under_nfs_load" "$c"
done
run_test no_net_admin_no_change no_net_admin_no_change
if [ "$CLIENT" -eq 1 ]; then
	run_test reload_dropin_our_client reload_dropin
	run_test fault_frwr_reg_under_nfs_load_our_client frwr_reg
	run_test fault_frwr_reg_second_region_our_client frwr_reg_second_region
	run_test fault_reply_delay_under_nfs_load_our_client reply_delay
	run_test fault_bc_release_delay_under_recalls_our_client bc_release_delay
	run_test fault_post_send_our_client post_send_client
	run_test send_timeout_our_client send_timeout_client
	run_test fault_qp_fatal_our_client qp_fatal_client
	run_test fault_write_chunk_long_our_client write_chunk_long_client
	run_test restore_side_by_side restore_side_by_side
fi
ktap_finish
