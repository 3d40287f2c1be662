#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rdmactl ping against nfsd: RPC NULL calls over RPC-over-RDMA through this
# module's server transport (in whatever mode the module runs), then, with
# the module reloaded side by side with the in-tree rpcrdma, through both
# servers at once. Every call must be answered, the summary must add up,
# and RPC-level errors (an unknown program, a version nfsd lacks) must show
# as errors, not as replies; SIGINT must end a ping whose output nobody
# reads, and still give the summary to a reader that is only slow.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR
need_rdmactl
nfs_need_server

OUT=$(mktemp)
ERR=$(mktemp)
PING_PID=
cleanup() {
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT" "$ERR"
}
trap cleanup EXIT

# Our server's class and port: "rdma 20049" in drop-in mode, else
# "xrdma 20050".
our_listener() {
	if [ "$(module_mode)" = dropin ]; then echo "rdma 20049"; else echo "xrdma 20050"; fi
}

# ping_all PORT COUNT: COUNT calls, each answered with SUCCESS; the text
# output has a line per reply and a summary; the JSON summary adds up.
ping_all() {
	local port=$1 count=$2 lines

	expect 0 "$RDMACTL" ping -c "$count" -i 0.05 "$XR_ADDR:$port" || return 1
	sed -n '1p;/---/,$p' "$OUT" | sed 's/^/# /'
	lines=$(grep -cE '^seq=[0-9]+ xid=0x[0-9a-f]{8} time=[0-9]+\.[0-9] us$' "$OUT")
	[ "$lines" -eq "$count" ] || fail "$lines reply lines, expected $count" || return 1
	grep -q "^$count sent, $count received, 0 errors, 0 lost" "$OUT" ||
		fail "summary: $(grep sent "$OUT")" || return 1

	expect 0 "$RDMACTL" -j ping -c "$count" -i 0 "$XR_ADDR:$port" || return 1
	json_check ".sent == $count and .received == $count and .lost == 0 and
		.errors == 0 and (.disconnected | not) and .credits >= 1" || return 1
	json_check '.rtt_us | 0 < .min and .min <= .p50 and .p50 <= .p99 and .p99 <= .max and
		.min <= .avg and .avg <= .max' || return 1
	jq -r '.rtt_us as $r | "# -j: credits \(.credits), rtt min/avg/p50/p99/max = " +
		([$r.min, $r.avg, $r.p50, $r.p99, $r.max] | map(. * 10 | round / 10 | tostring) |
		join("/")) + " us"' "$OUT"
}

# ping_into FIFO PORT: a ping of calls without end into FIFO, in the
# background ($PING_PID), once its output fills the pipe and it blocks
# writing a line.
ping_into() {
	"$RDMACTL" ping -c 1000000 -i 0 "$XR_ADDR:$2" >"$1" 2>"$ERR" &
	PING_PID=$!
	# anon_pipe_write from 6.15 on
	wait_for 60 grep -qxE '(anon_)?pipe_write' "/proc/$PING_PID/wchan" ||
		fail "ping never blocked on its output: $(cat "/proc/$PING_PID/wchan" 2>&1)"
}

ping_gone() {
	! kill -0 "$PING_PID" 2>/dev/null
}

# A reader that never reads: SIGINT must still end ping blocked writing a
# line; its summary then waits for the reader, and a second SIGINT ends
# that (as a reader of ping(8) that takes nothing holds it).
stops_with_a_stuck_reader() {
	local port fifo reader rc=0

	port=$(our_listener | cut -d' ' -f2)
	fifo=$(mktemp -u) && mkfifo "$fifo" || return 1
	# shellcheck disable=SC2217 # it holds the pipe open and never reads
	sleep 120 <"$fifo" &
	reader=$!
	ping_into "$fifo" "$port" || rc=1
	kill -INT "$PING_PID"
	wait_for 3 ping_gone || kill -INT "$PING_PID"
	wait_for 5 ping_gone ||
		fail "ping still runs after SIGINT, in $(cat "/proc/$PING_PID/wchan" 2>&1)" || rc=1
	kill -KILL "$PING_PID" "$reader" 2>/dev/null
	wait "$PING_PID" "$reader" 2>/dev/null
	rm -f "$fifo"
	return $rc
}

