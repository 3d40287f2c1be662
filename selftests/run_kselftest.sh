#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run_kselftest.sh TEST...: run each test with the timeout from ./settings
# and report them as one KTAP document, each test's own output indented
# under it. Exit status 0 when no test failed.
set -u

cd "$(dirname "$0")" || exit 1
timeout_s=$(sed -n 's/^timeout=//p' settings 2>/dev/null)
timeout_s=${timeout_s:-300}

echo "TAP version 13"
echo "1..$#"
n=0
failed=0
for t in "$@"; do
	n=$((n + 1))
	name=$(basename "$t")
	echo "# selftests: xrpcrdma: $name"
	rc=0
	start=$SECONDS
	# A test may have a bound of its own: "timeout.NAME=S" in settings.
	t_s=$(sed -n "s/^timeout\.$name=//p" settings 2>/dev/null)
	t_s=${t_s:-$timeout_s}
	timeout --foreground "$t_s" "$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	echo "# $name: $((SECONDS - start)) s"
	case "$rc" in
	0) echo "ok $n selftests: xrpcrdma: $name" ;;
	4) echo "ok $n selftests: xrpcrdma: $name # SKIP" ;;
	124) echo "not ok $n selftests: xrpcrdma: $name # TIMEOUT $t_s seconds"
	     failed=$((failed + 1)) ;;
	*) echo "not ok $n selftests: xrpcrdma: $name # exit=$rc"
	   failed=$((failed + 1)) ;;
	esac
done
[ "$failed" -eq 0 ]
