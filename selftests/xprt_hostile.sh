#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The client transport against a hostile server: xr-hostile-server
# (ctl/tools/xr_hostile_server.cpp) answers RPC NULL calls, and on every
# Nth call as its script says a broken or hostile server would: the reply
# twice, an RDMA_ERROR before or after the reply, a reply to no call, a
# header of another version, cut short or of an unknown or obsolete
# procedure, chunks the call never offered (a Write chunk, a Reply chunk,
# RDMA_NOMSG), credit grants of 0 and 2^32-1, a reply longer than the
# client's Receive, one longer than the call's reply buffer but within
# the Receive, and the connection closed under it; and, with calls
# that offer a Reply chunk (bench's reply-size), the reply written into
# the chunk (as the in-tree server answers), the chunk returned unused in
# an RDMA_MSG (as ours does), an RDMA_MSG that says it used the chunk,
# results that claim more than the chunk holds, name another handle or
# nothing at all, and an RDMA Write past the chunk's end. The module, in
# drop-in mode, drives its own RPC client at it (`rdmactl bench run ...
# transport rdma`).
#
# Each script must leave every call completed exactly once: a message the
# client cannot use is dropped (the trace shows it refused each one), the
# real reply that follows completes the call, a broken connection is
# made again and the calls are sent again. Then no client transport is
# left, the kernel logged nothing but the bad replies and receive errors
# the scripts cause, and the module unloads with nothing leaked.
#
# XR_XPRT_HOSTILE_COUNT (default 240) is the calls each script gets;
# XR_XPRT_HOSTILE_CASES, names of cases, runs only those.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
HOSTILE=${XR_HOSTILE_SERVER:-$XR_TOP/build/ctl/xr-hostile-server}
[ -x "$HOSTILE" ] || skip_all "xr-hostile-server not built: $HOSTILE"

PORT=20149
COUNT=${XR_XPRT_HOSTILE_COUNT:-240}
CONCURRENCY=8
BLOCK=/etc/modprobe.d/xr-xprt-hostile.conf
RUN=$(mktemp -d)
OUT=$RUN/out
ERR=$RUN/err
SRV_OUT=$RUN/server.json
TRACE=/sys/kernel/tracing
SRV_PID=
DMESG_FROM=0

server_kill() {
	[ -n "$SRV_PID" ] || return 0
	kill -TERM "$SRV_PID" 2>/dev/null
	wait "$SRV_PID" 2>/dev/null
	SRV_PID=
}

