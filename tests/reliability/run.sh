#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of scripts/reliability-report.py on made-up make check logs:
# a clean run passes and yields every table row; each kind of problem
# (a failed case, a fault point not tried, a leak report, a module that
# did not unload) fails it with its own message.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
gen=$top/scripts/reliability-report.py
spec=$top/Documentation/netlink/specs/xrpcrdma.yaml
# shellcheck source=tests/unit.sh
source "$top/tests/unit.sh"
K=6.99.0-test

# A selftests log: every fault point fired once, one hostile input, one
# load case, one release check.
make_logs() {
	local dir=$1 point n=2

	mkdir -p "$dir/pair-$K" "$dir/pair-restart-$K"
	{
		echo "# selftests: xrpcrdma: faults.sh"
		echo "# ok 1 reload_side_by_side"
		for point in $(python3 -c "
import yaml, sys
d = yaml.safe_load(open(sys.argv[1]))
print(' '.join(next(x['entries'] for x in d['definitions'] if x['name'] == 'fault-point')))" "$spec"); do
			echo "# # $point: every 10 times 1 hits 50 fired 1, copy 2 s"
			echo "# ok $n fault_${point//-/_}_under_nfs_load"
			n=$((n + 1))
		done
		echo "ok 1 selftests: xrpcrdma: faults.sh"
		echo "# selftests: xrpcrdma: svc_hostile.sh"
		echo "# # bad_version: rdma_error ERR_VERS 1-1 xid=0x11223344"
		echo "# ok 1 bad_version"
		echo "# selftests: xrpcrdma: wire_fuzz.sh"
		echo "# # wire-fuzz: server inline 4096, seed 8166"
		echo "# # wire-fuzz: sent 1000, reply 310, rdma_error 420 (ERR_VERS 60, ERR_CHUNK 360), disconnected 200, silent 70, malformed 0, batches 20, seed 8166"
		echo "# ok 1 wire_fuzz"
		echo "# selftests: xrpcrdma: stress.sh"
		echo "# # sendctx-waits: 0 -> 12, sq-starves: 0"
		echo "# # tiny_send_queue_no_lost_replies took 4321 ms"
		echo "# ok 1 tiny_send_queue_no_lost_replies"
		echo "# selftests: xrpcrdma: xprt_nfs.sh"
		echo "# ok 1 write_read_64M"
		echo "# ok 2 unload_clean"
	} >"$dir/selftests-$K.log"
	printf 'XR-TESTHOST-RC=0\nXR-TESTHOST-RMMOD=0\nXR-TESTHOST-TAINT=12288\n' \
		>"$dir/guest-$K.console"
	printf '# ok 1 ours_client_write_read_64M_v3\n' >"$dir/selftests-pair-$K.log"
	printf '# ok 1 data_after_restart\n' >"$dir/selftests-pair-restart-$K.log"
	for g in A B; do
		printf 'XR-TESTHOST-RMMOD=0\n' >"$dir/pair-$K/$g.console"
		printf 'XR-TESTHOST-RMMOD=0\n' >"$dir/pair-restart-$K/$g.console"
	done
}

# expect_failure NAME DIR MESSAGE: the report of the logs in DIR exits 1
# with MESSAGE on stderr.
expect_failure() {
	local name=$1 dir=$2 msg=$3

	if python3 "$gen" "$dir" "$spec" "$dir/out.rst" 2>"$dir/err"; then
		fail "$name: passed"
	elif ! grep -q "$msg" "$dir/err"; then
		fail "$name: no '$msg' in: $(cat "$dir/err")"
	fi
}

# expect_problem NAME SED-SCRIPT FILE MESSAGE: break a clean run, expect
# exit 1 and MESSAGE on stderr.
expect_problem() {
	local dir=$tmp/$1

	make_logs "$dir"
	sed -i "$2" "$dir/$3"
	expect_failure "$1" "$dir" "$4"
}

# make_two_kernel_logs DIR: make_logs, and the same single-guest run for
# a second kernel, K2.
K2=6.98.0-test
make_two_kernel_logs() {
	make_logs "$1"
	cp "$1/selftests-$K.log" "$1/selftests-$K2.log"
	cp "$1/guest-$K.console" "$1/guest-$K2.console"
}

make_logs "$tmp/clean"
if ! python3 "$gen" "$tmp/clean" "$spec" "$tmp/clean/out.rst" 2>"$tmp/clean/err"; then
	fail "clean run: $(cat "$tmp/clean/err")"
fi
for want in '``post-send``' '``recv-drop``' '1 of 50 hits, copy 2 s' \
	'rdma_error ERR_VERS 1-1' 'sendctx-waits: 0 -> 12' '``write_read_64M``' \
	'ours_client_write_read_64M_v3' 'xprt_interop.sh guest B' '1 of 1' \
	'``data_after_restart``' 'peer_restart.sh guest A' \
	'420 (ERR_VERS 60, ERR_CHUNK 360)' '20, seed 8166'; do
	grep -qF -- "$want" "$tmp/clean/out.rst" || fail "clean run: no '$want' in the report"
done
# A case's duration is not one of its notes.
! grep -qF 'took 4321 ms' "$tmp/clean/out.rst" || fail "clean run: a duration in the report"

expect_problem failed_case 's/^# ok 1 bad_version/# not ok 1 bad_version/' \
	"selftests-$K.log" 'svc_hostile.sh bad_version failed'
expect_problem wire_fuzz_failed 's/^# ok 1 wire_fuzz/# not ok 1 wire_fuzz/' \
	"selftests-$K.log" 'wire_fuzz.sh wire_fuzz failed'
expect_problem wire_fuzz_no_summary '/^# # wire-fuzz: sent/d' \
	"selftests-$K.log" 'wire_fuzz.sh reported no summary'
expect_problem point_not_tried '/^# # recv-drop:/d' \
	"selftests-$K.log" 'fault point recv-drop not tried'
expect_problem point_never_fired 's/^# # dma-map: \(.*\) fired 1,/# # dma-map: \1 fired 0,/' \
	"selftests-$K.log" 'dma-map never fired'
expect_problem leak '$a [ 9.0] xrpcrdma: 2 sendctx object(s) leaked' \
	"guest-$K.console" 'leaks reported'
expect_problem no_unload 's/RMMOD=0/RMMOD=1/' \
	"pair-$K/B.console" 'xprt_interop.sh guest B: module did not unload'
expect_problem pair_case 's/^# ok/# not ok/' \
	"selftests-pair-$K.log" 'xprt_interop.sh ours_client_write_read_64M_v3 failed'
expect_problem restart_case 's/^# ok/# not ok/' \
	"selftests-pair-restart-$K.log" 'peer_restart.sh data_after_restart failed'
expect_problem restart_no_unload 's/RMMOD=0/RMMOD=1/' \
	"pair-restart-$K/A.console" 'peer_restart.sh guest A: module did not unload'

# make check runs a kernel's selftests in parts, a test host each: the
# same run split in two (faults.sh in part 1, the rest in part 2) gives
# the same report, and each part's console is checked on its own.
make_part_logs() {
	local dir=$1 log

	make_logs "$dir"
	log=$dir/selftests-$K.log
	sed -n '/^# selftests: xrpcrdma: svc_hostile.sh/,$p' "$log" >"$dir/selftests-$K.part2.log"
	sed '/^# selftests: xrpcrdma: svc_hostile.sh/,$d' "$log" >"$dir/selftests-$K.part1.log"
	rm "$log"
	cp "$dir/guest-$K.console" "$dir/guest-$K.part1.console"
	mv "$dir/guest-$K.console" "$dir/guest-$K.part2.console"
}

make_part_logs "$tmp/parts"
if ! python3 "$gen" "$tmp/parts" "$spec" "$tmp/parts/out.rst" 2>"$tmp/parts/err"; then
	fail "parts: $(cat "$tmp/parts/err")"
fi
for want in '``recv-drop``' 'rdma_error ERR_VERS 1-1' "$K, part 1" "$K, part 2"; do
	grep -qF -- "$want" "$tmp/parts/out.rst" || fail "parts: no '$want' in the report"
done
grep -qF -- "$K.part" "$tmp/parts/out.rst" && fail "parts: a part taken for a kernel"
make_part_logs "$tmp/part_leak"
echo '[ 9.0] xrpcrdma: 1 recvctx object(s) leaked' >>"$tmp/part_leak/guest-$K.part2.console"
expect_failure part_leak "$tmp/part_leak" "$K, part 2: leaks reported"
make_part_logs "$tmp/part_rmmod"
sed -i 's/RMMOD=0/RMMOD=1/' "$tmp/part_rmmod/guest-$K.part1.console"
expect_failure part_rmmod "$tmp/part_rmmod" "$K, part 1: module did not unload"

# A kernel that ran no two-guest step (make check runs some on fewer
# kernels): its cells say so, and that is no problem; a pair step that
# ran and lost a case still is.
make_two_kernel_logs "$tmp/no_pair"
if ! python3 "$gen" "$tmp/no_pair" "$spec" "$tmp/no_pair/out.rst" 2>"$tmp/no_pair/err"; then
	fail "no_pair: $(cat "$tmp/no_pair/err")"
fi
grep -qF 'not run on this kernel' "$tmp/no_pair/out.rst" || fail "no_pair: no 'not run on this kernel'"

# A pair of two kernels (guest A on K2, guest B on K): its cases count
# for both kernels, each guest's console for its own kernel.
make_two_kernel_logs "$tmp/cross"
mv "$tmp/cross/selftests-pair-$K.log" "$tmp/cross/selftests-pair-$K2-$K.log"
mv "$tmp/cross/pair-$K" "$tmp/cross/pair-$K2-$K"
if ! python3 "$gen" "$tmp/cross" "$spec" "$tmp/cross/out.rst" 2>"$tmp/cross/err"; then
	fail "cross: $(cat "$tmp/cross/err")"
fi
grep -F 'ours_client_write_read_64M_v3' "$tmp/cross/out.rst" | grep -qF 'not run' &&
	fail "cross: the pair's case is not shown for both kernels"
grep -qF "$K2, xprt_interop.sh guest A" "$tmp/cross/out.rst" ||
	fail "cross: no row for guest A on $K2"
grep -qF "$K, xprt_interop.sh guest B" "$tmp/cross/out.rst" ||
	fail "cross: no row for guest B on $K"
sed -i 's/RMMOD=0/RMMOD=1/' "$tmp/cross/pair-$K2-$K/A.console"
expect_failure cross_rmmod "$tmp/cross" "$K2, xprt_interop.sh guest A: module did not unload"

[ "$failures" -eq 0 ] && echo "reliability-report: all checks passed"
[ "$failures" -eq 0 ]
