#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of bench/ab-report.py on made-up bench/ab.sh logs: medians
# and ratios to the first module, the ratio of every round, and exit
# status 1 when a round had an error or a module lacks a figure.
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

[ "$failures" -eq 0 ] && echo "ab-report: all cases pass"
[ "$failures" -eq 0 ]
