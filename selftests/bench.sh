#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel-side RPC benchmark (bench-run) against nfsd: bench_test over
# TCP and over "rdma", which in drop-in mode is xrpcrdma's client talking
# to xrpcrdma's server; then the same through `rdmactl bench`: its JSON
# result, its text, the bench-done event a monitor sees, and Ctrl-C, which
# leaves the benchmark running; and the device's own ceiling (op
# rdma-write and rdma-read) through bench_test and rdmactl. The module is
# reloaded in drop-in mode
# (rpcrdma unloaded and kept out) and loaded back in its default mode at
# the end.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
nfs_need_server
TEST=${OUTPUT:-$XR_TOP/build/selftests}/bench_test
[ -x "$TEST" ] || skip_all "bench_test not built: make -C selftests"
BLOCK=/etc/modprobe.d/xr-bench.conf
OUT=$(mktemp)
ERR=$(mktemp)
MON_LOG=$(mktemp)
MON_PID=

cleanup() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	rm -f "$OUT" "$ERR" "$MON_LOG"
	nfs_server_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	if [ "$(module_mode 2>/dev/null)" = dropin ]; then
		wait_for 30 rmmod xrpcrdma
	fi
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

setup() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod xrpcrdma"; return 1; }
	fi
	if [ -d /sys/module/rpcrdma ]; then
		rmmod rpcrdma || { fail "rmmod rpcrdma"; return 1; }
	fi
	echo "install rpcrdma /bin/false" >"$BLOCK" || return 1
	insmod "$XR_MODULE" mode=dropin || { fail "insmod mode=dropin"; return 1; }
	nfs_server_start && nfs_listen rdma 20049
}

bench() {
	"$TEST" 2>&1 | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "bench_test failed"
}

# The JSON keys of a result, in their order: bench scripts read them.
BENCH_KEYS='["id", "op", "transport", "addr", "port", "program", "version", "count",
"concurrency", "running", "done", "errors", "status", "elapsed-ns", "ops-per-sec",
"lat-p50-ns", "lat-p99-ns", "lat-p999-ns", "lat-max-ns"]'

# bench_result TRANSPORT PORT: $OUT holds the JSON result of a complete
# run of 2000 calls, 16 at a time, to $XR_ADDR:PORT; nothing on stderr
# (no progress bar: it is not a terminal).
bench_result() {
	sed 's/^/# /' "$OUT"
	json_check "keys_unsorted == $BENCH_KEYS" || return 1
	json_check ".op == \"rpc-null\" and .transport == \"$1\" and .addr == \"$XR_ADDR\" and
		.port == $2 and .program == 100003 and .version == 3 and .concurrency == 16" || return 1
	json_check '.running == false and .status == 0 and .done == 2000 and .count == 2000 and
		.errors == 0 and .["ops-per-sec"] > 0 and .["elapsed-ns"] > 0' || return 1
	json_check '0 < .["lat-p50-ns"] and .["lat-p50-ns"] <= .["lat-p99-ns"] and
		.["lat-p99-ns"] <= .["lat-p999-ns"] and .["lat-p999-ns"] <= .["lat-max-ns"]' ||
		return 1
	[ ! -s "$ERR" ] || fail "stderr: $(cat "$ERR")"
}

rdmactl_bench_tcp() {
	expect 0 "$RDMACTL" -j bench run "$XR_ADDR" transport tcp count 2000 concurrency 16 ||
		return 1
	bench_result tcp 2049
}

rdmactl_bench_rdma() {
	expect 0 "$RDMACTL" -j bench run "$XR_ADDR" transport rdma port 20049 count 2000 concurrency 16 ||
		return 1
	bench_result rdma 20049
}

# Calls that make room for 16 KiB of reply offer a Reply chunk each (our
# client in drop-in mode), which our server returns unused with the NULL
# reply inline: every call succeeds, and the result names the setting.
rdmactl_bench_reply_chunk() {
	expect 0 "$RDMACTL" -j bench run "$XR_ADDR" transport rdma port 20049 count 400 \
		concurrency 8 reply-size 16K || return 1
	sed 's/^/# /' "$OUT"
	json_check '.status == 0 and .done == 400 and .errors == 0 and .["reply-size"] == 16384' ||
		return 1
	json_check '(keys_unsorted | index("reply-size")) == (keys_unsorted | index("version")) + 1'
}

# monitor_saw ID: the monitor's log has the bench-done event of benchmark ID.
monitor_saw() {
	jq -e -s --argjson id "$1" 'any(.[]; .event == "bench-done" and .id == $id and
		.done == 2000 and .status == 0)' "$MON_LOG" >/dev/null
}

