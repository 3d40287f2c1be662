#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The client transport with nfsd, in one guest, xrpcrdma only: the module
# is reloaded in drop-in mode with rpcrdma unloaded (and kept from
# loading), so nfsd's "rdma 20049" listener is our server class and
# mount -o proto=rdma is our client. NFSv3: small files written with
# inline calls, a 64 MiB random file written and read back with the same
# SHA-256 (its data in Read lists and Write chunks), 1 MiB a call both ways
# (rsize and wsize; nfsd's max_block_size raised to 1 MiB), a payload
# starting inside a page registered in two regions, a 2000-entry directory
# listed after a remount (Reply chunks), a transfer survives nfsd
# restarting under it (the client reconnects), another survives the RDMA
# device being removed and added back, mountstats and nfsiostat read
# the mount (every counter the transfers moved is above zero), and a REMOVE whose reply was lost is answered from nfsd's
# duplicate reply cache after the client reconnects. NFSv4.1 (nfsd
# records the client with port 0), which needs the client's backchannel: the same 64 MiB
# round trip and 2000-entry listing, and a delegation recalled through
# the backchannel (nfsd's CB_RECALL arrives on our client's connection,
# its reply goes back the same way). NFSv4.2, the version a mount gets by
# default, with nconnect=4 (every connection carries calls): 16 MiB
# round trip, 1 MiB a call, a sparse file read back and its holes
# found (SEEK), a server-side copy (COPY), fallocate (ALLOCATE,
# DEALLOCATE) and user extended attributes. NFSv3 over IPv6
# (proto=rdma6). Afterwards every live object is gone
# and the module unloads; it is loaded again as it was found.
#
# Netlink view of the client: `rdmactl -j transport show` lists the
# mount's transport (role client, our server, connected), its counters
# grow with the 64 MiB transfer and its reconnects with the nfsd restart,
# `rdmactl monitor -j` logs its connect and disconnect events, and after
# the umount the transport and its objects are gone.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV XR_NETDEV
need_rdmactl

skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
missing=$(nfs_missing_tools)
[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"
command -v mountstats >/dev/null || skip_all "missing: mountstats"
command -v nfsiostat >/dev/null || skip_all "missing: nfsiostat"

PORT=20049
# Full-size calls: nfsd would take 512 KiB at most in a 2 GiB guest.
# shellcheck disable=SC2034 # nfs_lib.sh's nfs_server_start reads it
NFS_MAX_BLOCK=1048576
MNT=$NFS_RUN/mnt-xprt
MNT41=$NFS_RUN/mnt-xprt41
MNT42=$NFS_RUN/mnt-xprt42
MNT6=$NFS_RUN/mnt-xprt6
# An IPv6 address of the guest's own test network (a unique local one).
ADDR6=fd99::1
BLOCK=/etc/modprobe.d/xr-xprt-nfs.conf
SIZE_MB=${XR_XPRT_NFS_SIZE_MB:-64}
DIRENTS=${XR_XPRT_NFS_DIRENTS:-2000}
# NFSv4.1 creates a file with an OPEN and a CLOSE (about 20 ms under
# emulation): fewer entries, still many READDIR replies' worth.
DIRENTS_V41=${XR_XPRT_NFS_DIRENTS_V41:-500}
SMALL_FILES=${XR_XPRT_NFS_SMALL_FILES:-20}
RECONNECT_MIN_MS=1000
RECONNECT_MAX_MS=4000

cleanup() {
	rdma_dev_present || "$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV"
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_is_mounted "$MNT41" && umount -f -l "$MNT41"
	nfs_is_mounted "$MNT42" && umount -f -l "$MNT42"
	nfs_is_mounted "$MNT6" && umount -f -l "$MNT6"
	"$IP" -6 addr del "$ADDR6/64" dev "$XR_NETDEV" 2>/dev/null
	nfs_server_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

reload_dropin() {
	# Nothing may bring the in-tree transport back during the test.
	load_dropin "$BLOCK" || return 1
	# While nfsd restarts or the device is gone, connects fail and the
	# client backs off: by default 5 s, doubling each time. A writer
	# blocked that long trips the test host's hung-task watchdog (30 s)
	# although nothing is wrong, so the client here retries within 4 s.
	"$RDMACTL" config set reconnect-min "$RECONNECT_MIN_MS" reconnect-max "$RECONNECT_MAX_MS" ||
		fail "config set reconnect-min/max"
}

server_start() {
	# lockd's grace period holds delegations back: keep it short.
	modprobe lockd && echo 10 >/proc/sys/fs/nfs/nlm_grace_period ||
		fail "setting lockd's grace period" || return 1
	nfs_server_start && nfs_listen rdma "$PORT" || return 1
	! rpcrdma_loaded || fail "rpcrdma was loaded"
}

mount_v3() {
	nfs_mount 3 "$PORT" "$MNT" || return 1
	! rpcrdma_loaded || fail "rpcrdma was loaded"
}

# chunk_count FIELD: the mount's segments offered in Read lists (1), Write
# lists (2) or Reply chunks (3) so far.
chunk_count() {
	local c

	c=$(nfs_rdma_chunks "$MNT")
	[ -n "$c" ] || return 1
	echo "$c" | cut -d' ' -f"$1"
}

# Files of 1 KiB: every WRITE call fits inline (no Read list).
small_files_inline() {
	local i src=$NFS_DATA/small dir=$MNT/small rc=0 want got

	mkdir -p "$src" "$dir" || return 1
	for ((i = 1; i <= SMALL_FILES; i++)); do
		head -c 1024 /dev/urandom >"$src/f$i" || return 1
		timeout -k 5 "$NFS_OP_TIMEOUT" cp "$src/f$i" "$dir/f$i" || { fail "cp f$i"; return 1; }
	done
	sync
	nfs_drop_caches
	for ((i = 1; i <= SMALL_FILES; i++)); do
		want=$(nfs_sha256 "$src/f$i")
		got=$(timeout -k 5 "$NFS_OP_TIMEOUT" sha256sum "$dir/f$i" | cut -d' ' -f1)
		[ "$want" = "$got" ] || { fail "f$i: sha256 $got, wrote $want"; rc=1; }
	done
	rm -rf "$src"
	[ "$(chunk_count 1)" = 0 ] || fail "read list segments after small writes: $(chunk_count 1)"
	return $rc
}

# 4 KiB written and read with O_DIRECT, a call each way: between two
# xrpcrdma ends (8192 bytes inline both ways by default) the data goes
# inline, in neither a Read list nor a Write chunk, and the server's
# receive buffers for this client are 8192 bytes.
small_io_inline() {
	local before after

	before=$(nfs_rdma_chunks "$MNT")
	nfs_small_io "$MNT" io4k || return 1
	after=$(nfs_rdma_chunks "$MNT")
	[ "$after" = "$before" ] || fail "chunk segments went from $before to $after" || return 1
	"$RDMACTL" -j transport show >"$NFS_RUN/show.json" || fail "transport show" || return 1
	jq -e '[.[] | select(.role == "server-connection" and .inline_recv == 8192)] | length > 0' \
		"$NFS_RUN/show.json" >/dev/null ||
		fail "no server connection with 8192-byte receives: $(cat "$NFS_RUN/show.json")"
}

# A server that sends less inline than the client receives: the server's
# inline-send is 4096 (the in-tree server's), the client's receive
# buffers stay 8192. A 4 KiB READ's reply does not fit 4096 bytes, so
# the client has to offer a Write chunk for it: expecting the reply
# inline, it would get an RDMA_ERROR and the read an I/O error. Both
# ends of a new mount take the setting; it is put back afterwards.
server_sends_less() {
	local rc=0 before after orig

	orig=$("$RDMACTL" -j config show | jq -e '.["inline-send"]') ||
		fail "config show" || return 1
	"$RDMACTL" config set inline-send 4096 || fail "config set inline-send" || return 1
	nfs_umount "$MNT" && nfs_mount 3 "$PORT" "$MNT" || fail "remount" || rc=1
	if [ "$rc" -eq 0 ]; then
		# Write chunk segments: the WRITE goes in a Read list, if not inline.
		read -r _ before _ < <(nfs_rdma_chunks "$MNT")
		nfs_small_io "$MNT" io4k || rc=1
		read -r _ after _ < <(nfs_rdma_chunks "$MNT")
		[ "$after" -gt "$before" ] || fail "no Write chunk for the 4 KiB READ" || rc=1
	fi
	"$RDMACTL" config set inline-send "$orig" ||
		fail "config set inline-send back" || rc=1
	nfs_umount "$MNT" && nfs_mount 3 "$PORT" "$MNT" || fail "remount" || rc=1
	return $rc
}

# A burst of small calls, many in flight (FSSTAT, never answered from a
# cache): when a reply completes its RPC, the task may send its next call
# at once, and the reply to that needs a Receive. So each reply's Receive
# is posted again before its RPC is completed: no completion may find
# fewer Receives posted than the connection keeps (recv-short-completions
# counts those that did; a Receive a message still being handled holds
# counts as kept, its call cannot have a successor yet).
BURST_JOBS=16
BURST_CALLS=25

recvs_reposted_first() {
	local short0 sent0 short sent j
	local -a args=()

	short0=$(client_eval '.stats["recv-short-completions"] // error') ||
		fail "no recv-short-completions counter: $(client_eval .)" || return 1
	sent0=$(client_eval '.stats["rpcs-sent"]')
	# One stat per job, naming the mount BURST_CALLS times: a statfs()
	# each, without a process start each (those cost more than the
	# calls in an emulated test host).
	for ((j = 0; j < BURST_CALLS; j++)); do
		args+=("$MNT")
	done
	for ((j = 0; j < BURST_JOBS; j++)); do
		timeout -k 5 "$NFS_OP_TIMEOUT" stat -f "${args[@]}" >/dev/null &
	done
	for ((j = 0; j < BURST_JOBS; j++)); do
		wait -n || fail "statfs burst" || return 1
	done
	short=$(client_eval '.stats["recv-short-completions"]')
	sent=$(client_eval '.stats["rpcs-sent"]')
	echo "# $((sent - sent0)) calls, recv-short-completions $short0 -> $short"
	[ $((sent - sent0)) -ge $((BURST_JOBS * BURST_CALLS)) ] ||
		fail "only $((sent - sent0)) calls sent" || return 1
	[ "$short" -eq "$short0" ] ||
		fail "$((short - short0)) RPCs completed before their Receive was posted again"
}

# Memory regions: a connection allocates what one call may hold at most
# when it connects (eight) and more only as calls need them, up to as
# many for each credit.
MRS_FIRST=8

# The mount's calls so far all went inline (the cases above): it still
# has just the regions it connected with.
regions_few_while_inline() {
	local n

	n=$(client_eval '.stats["mrs-allocated"]') || fail "no client transport" || return 1
	echo "# mrs-allocated $n"
	[ "$n" -eq "$MRS_FIRST" ] ||
		fail "$n memory regions allocated, not $MRS_FIRST, with every call inline"
}

# 16 MiB written and read back with O_DIRECT in one call each way: 16
# calls of 1 MiB in flight at once, each holding a region until its
# reply, so the connection allocates more; never more than eight per
# credit (the bound), and the data is right.
regions_grow_on_demand() {
	local src=$NFS_DATA/burst want got n credits

	want=$(nfs_random_file "$src" 16) || return 1
	nfs_dd "$(nfs_io_timeout 16)" if="$src" of="$MNT/burst" bs=16M oflag=direct ||
		fail "direct write of 16 MiB in one call" || return 1
	got=$(set -o pipefail; timeout -k 5 "$(nfs_io_timeout 16)" dd if="$MNT/burst" bs=16M \
		iflag=direct status=none | sha256sum) || fail "direct read of 16 MiB in one call" ||
		return 1
	rm -f "$src" "$MNT/burst"
	[ "${got%% *}" = "$want" ] || fail "burst: sha256 ${got%% *}, wrote $want" || return 1
	n=$(client_eval '.stats["mrs-allocated"]') || return 1
	credits=$("$RDMACTL" -j config show | jq '.["client-credits"]') || return 1
	echo "# mrs-allocated $n, client-credits $credits"
	[ "$n" -gt "$MRS_FIRST" ] || fail "no region allocated for 16 calls in flight" || return 1
	[ "$n" -le $((MRS_FIRST * credits)) ] ||
		fail "$n regions, more than $MRS_FIRST for each of $credits credits"
}

large_file_chunks() {
	nfs_write_verify "$MNT" "$SIZE_MB" "data-v3" || return 1
	[ "$(chunk_count 1)" -gt 0 ] || fail "no Read list segments for WRITE data" || return 1
	[ "$(chunk_count 2)" -gt 0 ] || fail "no Write chunk segments for READ data"
}

# A payload whose pages start inside a page, 1 MiB of it: O_DIRECT from a
# buffer 512 bytes into a page (fio's mem_align) covers 257 pages, one
# more than a memory region maps, so each call's payload is registered
# in two regions: the Read list of each WRITE and the Write chunk of each
# READ have two segments. fio writes the file and reads it back, and
# checks every block it wrote.
UNALIGNED_MB=4

payload_in_two_regions() {
	local rd0 wr0 rd wr w0 w r0 r out

	read -r rd0 wr0 _ < <(nfs_rdma_chunks "$MNT")
	w0=$(nfs_op_count "$MNT" WRITE)
	r0=$(nfs_op_count "$MNT" READ)
	out=$(timeout -k 5 "$(nfs_io_timeout "$UNALIGNED_MB")" fio --name=unaligned \
		--filename="$MNT/unaligned" --rw=write --bs=1M --size="${UNALIGNED_MB}M" \
		--direct=1 --mem_align=512 --ioengine=psync --verify=crc32c \
		--do_verify=1 --verify_fatal=1 2>&1) ||
		{ echo "$out" | sed 's/^/# /'; fail "fio unaligned write and verify"; return 1; }
	rm -f "$MNT/unaligned"
	read -r rd wr _ < <(nfs_rdma_chunks "$MNT")
	w=$(($(nfs_op_count "$MNT" WRITE) - w0))
	r=$(($(nfs_op_count "$MNT" READ) - r0))
	echo "# $w WRITE, $r READ; Read list segments +$((rd - rd0)), Write chunk segments +$((wr - wr0))"
	[ "$w" -eq "$UNALIGNED_MB" ] && [ "$r" -eq "$UNALIGNED_MB" ] ||
		fail "$w WRITE and $r READ calls, not $UNALIGNED_MB each" || return 1
	[ $((rd - rd0)) -eq $((2 * w)) ] && [ $((wr - wr0)) -eq $((2 * r)) ] ||
		fail "not two segments a call"
}

readdir_large() {
	local n

	nfs_make_entries "$MNT/dir" "$DIRENTS" || fail "creating $DIRENTS entries" || return 1
	nfs_umount "$MNT" || fail "umount for the remount" || return 1
	nfs_mount 3 "$PORT" "$MNT" || fail "remount" || return 1
	n=$(nfs_count_entries "$MNT/dir") || fail "listing" || return 1
	[ "$n" -eq "$DIRENTS" ] || fail "dir lists $n entries, expected $DIRENTS" || return 1
	[ "$(chunk_count 3)" -gt 0 ] || fail "no Reply chunk segments for READDIR"
}

# The mount's connect count, from its xprt line.
connect_count() {
	awk -v mnt="$MNT" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" && $2 == "rdma" { print $5; exit }
	' /proc/self/mountstats
}

# nfsd stops in the middle of a transfer (its transports close, the
# client's connection with them) and starts again: the client reconnects
# after its back-off and the transfer completes intact.
reconnect_after_server_restart() {
	local src=$NFS_DATA/reconnect.bin sum got before pid rc=0

	sum=$(nfs_random_file "$src" 16) || return 1
	before=$(connect_count)
	timeout -k 5 300 dd if="$src" of="$MNT/reconnect.bin" bs=64k conv=fsync status=none &
	pid=$!
	wait_for 60 test -s "$MNT/reconnect.bin" || fail "the transfer did not start"
	timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 0 || fail "rpc.nfsd 0"
	nfs_server_start && nfs_listen rdma "$PORT" || fail "restarting nfsd"
	wait "$pid" || rc=$?
	rm -f "$src"
	[ "$rc" -eq 0 ] || fail "the transfer failed across the restart: $rc" || return 1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/reconnect.bin" 16)
	[ "$got" = "$sum" ] || fail "sha256 $got, expected $sum" || return 1
	# After the read at the latest the client has connected again.
	[ "$(connect_count)" -gt "$before" ] ||
		fail "connect count $(connect_count), was $before: no reconnect"
}

rdma_dev_present() {
	"$RDMA" link show "$XR_RDMA_DEV/1" >/dev/null 2>&1
}

# The RDMA device goes away in the middle of a transfer and comes back:
# the removal is not held up by the client (its connection gives the
# device back although RPCs still hold memory regions), the client
# reconnects once the device is back, and the data is intact.
device_removal_mid_transfer() {
	local src=$NFS_DATA/removal.bin sum got pid rc=0

	sum=$(nfs_random_file "$src" 16) || return 1
	timeout -k 5 300 dd if="$src" of="$MNT/removal.bin" bs=64k conv=fsync status=none &
	pid=$!
	wait_for 60 test -s "$MNT/removal.bin" || fail "the transfer did not start"
	timeout -k 5 60 "$RDMA" link delete "$XR_RDMA_DEV" ||
		fail "rdma link delete failed or hung"
	timeout -k 5 30 "$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV" ||
		fail "rdma link add"
	wait "$pid" || rc=$?
	rm -f "$src"
	[ "$rc" -eq 0 ] || fail "the transfer failed after the device came back: $rc" || return 1
	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/removal.bin" 16)
	[ "$got" = "$sum" ] || fail "sha256 $got, expected $sum"
}

# The rules by which exporters read the mount's xprt line (Prometheus'
# procfs package, which node_exporter's mountstats collector uses): the
# device line ends "statvers=1.1"; after the protocol "rdma" come 20 to 31
# fields, each an unsigned 64-bit decimal. Prints what breaks a rule.
exporter_rules_accept() {
	awk -v mnt="$MNT" '
		$1 == "device" { here = ($5 == mnt); if (here) vers = $NF }
		here && $1 == "xprt:" && $2 == "rdma" {
			found = 1
			if (vers != "statvers=1.1") { print "the device line ends " vers; bad = 1 }
			if (NF - 2 < 20 || NF - 2 > 31) { print NF - 2 " fields"; bad = 1 }
			for (i = 3; i <= NF; i++)
				if ($i !~ /^[0-9]+$/ || length($i) > 20 ||
				    (length($i) == 20 && $i "" > "18446744073709551615")) {
					print "field " i - 2 " is " $i; bad = 1
				}
			exit
		}
		END {
			if (!found) print "no rdma xprt line for " mnt
			exit !found || bad
		}' /proc/self/mountstats
}

# The standard tools read the mount: mountstats parses the xprt line
# with every counter the 64 MiB transfer and the listing must have moved
# above zero, the line has the in-tree transport's 27 fields and passes
# the exporters' rules, and nfsiostat reports the mount's reads and
# writes, and the READ and WRITE lines have bytes sent and sane queue
# and round-trip times.
mountstats_parses() {
	local out n what rc=0

	out=$(mountstats --xprt "$MNT" 2>&1) || { fail "mountstats: $out"; return 1; }
	echo "$out" | sed 's/^/# /' | grep -E "protocol|segments|requests|replies|Registered|RDMA|MRs"
	grep -q "Transport protocol: rdma" <<<"$out" || fail "no rdma transport in mountstats" ||
		return 1
	for what in "RPC requests" "RPC replies" "Read segments" "Write segments" \
		"Reply segments" "Registered" "RDMA received" "Allocated MRs"; do
		grep -qE "^\s*$what: [1-9]" <<<"$out" || fail "mountstats: $what is 0 or missing" || rc=1
	done
	n=$(awk -v mnt="$MNT" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" && $2 == "rdma" { print NF - 2; exit }
	' /proc/self/mountstats)
	[ "$n" = 27 ] || fail "the xprt line has ${n:-no} counters, the in-tree's has 27" || rc=1
	out=$(exporter_rules_accept) || fail "exporters would refuse the xprt line: $out" || rc=1
	out=$(nfsiostat "$MNT" 2>&1) || { fail "nfsiostat: $out"; return 1; }
	echo "$out" | sed 's/^/# /' | grep -E "mounted on|^# *(read|write):" -A1 | head -n 6
	grep -q "mounted on $MNT:" <<<"$out" || fail "nfsiostat does not list $MNT" || rc=1
	op_times_sane READ || rc=1
	op_times_sane WRITE || rc=1
	return $rc
}

# The per-operation line of OP for the mount: what the transport tells
# the RPC layer of each call (when it was sent, how many bytes) makes its
# bytes sent, queue time and round trip. Sent bytes above 0, queue time
# not below 0, and round trips below a second on average: not the time
# since boot a call never stamped would give.
op_times_sane() {
	local line

	line=$(awk -v mnt="$MNT" -v op="$1:" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == op { print; exit }
	' /proc/self/mountstats)
	echo "# $line"
	[ -n "$line" ] || fail "no $1 line in mountstats" || return 1
	read -r _ ops _ _ sent _ queue rtt _ <<<"$line"
	[ "$ops" -gt 0 ] || fail "no $1 calls counted" || return 1
	[ "$sent" -gt 0 ] || fail "$1: 0 bytes sent for $ops calls" || return 1
	[ "$queue" -ge 0 ] || fail "$1: queue time $queue ms" || return 1
	[ "$rtt" -lt $((ops * 1000)) ] || fail "$1: $rtt ms of round trips for $ops calls" ||
		return 1
}

umount_v3() {
	nfs_umount "$MNT"
}

# NFSv4.1 through our client: the NFS client refuses it over a transport
# without a backchannel, and creates the session only once nfsd's callback
# probe came back through it.
mount_v41() {
	nfs_wait_grace || return 1
	nfs_mount 4.1 "$PORT" "$MNT41" || return 1
	! rpcrdma_loaded || fail "rpcrdma was loaded"
}

# NFSv4.2, what `mount -o proto=rdma` picks by default, with four
# connections (nconnect), as many mounts are made for throughput.
mount_v42() {
	# The NFSv4.1 mount's transport is gone first (nconnect_used_v42).
	wait_for 60 eval '! client_eval . >/dev/null' ||
		fail "a client transport is left: $("$RDMACTL" -j transport show)" || return 1
	nfs_mount 4.2 "$PORT" "$MNT42" nconnect=4
}

# After the NFSv4.2 cases: the mount has a client transport of ours to
# nfsd for each connection its RPC client made (its xprt lines in
# mountstats: four, where the NFS client honours nconnect over RDMA for
# NFSv4, as 6.12's does; one on 6.1), and the calls went over all of
# them.
nconnect_used_v42() {
	local n busy xprts

	xprts=$(awk -v mnt="$MNT42" '$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" { n++ } END { print n + 0 }' /proc/self/mountstats)
	read -r n busy < <("$RDMACTL" -j transport show |
		jq -r --arg a "$XR_ADDR" --argjson p "$PORT" '
			[.[] | select(.role == "client" and .peer_addr == $a and .peer_port == $p)] |
			"\(length) \([.[] | select(.stats["rpcs-sent"] > 0)] | length)"')
	echo "# nconnect=4: the RPC client has $xprts transports; $n client transports of ours to nfsd, $busy of them carried calls"
	[ "$xprts" -ge 1 ] && [ "$n" = "$xprts" ] && [ "$busy" = "$xprts" ] ||
		fail "$xprts transports, $n of ours, $busy used" || return 1
	# 6.12's NFS client is the oldest here that makes them all.
	kernel_at_least 6.12 || return 0
	[ "$xprts" -eq 4 ] || fail "$(uname -r) made $xprts connections for nconnect=4"
}

# kernel_at_least VERSION: the running kernel is VERSION or later.
kernel_at_least() {
	[ "$(printf '%s\n' "$1" "$(uname -r | cut -d- -f1)" | sort -V | head -n 1)" = "$1" ]
}

# rxe has the IPv6 address in its GID table (it adds one per address of
# its network device).
gid_has_addr6() {
	cat "/sys/class/infiniband/$XR_RDMA_DEV/ports/1/gids/"* 2>/dev/null |
		grep -qx 'fd99:0000:0000:0000:0000:0000:0000:0001'
}

# NFSv3 over IPv6 (proto=rdma6): our client connects to nfsd's IPv6
# listener of our server, 8 MiB make the round trip, and both ends of
# the connection show the IPv6 address.
ipv6_v3() {
	local peer rc=0

	"$IP" -6 addr add "$ADDR6/64" dev "$XR_NETDEV" nodad || fail "adding $ADDR6" || return 1
	wait_for 10 gid_has_addr6 || fail "$ADDR6 not in $XR_RDMA_DEV's GID table" || rc=1
	[ "$rc" -eq 0 ] && { XR_NFS_SERVER=$ADDR6 nfs_mount 3 "$PORT" "$MNT6" || rc=1; }
	if [ "$rc" -eq 0 ]; then
		nfs_write_verify "$MNT6" 8 data-v6 || rc=1
		[ "$(nfs_client_eval "$ADDR6" "$PORT" .local_addr)" = "$ADDR6" ] ||
			fail "client transport: $("$RDMACTL" -j transport show)" || rc=1
		peer=$("$RDMACTL" -j transport show | jq -r --arg a "$ADDR6" '
			[.[] | select(.role == "server-connection" and .local_addr == $a)] |
			last | .peer_addr // empty')
		echo "# server connection from [$peer]"
		[ "$peer" = "$ADDR6" ] || fail "no server connection from $ADDR6" || rc=1
	fi
	nfs_umount "$MNT6" || rc=1
	"$IP" -6 addr del "$ADDR6/64" dev "$XR_NETDEV" || rc=1
	return $rc
}

large_file_v41() {
	nfs_write_verify "$MNT41" "$SIZE_MB" "data-v41"
}

readdir_large_v41() {
	local n

	nfs_make_entries "$MNT41/dir41" "$DIRENTS_V41" ||
		fail "creating $DIRENTS_V41 entries" || return 1
	nfs_umount "$MNT41" || fail "umount for the remount" || return 1
	nfs_mount 4.1 "$PORT" "$MNT41" || fail "remount" || return 1
	n=$(nfs_count_entries "$MNT41/dir41") || fail "listing" || return 1
	[ "$n" -eq "$DIRENTS_V41" ] || fail "dir lists $n entries, expected $DIRENTS_V41"
}

# Backchannel calls our client dropped (it warns for each).
bc_calls_dropped() {
	dmesg | grep -c "xrpcrdma: backchannel call .* dropped"
}

# nfsd recalls a delegation from our client: the CB_RECALL and its reply
# travel through the client's backchannel, and no callback was dropped.
delegation_recall_v41() {
	local f=deleg.txt dropped

	dropped=$(bc_calls_dropped)
	echo first >"$NFS_EXPORT/$f" || fail "writing $f on the server" || return 1
	nfs_recall_on_local_write "$MNT41" "$f" || return 1
	[ "$(bc_calls_dropped)" -eq "$dropped" ] ||
		fail "the client dropped backchannel calls: $(bc_calls_dropped)"
}

umount_v41() {
	nfs_umount "$MNT41"
}

server_stop() {
	nfs_server_stop || return 1
	[ "$(nfsd_threads)" -eq 0 ] || fail "nfsd threads left"
}

client_unload_clean() {
	unload_clean || return 1
	rm -f "$BLOCK"
	insmod "$XR_MODULE" || fail "insmod again"
}

# ---- The client transport through netlink ----

CLIENT_LOG=$NFS_RUN/xprt-monitor.log
CLIENT_MON_PID=
CLIENT_RECONNECTS=

# client_eval EXPR: nfs_client_eval for the client transport to our
# server.
client_eval() {
	nfs_client_eval "$XR_ADDR" "$PORT" "$1"
}

# client_logged FILTER: a line of the monitor's log is a client
# transport event for which the jq FILTER holds.
client_logged() {
	jq -e -s 'any(.[]; .role == "client" and ('"$1"'))' "$CLIENT_LOG" >/dev/null
}

client_monitor_start() {
	mkdir -p "$NFS_RUN" && : >"$CLIENT_LOG" || return 1
	CLIENT_MON_PID=$("$RDMACTL" -j monitor --log "$CLIENT_LOG") ||
		fail "rdmactl monitor --log failed" || return 1
	[[ $CLIENT_MON_PID =~ ^[0-9]+$ ]] || fail "not a PID: '$CLIENT_MON_PID'"
}

# The mount's transport is listed with our server, connected, and
# transport show ID shows it with its counters.
client_transport_listed() {
	local id state out

	id=$(client_eval .id) ||
		fail "no client transport to $XR_ADDR:$PORT: $("$RDMACTL" -j transport show)" ||
		return 1
	state=$(client_eval .state)
	[ "$state" = connected ] || fail "client transport $id is $state" || return 1
	[ "$(client_eval .class)" = rdma ] || fail "class $(client_eval .class)"
	[ "$(client_eval .local_addr)" = "$XR_ADDR" ] ||
		fail "local address $(client_eval .local_addr)" || return 1
	[ "$(client_eval '.credits > 0 and .inline_send > 0 and .sq_depth > 0')" = true ] ||
		fail "connection numbers: $(client_eval .)" || return 1
	out=$("$RDMACTL" -d transport show "$id") || fail "transport show $id" || return 1
	sed 's/^/# /' <<<"$out"
	grep -q "^$id: client class rdma state connected local $XR_ADDR:[0-9]* peer $XR_ADDR:$PORT " \
		<<<"$out" || fail "transport show $id: $out" || return 1
	grep -q "stats: rpcs-sent [1-9]" <<<"$out" || fail "no counters in: $out" || return 1
	# Another network namespace sees none of this one's transports.
	out=$(unshare --net "$RDMACTL" -j transport show) ||
		fail "transport show in another namespace" || return 1
	[ "$out" = "[]" ] || fail "another namespace sees: $out" || return 1
	! out=$(unshare --net "$RDMACTL" transport show "$id" 2>&1) ||
		fail "another namespace shows $id: $out" || return 1
	grep -q "no transport with that id" <<<"$out" || fail "stderr: $out" || return 1
	client_config_shown "$id"
}

# config show ID shows the client tunables the transport was made with
# (and no server one); config set on it says it keeps them.
# With the device switched off (rdmactl dev set DEV enabled off) our
# client does not connect through it: a mount fails at once, the server
# out of reach, and the kernel log says why; switched on again, the
# mount works.
client_disabled_device() {
	local mnt=$NFS_RUN/mnt-disabled msg="device $XR_RDMA_DEV is disabled: not connecting"
	local logged out rc=0

	logged=$(dmesg | grep -c "$msg")
	"$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || { fail "dev set off"; return 1; }
	mkdir -p "$mnt"
	if out=$(timeout -k 5 60 mount -t nfs -o "vers=3,proto=rdma,port=$PORT,retry=0" \
		"$XR_ADDR:$NFS_EXPORT" "$mnt" 2>&1); then
		fail "mounted through a disabled device"
		umount "$mnt"
		rc=1
	fi
	sed 's/^/# mount: /' <<<"$out"
	"$RDMACTL" dev set "$XR_RDMA_DEV" enabled on || { fail "dev set on"; return 1; }
	[ "$(dmesg | grep -c "$msg")" -gt "$logged" ] ||
		fail "nothing in the kernel log about the disabled device" || rc=1
	[ $rc -eq 0 ] || return 1
	nfs_mount 3 "$PORT" "$mnt" || return 1
	nfs_umount "$mnt"
}

client_config_shown() {
	local id=$1 out

	out=$("$RDMACTL" -j config show transport "$id") ||
		fail "config show transport $id" || return 1
	jq -e --argjson want "$("$RDMACTL" -j config show)" \
		'.["reconnect-max"] == $want["reconnect-max"] and
		 .["signal-interval"] == $want["signal-interval"] and
		 has("client-credits") and (has("credits") | not)' <<<"$out" >/dev/null ||
		fail "config show transport $id: $out" || return 1
	! out=$("$RDMACTL" config set sendctx-max 2 transport "$id" 2>&1) ||
		fail "config set on a client transport took: $out" || return 1
	grep -q "a client transport keeps the values it was created with" <<<"$out" ||
		fail "stderr: $out"
}

# After the 64 MiB write and read: calls and chunks were counted, and
# every region registered was invalidated, some by our server's replies:
# those of Write chunks (READ) and of Read lists (WRITE) alike, as each
# call offered one region.
# Replies were completed in the Receive completion handler
# (direct-replies): more of them than there were calls without chunks,
# so some were replies whose only region the server had invalidated.
client_counters_after_transfer() {
	local name v rc=0 beyond

	for name in rpcs-sent write-chunk-calls read-chunk-calls direct-replies; do
		v=$(client_eval ".stats[\"$name\"]") || fail "no client transport" || return 1
		echo "# $name $v"
		[ "$v" -gt 0 ] || { fail "$name is $v after a ${SIZE_MB} MiB transfer"; rc=1; }
	done
	beyond=$(client_eval '.stats | .["rpcs-sent"] >= .["direct-replies"] and
		.["direct-replies"] > .["rpcs-sent"] - .["read-chunk-calls"] -
			.["write-chunk-calls"] - .["reply-chunk-calls"]') || return 1
	[ "$beyond" = true ] ||
		fail "no direct reply to a call with chunks, or more than calls:" \
			"$(client_eval .stats)" || rc=1
	nfs_client_regions_released "$XR_ADDR" "$PORT" || rc=1
	[ "$(client_eval '.stats | .["remote-invs"] > .["write-chunk-calls"]')" = true ] ||
		fail "the server invalidated no region of a Read list: $(client_eval .stats)" ||
		rc=1
	return $rc
}

client_reconnects_noted() {
	CLIENT_RECONNECTS=$(client_eval .stats.reconnects) ||
		fail "no client transport"
}

# After the nfsd restart: a reconnect counted, and the monitor saw the
# client's connection go and come back.
client_reconnect_counted() {
	local now

	[ -n "$CLIENT_RECONNECTS" ] || fail "no reconnect count from before" || return 1
	now=$(client_eval .stats.reconnects) || fail "no client transport" || return 1
	[ "$now" -gt "$CLIENT_RECONNECTS" ] ||
		fail "reconnects $now, was $CLIENT_RECONNECTS" || return 1
	wait_for 10 client_logged '.event == "transport-connect" and .peer_port == '"$PORT" ||
		fail "no client connect event: $(cat "$CLIENT_LOG")" || return 1
	wait_for 10 client_logged '.event == "transport-disconnect" and has("reason")' ||
		fail "no client disconnect event: $(cat "$CLIENT_LOG")"
}

# After the umount: the transport is no longer listed, its objects are
# gone, and its last connection was announced closed locally.
client_transport_gone() {
	wait_for 60 eval '! client_eval . >/dev/null' ||
		fail "still listed: $("$RDMACTL" -j transport show)" || return 1
	wait_for 60 eval '[ "$(live_objects xprt)" -eq 0 ] && [ "$(live_objects xprt-conn)" -eq 0 ] &&
		[ "$(live_objects xprt-req)" -eq 0 ] && [ "$(live_objects mr)" -eq 0 ]' ||
		fail "client objects left: $("$RDMACTL" -j module show)" || return 1
	wait_for 10 client_logged '.event == "transport-disconnect" and .reason == "local"' ||
		fail "no local disconnect event: $(cat "$CLIENT_LOG")"
}

DRC_MNT=$NFS_RUN/mnt-drc

# cache_hits: nfsd's duplicate reply cache hits so far.
cache_hits() {
	awk '/^cache hits:/ { print $3 }' "$NFSD_FS/reply_cache_stats"
}

# A REMOVE whose reply is lost: the client's RPC times out, it reconnects
# (a new CM port) and retransmits. nfsd must answer the retransmission
# from its duplicate reply cache, which it keys by the peer's address as
# the transport gives it: the file is removed once and rm succeeds. Were
# the port part of that address, the retransmission would miss the
# cache, run again and fail with ENOENT.
drc_after_reconnect() {
	local f=$DRC_MNT/drc-victim id hits before fired rc=0

	# Long attribute caching, and a first rm that fills the access
	# cache: the REMOVE is then the only call rm makes.
	nfs_mount 3 "$PORT" "$DRC_MNT" timeo=20,retrans=3,actimeo=600 || return 1
	echo victim >"$f" && echo warm-up >"$f.0" && sync && rm "$f.0" && stat "$f" >/dev/null ||
		fail "creating $f" || rc=1
	id=$(client_eval .id) || fail "no client transport" || rc=1
	hits=$(cache_hits)
	before=$(client_eval .stats.reconnects)
	if [ $rc -eq 0 ]; then
		# The next message the client receives is rm's REMOVE reply.
		"$RDMACTL" fault set recv-drop nth 1 transport "$id" || fail "fault set" || rc=1
		timeout -k 5 60 rm "$f" || fail "rm after a lost reply: $?" || rc=1
		fired=$("$RDMACTL" -j fault show |
			jq -r '.[] | select(.point == "recv-drop") | .fired // 0')
		"$RDMACTL" fault clear recv-drop || fail "fault clear" || rc=1
		[ "$fired" = 1 ] || fail "recv-drop fired $fired times" || rc=1
		[ ! -e "$f" ] || fail "$f still there" || rc=1
		echo "# cache hits $hits -> $(cache_hits)"
		[ "$(cache_hits)" -gt "$hits" ] || fail "no duplicate reply cache hit" || rc=1
		[ "$(client_eval .stats.reconnects)" -gt "$before" ] ||
			fail "the client did not reconnect" || rc=1
	fi
	timeout -k 5 "$NFS_OP_TIMEOUT" umount "$DRC_MNT" || fail "umount $DRC_MNT" || rc=1
	return $rc
}

# nfsd records the NFSv4.1 client's address as the transport gave it:
# port 0, the same on every connection (see drc_after_reconnect).
client_address_port0_v41() {
	local info

	info=$(cat "$NFSD_FS"/clients/*/info 2>/dev/null | grep '^address:') ||
		fail "no NFSv4 client recorded" || return 1
	echo "# $info"
	grep -q "^address: \"$XR_ADDR:0\"$" <<<"$info" || fail "recorded as $info"
}

client_monitor_stop() {
	[ -n "$CLIENT_MON_PID" ] || return 0
	kill -TERM "$CLIENT_MON_PID" || fail "kill monitor" || return 1
	wait_for 5 eval "! kill -0 $CLIENT_MON_PID 2>/dev/null" || fail "monitor still running"
	CLIENT_MON_PID=
	rm -f "$CLIENT_LOG"
}

ktap_header 45
run_test reload_dropin reload_dropin
run_test server_start_rdma_$PORT server_start
run_test client_monitor_start client_monitor_start
run_test mount_v3 mount_v3
if nfs_is_mounted "$MNT"; then
	run_test client_transport_listed client_transport_listed
	run_test small_files_inline small_files_inline
	run_test small_io_inline small_io_inline
	run_test recvs_reposted_first recvs_reposted_first
	run_test regions_few_while_inline regions_few_while_inline
	run_test regions_grow_on_demand regions_grow_on_demand
	run_test "write_read_${SIZE_MB}M" large_file_chunks
	run_test client_counters_after_transfer client_counters_after_transfer
	run_test full_size_io nfs_full_size_io "$MNT" 4 full-v3
	run_test payload_in_two_regions payload_in_two_regions
	run_test "readdir_${DIRENTS}" readdir_large
	run_test client_reconnects_noted client_reconnects_noted
	run_test reconnect_after_server_restart reconnect_after_server_restart
	run_test client_reconnect_counted client_reconnect_counted
	run_test device_removal_mid_transfer device_removal_mid_transfer
	run_test mountstats_xprt mountstats_parses
	run_test server_sends_less server_sends_less
	run_test umount_v3 umount_v3
	run_test client_transport_gone client_transport_gone
	run_test drc_after_reconnect drc_after_reconnect
else
	for t in client_transport_listed small_files_inline small_io_inline recvs_reposted_first \
		regions_few_while_inline regions_grow_on_demand "write_read_${SIZE_MB}M" \
		client_counters_after_transfer full_size_io payload_in_two_regions \
		"readdir_${DIRENTS}" client_reconnects_noted \
		reconnect_after_server_restart client_reconnect_counted device_removal_mid_transfer \
		mountstats_xprt server_sends_less umount_v3 client_transport_gone \
		drc_after_reconnect; do
		log_test 4 "$t"
	done
fi
run_test client_monitor_stop client_monitor_stop
run_test client_disabled_device client_disabled_device
run_test mount_v41 mount_v41
if nfs_is_mounted "$MNT41"; then
	run_test client_address_port0_v41 client_address_port0_v41
	run_test "write_read_${SIZE_MB}M_v41" large_file_v41
	run_test full_size_io_v41 nfs_full_size_io "$MNT41" 4 full-v41
	run_test "readdir_${DIRENTS_V41}_v41" readdir_large_v41
	run_test nfs41_delegation_recall delegation_recall_v41
	run_test umount_v41 umount_v41
else
	for t in client_address_port0_v41 "write_read_${SIZE_MB}M_v41" full_size_io_v41 \
		"readdir_${DIRENTS_V41}_v41" \
		nfs41_delegation_recall umount_v41; do
		log_test 4 "$t"
	done
fi
run_test mount_v42 mount_v42
if nfs_is_mounted "$MNT42"; then
	run_test write_read_16M_v42 nfs_write_verify "$MNT42" 16 data-v42
	run_test full_size_io_v42 nfs_full_size_io "$MNT42" 4 full-v42
	nfs42_checks v42 "$MNT42" xprt
	run_test nconnect_used_v42 nconnect_used_v42
	run_test umount_v42 nfs_umount "$MNT42"
else
	for t in write_read_16M_v42 full_size_io_v42 nconnect_used_v42 umount_v42; do
		log_test 4 "$t"
	done
	nfs42_checks v42 "$MNT42" xprt
fi
run_test ipv6_v3 ipv6_v3
run_test server_stop server_stop
run_test unload_clean client_unload_clean
ktap_finish
