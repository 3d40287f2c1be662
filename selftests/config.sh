#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tunables (config-get, config-set) through rdmactl: every one takes a
# value in its range and shows it back, refuses one below and one above
# it with a message naming the limit, and those a server connection shows
# reach the next connection (rdmactl ping to nfsd on our server), as do
# the sizes a client's private data gives, or the defaults when it gives
# none. Live changes: the one that may change is changed, the others are
# refused.
# Ranges and defaults come from the spec's constants in the UAPI header.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR
need_rdmactl
nfs_need_server

UAPI=$XR_TOP/uapi/linux/xrpcrdma.h
TUNABLES="credits client-credits inline-send inline-recv sq-depth rq-depth sendctx-max
	max-frwr-segments connect-timeout reconnect-min reconnect-max idle-timeout
	signal-interval send-timeout"
OUT=$(mktemp)
ERR=$(mktemp)
PING_OUT=$(mktemp)
PING_PID=
# Calls each ping_start sends, 0.1 s apart.
PING_COUNT=100

# The spec's constant for tunable $1: limit $2 is MIN, MAX or DEFAULT.
spec_const() {
	local name

	name=$(echo "$1" | tr 'a-z-' 'A-Z_')
	awk -v c="XRPCRDMA_CONFIG_${name}_$2" '$1 == "#define" && $2 == c { print $3 }' "$UAPI"
}

restore_defaults() {
	local t args=()

	for t in $TUNABLES; do
		args+=("$t" "$(spec_const "$t" DEFAULT)")
	done
	"$RDMACTL" config set "${args[@]}"
}

cleanup() {
	[ -n "$PING_PID" ] && kill "$PING_PID" 2>/dev/null && wait "$PING_PID" 2>/dev/null
	restore_defaults >/dev/null 2>&1
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT" "$ERR" "$PING_OUT"
}
trap cleanup EXIT

our_port() {
	if [ "$(module_mode)" = dropin ]; then echo 20049; else echo 20050; fi
}

our_class() {
	if [ "$(module_mode)" = dropin ]; then echo rdma; else echo xrdma; fi
}

# The value of tunable $1 that config show prints (of transport $2).
shown() {
	"$RDMACTL" -j config show ${2:+transport "$2"} | jq -r --arg k "$1" '.[$k]'
}

server_start() {
	nfs_server_start || return 1
	nfs_listen "$(our_class)" "$(our_port)"
}

# At load every tunable has its spec default, also in the text output.
defaults_at_load() {
	local t

	expect 0 "$RDMACTL" -j config show || return 1
	for t in $TUNABLES; do
		json_check ".[\"$t\"] == $(spec_const "$t" DEFAULT)" || return 1
	done
	expect 0 "$RDMACTL" config show || return 1
	grep -qx "inline-send $(spec_const inline-send DEFAULT)" "$OUT" ||
		fail "text output: $(cat "$OUT")"
}

# Each tunable: its minimum and maximum are taken and shown back; one
# below and one above are refused with the module's message, and leave
# the value as it was.
ranges() {
	local t min max

	for t in $TUNABLES; do
		min=$(spec_const "$t" MIN)
		max=$(spec_const "$t" MAX)
		[ -n "$min" ] && [ -n "$max" ] || fail "$t: no constants in $UAPI" || return 1
		expect 0 "$RDMACTL" config set "$t" "$max" || return 1
		[ "$(shown "$t")" = "$max" ] || fail "$t: set $max, shows $(shown "$t")" || return 1
		expect 0 "$RDMACTL" config set "$t" "$min" || return 1
		[ "$(shown "$t")" = "$min" ] || fail "$t: set $min, shows $(shown "$t")" || return 1
		expect 1 "$RDMACTL" config set "$t" $((max + 1)) || return 1
		grep -q "Invalid argument: $t: above the maximum $max\$" "$ERR" ||
			fail "$t: stderr: $(cat "$ERR")" || return 1
		if [ "$min" -gt 0 ]; then
			expect 1 "$RDMACTL" config set "$t" $((min - 1)) || return 1
			grep -q "Invalid argument: $t: below the minimum $min\$" "$ERR" ||
				fail "$t: stderr: $(cat "$ERR")" || return 1
		fi
		[ "$(shown "$t")" = "$min" ] || fail "$t: changed by a refused value" || return 1
		echo "# $t: $min-$max"
	done
	restore_defaults
}

