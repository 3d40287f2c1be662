#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The trace events (tracefs events/xrpcrdma), in one guest with both of
# the module's roles: it is reloaded in drop-in mode (rpcrdma unloaded and
# kept from loading), nfsd listens on "rdma 20049" (our server) and
# mount -o proto=rdma is our client. First an NFSv3 mount, a write, a
# read and a listing with the events disabled: nothing may be recorded.
# Then with every event enabled: a mount, a 2 MiB file written (Read
# chunks) and read back after a remount (Write chunks), a directory of
# 100 entries listed (Reply chunks), and the umount. The recorded trace must have every main
# event, from both roles where both post; sane fields (lengths, sizes,
# statuses, the RPC-over-RDMA version and credits); every completion's
# "cq.id=N cid=M" must pair with an earlier post event of the same kind,
# and no two posts may share a completion ID. The server's RDMA Writes
# go ahead of its reply's Send, unwaited for. Every example line of
# Documentation/tracing.rst must have the form of a recorded line of its
# event (the same fields and words; numbers may differ), so the recipe
# cannot drift from the events. The module is left loaded as auto mode
# finds it.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl
nfs_need_server

PORT=20049
MNT=$NFS_RUN/mnt-trace
BLOCK=/etc/modprobe.d/xr-trace.conf
SIZE_MB=${XR_TRACE_SIZE_MB:-2}
DIRENTS=${XR_TRACE_DIRENTS:-100}
TRACEFS=/sys/kernel/tracing
EVENTS=$TRACEFS/events/xrpcrdma
LOG=$NFS_RUN/trace.txt
DOC=$XR_TOP/Documentation/tracing.rst
BUF_KB_ORIG=

