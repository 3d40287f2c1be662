#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test host: boots an installed Debian kernel under QEMU with the host
# root file system as the guest root (read-only 9p + tmpfs overlay), or
# with another Debian root (--root DIR: its kernel, its userland; the work
# tree and the job's files are bind-mounted into it from the host), sets up
# soft-RoCE, loads a module, runs one command and reports its exit status.
# Owns the host side of a run: options, the cached initramfs, QEMU, the
# console log, the misbehaviour detector and the verdict. The guest side is
# guest/init (initramfs) and guest/stage2 (PID 1 on the host root).
#
# Two serial ports: the kernel console (ttyS0) goes to the console log,
# the command's output (ttyS1) to stdout. Kept apart, a kernel message
# can never land inside a line the command printed.
#
# Exit status: the command's, when the guest was clean; 125 when the guest
# kernel reported a problem (or the module/soft-RoCE setup or rmmod failed);
# 124 on timeout or when the guest died without reporting; 2 on usage errors.

set -euo pipefail

HERE=$(cd "$(dirname "$(realpath "${BASH_SOURCE[0]}")")" && pwd)
readonly HERE
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"
readonly TAINT_OK=$(((1 << 12) | (1 << 13))) # O (out-of-tree), E (unsigned)
readonly TAINT_LETTERS=PFSRMBUDAWCIOELKXTNJ
readonly EXIT_PROBLEM=125 EXIT_TIMEOUT=124 EXIT_USAGE=2

# Kernel log messages that mean the guest kernel misbehaved (ERE, matched
# against the text after the printk timestamp). "name|regex", first match
# names the failure. A bare "Call Trace:" comes last: a stack dump with no
# other explanation is still a problem in a test run.
# The CPU TCG emulates: the baseline x86-64 model, which moves NFS data
# at least as fast here as "max".
readonly TCG_CPU=qemu64
# The oldest QEMU trusted under TCG. QEMU 7.2 (bookworm's) now and then
# hands a 6.12 guest an EFLAGS with bits no x86-64 CPU can hold (VM, the
# low half of a register) while delivering an interrupt in the slab
# allocator, and the guest dies of a double fault under rxe: twice in a
# row in the two-guest CI steps, with either CPU model. make deps
# installs QEMU from bookworm-backports.
readonly TCG_QEMU_MIN=10.0

readonly DETECTORS=(
	'Kernel panic|Kernel panic'
	'Oops|(^|[^[:alnum:]_])Oops([^[:alnum:]_]|$)'
	'kernel BUG|kernel BUG at'
	'BUG|BUG:'
	'BUG (slab)|^BUG [^ ]+ \('
	'WARNING|^WARNING:|WARNING: CPU: [0-9]+ PID:'
	'general protection fault|general protection fault'
	'die|^[a-z][a-z ]+: [0-9a-f]{4} \[#[0-9]+\]'
	'soft lockup|soft lockup'
	'hard LOCKUP|hard LOCKUP'
	'hung task|hung_task|blocked for more than'
	'refcount_t|refcount_t:'
	'list corruption|list_(add|del) corruption'
	'UBSAN|UBSAN:'
	'kmemleak|suspected memory leak'
	'RCU stall|RCU stall|rcu_[a-z_]+ (self-)?detected stall'
	'Call Trace|Call Trace:'
)

# Options.
KVER_ARG=
ROOT=
MODULE=
MODULE_ARGS=
RXE=1
TIMEOUT=600
LOG=
SHARE=
SMP=2
MEM=2048
ACCEL=tcg
CPU=
PAIR_ROLE=
PAIR_NET=
MONITOR=
CMD=()

# Run state, for the traps.
JOBDIR=
LOGFILE=
KEEP_LOG=1
QEMU_PID=
TIMER_PID=
STREAM_PID=
OUTPUT_PID=
FAILED=0