# One refused value refuses the whole request.
all_or_nothing() {
	expect 1 "$RDMACTL" config set credits 100 inline-send 10 || return 1
	grep -q "inline-send: below the minimum" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	[ "$(shown credits)" = "$(spec_const credits DEFAULT)" ] ||
		fail "credits set by a refused request"
}

# reconnect-max is at least reconnect-min (5000 ms by default), whether
# both come in one request or one after the other; a request that would
# break that changes nothing.
reconnect_order() {
	local rc=0

	expect 1 "$RDMACTL" config set reconnect-min 300000 reconnect-max 1000 || return 1
	grep -q "reconnect-max must be at least reconnect-min" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	expect 1 "$RDMACTL" config set reconnect-max 2000 || rc=1
	grep -q "reconnect-max must be at least reconnect-min" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || rc=1
	expect 0 "$RDMACTL" config set reconnect-max 8000 || return 1
	expect 1 "$RDMACTL" config set reconnect-min 9000 || rc=1
	grep -q "reconnect-max must be at least reconnect-min" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || rc=1
	[ "$(shown reconnect-min)" = "$(spec_const reconnect-min DEFAULT)" ] ||
		fail "reconnect-min set by a refused request" || rc=1
	expect 0 "$RDMACTL" config set reconnect-min 8000 || rc=1
	restore_defaults || rc=1
	return $rc
}

# Changing tunables needs CAP_NET_ADMIN; showing them does not.
unprivileged() {
	expect 1 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RDMACTL" config set credits 100 || return 1
	grep -q "Operation not permitted" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 0 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RDMACTL" config show || return 1
	[ "$(shown credits)" = "$(spec_const credits DEFAULT)" ] || fail "credits changed"
}

# A new connection after $1 is up.
new_connection() {
	[ "$(nfs_newest_conn)" -gt "$1" ]
}

# ping_start: a ping of our server that keeps its connection for a while;
# CONN is its connection's id. ping_finish: it ends with every call
# answered.
# ping_start [ARGS...]: rdmactl ping, with ARGS, in the background; its
# connection is CONN.
ping_start() {
	local before

	before=$(nfs_newest_conn)
	"$RDMACTL" ping -c "$PING_COUNT" -i 0.1 "$@" "$XR_ADDR:$(our_port)" >"$PING_OUT" 2>&1 &
	PING_PID=$!
	wait_for 20 new_connection "$before" || fail "no new connection" || return 1
	CONN=$(nfs_newest_conn)
}

ping_finish() {
	local rc=0

	wait "$PING_PID" || rc=$?
	PING_PID=
	[ "$rc" -eq 0 ] || fail "ping exited $rc: $(tail -3 "$PING_OUT")" || return 1
	grep -q "^$PING_COUNT sent, $PING_COUNT received, 0 errors, 0 lost" "$PING_OUT" ||
		fail "ping: $(tail -1 "$PING_OUT")"
}

# transport show -j of connection CONN, into $OUT.
show_conn() {
	expect 0 "$RDMACTL" -j transport show "$CONN"
}

