#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of bench/ab-report.py on made-up bench/ab.sh logs: medians
# and ratios to the first module, the ratio of every round, and exit
# status 1 when a round had an error or a module lacks a figure. Then
# bench/report.py's table per 1000 RPCs from made-up bench/guest.sh
# records.
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

[ "$failures" -eq 0 ] && echo "bench reports: all cases pass"
[ "$failures" -eq 0 ]
