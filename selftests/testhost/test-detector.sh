#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of the test host (run.sh): each case boots the guest once and
# checks that run.sh fails when it must (a kernel WARN, a foreign taint, a
# module that cannot unload, a panic, a guest that dies) and passes the command's status through when
# the guest is clean. Owns the self-test modules' builds
# (build/testhost/<module>-KVER/) and prints KTAP-style results.
#
# usage: test-detector.sh [--kernel KVER] [--keep-logs DIR]

set -euo pipefail

HERE=$(cd "$(dirname "$(realpath "${BASH_SOURCE[0]}")")" && pwd)
readonly HERE
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"
readonly RUN=$HERE/run.sh PAIR=$HERE/pair.sh
readonly PLAN=16

KVER=
BUILD=
WORK=
NTESTS=0
PAIR_LOGS=
NFAILED=0

die() {
	echo "test-detector: $*" >&2
	exit 2
}

cleanup() {
	[[ -z $WORK ]] || rm -rf "$WORK"
}

# Build tests/NAME for KVER in a copy under the build dir; print the .ko.
build_module() {
	local name=$1 src=$HERE/tests/$1 dir ko

	dir=$BUILD/$name-$KVER
	mkdir -p "$dir"
	cp "$src"/*.c "$src/Kbuild" "$dir/"
	if ! make -s -C "/lib/modules/$KVER/build" M="$dir" modules >"$dir/build.log" 2>&1; then
		cat "$dir/build.log" >&2
		die "cannot build $name for $KVER"
	fi
	ko=$(find "$dir" -maxdepth 1 -name '*.ko' | head -n 1)
	[[ -n $ko ]] || die "no .ko from $name"
	echo "$ko"
}

result() {
	local ok=$1 name=$2

	NTESTS=$((NTESTS + 1))
	if ((ok)); then
		echo "ok $NTESTS - $name"
	else
		NFAILED=$((NFAILED + 1))
		echo "not ok $NTESTS - $name"
	fi
}

# Run run.sh with ARGS; sets RC, and OUT/ERR to files with its output.
# The console log stays in the work dir (with --keep-logs DIR, in DIR).
OUT=
ERR=
CONSOLE=
RC=0
KEEP_LOGS=
run_host() {
	CONSOLE=$WORK/console.$NTESTS
	[[ -z $KEEP_LOGS ]] || CONSOLE=$KEEP_LOGS/console.$((NTESTS + 1)).log
	OUT=$WORK/out.$NTESTS
	ERR=$WORK/err.$NTESTS
	RC=0
	"$RUN" --kernel "$KVER" --log "$CONSOLE" "$@" >"$OUT" 2>"$ERR" || RC=$?
}

# Run pair.sh with ARGS, like run_host; its logs go to the work dir.
run_pair() {
	local logs=$WORK/pair.$NTESTS

	[[ -z $KEEP_LOGS ]] || logs=$KEEP_LOGS/pair.$((NTESTS + 1))
	OUT=$WORK/out.$NTESTS
	ERR=$WORK/err.$NTESTS
	RC=0
	PAIR_LOGS=$logs
	"$PAIR" --kernel "$KVER" --timeout 240 --logs "$logs" "$@" >"$OUT" 2>"$ERR" || RC=$?
}

# Say why a case failed, with run.sh's output for context.
explain() {
	echo "# $*"
	echo "# run.sh exited $RC; its stderr (last 40 lines):"
	tail -n 40 "$ERR" | sed 's/^/#   /'
	echo "# its stdout (last 20 lines):"
	tail -n 20 "$OUT" | sed 's/^/#   /'
}

# Each check prints diagnostics on failure and returns non-zero.
expect_rc() {
	[[ $RC == "$1" ]] || { explain "expected exit $1"; return 1; }
}

expect_err() {
	grep -qE -- "$1" "$ERR" || { explain "stderr lacks /$1/"; return 1; }
}

expect_out() {
	grep -qE -- "$1" "$OUT" || { explain "stdout lacks /$1/"; return 1; }
}

case_warn_detected() {
	run_host --no-rxe --module "$1" -- true
	expect_rc 125 &&
		expect_err '^testhost: FAIL: .*WARNING' &&
		expect_err '^testhost: guest kernel log:' &&
		expect_err 'xr testhost detector check' &&
		expect_err '^testhost: trace: xr_testhost_warn frames in the trace' &&
		expect_err '^testhost: trace: WARNING: CPU: [0-9]+ PID: ' &&
		expect_err '^testhost: trace: RIP: .*xr_testhost_warn' &&
		expect_err '^testhost: trace: [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+' &&
		expect_err '^testhost: kernel .*, boot [0-9]+\.[0-9] s, run [0-9]+\.[0-9] s'
}

# A QEMU older than the one trusted under TCG is refused before any boot.
case_old_qemu_refused() {
	local bin=$WORK/old-qemu

	mkdir -p "$bin"
	printf '#!/bin/sh\necho "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7)"\n' \
		>"$bin/qemu-system-x86_64"
	chmod +x "$bin/qemu-system-x86_64"
	PATH=$bin:$PATH run_host -- true
	expect_rc 2 && expect_err '^testhost: QEMU 7\.2\.22 under TCG is known to corrupt'
}

case_clean_true() {
	run_host -- true
	expect_rc 0 && ! grep -q 'testhost: FAIL' "$ERR"
}

case_exit_status() {
	run_host --no-rxe -- sh -c 'echo exiting with 3; exit 3'
	expect_rc 3 && expect_out '^exiting with 3$' && ! grep -q 'testhost: FAIL' "$ERR"
}

# A kernel message printed while the command is half-way through a line
# goes to the console log and leaves the command's line whole.
case_output_apart() {
	run_host --no-rxe -- sh -c 'printf "half a line, "
		echo "xr testhost console check" >/dev/kmsg
		echo "then the rest"'
	expect_rc 0 && expect_out '^half a line, then the rest$' || return 1
	! grep -q 'xr testhost console check' "$OUT" ||
		{ explain "a kernel message reached the command's output"; return 1; }
	grep -q '\] xr testhost console check$' "$CONSOLE" ||
		{ explain "the kernel message is not in the console log"; return 1; }
}

case_taint_detected() {
	# Bit 6 (U) is the taint user space may set on purpose.
	run_host --no-rxe -- sh -c 'echo 64 >/proc/sys/kernel/tainted'
	expect_rc 125 && expect_err '^testhost: FAIL: .*tainted 64 \(U\)'
}

# The clean module path: load with arguments and dependencies, soft-RoCE,
# environment, working directory, a read-write share, then rmmod.
case_module_clean() {
	local ko=$1 share=$WORK/share

	mkdir -p "$share"
	cd "$WORK"
	# shellcheck disable=SC2016 # expanded by the guest's shell
	run_host --module "$ko" --module-args "warn=0" --share "$share" -- \
		sh -c 'set -ex
			test "$XR_TESTHOST" = 1
			test "$XR_RDMA_DEV" = rxe0 && test "$XR_NETDEV" = veth0
			test "$XR_ADDR" = 10.99.0.1
			test "$(cat /sys/module/xr_testhost_warn/parameters/warn)" = N
			test -e "/sys/class/infiniband/$XR_RDMA_DEV"
			case "$PATH" in /usr/local/sbin:*) ;; *) exit 11 ;; esac
			test "$(command -v ip)" != /bin/busybox
			echo "cwd=$PWD"
			echo written >"$1/result"' sh "$share"
	cd - >/dev/null
	expect_rc 0 &&
		expect_out "^cwd=$(cd "$WORK" && pwd -P)\$" &&
		{ [[ $(cat "$share/result" 2>/dev/null) == written ]] ||
			{ explain "share not written"; false; }; }
}

case_crash_detected() {
	run_host --no-rxe -- sh -c 'echo c >/proc/sysrq-trigger; sleep 60'
	expect_rc 125 && expect_err '^testhost: FAIL: .*Kernel panic' &&
		expect_err 'sysrq triggered crash' &&
		expect_err '^testhost: trace: no xrpcrdma frame in the trace' &&
		expect_err '^testhost: trace: sysrq_handle_crash\+0x'
}

# The power-off runs while the command goes on: the command must not
# exec anything after it (an exec over 9p can fail with EIO then, and a
# command that ends reports its status before the guest is gone).
case_guest_died() {
	run_host --no-rxe -- sh -c 'echo o >/proc/sysrq-trigger; while :; do :; done'
	expect_rc 124 && expect_err '^testhost: FAIL: guest died without reporting'
}

# A guest still running at --timeout is stopped and the run fails.
case_timeout() {
	run_host --no-rxe --timeout 30 -- sleep 600
	expect_rc 124 && expect_err '^testhost: FAIL: timeout after 30s'
}

case_rmmod_failure() {
	run_host --no-rxe --module "$1" -- true
	expect_rc 125 && expect_err '^testhost: FAIL: rmmod .*cannot unload'
}

# Each guest checks its environment and reaches the other over the pair's
# network; they meet at a barrier; B has the host pause A. Exits with
# status $1 in guest A and $2 in guest B.
# shellcheck disable=SC2016 # expanded by the guests' shell
readonly PAIR_SCRIPT='set -e
	. "$1/../lib.sh"
	other=B peer=10.99.0.2
	[ "$XR_ROLE" = A ] || { other=A; peer=10.99.0.1; }
	test "$XR_PEER_ADDR" = "$peer" && test "$XR_NETDEV" = eth0
	test "$XR_RDMA_DEV" = rxe0 && test -e "/sys/class/infiniband/rxe0"
	test "$(hostname)" = "xr-testhost-$(echo "$XR_ROLE" | tr AB ab)"
	pair_signal "up-$XR_ROLE"
	pair_wait "up-$other" 120
	busybox ping -c 2 -W 10 "$XR_PEER_ADDR" >/dev/null
	if [ "$XR_ROLE" = B ]; then
		pair_pause A 2
		pair_signal paused
	else
		pair_wait paused 120
	fi
	echo "role $XR_ROLE ok"
	exit "$2"'

case_pair_clean() {
	run_pair -- bash -c "$PAIR_SCRIPT" sh "$HERE" 0
	expect_rc 0 && expect_out '^A: role A ok$' && expect_out '^B: role B ok$' &&
		expect_err '^testhost-pair: pausing guest A for 2 s' &&
		expect_err '^testhost-pair: guest A exit 0, guest B exit 0'
}

# Once both are up, guest A's command fails while B waits for a barrier
# A never reaches: the run fails with A's status, and B's wait ends as
# soon as the host reports A's end.
case_pair_fail_a() {
	# shellcheck disable=SC2016 # expanded by the guests' shell
	run_pair -- bash -c '. "$1/../lib.sh"
		other=B; [ "$XR_ROLE" = A ] || other=A
		pair_signal "up-$XR_ROLE" && pair_wait "up-$other" 120 || exit 9
		[ "$XR_ROLE" = B ] || exit 3
		pair_wait never 200' sh "$HERE"
	expect_rc 3 &&
		expect_out '^B: # FAIL: waiting for never: the pair was aborted \(guest A exit 3\)' &&
		expect_err '^testhost-pair: guest A exit 3, guest B exit 1'
}

# Guest B's command succeeds but B's kernel gets a foreign taint.
case_pair_taint_b() {
	# shellcheck disable=SC2016 # expanded by the guests' shell
	run_pair -- sh -c 'test "$XR_ROLE" = A || echo 64 >/proc/sys/kernel/tainted
		exec bash -c "$1" sh "$2" 0' sh "$PAIR_SCRIPT" "$HERE"
	expect_rc 125 && expect_out '^A: role A ok$' && expect_out '^B: role B ok$' &&
		expect_err '^guest B: FAIL: .*tainted 64 \(U\)' &&
		expect_err '^testhost-pair: guest A exit 0, guest B exit 125'
}

# Guest A has the host kill guest B and boot it again: B's second life
# knows it is one, reaches A over the network, and the pair passes with
# the killed life's logs kept. $1: what B's first life does before it
# waits to be killed (a kernel warning there must fail the run).
# shellcheck disable=SC2016 # expanded by the guests' shell
readonly RESTART_SCRIPT='. "$1/../lib.sh"
	if [ "$XR_ROLE" = A ]; then
		pair_wait up-1 120 && pair_restart B && pair_wait up-2 120 || exit 9
		echo "A saw B restart"
		exit 0
	fi
	life=$(pair_life)
	if [ "$life" = 1 ]; then
		eval "$2"
		pair_signal up-1
		pair_wait never 200
		exit 8
	fi
	busybox ping -c 2 -W 10 "$XR_PEER_ADDR" >/dev/null || exit 7
	echo "B life $life ok"
	pair_signal up-2'

case_pair_restart() {
	run_pair -- bash -c "$RESTART_SCRIPT" sh "$HERE" true
	expect_rc 0 && expect_out '^A: A saw B restart$' && expect_out '^B: B life 2 ok$' &&
		expect_err '^testhost-pair: killing guest B' &&
		expect_err '^testhost-pair: booting guest B again \(life 2\)' &&
		expect_err '^testhost-pair: guest A exit 0, guest B exit 0' || return 1
	[[ -s $PAIR_LOGS/B.life1.console ]] || { explain "no B.life1.console kept"; return 1; }
}

# A kernel warning in the life that is killed still fails the run.
case_pair_restart_warn() {
	run_pair -- bash -c "$RESTART_SCRIPT" sh "$HERE" \
		'echo "WARNING: CPU: 0 PID: 1 at test-detector" >/dev/kmsg'
	expect_rc 125 && expect_err '^testhost-pair: guest B: killed life 1 ended with exit 125'
}

run_case() {
	local name=$1 ok=1

	shift
	"$@" || ok=0
	sed -n -e 's/^testhost: \(kernel .*, boot .*\)/# \1/p' \
		-e 's/^\(guest [AB]: kernel .*, boot .*\)/# \1/p' \
		-e 's/^testhost-pair: \(guest A exit .*\)/# \1/p' "$ERR"
	result "$ok" "$name"
}

main() {
	local want='' warn_ko pin_ko

	while [[ $# -gt 0 ]]; do
		case "$1" in
		--kernel) [[ $# -ge 2 ]] || die "--kernel needs an argument"; want=$2; shift 2 ;;
		--keep-logs)
			[[ $# -ge 2 ]] || die "--keep-logs needs a directory"
			mkdir -p "$2"
			KEEP_LOGS=$(realpath "$2")
			shift 2
			;;
		-h | --help) echo "usage: test-detector.sh [--kernel KVER] [--keep-logs DIR]"; exit 0 ;;
		*) die "unknown argument $1" ;;
		esac
	done
	KVER=$(th_resolve_kernel "$want") || exit 2
	BUILD=$(th_build_dir "$HERE")
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/xr-testhost-selftest.XXXXXX")
	trap cleanup EXIT

	warn_ko=$(build_module warn-module)
	pin_ko=$(build_module pin-module)

	echo "KTAP version 1"
	echo "# kernel $KVER"
	echo "1..$PLAN"
	run_case "detects a kernel WARN" case_warn_detected "$warn_ko"
	run_case "clean run exits 0" case_clean_true
	run_case "passes the command's exit status" case_exit_status
	run_case "keeps kernel messages out of the command's output" case_output_apart
	run_case "detects a foreign taint" case_taint_detected
	run_case "clean module run with rxe, env, cwd and share" case_module_clean "$warn_ko"
	run_case "fails when rmmod fails" case_rmmod_failure "$pin_ko"
	run_case "detects a kernel panic" case_crash_detected
	run_case "fails when the guest dies silently" case_guest_died
	run_case "stops a guest at --timeout" case_timeout
	run_case "pair: network, barrier, pause; both statuses 0" case_pair_clean
	run_case "pair: a failing command in guest A fails the run and ends B's wait" case_pair_fail_a
	run_case "pair: a taint in guest B fails the run" case_pair_taint_b
	run_case "pair: guest B killed and booted again on A's request" case_pair_restart
	run_case "pair: a warning in B's killed life fails the run" case_pair_restart_warn
	run_case "refuses a QEMU too old for TCG" case_old_qemu_refused

	if ((NTESTS != PLAN)); then
		echo "# ran $NTESTS cases, planned $PLAN"
		NFAILED=$((NFAILED + 1))
	fi

	echo "$((NTESTS - NFAILED)) passed, $NFAILED failed"
	((NFAILED == 0))
}

main "$@"