# New defaults reach the next connection (and not the ones before):
# credits, inline sizes, queue depths. rdmactl ping offers 4096 bytes
# both ways, so a smaller inline-send shows as it is. Its receive buffers
# hold what the client says it sends: 4096 with the default inline-recv
# (8192), a smaller inline-recv as it is.
new_connection_takes_defaults() {
	ping_start || return 1
	show_conn || return 1
	# The send queue shown also holds the RDMA Read/Write work requests
	# of each credit, as the device sizes it (soft-RoCE rounds up on
	# 6.12): with the defaults it stays well below 1000.
	json_check '.[0] | .credits == 64 and .inline_send == 4096 and .inline_recv == 4096 and
		.rq_depth == 66 and .sq_depth >= 66 and .sq_depth < 1000' || return 1
	# The receive contexts: credits + 2 posted (a few more while calls are
	# processed), each its inline buffer and at most 1 KiB besides.
	json_check '.[0] | .recvctx_allocated >= 66 and .recvctx_allocated <= 74 and
		.recvctx_allocated * 4096 < .recvctx_bytes and
		.recvctx_bytes <= .recvctx_allocated * (4096 + 1024)' || return 1
	ping_finish || return 1

	expect 0 "$RDMACTL" config set credits 32 inline-send 2048 inline-recv 2048 \
		sq-depth 1000 rq-depth 200 || return 1
	ping_start || return 1
	show_conn || return 1
	json_check '.[0] | .credits == 32 and .inline_send == 2048 and .inline_recv == 2048 and
		.rq_depth == 200 and .sq_depth >= 1000' || return 1
	json_check '.[0] | .recvctx_allocated >= 34 and .recvctx_allocated <= 42 and
		.recvctx_allocated * 2048 < .recvctx_bytes and
		.recvctx_bytes <= .recvctx_allocated * (2048 + 1024)' || return 1
	# The connection's own values are the defaults of its creation.
	expect 0 "$RDMACTL" -j config show transport "$CONN" || return 1
	json_check ".[\"transport-id\"] == $CONN and .credits == 32 and
		.[\"inline-send\"] == 2048 and .[\"sq-depth\"] == 1000 and .[\"rq-depth\"] == 200 and
		(has(\"idle-timeout\") | not)" || return 1
	# rq-depth never goes below credits + 2.
	expect 0 "$RDMACTL" config set rq-depth 6 || return 1
	[ "$(shown rq-depth "$CONN")" = 200 ] || fail "a default changed a live connection" ||
		return 1
	ping_finish || return 1
	ping_start || return 1
	show_conn || return 1
	json_check '.[0].rq_depth == 34' || return 1
	ping_finish || return 1
	restore_defaults
}

# An inline-send that is no multiple of 1024 (3000): RFC 8797 private
# data carries 2048 for it, and the connection sends no more than that
# (rdmactl ping receives 4096), since a client may size its Receive
# buffers by what it was told.
inline_send_as_advertised() {
	expect 0 "$RDMACTL" config set inline-send 3000 || return 1
	ping_start || return 1
	show_conn || return 1
	json_check '.[0].inline_send == 2048' || return 1
	ping_finish || return 1
	restore_defaults
}

# A client's private data as the server meets it (rdmactl ping
# --private-data): none, as from a client older than RFC 8797; data to
# be taken as none (7 bytes, another Format Identifier, Version 2); and
# RFC 8797's with every reserved flag bit set, which are to be ignored.
# Taken as none, the client receives 1024 bytes inline (RFC 8166's
# default), and the connection sends it no more; its Receives still
# hold 4096, what clients have sent without saying so. With the
# reserved bits set the sizes count as given (4096 both ways). Every
# connection answers its calls.
peer_private_data() {
	local kind send rc=0

	for kind in none short bad-magic version-2 reserved-flags; do
		[ "$kind" = reserved-flags ] && send=4096 || send=1024
		ping_start --private-data "$kind" || { rc=1; continue; }
		show_conn || rc=1
		echo "# $kind: $(jq -c '.[0] | {inline_send, inline_recv}' "$OUT")"
		json_check ".[0] | .inline_send == $send and .inline_recv == 4096" ||
			fail "private data $kind" || rc=1
		ping_finish || rc=1
	done
	return $rc
}

# The largest queue depths and credits the tunables allow: the
# connection is made and answers, and grants no more credits than its
# receive queue holds besides the two backchannel Receives. A device
# that holds fewer work requests gets its own depths and fewer credits
# (soft-RoCE holds 2^20, so here they are those asked for).
device_limits() {
	local rc=0

	expect 0 "$RDMACTL" config set credits 16384 sq-depth 16384 rq-depth 16384 || return 1
	ping_start || rc=1
	[ "$rc" -eq 0 ] && { show_conn || rc=1; }
	[ "$rc" -eq 0 ] && echo "# $(jq -c '.[0] | {credits, sq_depth, rq_depth}' "$OUT")"
	[ "$rc" -eq 0 ] && { json_check '.[0] | .credits >= 64 and .credits + 2 <= .rq_depth and
		.sq_depth >= 64' || rc=1; }
	[ "$rc" -eq 0 ] && { ping_finish || rc=1; }
	restore_defaults || rc=1
	return $rc
}

# On a live connection, sendctx-max changes and caps the send contexts;
# the others are refused, naming the tunable; a listener has no values.
live_values() {
	local listener

	expect 0 "$RDMACTL" config set sendctx-max 2 || return 1
	ping_start || return 1
	[ "$(shown sendctx-max "$CONN")" = 2 ] || fail "sendctx-max of a new connection" ||
		return 1
	expect 0 "$RDMACTL" config set sendctx-max 3 transport "$CONN" || return 1
	[ "$(shown sendctx-max "$CONN")" = 3 ] || fail "live sendctx-max not shown" || return 1
	[ "$(shown sendctx-max)" = 2 ] || fail "a live change changed the default" || return 1
	expect 1 "$RDMACTL" config set credits 16 transport "$CONN" || return 1
	grep -q "credits: cannot change on a live transport" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	expect 1 "$RDMACTL" config set sendctx-max 70000 transport "$CONN" || return 1
	grep -q "sendctx-max: above the maximum 65536" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	show_conn || return 1
	json_check '.[0].sendctx_allocated | . >= 1 and . <= 3' || return 1
	ping_finish || return 1

	listener=$("$RDMACTL" -j transport show |
		jq -r 'first(.[] | select(.role == "server-listener")) | .id')
	expect 1 "$RDMACTL" config show transport "$listener" || return 1
	grep -q "a listener has no values of its own" "$ERR" || fail "stderr: $(cat "$ERR")" ||
		return 1
	expect 1 "$RDMACTL" config set sendctx-max 1 transport 4000000000 || return 1
	grep -q "no transport with that id" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	restore_defaults
}

# signal-interval: with 1 every reply's Send asks for a completion; with 8
# one in eight does (the rest are retired by the next one that does), and
# every call is still answered. Counted module-wide, so the connection
# may be gone when the counters are read.
signal_interval() {
	local before_s before_r sig replies

	expect 0 "$RDMACTL" config set signal-interval 1 || return 1
	before_s=$(server_counter sends-signaled) && before_r=$(server_counter replies-inline) ||
		fail "no server counters" || return 1
	ping_start && ping_finish || return 1
	sig=$(($(server_counter sends-signaled) - before_s))
	replies=$(($(server_counter replies-inline) - before_r))
	echo "# signal-interval 1: $replies replies, $sig signaled"
	[ "$replies" -ge 100 ] && [ "$sig" -eq "$replies" ] ||
		fail "signal-interval 1: $sig of $replies signaled" || return 1

	expect 0 "$RDMACTL" config set signal-interval 8 || return 1
	before_s=$(server_counter sends-signaled) && before_r=$(server_counter replies-inline)
	ping_start || return 1
	[ "$(shown signal-interval "$CONN")" = 8 ] || fail "signal-interval of a new connection" ||
		return 1
	ping_finish || return 1
	sig=$(($(server_counter sends-signaled) - before_s))
	replies=$(($(server_counter replies-inline) - before_r))
	echo "# signal-interval 8: $replies replies, $sig signaled"
	[ "$replies" -ge 100 ] && [ "$sig" -ge 1 ] && [ $((sig * 4)) -le "$replies" ] ||
		fail "signal-interval 8: $sig of $replies signaled" || return 1
	restore_defaults
}

no_transport_left() {
	nfs_server_stop || fail "nfs_server_stop" || return 1
	wait_for 30 transports_released ||
		fail "live objects left: $("$RDMACTL" -j module show)"
}

ktap_header 13
run_test defaults_at_load defaults_at_load
run_test ranges ranges
run_test all_or_nothing all_or_nothing
run_test reconnect_order reconnect_order
run_test unprivileged unprivileged
run_test server_start server_start
run_test new_connection_takes_defaults new_connection_takes_defaults
run_test inline_send_as_advertised inline_send_as_advertised
run_test peer_private_data peer_private_data
run_test live_values live_values
run_test device_limits device_limits
run_test signal_interval signal_interval
run_test no_transport_left no_transport_left
ktap_finish
