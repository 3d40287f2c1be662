#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The events group through `rdmactl monitor -j --log FILE`, a daemon: every
# event type the module sends is caused and must show in FILE as one JSON
# object a line: the RDMA device removed and re-added, an nfsd listener
# added and deleted, a connection from rdmactl ping up and down, one cut
# by a completion error, one refused (a client offering no RDMA Read), a
# kernel-side benchmark over TCP to nfsd; then the
# module is unloaded and loaded again, and the same daemon must say so and
# go on logging, and on to a new FILE after a rotation (SIGHUP). Every
# line logged, and rdmactl -j stats show, must be
# valid under the published schemas (ctl/schema).
#
# A completion error comes from a Send larger than the server's receive
# buffers (rdmactl ping --raw). Not covered: a device removed under a live
# connection. Removing it under a live rdmactl ping does not cut the
# connection: rdma_cm waits for the userspace client to release the
# device, so `rdma link delete` returns only once ping is done and the
# connection ends as a plain peer disconnect.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV XR_NETDEV XR_ADDR
need_rdmactl
[ "$(id -u)" -eq 0 ] || skip_all "needs root"
missing=$(nfs_missing_tools)
[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"

LOG=$(mktemp)
OUT=$(mktemp)
MON_PID=

cleanup() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	nfs_server_stop >/dev/null 2>&1
	if ! "$RDMA" link show "$XR_RDMA_DEV/1" >/dev/null 2>&1; then
		"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV"
	fi
	module_loaded || insmod "$XR_MODULE"
	rm -f "$LOG" "$LOG.1" "$OUT"
}
trap cleanup EXIT

# logged FILTER: some line of the log matches the jq FILTER, a boolean
# expression over the event object `e`, e.g. 'e.event == "device-add"'.
# Only lines after line $FROM count.
FROM=0
logged() {
	tail -n +$((FROM + 1)) "$LOG" |
		jq -e -n "[inputs | . as \$e | select($(sed 's/\be\./$e./g' <<<"$1"))] | length > 0" \
		>/dev/null
}

# expect_event TIMEOUT FILTER: wait until the log has a matching event.
expect_event() {
	wait_for "$1" logged "$2" && return 0
	fail "no event matching '$2' within $1 s; the log from line $((FROM + 1)):"
	tail -n +$((FROM + 1)) "$LOG" | sed 's/^/# log: /'
	return 1
}

# mark: later expect_event calls look only at lines logged from now on.
mark() {
	FROM=$(wc -l <"$LOG")
}

monitor_alive() {
	[ -n "$MON_PID" ] && kill -0 "$MON_PID" 2>/dev/null
}

# Our listener's class and port in the module's mode.
our_class() {
	if [ "$(module_mode)" = dropin ]; then echo rdma; else echo xrdma; fi
}
our_port() {
	if [ "$(module_mode)" = dropin ]; then echo 20049; else echo 20050; fi
}

dev_active() {
	"$RDMACTL" -j dev show "$XR_RDMA_DEV" 2>/dev/null |
		jq -e '.[0] | .usable and .ports[0].state == "ACTIVE"' >/dev/null
}

readd_device() {
	"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV" || fail "rdma link add" || return 1
	wait_for 20 dev_active || fail "$XR_RDMA_DEV not active after re-add"
}

monitor_starts() {
	MON_PID=$("$RDMACTL" -j monitor --log "$LOG") || fail "rdmactl monitor --log failed" || return 1
	[[ $MON_PID =~ ^[0-9]+$ ]] || fail "not a PID: '$MON_PID'" || return 1
	monitor_alive || fail "the monitor is not running"
}

device_remove_add() {
	mark
	"$RDMA" link delete "$XR_RDMA_DEV" || fail "rdma link delete" || return 1
	expect_event 10 "e.event == \"device-del\" and e.ifname == \"$XR_RDMA_DEV\"" || return 1
	readd_device || return 1
	expect_event 10 "e.event == \"device-add\" and e.ifname == \"$XR_RDMA_DEV\""
}

listener_add_del() {
	local class port

	nfs_server_start || return 1
	class=$(our_class)
	port=$(our_port)
	mark
	nfs_listen "$class" "$port" || return 1
	expect_event 10 "e.event == \"listener-add\" and e.class == \"$class\" and \
e.local_port == $port and e.serv == \"nfsd\" and e.state == \"listening\"" || return 1
	"$RDMACTL" listener del "$port" || fail "rdmactl listener del $port" || return 1
	expect_event 20 "e.event == \"listener-del\" and e.local_port == $port and \
e.reason == \"local\"" || return 1
	# Back for the connections that follow: nfsd listens again.
	mark
	"$RDMACTL" listener add "$port" || fail "rdmactl listener add $port" || return 1
	expect_event 10 "e.event == \"listener-add\" and e.local_port == $port"
}

