# SPDX-License-Identifier: GPL-2.0
# tests/unit.sh: what the host-side unit tests under tests/ share,
# sourced: a scratch directory $tmp, removed on exit, and fail MESSAGE,
# which prints the failure and counts it in $failures.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
