#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of bench/ab-report.py on made-up bench/ab.sh logs: medians
# and ratios to the first module, the ratio of every round, and exit
# status 1 when a round had an error or a module lacks a figure. Then
# bench/report.py's table per 1000 RPCs from made-up bench/guest.sh
# records, and the rest of its figures; bench/profile-report.py's layers
# from made-up perf reports.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
rep=$top/bench/ab-report.py
# shellcheck source=tests/unit.sh
source "$top/tests/unit.sh"

# Three rounds of two modules: medians 200 and 300 (ratio 1.500), while
# the rounds' own ratios are 1.10, 2.00 and 1.00.
cat >"$tmp/ok.log" <<'LOG'
testhost: booting
ab 1 before rpc_c16_ops_s 100.0
ab 1 after rpc_c16_ops_s 110.0
ab 2 before rpc_c16_ops_s 200.0
ab 2 after rpc_c16_ops_s 400.0
ab 3 before rpc_c16_ops_s 300.0
ab 3 after rpc_c16_ops_s 300.0
LOG
out=$("$rep" "$tmp/ok.log" 2>&1) || fail "a clean log failed: $out"
echo "$out" | grep -q '^rpc_c16_ops_s  *before  *200.0  after/before 1.500 \[1.10 2.00 1.00\]$' ||
	fail "wrong summary: $out"

# A round that failed to measure fails the report and is named.
{ cat "$tmp/ok.log"; echo "ab 3 after error measuring"; } >"$tmp/err.log"
if out=$("$rep" "$tmp/err.log" 2>&1); then
	fail "an error round passed"
fi
echo "$out" | grep -q "ab 3 after error measuring" || fail "error not reported: $out"

# A module with no figure at all fails it.
{ cat "$tmp/ok.log"; echo "ab 1 after rand_read_iops 5.0"; } >"$tmp/missing.log"
"$rep" "$tmp/missing.log" >/dev/null 2>&1 && fail "a figure without the first module passed"

# No figures: fails.
echo "testhost: nothing" >"$tmp/none.log"
"$rep" "$tmp/none.log" >/dev/null 2>&1 && fail "an empty log passed"

# bench/report.py's table per 1000 RPCs: medians of three repetitions,
# the counters of each workload divided by its calls; a transport
# without counters (TCP) has none, a workload without them shows n/a.
rec() {
	printf '{"kind":"%s","transport":"%s","vers":"3","rep":%s,"data":{"write_mib_s":1,"xprt":%s}}\n' \
		"$1" "$2" "$3" "$4"
}
{
	rec seq_write xrpcrdma 1 '{"rpcs":64,"read_segs":64,"write_segs":0,"reply_segs":0,"nomsg_calls":0}'
	rec seq_write xrpcrdma 2 '{"rpcs":66,"read_segs":64,"write_segs":2,"reply_segs":0,"nomsg_calls":0}'
	rec seq_write xrpcrdma 3 '{"rpcs":200,"read_segs":100,"write_segs":0,"reply_segs":0,"nomsg_calls":0}'
	rec seq_write in-tree 1 '{"rpcs":1000,"read_segs":250,"write_segs":0,"reply_segs":250,"nomsg_calls":4}'
	echo '{"kind":"seq_write","transport":"tcp","vers":"3","rep":1,"data":{"write_mib_s":1}}'
} >"$tmp/bench.jsonl"
mkdir -p "$tmp/out"
out=$(python3 "$top/bench/report.py" "$tmp/bench.jsonl" "$tmp/out" 2>&1) ||
	fail "report.py failed: $out"
# xrpcrdma: registrations 1000, 1000, 500 (median 1000); RDMA Reads
# 1000, 970, 500 (median 970); Writes 0, 30, 0 (median 0).
grep -qx '| NFSv3 sequential write | xrpcrdma | 66 | 1000 | 970 | 0 | 0 |' "$tmp/out/results.md" ||
	fail "wrong xrpcrdma row: $(grep 'sequential write |' "$tmp/out/results.md")"
grep -qx '| NFSv3 sequential write | in-tree | 1000 | 500 | 250 | 250 | 4 |' "$tmp/out/results.md" ||
	fail "wrong in-tree row: $(grep 'sequential write |' "$tmp/out/results.md")"
grep -qx '| NFSv3 sequential read | xrpcrdma | n/a | n/a | n/a | n/a | n/a |' "$tmp/out/results.md" ||
	fail "a workload without counters: $(grep 'sequential read |' "$tmp/out/results.md")"