connect_disconnect() {
	local port

	port=$(our_port)
	mark
	"$RDMACTL" ping -c 2 -i 0 "$XR_ADDR:$port" >"$OUT" 2>&1 ||
		{ sed 's/^/# ping: /' "$OUT"; fail "rdmactl ping"; return 1; }
	expect_event 10 "e.event == \"transport-connect\" and e.local_port == $port and \
e.peer_addr == \"$XR_ADDR\" and e.credits > 0 and e.state == \"connected\"" || return 1
	expect_event 20 "e.event == \"transport-disconnect\" and e.local_port == $port and \
e.reason == \"peer\" and e.stats[\"calls-received\"] >= 2" || return 1
}

rejected_count() {
	"$RDMACTL" -j stats show | jq -r '.server["connects-rejected"]'
}

# A client that offers to answer no RDMA Read (responder resources 0)
# could never have a Read chunk pulled: the listener refuses it at once,
# counts it and says why; a client that offers one still connects.
connect_reject_no_rdma_read() {
	local port before after

	port=$(our_port)
	before=$(rejected_count) || fail "stats show" || return 1
	mark
	if "$RDMACTL" ping -c 1 -t 5 --responder-resources 0 "$XR_ADDR:$port" >"$OUT" 2>&1; then
		sed 's/^/# ping: /' "$OUT"
		fail "a client offering no RDMA Read was accepted"
		return 1
	fi
	sed 's/^/# ping: /' "$OUT"
	expect_event 10 "e.event == \"connect-reject\" and e.local_port == $port and \
e.peer_addr == \"$XR_ADDR\" and e.reject_reason == \"no-rdma-read\"" || return 1
	after=$(rejected_count) || fail "stats show" || return 1
	[ "$after" -eq $((before + 1)) ] ||
		fail "connects-rejected $before -> $after, expected one more" || return 1
	"$RDMACTL" ping -c 1 -t 5 "$XR_ADDR:$port" >"$OUT" 2>&1 ||
		{ sed 's/^/# ping: /' "$OUT"; fail "a normal ping after the refusal"; return 1; }
}

# stall_report: where a connection's teardown stands when its
# disconnect event is late: the transports still listed, and the kernel
# stacks of nfsd threads and workers that are waiting.
stall_report() {
	local p

	"$RDMACTL" -d transport show 2>&1 | sed 's/^/# stall: /'
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in
		nfsd|kworker*) ;;
		*) continue ;;
		esac
		grep -q '^State:.*[DS] ' "$p/status" 2>/dev/null || continue
		grep -qE 'xr_|ib_drain|svc_|rdma' "$p/stack" 2>/dev/null || continue
		echo "# stall: $(cat "$p/comm") ${p#/proc/}:"
		sed 's/^/# stall:   /' "$p/stack"
	done
	return 0
}

# 8 KiB inline Send to the server's 4096-byte receive buffers: the
# server's Receive completes with a length error, a real completion error
# that the module reports and that closes the connection.
completion_error_oversized() {
	local port big

	port=$(our_port)
	big=$(mktemp)
	python3 -c "
import struct, sys
x = 0x11223344
m = struct.pack('>7I', x, 1, 32, 0, 0, 0, 0)
m += struct.pack('>10I', x, 0, 2, 100003, 3, 0, 0, 0, 0, 0)
sys.stdout.buffer.write(m + bytes(8192 - len(m)))" >"$big" || return 1
	mark
	"$RDMACTL" ping -t 5 --raw "$big" --expect disconnect "$XR_ADDR:$port" >"$OUT" 2>&1 ||
		{ sed 's/^/# ping: /' "$OUT"; rm -f "$big"; fail "rdmactl ping --raw"; return 1; }
	rm -f "$big"
	expect_event 10 "e.event == \"completion-error\" and e.kind == \"recv\" and \
e.device == \"$XR_RDMA_DEV\" and e.transport_id > 0 and e.status > 0" || return 1
	expect_event 20 "e.event == \"transport-disconnect\" and e.local_port == $port and \
e.reason == \"recv-error\"" || { stall_report; return 1; }
	tail -n +$((FROM + 1)) "$LOG" | grep -E '"(completion-error|transport-disconnect)"' |
		sed 's/^/# /'
}