# A monitor in the background (it has joined the group once --log
# returns) sees the benchmark's bench-done; the text result has the
# benchmark's id and its three lines; bench show lists it, and shows
# nothing to another network namespace.
rdmactl_bench_monitored() {
	local id

	MON_PID=$("$RDMACTL" -j monitor --log "$MON_LOG") || fail "rdmactl monitor --log" || return 1
	expect 0 "$RDMACTL" bench run "$XR_ADDR" count 2000 concurrency 16 || return 1
	sed 's/^/# /' "$OUT"
	id=$(sed -n '1s/^\([0-9][0-9]*\): rpc-null tcp server .* finished$/\1/p' "$OUT")
	[ -n "$id" ] || fail "no id on the first line" || return 1
	[ "$(wc -l <"$OUT")" -eq 3 ] || fail "not three lines" || return 1
	grep -q "^    done 2000 errors 0 status 0 " "$OUT" || fail "not all done" || return 1
	wait_for 10 monitor_saw "$id" || fail "no bench-done of $id in the monitor's log:" \
		"$(cat "$MON_LOG")" || return 1
	kill "$MON_PID" && MON_PID=
	expect 0 "$RDMACTL" bench show || return 1
	grep -q "^$id: rpc-null tcp server $XR_ADDR:2049 " "$OUT" ||
		fail "bench show does not list $id" || return 1
	expect 0 "$RDMACTL" -j bench show "$id" || return 1
	json_check ".id == $id and .done == 2000" || return 1
	# Another network namespace sees none of this one's benchmarks.
	expect 0 unshare --net "$RDMACTL" -j bench show || return 1
	json_check '. == []' || return 1
	expect 1 unshare --net "$RDMACTL" bench show "$id" || return 1
	grep -q "no benchmark with that id" "$ERR" || fail "stderr: $(cat "$ERR")"
}

# The device's own ceiling through rdmactl (op rdma-read, rdma-write):
# the JSON of one, with the RDMA op's keys and none of the RPC ones, and
# the text of the other.
rdmactl_bench_ceiling() {
	expect 0 "$RDMACTL" -j bench run "$XR_ADDR" op rdma-read size 1M qps 4 count 32 \
		concurrency 4 || return 1
	sed 's/^/# /' "$OUT"
	json_check '.op == "rdma-read" and .size == 1048576 and .qps == 4 and .count == 32 and
		.concurrency == 4 and .running == false and .status == 0 and .done == 32 and
		.errors == 0 and .port > 0 and .["bytes-per-sec"] >= .["ops-per-sec"] * 1048576 and
		(has("transport") or has("program") or has("version") | not)' || return 1
	expect 0 "$RDMACTL" bench run "$XR_ADDR" op rdma-write size 64K qps 2 count 100 \
		concurrency 8 || return 1
	sed 's/^/# /' "$OUT"
	grep -Eq "^[0-9]+: rdma-write local $XR_ADDR:[0-9]+ size 64KiB qps 2 count 100 concurrency 8 finished$" \
		"$OUT" || fail "not the first line of an rdma-write run" || return 1
	grep -Eq "^    done 100 errors 0 status 0 .* MiB/s [0-9]+\.[0-9]$" "$OUT" ||
		fail "no MiB/s on the second line"
}

bench_running() {
	"$RDMACTL" -j bench show | jq -e 'any(.[]; .running)' >/dev/null
}

# SIGINT (Ctrl-C) ends the wait with exit 1 and a word on how to follow
# the benchmark, which runs on to its end.
rdmactl_bench_interrupted() {
	local pid rc=0

	"$RDMACTL" bench run "$XR_ADDR" count 20000 concurrency 16 >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for 10 bench_running || fail "no benchmark running" || return 1
	kill -INT "$pid"
	wait "$pid" || rc=$?
	sed 's/^/# stderr: /' "$ERR"
	[ "$rc" -eq 1 ] || fail "exit $rc after SIGINT, expected 1" || return 1
	grep -q "goes on in the kernel (it cannot be cancelled); 'rdmactl bench show [0-9]*' shows it" \
		"$ERR" || fail "no word on the benchmark going on" || return 1
	bench_running || fail "the benchmark did not go on" || return 1
	wait_for 120 eval '! bench_running' || fail "still running after 120 s"
}

in_tree_kept_out() {
	[ ! -d /sys/module/rpcrdma ] || fail "rpcrdma was loaded: the rdma bench was not ours"
}

ktap_header 9
run_test setup_dropin_nfsd setup
run_test bench_test bench
run_test rdmactl_bench_tcp rdmactl_bench_tcp
run_test rdmactl_bench_rdma rdmactl_bench_rdma
run_test rdmactl_bench_reply_chunk rdmactl_bench_reply_chunk
run_test rdmactl_bench_ceiling rdmactl_bench_ceiling
run_test rdmactl_bench_monitored rdmactl_bench_monitored
run_test rdmactl_bench_interrupted rdmactl_bench_interrupted
run_test in_tree_kept_out in_tree_kept_out
ktap_finish