# The other figures of bench/report.py from made-up records: each
# sequential figure against the in-kernel ceiling of the RDMA operation
# that moves its payload (write: RDMA Reads; read: RDMA Writes; the best
# repetition, not perftest's figures), the metadata load
# with its ratios, its calls per 1000 RPCs and its latencies per kind,
# and the memory figures with 16 and with 128 peers.
fig() {
	printf '{"kind":"%s","transport":"%s","vers":"%s","rep":%s,"data":%s}\n' "$@"
}
meta() {
	printf '{"ops":%s,"ops_s":%s,"p50_us":1,"p99_us":2,"kinds":{' "$1" "$2"
	printf '"%s":{"ops":1,"p50_us":%s,"p99_us":%s},' create 1500 9000 write 2000 8000 \
		stat 100 500 rename 1000 3000 unlink 1000 4000
	printf '"readdir":{"ops":1,"p50_us":%s,"p99_us":%s}}' "$3" "$4"
	[ -z "${5:-}" ] || printf ',"xprt":%s' "$5"
	printf '}'
}
{
	fig read_bw rxe - 1 '{"mb_s":50}'
	fig read_bw rxe - 2 '{"mb_s":40}'
	fig read_bw rxe - 3 '{"mb_s":60}'
	fig write_bw rxe - 1 '{"mb_s":80}'
	fig kread_bw rxe - 1 '{"mib_s":100}'
	fig kread_bw rxe - 2 '{"mib_s":30}'
	fig kread_bw rxe - 3 '{"error":"rdmactl bench: status -110"}'
	fig kwrite_bw rxe - 1 '{"mib_s":160}'
	fig kwrite_bw rxe - 2 '{"mib_s":70}'
	fig send_bw rxe - 1 '{"mb_s":20}'
	fig seq_write xrpcrdma 3 1 '{"write_mib_s":25,"read_mib_s":0}'
	fig seq_write in-tree 3 1 '{"write_mib_s":20,"read_mib_s":0}'
	fig seq_read xrpcrdma 3 1 '{"write_mib_s":0,"read_mib_s":40}'
	fig meta xrpcrdma 3 1 "$(meta 900 300 20000 50000 \
		'{"rpcs":2000,"read_segs":0,"write_segs":0,"reply_segs":4,"nomsg_calls":0}')"
	fig meta xrpcrdma 3 2 "$(meta 1200 400 24000 60000 \
		'{"rpcs":3000,"read_segs":0,"write_segs":0,"reply_segs":3,"nomsg_calls":0}')"
	fig meta xrpcrdma 3 3 "$(meta 600 200 22000 70000 \
		'{"rpcs":1000,"read_segs":0,"write_segs":0,"reply_segs":2,"nomsg_calls":0}')"
	fig meta in-tree 3 1 "$(meta 750 250 30000 90000)"
	fig meta tcp 3 1 "$(meta 1500 500 10000 30000)"
	fig meta tcp 4.1 1 '{"error":"xr-metaload: worker 2: rename f0001 to f0007: Input/output error"}'
	# NFSv4.1 sequential write: per repetition 0.50, 3.00 and 0.50
	# (median 0.50) though the medians are alike (20 and 20); the
	# fourth repetition has no in-tree figure to pair with.
	fig seq_write xrpcrdma 4.1 1 '{"write_mib_s":10}'
	fig seq_write xrpcrdma 4.1 2 '{"write_mib_s":30}'
	fig seq_write xrpcrdma 4.1 3 '{"write_mib_s":20}'
	fig seq_write xrpcrdma 4.1 4 '{"write_mib_s":90}'
	fig seq_write in-tree 4.1 1 '{"write_mib_s":20}'
	fig seq_write in-tree 4.1 2 '{"write_mib_s":10}'
	fig seq_write in-tree 4.1 3 '{"write_mib_s":40}'
	# RPC NULL at concurrency 16: 0.50 and 3.00, their median 1.75.
	fig rpc_rate xrpcrdma - 1 '{"concurrency":16,"ops-per-sec":100}'
	fig rpc_rate xrpcrdma - 2 '{"concurrency":16,"ops-per-sec":300}'
	fig rpc_rate in-tree - 1 '{"concurrency":16,"ops-per-sec":200}'
	fig rpc_rate in-tree - 2 '{"concurrency":16,"ops-per-sec":100}'
	fig rpc_rate xrpcrdma - 1 '{"concurrency":1,"ops-per-sec":100}'
	fig rpc_rate in-tree - 1 '{"concurrency":1,"ops-per-sec":50}'
	# rdmactl ping: 2 and 4 calls a millisecond for xrpcrdma, 4 and 2
	# for the in-tree one: ratios 0.50 and 2.00.
	fig rpc_null xrpcrdma - 1 '{"rtt_us":[500,500]}'
	fig rpc_null xrpcrdma - 2 '{"rtt_us":[250,250]}'
	fig rpc_null in-tree - 1 '{"rtt_us":[250,250]}'
	fig rpc_null in-tree - 2 '{"rtt_us":[500,500]}'
	fig mem_idle xrpcrdma - 1 '{"kib_per_conn":1100,"conns":16}'
	fig mem_idle xrpcrdma - 2 '{"kib_per_conn":1200,"conns":16}'
	fig mem_idle xrpcrdma - 1 '{"kib_per_conn":1000,"conns":128}'
	fig mem_idle in-tree - 1 '{"kib_per_conn":1300,"conns":16}'
	fig mem_idle in-tree - 1 '{"kib_per_conn":1250,"conns":128}'
	fig mem_mount xrpcrdma - 1 '{"kib_per_mount":3000,"mounts":16}'
	fig mem_mount in-tree - 1 '{"kib_per_mount":6000,"mounts":16}'
	fig mem_mount xrpcrdma - 1 '{"kib_per_mount":3600,"mounts":128}'
	fig mem_mount in-tree - 1 '{"error":"100 of 128 mounts"}'
} >"$tmp/figs.jsonl"
mkdir -p "$tmp/figs"
out=$(python3 "$top/bench/report.py" "$tmp/figs.jsonl" "$tmp/figs" 2>&1) ||
	fail "report.py failed on the figures: $out"