cleanup() {
	server_kill
	echo 0 >"$TRACE/events/xrpcrdma/enable" 2>/dev/null
	echo 0 >"$TRACE/events/sunrpc/enable" 2>/dev/null
	rm -rf "$RUN"
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

setup() {
	load_dropin "$BLOCK" || return 1
	# The scripts that break the connection want it back soon: the
	# client's calls each wait 10 s for their reply.
	"$RDMACTL" config set reconnect-min 1000 reconnect-max 4000 ||
		fail "config set reconnect-min/max" || return 1
	[ -d "$TRACE/events" ] || mount -t tracefs nodev "$TRACE" || fail "tracefs" || return 1
	DMESG_FROM=$(dmesg | wc -l)
}

# server_start SCRIPT EVERY [OPTION...]: xr-hostile-server on
# $XR_ADDR:$PORT, listening.
server_start() {
	local script=$1 every=$2

	shift 2
	rm -f "$RUN/ready"
	"$HOSTILE" --script "$script" --every "$every" --ready "$RUN/ready" "$@" "$XR_ADDR" "$PORT" \
		>"$SRV_OUT" 2>"$RUN/server.err" &
	SRV_PID=$!
	wait_for 10 test -e "$RUN/ready" ||
		fail "xr-hostile-server did not listen: $(cat "$RUN/server.err")"
}

# server_stop: stop it; $SRV_OUT has its counters.
server_stop() {
	server_kill
	[ -s "$SRV_OUT" ] || fail "xr-hostile-server left no counters: $(cat "$RUN/server.err")" ||
		return 1
	sed 's/^/# server: /' "$SRV_OUT"
}

# srv FILTER: the jq FILTER over the server's counters.
srv() {
	jq -r "$1" "$SRV_OUT"
}

# trace_begin: record the replies, and what a connection's end needs to
# be explained by: each close with its reason, completions in error, QP
# events and the RPC layer's own forced disconnects.
trace_begin() {
	local e

	: >"$TRACE/trace"
	echo 1 >"$TRACE/tracing_on" || fail "tracing_on" || return 1
	for e in xrpcrdma_bad_hdr xrpcrdma_reply_done xrpcrdma_reply_rdma_error \
		xrpcrdma_cm_event xrpcrdma_established xrpcrdma_disconnect \
		xrpcrdma_qp_event xrpcrdma_sq_timeout; do
		echo 1 >"$TRACE/events/xrpcrdma/$e/enable" ||
			fail "cannot enable trace event $e" || return 1
	done
	for e in xrpcrdma_wc_send xrpcrdma_wc_receive; do
		echo 'status != 0' >"$TRACE/events/xrpcrdma/$e/filter" &&
			echo 1 >"$TRACE/events/xrpcrdma/$e/enable" ||
			fail "cannot enable trace event $e" || return 1
	done
	for e in xprt_disconnect_force xprt_disconnect_auto xprt_disconnect_done xprt_timer; do
		[ -d "$TRACE/events/sunrpc/$e" ] || continue
		echo 1 >"$TRACE/events/sunrpc/$e/enable" ||
			fail "cannot enable trace event $e" || return 1
	done
}

# closes_traced: the recorded connection ends and what may explain them.
closes_traced() {
	grep -E 'xrpcrdma_(cm_event|established|disconnect|qp_event|sq_timeout|wc_send|wc_receive):|xprt_(disconnect_[a-z]+|timer):' \
		"$RUN/trace" | head -n 40 | sed 's/^/# trace: /'
}

# trace_settle: wait, 5 s at most, until no event has been recorded for
# 300 ms: the reply worker may still be handling a message the server
# sent after the reply that completed the last call.
trace_settle() {
	local before after i

	after=$(wc -l <"$TRACE/trace")
	for i in $(seq 16); do
		before=$after
		sleep 0.3
		after=$(wc -l <"$TRACE/trace")
		[ "$after" != "$before" ] || return 0
	done
	echo "# trace still growing after ${i} rounds"
}

# trace_end: stop recording and keep the trace in $RUN/trace; fails when
# the buffer lost events (the counts would not mean anything).
trace_end() {
	local cpu n

	trace_settle
	echo 0 >"$TRACE/events/xrpcrdma/enable"
	echo 0 >"$TRACE/events/sunrpc/enable" 2>/dev/null
	echo 0 >"$TRACE/events/xrpcrdma/xrpcrdma_wc_send/filter"
	echo 0 >"$TRACE/events/xrpcrdma/xrpcrdma_wc_receive/filter"
	cp "$TRACE/trace" "$RUN/trace"
	for cpu in "$TRACE"/per_cpu/cpu*; do
		n=$(awk '$1 == "overrun:" { print $2 }' "$cpu/stats")
		[ "${n:-0}" = 0 ] || fail "trace buffer overrun on ${cpu##*/}: $n events lost" ||
			return 1
	done
}

# trace_count PATTERN: the recorded events whose line matches PATTERN.
trace_count() {
	grep -cE "$1" "$RUN/trace"
}

# bench: the module's RPC client sends $COUNT NULL calls to the server,
# $CONCURRENCY at a time, with the settings in $BENCH_EXTRA; $OUT has the
# JSON result.
bench() {
	# shellcheck disable=SC2086 # BENCH_EXTRA: settings, split
	expect 0 "$RDMACTL" -j bench run "$XR_ADDR" port "$PORT" transport rdma \
		count "$COUNT" concurrency "$CONCURRENCY" ${BENCH_EXTRA:-} || return 1
	jq -c '{done, errors, status, "ops-per-sec"}' "$OUT" | sed 's/^/# bench: /'
}

# no_client_left: the benchmark's RPC client took its transport with it.
no_client_left() {
	local n

	n=$("$RDMACTL" -j transport show | jq '[.[] | select(.role == "client")] | length')
	[ "$n" = 0 ] || fail "$n client transport(s) left"
}

# run_script SCRIPT EVERY [OPTION...]: one benchmark against the script,
# every EVERY-th call hostile, the server given OPTIONs. Leaves the
# counters in $OUT (bench), $SRV_OUT (server) and $RUN/trace.
run_script() {
	local rc=0

	server_start "$@" || { server_kill; return 1; }
	trace_begin && bench || rc=1
	trace_end || rc=1
	[ "$rc" = 0 ] || closes_traced
	server_stop || return 1
	[ "$rc" = 0 ] || return 1
	wait_for 30 no_client_left || no_client_left || return 1
	json_check ".status == 0 and .done == $COUNT" || return 1
	[ "$1" = good ] || [ "$(srv .hostile)" -gt 0 ] || fail "no hostile turn" || return 1
	completed_once
}

# completed_once: every call was completed by exactly one message, a
# reply or an RDMA_ERROR (xrpcrdma_reply_done with a positive len or
# -5): a second completion of one call is the defect the scripts with two
# messages for one XID look for.
completed_once() {
	local twice n

	grep -E 'xrpcrdma_reply_done: .* len=([1-9][0-9]*|-5)$' "$RUN/trace" |
		grep -oE 'xid=0x[0-9a-f]+' | sort >"$RUN/completed"
	twice=$(uniq -d "$RUN/completed")
	[ -z "$twice" ] || fail "completed twice: $(head -n 5 <<<"$twice" | tr '\n' ' ')" ||
		return 1
	n=$(wc -l <"$RUN/completed")
	[ "$n" = "$COUNT" ] || fail "$n completions traced for $COUNT calls"
}

# clean_completions SCRIPT EVERY: every call succeeded, on one connection.
clean_completions() {
	run_script "$1" "$2" || return 1
	json_check '.errors == 0' || return 1
	[ "$(srv .connections)" = 1 ] && return 0
	closes_traced
	fail "$(srv .connections) connections, expected 1"
}

# refused SCRIPT PATTERN: as clean_completions, and the client refused
# each hostile message: the trace has one event matching PATTERN per
# hostile turn.
refused() {
	local n

	clean_completions "$1" 4 || return 1
	n=$(trace_count "$2")
	[ "$n" = "$(srv .hostile)" ] ||
		fail "$n refusals traced ($2) for $(srv .hostile) hostile messages"
}

case_good() {
	clean_completions good 1 || return 1
	[ "$(srv .calls)" = "$COUNT" ] && [ "$(srv .messages)" = "$COUNT" ] &&
		[ "$(srv .hostile)" = 0 ] ||
		fail "calls $(srv .calls), messages $(srv .messages), hostile $(srv .hostile)"
}

# The second copy of a reply finds its call completed and gone, or, where
# both arrive before the first completes it, answered (-EALREADY).
case_dup() {
	clean_completions dup 4
}

# Two messages with one XID, an RDMA_ERROR and a reply, in either order:
# one completes the call, the other is dropped. The error fails the call
# (EIO) only where it comes first and is handled first.
case_error_then_reply() {
	run_script error-then-reply 4 || return 1
	json_check ".errors <= $(srv .hostile)" || return 1
	[ "$(trace_count xrpcrdma_reply_rdma_error)" = "$(srv .hostile)" ] ||
		fail "RDMA_ERRORs traced: $(trace_count xrpcrdma_reply_rdma_error)"
}

# The same with the reply worker slowed down (fault point reply-delay):
# it finds the call the RDMA_ERROR names and waits, while the Receive
# handler completes the call with the reply, which the server sends 5 ms
# after the error; the worker must then drop the error (-EALREADY), not
# complete the call a second time.
case_error_then_reply_slow_worker() {
	local n

	"$RDMACTL" fault set reply-delay every 1 delay 30 || fail "fault set reply-delay" ||
		return 1
	run_script error-then-reply 1 --gap-ms 5
	local rc=$?
	"$RDMACTL" fault clear reply-delay || fail "fault clear reply-delay" || return 1
	[ "$rc" = 0 ] || return 1
	n=$(trace_count 'xrpcrdma_reply_done: .* len=-114$')
	[ "$n" -gt 0 ] || fail "no RDMA_ERROR was dropped as a second answer"
}

case_reply_then_error() {
	clean_completions reply-then-error 4 || return 1
	[ "$(trace_count xrpcrdma_reply_rdma_error)" = "$(srv .hostile)" ] ||
		fail "RDMA_ERRORs traced: $(trace_count xrpcrdma_reply_rdma_error)"
}

# A reply to no call is dropped without a trace of a call.
case_stray_xid() {
	clean_completions stray-xid 4
}

case_bad_version() {
	refused bad-version 'xrpcrdma_bad_hdr:'
}

case_short() {
	refused short 'xrpcrdma_bad_hdr:'
}

case_short_error() {
	refused short-error 'xrpcrdma_bad_hdr:'
}

case_unknown_proc() {
	refused unknown-proc 'xrpcrdma_bad_hdr:'
}

case_msgp() {
	refused msgp 'xrpcrdma_bad_hdr:'
}

# Chunks the call never offered: the reply cannot be placed (-EBADMSG).
case_write_list() {
	refused write-list 'xrpcrdma_reply_done: .* len=-74$'
}

case_reply_chunk() {
	refused reply-chunk 'xrpcrdma_reply_done: .* len=-74$'
}

case_nomsg() {
	refused nomsg 'xrpcrdma_reply_done: .* len=-74$'
}

case_credits_zero() {
	clean_completions credits-zero 1
}

case_credits_huge() {
	clean_completions credits-huge 1
}

# A reply longer than the client's Receive breaks the connection (the
# Receive completes in error); the client connects again and sends its
# calls again, every one completes.
case_oversize() {
	run_script oversize 60 || return 1
	json_check '.errors == 0' || return 1
	[ "$(srv .connections)" -gt "$(srv .hostile)" ] ||
		fail "$(srv .connections) connections for $(srv .hostile) oversize replies"
}

# A reply padded past what the call's reply buffer holds (1024 bytes for
# an RPC NULL, within the client's Receive): the client keeps what fits
# and completes the call with it, as an RPC over TCP does; the XDR
# decoder has all a NULL reply needs. Dropped as unplaceable (-EBADMSG),
# each such call waited out its RPC timeout and a reconnect, and a
# server that always pads would never get through.
case_overlong() {
	local n

	clean_completions overlong 4 || return 1
	n=$(trace_count 'xrpcrdma_reply_done: .* len=-74$')
	[ "$n" = 0 ] || fail "$n padded replies refused"
}

# Each time the server closes the connection (once the reply's Send has
# completed) the client connects again, but where the last call was the
# one after which it closed (no call left to send).
case_disconnect() {
	local conns disc

	run_script disconnect 60 || return 1
	json_check '.errors == 0' || return 1
	conns=$(srv .connections)
	disc=$(srv .disconnects)
	[ "$disc" -ge 3 ] && [ "$conns" -ge "$disc" ] && [ "$conns" -le "$((disc + 1))" ] ||
		fail "$conns connections for $disc disconnects"
}

# ---- Calls that offer a Reply chunk ----

# The calls make room for 16 KiB of reply: more than the client receives
# inline, so each offers a Reply chunk.
CHUNK="reply-size 16K"

# chunk_used: every call was completed by a reply in its Reply chunk (24
# bytes), and the server wrote each.
chunk_used() {
	local n

	n=$(trace_count 'xrpcrdma_reply_done: .* reply chunk len=24$')
	[ "$n" = "$COUNT" ] || fail "$n replies came through a Reply chunk, of $COUNT" || return 1
	[ "$(srv .writes)" -ge "$COUNT" ] || fail "the server wrote $(srv .writes) replies"
}

# The server answers as the in-tree server does: the reply written into
# the chunk, RDMA_NOMSG.
case_chunk_good() {
	BENCH_EXTRA=$CHUNK clean_completions good 1 || return 1
	chunk_used
}

# Our server's way: RDMA_MSG with the reply inline, the chunk returned
# with every length 0. Valid: nothing may be refused.
case_msg_unused_chunk() {
	BENCH_EXTRA=$CHUNK clean_completions msg-unused-chunk 4 || return 1
	[ "$(trace_count 'xrpcrdma_reply_done: .* len=-')" = 0 ] ||
		fail "$(trace_count 'xrpcrdma_reply_done: .* len=-') valid replies refused"
}

# Results the client must refuse (-EBADMSG), each followed by the real
# reply in the chunk.
case_msg_used_chunk() {
	BENCH_EXTRA=$CHUNK refused msg-used-chunk 'xrpcrdma_reply_done: .* len=-74$'
}

case_chunk_overclaim() {
	BENCH_EXTRA=$CHUNK refused chunk-overclaim 'xrpcrdma_reply_done: .* len=-74$'
}

case_chunk_wrong_handle() {
	BENCH_EXTRA=$CHUNK refused chunk-wrong-handle 'xrpcrdma_reply_done: .* len=-74$'
}

case_chunk_empty() {
	BENCH_EXTRA=$CHUNK refused chunk-empty 'xrpcrdma_reply_done: .* len=-74$'
}

# An RDMA Write past the chunk's end: the client's device refuses it
# (remote access error), the connection breaks, the client connects
# again and sends its calls again, and every one completes.
case_write_past_chunk() {
	BENCH_EXTRA=$CHUNK run_script write-past-chunk 60 || return 1
	json_check '.errors == 0' || return 1
	[ "$(srv .connections)" -gt "$(srv .hostile)" ] ||
		fail "$(srv .connections) connections for $(srv .hostile) Writes past a chunk"
}

# Bad replies are logged (rate limited), so are the Receives the oversize
# replies break, and the access errors the Writes past a chunk raise on
# the client's queue pair (rxe of 7.3 raises an asynchronous event for
# them, 6.12's only fails the Receive); anything else the module says,
# and any kernel warning, is a finding.
EXPECTED='xrpcrdma: (bad reply \(xid [0-9a-f]+\): -?[0-9]+|receive completion.*|queue pair [0-9]+: QP access error|fault point reply-delay (armed|disarmed))$'
kernel_log_clean() {
	local new bad

	new=$(dmesg | tail -n "+$((DMESG_FROM + 1))")
	grep xrpcrdma <<<"$new" | sed 's/^\[[^]]*\] //' | sed -E 's/[0-9a-f]{8}/X/g' |
		sort | uniq -c | sort -rn | head -n 10 | sed 's/^/# dmesg: /'
	bad=$(grep -E 'WARNING:|BUG:|Oops|RIP:|general protection|refcount_t|corruption|blocked for more than|xrpcrdma' <<<"$new" |
		grep -Ev "$EXPECTED")
	[ -z "$bad" ] || { sed 's/^/# unexpected: /' <<<"$bad" | head -n 20; fail "kernel log"; }
}

module_unloads_clean() {
	unload_clean || return 1
	rm -f "$BLOCK"
	insmod "$XR_MODULE" || fail "insmod again"
}

CASES="good dup error_then_reply error_then_reply_slow_worker reply_then_error stray_xid bad_version short short_error
unknown_proc msgp write_list reply_chunk nomsg credits_zero credits_huge oversize overlong
disconnect
chunk_good msg_unused_chunk msg_used_chunk chunk_overclaim chunk_wrong_handle chunk_empty
write_past_chunk"
if [ -n "${XR_XPRT_HOSTILE_CASES:-}" ]; then
	CASES=$XR_XPRT_HOSTILE_CASES
fi

# shellcheck disable=SC2086 # CASES: a list of words
ktap_header $(($(wc -w <<<$CASES) + 3))
run_test setup setup
for c in $CASES; do
	run_test "$c" "case_$c"
done
run_test kernel_log_clean kernel_log_clean
run_test module_unloads_clean module_unloads_clean
ktap_finish