# rdmactl bench run over TCP to nfsd: the benchmark's bench-done has its
# result; bench-progress comes once a second while the calls go out, so
# it is required only of a benchmark that took longer than 2 s.
bench_events() {
	local id elapsed

	mark
	"$RDMACTL" -j bench run "$XR_ADDR" transport tcp count 10000 >"$OUT" 2>&1 ||
		{ sed 's/^/# bench: /' "$OUT"; fail "rdmactl bench run"; return 1; }
	sed 's/^/# /' "$OUT"
	id=$(jq -e .id "$OUT") || return 1
	elapsed=$(jq -e '.["elapsed-ns"]' "$OUT") || return 1
	expect_event 10 "e.event == \"bench-done\" and e.id == $id and e.transport == \"tcp\" and \
e.addr == \"$XR_ADDR\" and e.done == 10000 and e.status == 0 and e.errors == 0" ||
		return 1
	if [ "$elapsed" -gt 2000000000 ]; then
		expect_event 10 "e.event == \"bench-progress\" and e.id == $id and e.count == 10000 and \
e.done > 0" || return 1
	else
		echo "# the benchmark took $elapsed ns: bench-progress not required"
	fi
}

module_reload() {
	mark
	nfs_server_stop || fail "nfs_server_stop" || return 1
	expect_event 20 "e.event == \"listener-del\"" || return 1
	wait_for 30 transports_released || fail "transports left: $("$RDMACTL" -j module show)" ||
		return 1
	rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
	expect_event 10 "e.event == \"module-unload\"" || return 1
	monitor_alive || fail "the monitor died with the module" || return 1
	insmod "$XR_MODULE" || fail "insmod" || return 1
	expect_event 10 "e.event == \"module-load\"" || return 1
	monitor_alive || fail "the monitor died" || return 1
}

logs_after_reload() {
	mark
	"$RDMA" link delete "$XR_RDMA_DEV" || fail "rdma link delete" || return 1
	expect_event 10 "e.event == \"device-del\" and e.ifname == \"$XR_RDMA_DEV\"" || return 1
	readd_device || return 1
	expect_event 10 "e.event == \"device-add\" and e.ifname == \"$XR_RDMA_DEV\""
}

# A log rotation (logrotate's default): the file is moved away and the
# daemon is sent SIGHUP; it opens FILE again at once, and what it logs
# from then on goes there, none of it to the moved file.
log_rotated_on_sighup() {
	local before

	mv "$LOG" "$LOG.1" || return 1
	before=$(wc -l <"$LOG.1")
	kill -HUP "$MON_PID" || fail "kill -HUP" || return 1
	wait_for 5 test -e "$LOG" || fail "no new $LOG after SIGHUP" || return 1
	monitor_alive || fail "the monitor died of SIGHUP" || return 1
	FROM=0
	"$RDMA" link delete "$XR_RDMA_DEV" || fail "rdma link delete" || return 1
	expect_event 10 "e.event == \"device-del\" and e.ifname == \"$XR_RDMA_DEV\"" || return 1
	readd_device || return 1
	expect_event 10 "e.event == \"device-add\" and e.ifname == \"$XR_RDMA_DEV\"" || return 1
	[ "$(wc -l <"$LOG.1")" -eq "$before" ] ||
		fail "lines went to the moved file after SIGHUP: $before -> $(wc -l <"$LOG.1")"
}

every_line_json_with_time() {
	local n

	# Each line alone: one JSON object, with an event and a UTC time.
	n=$(jq -e -R 'fromjson | type == "object" and (.event | length > 0) and
		(.time | endswith("Z"))' "$LOG" | grep -c -x true) &&
		[ "$n" -eq "$(wc -l <"$LOG")" ] ||
		fail "the log is not one JSON object a line with a time" || return 1
	echo "# $n events logged"
	# Each line as the published schema (ctl/schema) has it; stats show
	# too, checked here to start Python once.
	"$RDMACTL" -j stats show >"$OUT" || fail "rdmactl -j stats show" || return 1
	json_schema_check "monitor.v1.json:$LOG:lines" "stats-show.v1.json:$OUT"
}

monitor_stops_on_sigterm() {
	kill -TERM "$MON_PID" || fail "kill" || return 1
	wait_for 5 eval "! kill -0 $MON_PID 2>/dev/null" || fail "still running after SIGTERM" ||
		return 1
	MON_PID=
}

ktap_header 12
run_test monitor_starts monitor_starts
run_test device_remove_add device_remove_add
run_test listener_add_del listener_add_del
run_test connect_disconnect connect_disconnect
run_test connect_reject_no_rdma_read connect_reject_no_rdma_read
run_test completion_error_oversized completion_error_oversized
run_test bench_events bench_events
run_test module_reload module_reload
run_test logs_after_reload logs_after_reload
run_test log_rotated_on_sighup log_rotated_on_sighup
run_test every_line_json_with_time every_line_json_with_time
run_test monitor_stops_on_sigterm monitor_stops_on_sigterm
ktap_finish