md=$tmp/figs/results.md
# expect_line LINE: results.md has LINE, whole.
expect_line() {
	grep -qxF -- "$1" "$md" || fail "no line '$1' in: $(cat "$md")"
}
# Sequential write 25 MiB/s against the best in-kernel RDMA Reads, 100
# MiB/s; sequential read 40 against the best RDMA Writes, 160 (not
# perftest's medians 50 and 80, nor ib_send_bw's 20).
expect_line '| NFSv3 sequential write, MiB/s | 25.0 | 20.0 | n/a | 1.25 | n/a | 0.25 |'
expect_line '| NFSv3 sequential read, MiB/s | 40.0 | n/a | n/a | n/a | n/a | 0.25 |'
grep -q 'sequential write against the in-kernel RDMA Reads.*sequential read against the in-kernel RDMA Writes' "$md" ||
	fail "the ceilings are not named: $(grep -i ceiling "$md")"
grep -qF -- '- soft-RoCE ceiling: kread_bw: rdmactl bench: status -110' "$md" ||
	fail "the ceiling's error is not shown: $(cat "$md")"
# Metadata ops/s: medians 300, 250 and 500.
expect_line '| NFSv3 metadata load, ops/s | 300.0 | 250.0 | 500.0 | 1.20 | 0.60 | n/a |'
expect_line '| NFSv3 metadata load | xrpcrdma | 2000 | 2 | 0 | 2 | 0 |'
expect_line '| NFSv3 readdir | 22.00 / 60.00 | 30.00 / 90.00 | 10.00 / 30.00 |'
grep -qF -- '- NFSv4.1 metadata load, ops/s, tcp: xr-metaload: worker 2: rename' "$md" ||
	fail "the metadata load's error is not shown: $(cat "$md")"
# Ratios between transports pair the repetitions.
expect_line '| NFSv4.1 sequential write, MiB/s | 25.0 | 20.0 | n/a | 0.50 (0.50 3.00 0.50) | n/a | 0.25 |'
expect_line '| RPC NULL (c=16), ops/s | 200.0 | 150.0 | n/a | 1.75 (0.50 3.00) | n/a | n/a |'
expect_line '| RPC NULL (c=1), ops/s | 100.0 | 50.0 | n/a | 2.00 | n/a | n/a |'
expect_line '| rdmactl ping (c=1), ops/s | 3000.0 | 3000.0 | n/a | 1.25 (0.50 2.00) | n/a | n/a |'
expect_line '| kernel memory per idle server connection, 16 peers, KiB | 1150 | 1300 | n/a | 0.88 | n/a | n/a |'
expect_line '| kernel memory per idle server connection, 128 peers, KiB | 1000 | 1250 | n/a | 0.80 | n/a | n/a |'
expect_line '| kernel memory per idle NFS mount (client and server ends), 128 mounts, KiB | 3600 | n/a | n/a | n/a | n/a | n/a |'
grep -qF -- '- in-tree: 100 of 128 mounts' "$md" || fail "the mounts' error is not shown: $(cat "$md")"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["nfs"]["NFSv3"]["sequential write, MiB/s"]["ceiling"] == "rdma-read", s["nfs"]
assert s["nfs"]["NFSv3"]["sequential read, MiB/s"]["ceiling"] == "rdma-write", s["nfs"]
assert s["ceiling"]["read_bw_mib_s"] == 50 and s["ceiling"]["write_bw_mib_s"] == 80, s["ceiling"]
assert s["ceiling"]["kread_bw_mib_s"] == 100 and s["ceiling"]["kwrite_bw_mib_s"] == 160, s["ceiling"]
assert sorted(s["memory_idle_kib"]) == ["128", "16"], s["memory_idle_kib"]
assert s["metadata_per_kind"]["NFSv3 stat"]["tcp"]["p99_us"] == 500, s["metadata_per_kind"]
' "$tmp/figs/results.json" || fail "results.json: $(cat "$tmp/figs/results.json")"