usage() {
	cat <<'USAGE'
usage: run.sh [--kernel KVER] [--root DIR|--no-root] [--module PATH.ko [--module-args "k=v ..."]]
              [--no-rxe] [--timeout SECONDS] [--log FILE] [--share DIR]
              [--smp N] [--mem MB] [--accel tcg|tcg-multi|kvm] [--cpu MODEL]
              [--pair-role A|B --pair-net SOCKET] [--monitor SOCKET] -- COMMAND [ARGS...]
USAGE
}

say() {
	printf 'testhost: %s\n' "$*" >&2
}

die() {
	say "$*"
	exit "$EXIT_USAGE"
}

need_arg() {
	[[ $# -ge 2 && -n $2 ]] || die "$1 needs an argument"
}

parse_args() {
	while [[ $# -gt 0 ]]; do
		case "$1" in
		--kernel) need_arg "$@"; KVER_ARG=$2; shift 2 ;;
		--root) need_arg "$@"; ROOT=$2; shift 2 ;;
		--no-root) ROOT=; shift ;;
		--module) need_arg "$@"; MODULE=$2; shift 2 ;;
		--module-args) need_arg "$@"; MODULE_ARGS=$2; shift 2 ;;
		--no-rxe) RXE=0; shift ;;
		--timeout) need_arg "$@"; TIMEOUT=$2; shift 2 ;;
		--log) need_arg "$@"; LOG=$2; shift 2 ;;
		--share) need_arg "$@"; SHARE=$2; shift 2 ;;
		--smp) need_arg "$@"; SMP=$2; shift 2 ;;
		--mem) need_arg "$@"; MEM=$2; shift 2 ;;
		--accel) need_arg "$@"; ACCEL=$2; shift 2 ;;
		--cpu) need_arg "$@"; CPU=$2; shift 2 ;;
		--pair-role) need_arg "$@"; PAIR_ROLE=$2; shift 2 ;;
		--pair-net) need_arg "$@"; PAIR_NET=$2; shift 2 ;;
		--monitor) need_arg "$@"; MONITOR=$2; shift 2 ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) usage >&2; die "unknown option $1" ;;
		*) break ;;
		esac
	done
	[[ $# -gt 0 ]] || { usage >&2; die "no command given"; }
	CMD=("$@")

	[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout wants seconds"
	[[ $SMP =~ ^[1-9][0-9]*$ ]] || die "--smp wants a number"
	[[ $MEM =~ ^[1-9][0-9]*$ ]] || die "--mem wants megabytes"
	[[ $ACCEL =~ ^(tcg|tcg-multi|kvm)$ ]] || die "--accel is tcg, tcg-multi or kvm"
	[[ -z $CPU || $CPU =~ ^[A-Za-z0-9_.,=+-]+$ ]] || die "--cpu wants a QEMU CPU model"
	[[ -z $MODULE_ARGS || -n $MODULE ]] || die "--module-args without --module"
	[[ -z $PAIR_ROLE || $PAIR_ROLE =~ ^[AB]$ ]] || die "--pair-role is A or B"
	[[ (-z $PAIR_ROLE && -z $PAIR_NET) || (-n $PAIR_ROLE && -n $PAIR_NET) ]] ||
		die "--pair-role and --pair-net go together"
	[[ -z $PAIR_ROLE || $RXE == 1 ]] || die "--pair-role needs soft-RoCE"
	check_socket_path "$PAIR_NET" --pair-net
	check_socket_path "$MONITOR" --monitor
	check_root
}

# --root: a directory holding a whole Debian system (/boot, /lib/modules).
check_root() {
	[[ -n $ROOT ]] || return 0
	[[ -d $ROOT ]] || die "--root $ROOT is not a directory"
	ROOT=$(realpath "$ROOT")
	[[ $ROOT != / ]] || ROOT=
	[[ $ROOT != *[[:space:],]* ]] || die "--root path must not contain blanks or commas"
}

# A unix socket path QEMU creates or connects to (empty: not used).
check_socket_path() {
	[[ -z $1 ]] && return 0
	[[ $1 == /* ]] || die "$2 wants an absolute path"
	[[ $1 != *[[:space:],]* ]] || die "$2 path must not contain blanks or commas"
	((${#1} < 108)) || die "$2 path is too long for a unix socket"
	[[ -d ${1%/*} ]] || die "$2: no directory ${1%/*}"
}

# True when OUT is missing or older than any of DEPS.
stale() {
	local out=$1 dep

	shift
	[[ -s $out ]] || return 0
	for dep in "$@"; do
		[[ $dep -nt $out ]] && return 0
	done
	return 1
}

# Path of the initramfs for KVER, rebuilt when missing or stale.
ensure_initrd() {
	local kver=$1 out

	out=$(th_build_dir "$HERE")/initrd-$kver.cpio.gz
	if stale "$out" "${BASH_SOURCE[0]}" "$HERE/lib.sh" "$HERE/initrd.sh" \
		"$HERE/guest/init" "$ROOT/boot/vmlinuz-$kver" \
		"$ROOT/lib/modules/$kver/modules.dep" /bin/busybox; then
		"$HERE/initrd.sh" "$kver" "$out" ${ROOT:+"$ROOT"} >&2 || die "cannot build $out"
	fi
	echo "$out"
}

# Kernel image to boot: the uncompressed ELF (PVH entry), cached, or the
# bzImage itself when that cannot be extracted.
ensure_kernel_image() {
	local kver=$1 out

	out=$(th_build_dir "$HERE")/vmlinux-$kver
	if stale "$out" "$HERE/vmlinux.sh" "$ROOT/boot/vmlinuz-$kver"; then
		if ! "$HERE/vmlinux.sh" "$kver" "$out" ${ROOT:+"$ROOT"} >&2; then
			say "booting the compressed $ROOT/boot/vmlinuz-$kver (slower)"
			echo "$ROOT/boot/vmlinuz-$kver"
			return
		fi
	fi
	echo "$out"
}

check_module() {
	local kver=$1 vermagic

	[[ -f $MODULE && -r $MODULE ]] || die "no module file $MODULE"
	MODULE=$(realpath "$MODULE")
	vermagic=$(modinfo -F vermagic "$MODULE" 2>/dev/null) ||
		die "$MODULE is not a kernel module"
	[[ $vermagic == "$kver "* ]] ||
		die "$MODULE is built for ${vermagic%% *}, not $kver"
}

check_share() {
	[[ -d $SHARE ]] || die "--share $SHARE is not a directory"
	SHARE=$(realpath "$SHARE")
	[[ $SHARE != / ]] || die "--share / makes no sense"
	[[ $SHARE != *[[:space:]]* ]] || die "--share path must not contain blanks"
}

# Seconds the guest allows the command, leaving room for boot and report.
guest_cmd_timeout() {
	if ((TIMEOUT >= 80)); then
		echo $((TIMEOUT - 50))
	else
		echo 0
	fi
}

make_jobdir() {
	local base=${TMPDIR:-/tmp}

	[[ $base != *[[:space:]]* ]] || base=/tmp
	JOBDIR=$(mktemp -d "$base/xr-testhost.XXXXXX")
	cp "$HERE/guest/stage2" "$JOBDIR/stage2"
	chmod 0755 "$JOBDIR" "$JOBDIR/stage2"
}

write_job_env() {
	local kver=$1

	{
		printf 'XR_KVER=%q\n' "$kver"
		printf 'XR_CWD=%q\n' "$(pwd -P)"
		printf 'XR_MODULE=%q\n' "$MODULE"
		printf 'XR_MODULE_ARGS=%q\n' "$MODULE_ARGS"
		printf 'XR_RXE=%q\n' "$RXE"
		printf 'XR_SHARE=%q\n' "$SHARE"
		printf 'XR_PAIR_ROLE=%q\n' "$PAIR_ROLE"
		printf 'XR_CMD_TIMEOUT=%q\n' "$(guest_cmd_timeout)"
		printf 'XR_CMD=('
		printf ' %q' "${CMD[@]}"
		printf ' )\n'
	} >"$JOBDIR/env"
	[[ -z $ROOT ]] || host_binds >"$JOBDIR/binds"
}

# With --root, the host directories the guest needs at their own paths:
# the job's, the work tree (and what its build/ links to), the module's.
host_binds() {
	local top l

	top=$(git rev-parse --show-toplevel 2>/dev/null) || top=$(pwd -P)
	top=$(realpath "$top")
	{
		echo "$JOBDIR"
		echo "$top"
		for l in "$top"/build/*; do
			[[ -L $l && -d $l ]] || continue
			l=$(realpath "$l")
			[[ $l == "$top"/* || $l == "$ROOT" ]] || echo "$l"
		done
		[[ -z $MODULE ]] || dirname "$MODULE"
	} | awk '!seen[$0]++'
}

make_logfile() {
	if [[ -n $LOG ]]; then
		LOGFILE=$LOG
		: >"$LOGFILE" || die "cannot write $LOGFILE"
	else
		LOGFILE=$(mktemp "${TMPDIR:-/tmp}/xr-testhost-log.XXXXXX")
		KEEP_LOG=0
	fi
}

qemu_command() {
	local image=$1 initrd=$2
	local -a q

	q=(qemu-system-x86_64)
	case "$ACCEL" in
	kvm) q+=(-accel kvm -cpu "${CPU:-host}") ;;
	# Multi-threaded TCG (QEMU 7.2) now and then ran stale code after
	# the kernel patched it (jump labels, static calls): the guest died
	# with "Oops: int3", seen during boot. Round-robin TCG cannot race
	# like that and boots as fast, so it is the default.
	tcg-multi) q+=(-accel "tcg,thread=multi" -cpu "${CPU:-$TCG_CPU}") ;;
	*) q+=(-accel "tcg,thread=single" -cpu "${CPU:-$TCG_CPU}") ;;
	esac
	q+=(-m "$MEM" -smp "$SMP" -nographic -no-reboot -nic none)
	# ttyS0: the console on stdout; ttyS1: the command's output on fd 3.
	q+=(-serial mon:stdio -serial file:/dev/fd/3)
	q+=(-kernel "$image" -initrd "$initrd")
	# no_timer_check: on a busy host an emulated CPU can miss the timer
	# interrupts the kernel counts at boot to trust the IO-APIC, and it
	# then panics ("IO-APIC + timer doesn't work"); that check proves
	# nothing about an emulated machine.
	q+=(-append "console=ttyS0 panic=-1 loglevel=5 printk.time=1 log_buf_len=4M no_timer_check xr.job=$JOBDIR${ROOT:+ xr.root=1}")
	q+=(-fsdev "local,id=fs0,path=${ROOT:-/},security_model=none,readonly=on,multidevs=remap")
	q+=(-device "virtio-9p-pci,fsdev=fs0,mount_tag=hostroot")
	if [[ -n $ROOT ]]; then
		# The host's own root, for the bind mounts of $JOBDIR/binds.
		q+=(-fsdev "local,id=fsh,path=/,security_model=none,readonly=on,multidevs=remap")
		q+=(-device "virtio-9p-pci,fsdev=fsh,mount_tag=xrhost")
	fi
	if [[ -n $SHARE ]]; then
		q+=(-fsdev "local,id=fs1,path=${SHARE//,/,,},security_model=none,multidevs=remap")
		q+=(-device "virtio-9p-pci,fsdev=fs1,mount_tag=xrshare")
	fi
	if [[ -n $PAIR_ROLE ]]; then
		# The two guests' Ethernet: a stream over a unix socket that
		# guest A listens on and guest B connects to. No host address.
		local server=off mac=52:54:00:99:00:02

		[[ $PAIR_ROLE == B ]] || { server=on; mac=52:54:00:99:00:01; }
		q+=(-netdev "stream,id=n0,server=$server,addr.type=unix,addr.path=$PAIR_NET")
		q+=(-device "virtio-net-pci,netdev=n0,mac=$mac")
	fi
	if [[ -n $MONITOR ]]; then
		q+=(-monitor "unix:$MONITOR,server=on,wait=off")
	fi
	printf '%s\0' "${q[@]}"
}

# Console reader: keeps the log (without CRs) and notes when the command
# started and ended.
stream_console() {
	local line

	exec 3>>"$LOGFILE"
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%$'\r'}
		printf '%s\n' "$line" >&3
		case "$line" in
		*XR-TESTHOST-BEGIN*) echo "$EPOCHREALTIME" >"$JOBDIR/t-begin" ;;
		*XR-TESTHOST-RC=*) echo "$EPOCHREALTIME" >"$JOBDIR/t-end" ;;
		esac
	done
}

# Command output reader: ttyS1 to stdout, line by line as it comes.
stream_output() {
	local line

	while IFS= read -r line || [[ -n $line ]]; do
		printf '%s\n' "${line%$'\r'}"
	done
}

stop_pid() {
	th_stop_pid "$1" 5
}

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local rc=$?

	stop_pid "$QEMU_PID"
	stop_pid "$TIMER_PID"
	stop_pid "$STREAM_PID"
	stop_pid "$OUTPUT_PID"
	[[ -z $JOBDIR ]] || rm -rf "$JOBDIR"
	if [[ -n $LOGFILE ]] && ((!KEEP_LOG)); then
		rm -f "$LOGFILE"
	fi
	exit "$rc"
}

# Waits for both readers to see the end of their streams.
wait_streams() {
	wait "$STREAM_PID" || true
	STREAM_PID=
	wait "$OUTPUT_PID" || true
	OUTPUT_PID=
}

# Boots the guest; returns 0, or 1 when the whole-run timeout hit.
run_qemu() {
	local image=$1 initrd=$2 fifo out
	local -a q

	mapfile -d '' q < <(qemu_command "$image" "$initrd")
	fifo=$JOBDIR/console
	out=$JOBDIR/output
	mkfifo "$fifo" "$out"
	stream_console <"$fifo" &
	STREAM_PID=$!
	stream_output <"$out" &
	OUTPUT_PID=$!

	echo "$EPOCHREALTIME" >"$JOBDIR/t-start"
	"${q[@]}" </dev/null >"$fifo" 2>&1 3>"$out" &
	QEMU_PID=$!
	# The timer sleeps on the monotonic clock: a step of the wall clock
	# moves nothing.
	sleep "$TIMEOUT" &
	TIMER_PID=$!

	# Polled: bash 5.2's `wait -n` on QEMU and the timer once missed
	# QEMU's exit (its readers ended with it) and waited out the timer.
	# bash reaps an exited child at once, so kill -0 fails from then on.
	while kill -0 "$QEMU_PID" 2>/dev/null; do
		if ! kill -0 "$TIMER_PID" 2>/dev/null; then
			TIMER_PID=
			say "timeout: ${TIMEOUT}s passed, killing QEMU (pid $QEMU_PID)"
			stop_pid "$QEMU_PID"
			QEMU_PID=
			wait_streams
			return 1
		fi
		sleep 0.2
	done
	wait "$QEMU_PID" || true
	QEMU_PID=
	stop_pid "$TIMER_PID"
	TIMER_PID=
	wait_streams
	return 0
}

# Numeric value of marker NAME (XR-TESTHOST-NAME=<digits>), empty when
# absent. Only the digits count: kernel messages may follow on the line.
marker_value() {
	sed -n "s/.*XR-TESTHOST-$1=\\([0-9][0-9]*\\).*/\\1/p" "$LOGFILE" | tail -n 1
}

has_marker() {
	grep -q "XR-TESTHOST-$1" "$LOGFILE"
}

# Kernel messages: text after the printk timestamp, from the console and
# from the dmesg dump at the end (duplicates do not matter here).
kernel_messages() {
	sed -nE 's/^.*\[ *[0-9]+\.[0-9]+\] //p' "$LOGFILE"
}

# The guest's kernel log for humans: the dmesg dump, or what the console
# saw when the guest never got that far.
print_kernel_log() {
	say "guest kernel log:"
	if has_marker DMESG-END; then
		sed -n '/XR-TESTHOST-DMESG-BEGIN/,/XR-TESTHOST-DMESG-END/p' "$LOGFILE" |
			sed '1d;$d' >&2
	else
		grep -E '\[ *[0-9]+\.[0-9]+\] ' "$LOGFILE" >&2 || tail -n 50 "$LOGFILE" >&2
	fi
	say "end of guest kernel log"
}

# First detector hit as "name: message", or nothing.
detect_problem() {
	local msgs d name re hit

	msgs=$(kernel_messages)
	for d in "${DETECTORS[@]}"; do
		name=${d%%|*}
		re=${d#*|}
		hit=$(grep -m 1 -E -- "$re" <<<"$msgs") || continue
		echo "[$name] $hit"
		return 0
	done
}

# The earliest problem report: from the first line any detector matches
# (a panic message comes after the Oops that caused it) to its end, at
# most 80 lines. The "Modules linked in" line names every loaded module,
# so it is left out.
problem_report() {
	local msgs d all="" first

	for d in "${DETECTORS[@]}"; do
		all+="${all:+|}(${d#*|})"
	done
	msgs=$(kernel_messages)
	first=$(grep -n -m 1 -E -- "$all" <<<"$msgs" | cut -d: -f1)
	[[ -n $first ]] || first=1
	tail -n "+$first" <<<"$msgs" | awk '
		!/^Modules linked in:/ { print; n++ }
		/---\[ end trace/ || n >= 80 { exit }'
}

# Where the earliest problem report points: whether its stack has frames
# of the module under test, or only of soft-RoCE (rdma_rxe fails on its
# own now and then) or of other kernel code.
problem_origin() {
	local report=$1 name=xrpcrdma

	[[ -z $MODULE ]] || name=$(basename "$MODULE" .ko)
	name=${name//-/_}
	if grep -qE "\[$name\]|(^|[^[:alnum:]_])xr_[a-z0-9_]+\+0x" <<<"$report"; then
		echo "$name frames in the trace: the module under test is involved"
	elif grep -qE '\[rdma_rxe\]|(^|[^[:alnum:]_])rxe_[a-z0-9_]+\+0x' <<<"$report"; then
		echo "no $name frame; the trace is inside rdma_rxe (soft-RoCE)"
	else
		echo "no $name frame in the trace"
	fi
}

# The lines of a report that say where it happened, as "trace: " lines:
# its first line, the faulting instruction and the first stack frames
# (the reliable ones: "? " frames are guesses).
# A summary that shows only the start of a long log still shows these.
problem_lines() {
	local report=$1

	{
		head -n 1 <<<"$report"
		grep -m 1 -E '^RIP: ' <<<"$report"
		grep -E '^ +[A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+' <<<"$report" |
			head -n 12
	} | sed 's/^ */trace: /'
}

taint_letters() {
	local taint=$1 i out=

	for ((i = 0; i < ${#TAINT_LETTERS}; i++)); do
		((taint & (1 << i))) && out+=${TAINT_LETTERS:i:1}
	done
	((taint >> ${#TAINT_LETTERS})) && out+=+
	echo "$out"
}

# Prints why the test host fails the run; returns STATUS.
fail_with() {
	local status=$1

	shift
	FAILED=1
	say "FAIL: $*"
	return "$status"
}

# Decides the run's exit status from the log; prints the reason.
verdict() {
	local timed_out=$1 rc taint problem report line v

	problem=$(detect_problem)
	if [[ -n $problem ]]; then
		report=$(problem_report)
		say "trace: $(problem_origin "$report")"
		problem_lines "$report" | while IFS= read -r line; do
			say "$line"
		done
	fi
	if ((timed_out)); then
		fail_with "$EXIT_TIMEOUT" "timeout after ${TIMEOUT}s${problem:+ (kernel: $problem)}"
		return
	fi
	v=$(marker_value CMD-TIMEOUT)
	if [[ -n $v ]]; then
		fail_with "$EXIT_TIMEOUT" "command timed out in the guest after ${v}s${problem:+ (kernel: $problem)}"
		return
	fi
	if [[ -n $problem ]]; then
		fail_with "$EXIT_PROBLEM" "guest kernel reported a problem $problem"
		return
	fi
	taint=$(marker_value TAINT)
	if [[ $taint =~ ^[0-9]+$ ]] && ((taint & ~TAINT_OK)); then
		fail_with "$EXIT_PROBLEM" "guest kernel tainted $taint ($(taint_letters "$taint")), only O and E are allowed"
		return
	fi
	v=$(sed -n 's/.*XR-TESTHOST-INITRAMFS-FAIL: //p' "$LOGFILE" | tail -n 1)
	if [[ -n $v ]]; then
		fail_with "$EXIT_TIMEOUT" "guest initramfs failed: $v"
		return
	fi
	v=$(sed -n 's/.*XR-TESTHOST-SETUP-FAIL=//p' "$LOGFILE" | tail -n 1)
	if [[ -n $v ]]; then
		fail_with "$EXIT_PROBLEM" "guest setup failed: $v"
		return
	fi
	rc=$(marker_value RC)
	if [[ ! $rc =~ ^[0-9]+$ ]]; then
		fail_with "$EXIT_TIMEOUT" "guest died without reporting the command's result"
		return
	fi
	v=$(marker_value RMMOD)
	if [[ -n $MODULE && $v != 0 ]]; then
		fail_with "$EXIT_PROBLEM" "rmmod of $MODULE failed${v:+ (status $v)}: the module cannot unload"
		return
	fi
	if ! has_marker END; then
		fail_with "$EXIT_TIMEOUT" "guest died after the command (during teardown)"
		return
	fi
	return "$rc"
}

# "N.N" seconds between two EPOCHREALTIME stamps in files, or "n/a".
span() {
	local a b

	[[ -s $1 && -s $2 ]] || { echo n/a; return; }
	a=$(<"$1")
	b=$(<"$2")
	a=${a/./}
	b=${b/./}
	a=$((10#$b - 10#$a))
	printf '%d.%d s\n' $((a / 1000000)) $((a % 1000000 / 100000))
}

report_timing() {
	local kver=$1

	say "kernel $kver, boot $(span "$JOBDIR/t-start" "$JOBDIR/t-begin"), run $(span "$JOBDIR/t-begin" "$JOBDIR/t-end")"
}

# The version "qemu-system-x86_64 --version" prints, e.g. 10.0.2.
qemu_version() {
	qemu-system-x86_64 --version |
		sed -n '1s/^QEMU emulator version \([0-9][0-9.]*\).*/\1/p'
}

check_tcg_qemu() {
	local v

	v=$(qemu_version)
	[[ -n $v ]] || die "cannot tell the QEMU version"
	[[ $(printf '%s\n' "$TCG_QEMU_MIN" "$v" | sort -V | head -n 1) == "$TCG_QEMU_MIN" ]] ||
		die "QEMU $v under TCG is known to corrupt 6.12 guests; $TCG_QEMU_MIN or newer wanted (make deps)"
}

main() {
	local kver image initrd timed_out=0 status=0

	parse_args "$@"
	kver=$(th_resolve_kernel "$KVER_ARG" "$ROOT") || exit "$EXIT_USAGE"
	[[ -z $MODULE ]] || check_module "$kver"
	[[ -z $SHARE ]] || check_share
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not installed"
	[[ $ACCEL == kvm ]] || check_tcg_qemu

	trap cleanup EXIT
	trap 'say "interrupted"; exit 130' INT
	trap 'say "terminated"; exit 143' TERM

	image=$(ensure_kernel_image "$kver")
	initrd=$(ensure_initrd "$kver")
	make_jobdir
	write_job_env "$kver"
	make_logfile

	run_qemu "$image" "$initrd" || timed_out=1
	verdict "$timed_out" || status=$?
	report_timing "$kver"
	if ((FAILED)); then
		print_kernel_log
	fi
	if ((status != 0)); then
		KEEP_LOG=1
		say "console log kept in $LOGFILE"
	fi
	exit "$status"
}

main "$@"