# A reader that is slow, not gone: the line SIGINT cut short is lost, and
# the summary still comes, once the reader reads.
summary_for_a_slow_reader() {
	local port fifo go reader rc=0

	port=$(our_listener | cut -d' ' -f2)
	fifo=$(mktemp -u) && mkfifo "$fifo" || return 1
	go=$(mktemp -u)
	(
		until [ -e "$go" ]; do sleep 0.1; done
		cat
	) <"$fifo" >"$OUT" &
	reader=$!
	ping_into "$fifo" "$port" || rc=1
	kill -INT "$PING_PID"
	sleep 1
	touch "$go"
	wait_for 10 ping_gone || fail "ping still runs after SIGINT" || rc=1
	wait_for 10 eval "! kill -0 $reader 2>/dev/null" || rc=1
	grep -E '^[0-9]+ sent, [0-9]+ received, .*interrupted$' "$OUT" | sed 's/^/# /'
	grep -qE '^[0-9]+ sent, [0-9]+ received, .*interrupted$' "$OUT" ||
		fail "no summary after SIGINT: $(tail -n 2 "$OUT")" || rc=1
	kill -KILL "$PING_PID" "$reader" 2>/dev/null
	wait "$PING_PID" "$reader" 2>/dev/null
	rm -f "$fifo" "$go"
	return $rc
}

server_start() {
	nfs_server_start || return 1
	# shellcheck disable=SC2046 # "CLASS PORT"
	nfs_listen $(our_listener)
}

ping_our_server() {
	local port

	port=$(our_listener | cut -d' ' -f2)
	echo "# module mode $(module_mode), our server at $XR_ADDR:$port"
	ping_all "$port" 20
}

# Program 100099 is not registered with nfsd: PROG_UNAVAIL; NFS version 9
# does not exist: PROG_MISMATCH. Both are errors (exit 1), with the reason.
rpc_errors_reported() {
	local port

	port=$(our_listener | cut -d' ' -f2)
	expect 1 "$RDMACTL" ping -c 2 -i 0 -P 100099 "$XR_ADDR:$port" || return 1
	grep -q 'rpc error: PROG_UNAVAIL' "$OUT" || fail "no PROG_UNAVAIL: $(cat "$OUT")" || return 1
	grep -q '^2 sent, 0 received, 2 errors, 0 lost' "$OUT" ||
		fail "summary: $(grep sent "$OUT")" || return 1
	expect 1 "$RDMACTL" ping -c 1 -V 9 "$XR_ADDR:$port" || return 1
	grep -qE 'rpc error: PROG_MISMATCH [0-9]+-[0-9]+' "$OUT" ||
		fail "no PROG_MISMATCH: $(cat "$OUT")" || return 1
	# NFSv4's NULL procedure answers as well.
	expect 0 "$RDMACTL" ping -c 2 -i 0 -V 4 "$XR_ADDR:$port"
}

# Nothing listens on port 20051: a clear error, exit 1, no hang.
refused_port() {
	expect 1 "$RDMACTL" ping -c 1 -t 5 "$XR_ADDR:20051" || return 1
	grep -q 'refused' "$ERR" || fail "stderr: $(cat "$ERR")"
}

# The in-tree server needs rpcrdma, which drop-in mode excludes: restart
# nfsd with the module side by side.
reload_side_by_side() {
	nfs_server_stop || fail "nfs_server_stop" || return 1
	if [ "$(module_mode)" != sidebyside ]; then
		rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
		load_rpcrdma || return 1
		insmod "$XR_MODULE" || fail "insmod $XR_MODULE" || return 1
	fi
	load_rpcrdma || return 1
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode)" || return 1
	nfs_server_start || return 1
	nfs_listen rdma 20049 || return 1
	nfs_listen xrdma 20050
}

ping_in_tree_server() {
	ping_all 20049 20
}

ping_ours_beside_in_tree() {
	ping_all 20050 20
}

no_transport_left() {
	nfs_server_stop || fail "nfs_server_stop" || return 1
	wait_for 30 transports_released ||
		fail "live objects left: $("$RDMACTL" -j module show)"
}

ktap_header 10
run_test server_start server_start
run_test ping_our_server ping_our_server
run_test rpc_errors_reported rpc_errors_reported
run_test stops_with_a_stuck_reader stops_with_a_stuck_reader
run_test summary_for_a_slow_reader summary_for_a_slow_reader
run_test refused_port refused_port
run_test reload_side_by_side reload_side_by_side
run_test ping_in_tree_server ping_in_tree_server
run_test ping_ours_beside_in_tree ping_ours_beside_in_tree
run_test no_transport_left no_transport_left
ktap_finish