# bench/profile-report.py: each perf sample goes to the layer of the
# module whose code holds its address (from /proc/modules: the module
# whose text starts last at or before it, within the module's size), the
# idle loop, rxe's CRC (in the kernel's library or a crc32 module), the
# rest of the kernel or user space; a symbol name two modules share does
# not matter. 100 samples: idle 30, transport 10 + 2, rxe 12 + 3 + 1,
# RDMA core 1, SUNRPC 4, NFS 2 + 2, other modules 1, kernel 26 + 1 (an
# address past xrpcrdma's size), user space 5.
prof=$tmp/prof
mkdir -p "$prof"
# samples N ADDRESS SYMBOL: N samples at ADDRESS.
samples() {
	local i

	for ((i = 0; i < $1; i++)); do
		echo "    $2 $3"
	done
}
for t in in-tree xrpcrdma; do
	for w in seq_write seq_read rand_rw meta rpc_null; do
		m=0xffffffffc0
		cat >"$prof/$t.$w.modules" <<MODS
xrpcrdma 65536 0 - Live ${m}a00000 (OE)
rpcrdma 65536 0 - Live ${m}b00000
rdma_rxe 65536 0 - Live ${m}c00000
ib_core 65536 2 rdma_rxe,rpcrdma, Live ${m}d00000
sunrpc 65536 3 - Live ${m}e00000
nfsd 65536 0 - Live ${m}f00000
nfs 65536 0 - Live 0xffffffffc1000000
veth 65536 0 - Live 0xffffffffc1100000
crc32_generic 65536 0 - Live 0xffffffffc1200000
MODS
		{
			samples 30 ffffffff81000010 pv_native_safe_halt
			samples 10 ffffffffc0a00100 xr_reply_finish
			samples 1 ffffffffc0b00100 rpcrdma_reply_handler
			samples 1 ffffffffc0b00200 qp_event_handler
			samples 12 ffffffffc0c00010 rxe_requester
			samples 3 ffffffff81100000 crc32_body
			samples 1 ffffffffc1200010 crc32_update
			samples 1 ffffffffc0d00010 qp_event_handler
			samples 4 ffffffffc0e00010 svc_recv
			samples 2 ffffffffc0f00010 nfsd_dispatch
			samples 2 ffffffffc1000010 nfs_readdir
			samples 1 ffffffffc1100010 veth_xmit
			samples 26 ffffffff81200000 memcpy_orig
			samples 1 ffffffffc0a20000 '[unknown]'
			samples 5 7f0000001234 '[unknown]'
		} >"$prof/$t.$w.samples"
	done
done
echo "failed to mount" >"$prof/xrpcrdma.rpc_null.error"
rm "$prof/xrpcrdma.rpc_null.samples"
sed -i 's/ 0xffffffffc[0-9a-f]*/ 0x0000000000000000/' "$prof/in-tree.rand_rw.modules"
if out=$(python3 "$top/bench/profile-report.py" "$prof" 2>&1); then
	fail "a failed workload passed: $out"
fi
echo "$out" | grep -qxF '| NFSv3 metadata load | xrpcrdma | 30.0 | 12.0 | 16.0 | 1.0 | 4.0 | 4.0 | 1.0 | 27.0 | 5.0 |' ||
	fail "wrong profile row: $out"
echo "$out" | grep -qxF '| RPC NULL at concurrency 16 | xrpcrdma | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a |' ||
	fail "the failed workload's row: $out"
echo "$out" | grep -qxF -- '- RPC NULL at concurrency 16, xrpcrdma: failed to mount' ||
	fail "the failure is not shown: $out"
echo "$out" | grep -qF -- '- NFSv3 4 KiB random read and write, in-tree: no module addresses' ||
	fail "hidden module addresses are not an error: $out"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["in-tree seq_write"]["transport"] == 12, s["in-tree seq_write"]
assert s["xrpcrdma rpc_null"] == {"error": "failed to mount"}, s["xrpcrdma rpc_null"]
' "$prof/profile.json" || fail "profile.json: $(cat "$prof/profile.json")"

[ "$failures" -eq 0 ] && echo "bench reports: all cases pass"
[ "$failures" -eq 0 ]