cleanup() {
	[ -w "$EVENTS/enable" ] && echo 0 >"$EVENTS/enable"
	[ -n "$BUF_KB_ORIG" ] && echo "$BUF_KB_ORIG" >"$TRACEFS/buffer_size_kb"
	[ -w "$TRACEFS/trace" ] && : >"$TRACEFS/trace"
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

tracefs_ready() {
	if [ ! -d "$TRACEFS/events" ]; then
		mount -t tracefs nodev "$TRACEFS" || fail "mount tracefs" || return 1
	fi
	[ -w "$TRACEFS/trace" ] || fail "no $TRACEFS/trace" || return 1
	# "7 (expanded: 1408)" until the buffer is first used.
	BUF_KB_ORIG=$(sed -E 's/.*expanded: ([0-9]+).*/\1/; s/ .*//' "$TRACEFS/buffer_size_kb")
	# Room for every event of the workload on each CPU.
	echo 16384 >"$TRACEFS/buffer_size_kb" || fail "buffer_size_kb" || return 1
	echo 1 >"$TRACEFS/tracing_on" || fail "tracing_on" || return 1
	: >"$TRACEFS/trace"
}

reload_dropin() {
	load_dropin "$BLOCK" || return 1
	[ -d "$EVENTS" ] || fail "no $EVENTS after loading the module"
}

# The events every workload below must record.
MAIN_EVENTS="post_send wc_send post_recv wc_receive post_read wc_read
	post_write wc_write post_fastreg post_localinv wc_localinv cm_event
	resolve connect accept established disconnect marshal reply
	reply_done svc_recv svc_reply credits"
# Declared, but only an error or a wait makes them fire.
OTHER_EVENTS="wc_fastreg post_err reject device_removal marshal_failed
	bad_hdr reply_rdma_error svc_send_error sq_full sq_retry
	sendctx_wait sq_timeout sq_probe fault bc_call bc_reply cb_call cb_reply"

events_declared() {
	local e missing=

	for e in $MAIN_EVENTS $OTHER_EVENTS; do
		[ -r "$EVENTS/xrpcrdma_$e/format" ] || missing="$missing $e"
	done
	[ -z "$missing" ] || fail "events missing:$missing" || return 1
	# The in-tree field names, so that scripts carry over.
	if ! grep -q 'field:u32 cq_id;' "$EVENTS/xrpcrdma_wc_send/format" ||
		! grep -q 'field:int completion_id;' "$EVENTS/xrpcrdma_wc_send/format"; then
		fail "xrpcrdma_wc_send has no cq_id/completion_id: $(cat "$EVENTS/xrpcrdma_wc_send/format")"
	fi
}

# workload NAME MIB DIRENTS: mount, write MIB MiB to NAME.bin, read it
# back uncached, list NAME.dir of DIRENTS entries after a remount (so it
# is not cached), umount.
workload() {
	local name=$1 mib=$2 dirents=$3 src=$NFS_DATA/$1.bin want got n

	nfs_mount 3 "$PORT" "$MNT" || return 1
	want=$(nfs_random_file "$src" "$mib") || fail "cannot make $src" || return 1
	nfs_write_file "$src" "$MNT/$name.bin" "$mib" || fail "writing" || return 1
	nfs_make_entries "$MNT/$name.dir" "$dirents" || fail "creating $dirents entries" || return 1
	nfs_umount "$MNT" || fail "umount for the remount" || return 1
	nfs_mount 3 "$PORT" "$MNT" || return 1
	got=$(nfs_read_sha256 "$MNT/$name.bin" "$mib")
	[ "$got" = "$want" ] || fail "sha256 $got, wrote $want" || return 1
	n=$(nfs_count_entries "$MNT/$name.dir") || fail "listing" || return 1
	[ "$n" -eq "$dirents" ] || fail "dir lists $n entries, expected $dirents" || return 1
	rm -f "$src"
	nfs_umount "$MNT"
}

server_start() {
	nfs_server_start && nfs_listen rdma "$PORT" || return 1
	! rpcrdma_loaded || fail "rpcrdma was loaded"
}

# With the events disabled a smaller workload records nothing.
disabled_records_nothing() {
	local n

	[ "$(cat "$EVENTS/enable")" = 0 ] || fail "events enabled at load: $(cat "$EVENTS/enable")" ||
		return 1
	: >"$TRACEFS/trace"
	workload off 1 20 || return 1
	n=$(grep -c ' xrpcrdma_' "$TRACEFS/trace")
	[ "$n" -eq 0 ] || fail "$n events recorded while disabled: $(grep -m3 ' xrpcrdma_' "$TRACEFS/trace")"
}

enabled_workload() {
	local cpu lost=0 n

	: >"$TRACEFS/trace"
	echo 1 >"$EVENTS/enable" || fail "enabling events/xrpcrdma" || return 1
	workload on "$SIZE_MB" "$DIRENTS" || return 1
	# The umount's disconnect completes on the server a little later.
	wait_for 20 nfs_server_objects_at "$LISTENERS" ||
		fail "server connection left: $("$RDMACTL" -j module show)"
	echo 0 >"$EVENTS/enable"
	for cpu in "$TRACEFS"/per_cpu/cpu*; do
		n=$(awk '$1 == "overrun:" { print $2 }' "$cpu/stats")
		lost=$((lost + ${n:-0}))
	done
	[ "$lost" -eq 0 ] || fail "$lost events lost: buffer too small" || return 1
	cat "$TRACEFS/trace" >"$LOG"
	# XR_TRACE_SAVE: keep a copy (in a directory the host sees).
	[ -z "${XR_TRACE_SAVE:-}" ] || cp "$LOG" "$XR_TRACE_SAVE"
	echo "# $(grep -c ' xrpcrdma_' "$LOG") events recorded"
}

# count EVENT [REGEX]: recorded EVENT lines (matching REGEX).
count() {
	grep " xrpcrdma_$1: " "$LOG" | grep -c -E -- "${2:-.}"
}

every_main_event() {
	local e missing=

	for e in $MAIN_EVENTS; do
		[ "$(count "$e")" -gt 0 ] || missing="$missing $e"
	done
	[ -z "$missing" ] || fail "never fired:$missing"
}

both_roles() {
	local e r rc=0

	for e in post_send post_recv; do
		for r in client server; do
			[ "$(count "$e" " $r( |\$)")" -gt 0 ] || fail "no $e from the $r" || rc=1
		done
	done
	# The server reads WRITE data, writes READ data; the client registers.
	[ "$(count post_read ' server ')" -eq "$(count post_read)" ] ||
		fail "RDMA Read by the client" || rc=1
	[ "$(count post_write ' server ')" -eq "$(count post_write)" ] ||
		fail "RDMA Write by the client" || rc=1
	return $rc
}

# insane EVENT REGEX WHAT: fail when a line of EVENT does not match REGEX.
insane() {
	local bad

	bad=$(grep " xrpcrdma_$1: " "$LOG" | grep -v -m1 -E -- "$2")
	[ -z "$bad" ] && return 0
	fail "$1 $3: $bad"
}

sane_fields() {
	local rc=0 ok_status='status=(SUCCESS|WR_FLUSH_ERR) '

	insane post_send 'cq\.id=[0-9]+ cid=[0-9]+ xprt\.id=[1-9][0-9]* (client|server) len=[1-9][0-9]* num_sge=[12] wrs=[1-9]' \
		"with no length, transport or role" || rc=1
	insane post_recv 'cq\.id=[0-9]+ cid=[0-9]+ xprt\.id=[1-9][0-9]* (client|server)$' \
		"malformed" || rc=1
	for e in wc_send wc_read wc_write wc_localinv wc_receive; do
		insane "$e" "$ok_status" "with an error status" || rc=1
	done
	insane wc_receive 'status=SUCCESS .* received=[1-9][0-9]* |status=WR_FLUSH_ERR ' \
		"success with nothing received" || rc=1
	insane post_read 'segments=[1-9][0-9]* wrs=[1-9][0-9]* bytes=[1-9][0-9]*$' "moving nothing" || rc=1
	insane post_write 'segments=[1-9][0-9]* wrs=[1-9][0-9]* bytes=[1-9][0-9]*$' "moving nothing" || rc=1
	insane post_fastreg 'nents=[1-9][0-9]* [1-9][0-9]*@0x[0-9a-f]{16}:0x[0-9a-f]{8} \((TO|FROM)_DEVICE\)$' \
		"registering nothing" || rc=1
	insane post_localinv 'handle=0x[0-9a-f]{8} signaled=[01]$' "malformed" || rc=1
	insane connect 'send_size=[1-9][0-9]{3,} recv_size=[1-9][0-9]{3,} .* rc=0$' "failed" || rc=1
	insane accept 'send_size=[1-9][0-9]{3,} recv_size=[1-9][0-9]{3,} .* rc=0$' "failed" || rc=1
	insane resolve 'rc=0$' "failed" || rc=1
	insane established 'send_size=[1-9][0-9]{3,} recv_size=[1-9][0-9]{3,}' "without the peer's sizes" || rc=1
	insane marshal 'xid=0x[0-9a-f]{8} hdr=[1-9][0-9]* send=[1-9][0-9]* .* (inline|read list|pzrc)/(inline|write list|reply chunk) ' \
		"malformed" || rc=1
	insane reply 'vers=1 credits=[1-9][0-9]* proc=RDMA_(MSG|NOMSG) ' "with a bad version, credits or proc" || rc=1
	insane svc_recv 'vers=1 credits=[1-9][0-9]* proc=RDMA_(MSG|NOMSG) ' "with a bad version, credits or proc" || rc=1
	insane svc_reply 'proc=RDMA_(MSG|NOMSG) credits=[1-9][0-9]* ' "with bad credits or proc" || rc=1
	insane reply_done 'len=[1-9][0-9]*$' "a bad reply" || rc=1
	# Each way of carrying data was seen.
	[ "$(count marshal ' read list/')" -gt 0 ] || fail "no call with a Read list" || rc=1
	[ "$(count marshal '/write list ')" -gt 0 ] || fail "no call offering a Write chunk" || rc=1
	[ "$(count marshal '/reply chunk ')" -gt 0 ] || fail "no call offering a Reply chunk" || rc=1
	[ "$(count svc_reply 'write_chunks=[1-9][0-9]* payload=[1-9]')" -gt 0 ] ||
		fail "no reply with its payload in a Write chunk" || rc=1
	[ "$(count svc_reply 'proc=RDMA_NOMSG')" -gt 0 ] || fail "no reply in a Reply chunk" || rc=1
	[ "$(count disconnect ' by=local ')" -gt 0 ] || fail "no local disconnect" || rc=1
	return $rc
}

# Completion IDs: every completion pairs with an earlier post of its kind;
# no two posts and no two completions share one.
completion_ids_pair() {
	local out

	out=$(awk '
		function kind(ev) {
			sub(/^xrpcrdma_/, "", ev); sub(/:$/, "", ev)
			if (ev == "post_recv" || ev == "wc_receive") return "receive"
			if (ev ~ /^(post|wc)_/) { sub(/^(post|wc)_/, "", ev); return ev }
			return ""
		}
		{
			ev = ""
			for (i = 1; i <= NF; i++)
				if ($i ~ /^xrpcrdma_/) { ev = $i; break }
			if (ev == "" || ev ~ /post_err/) next
			k = kind(ev)
			if (k == "") next
			cq = ""; cid = ""
			for (j = i + 1; j <= NF; j++) {
				if ($j ~ /^cq\.id=/) cq = substr($j, 7)
				if ($j ~ /^cid=/) cid = substr($j, 5)
			}
			if (cq == "" || cid == "") { print "no completion ID: " $0; bad++; next }
			id = cq ":" cid
			if (ev ~ /^xrpcrdma_post_/) {
				if (id in posted) { print "posted twice: " id " " posted[id] " and " k; bad++ }
				posted[id] = k; posts++
			} else {
				if (!(id in posted)) { print "no post before: " $0; bad++ }
				else if (posted[id] != k) { print "posted as " posted[id] ": " $0; bad++ }
				if (id in done) { print "completed twice: " $0; bad++ }
				done[id] = 1; wcs++
			}
		}
		END {
			printf "posts %d completions %d\n", posts, wcs
			if (!posts || !wcs) bad++
			exit bad > 0
		}' "$LOG") || { fail "completion IDs:"; echo "$out" | head -n 20 | sed 's/^/#   /'; return 1; }
	echo "# $out"
}

# The server posts a reply's RDMA Writes and its Send in one chain and
# does not wait for the Writes: the thread that posted a Write chain
# posts its next Send before the Writes' completion is recorded (which
# cannot come before the chain is posted). A server that waited would
# record the completion first. Lines are in the order they happened.
writes_ahead_of_send() {
	local out

	out=$(awk '
		function field(name,   j) {
			for (j = 1; j <= NF; j++)
				if (index($j, name "=") == 1) return substr($j, length(name) + 2)
			return ""
		}
		/ xrpcrdma_post_write: .* server / {
			id = field("cq.id") ":" field("cid")
			pending[$1] = id; writes++
			next
		}
		/ xrpcrdma_post_send: .* server / {
			if ($1 in pending) { sent[pending[$1]] = 1; delete pending[$1] }
			next
		}
		/ xrpcrdma_wc_write: / {
			id = field("cq.id") ":" field("cid")
			if (!(id in sent)) { print "completed before its Send: " $0; bad++ }
		}
		END {
			printf "%d Write chains\n", writes
			if (!writes) bad++
			exit bad > 0
		}' "$LOG") || { fail "Writes waited for:"; echo "$out" | head -n 5 | sed 's/^/#   /'; return 1; }
	echo "# $out"
}

# form: a trace line from its event name on, numbers and hex values
# replaced by N and H (task IDs are hex without 0x).
form() {
	sed -E 's/^.* (xrpcrdma_[a-z_]+: )/\1/; s/task:[0-9a-f]+@[0-9a-f]+/task:H@H/g
		s/0x[0-9a-f]+/H/g; s/[0-9]+/N/g'
}

# The example lines of the tracing recipe (its text blocks' lines that
# start with an xrpcrdma event) each have the form of a recorded line.
doc_example_matches() {
	local forms line want ev n=0 rc=0

	[ -r "$DOC" ] || fail "cannot read $DOC" || return 1
	forms=$(grep ' xrpcrdma_' "$LOG" | form | sort -u)
	while read -r line; do
		n=$((n + 1))
		want=$(form <<<"$line")
		grep -qxF -- "$want" <<<"$forms" && continue
		ev=${want%%:*}
		fail "tracing.rst: no recorded $ev line has the form of: $line"
		grep -F -m2 -- "$ev: " <<<"$forms" | sed 's/^/#   recorded: /'
		rc=1
	done < <(sed -nE 's/^ +(xrpcrdma_[a-z_]+: )/\1/p' "$DOC")
	[ "$n" -gt 0 ] || fail "no example lines in $DOC" || rc=1
	echo "# $n example lines"
	return $rc
}

# The events left disabled record nothing while the module works.
disabled_again() {
	local n

	: >"$TRACEFS/trace"
	nfs_mount 3 "$PORT" "$MNT" || return 1
	ls "$MNT" >/dev/null || fail "ls" || return 1
	nfs_umount "$MNT" || return 1
	n=$(grep -c ' xrpcrdma_' "$TRACEFS/trace")
	[ "$n" -eq 0 ] || fail "$n events recorded after disabling"
}

server_stop() {
	nfs_server_stop
}

unload() {
	unload_clean || return 1
	rm -f "$BLOCK"
	insmod "$XR_MODULE" || fail "insmod again"
}

ktap_header 14
run_test tracefs_ready tracefs_ready
run_test reload_dropin reload_dropin
run_test events_declared events_declared
run_test server_start server_start
LISTENERS=$(live_objects svc-xprt)
run_test disabled_records_nothing disabled_records_nothing
rm -f "$LOG"
run_test enabled_workload enabled_workload
if [ -s "$LOG" ]; then
	run_test every_main_event every_main_event
	run_test both_roles both_roles
	run_test sane_fields sane_fields
	run_test completion_ids_pair completion_ids_pair
	run_test writes_ahead_of_send writes_ahead_of_send
	run_test doc_example_matches doc_example_matches
else
	for t in every_main_event both_roles sane_fields completion_ids_pair \
		writes_ahead_of_send doc_example_matches; do
		log_test 1 "$t"
	done
fi
run_test disabled_again disabled_again
run_test server_stop_unload eval 'server_stop && unload'
ktap_finish
