#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two test hosts joined by a network: boots guest A and guest B with
# run.sh (each with its own console log, misbehaviour detector, verdict
# and timeout), joins their virtio NICs through a stream over a unix
# socket (no host address carries their traffic), and runs the same
# command in both; XR_ROLE tells the command which guest it is in. Owns
# only what is between the two guests: the network socket, the shared
# directory the commands synchronise through, pausing a guest or killing
# and booting it again on request (through its QEMU monitor), and the
# pair's verdict.
#
# Exit status: 0 when both guests were clean and both commands exited 0;
# else the first of A's and B's statuses that says the guest failed (125
# or 124, as run.sh reports them), else the first non-zero command
# status; 2 on usage errors.

set -euo pipefail

HERE=$(cd "$(dirname "$(realpath "${BASH_SOURCE[0]}")")" && pwd)
readonly HERE
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$HERE/lib.sh"
readonly RUN=$HERE/run.sh
readonly EXIT_USAGE=2 EXIT_TIMEOUT=124
# Longest pause a guest may ask for, and how long guest A may take to
# create the network socket.
readonly PAUSE_MAX=120 SOCKET_WAIT=30

# Options; those run.sh takes are passed on to both guests, and B's own
# (--b-kernel, --b-root, --b-module) replace them for guest B.
RUN_ARGS=()
B_ARGS=()
TIMEOUT=900
LOGS=
SHARE=
KTAP=0
CMD=()

# Run state, for the trap.
WORK=
KEEP=0
declare -A PID=() RC=() TAIL=() LIFE=([A]=1 [B]=1)

usage() {
	cat <<'USAGE'
usage: pair.sh [--kernel KVER] [--root DIR] [--module PATH.ko [--module-args "k=v ..."]]
               [--b-kernel KVER [--b-root DIR|--b-no-root] --b-module PATH.ko]
               [--timeout SECONDS] [--logs DIR] [--share DIR] [--smp N] [--mem MB]
               [--accel tcg|tcg-multi|kvm] [--cpu MODEL] [--ktap] -- COMMAND [ARGS...]
Guest B boots the --b-* kernel, root and module where given (a pair of two
kernels), else the same as guest A.
USAGE
}

say() {
	printf 'testhost-pair: %s\n' "$*" >&2
}

die() {
	say "$*"
	exit "$EXIT_USAGE"
}

need_arg() {
	[[ $# -ge 2 && -n $2 ]] || die "$1 needs an argument"
}

parse_args() {
	local smp=1

	while [[ $# -gt 0 ]]; do
		case "$1" in
		--kernel | --module | --module-args | --mem | --accel | --cpu | --root)
			need_arg "$@"
			RUN_ARGS+=("$1" "$2")
			shift 2
			;;
		--b-kernel | --b-module | --b-root)
			need_arg "$@"
			B_ARGS+=("--${1#--b-}" "$2")
			shift 2
			;;
		--b-no-root) B_ARGS+=(--no-root); shift ;;
		--smp) need_arg "$@"; smp=$2; shift 2 ;;
		--timeout) need_arg "$@"; TIMEOUT=$2; shift 2 ;;
		--logs) need_arg "$@"; LOGS=$2; shift 2 ;;
		--share) need_arg "$@"; SHARE=$2; shift 2 ;;
		--ktap) KTAP=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) usage >&2; die "unknown option $1" ;;
		*) break ;;
		esac
	done
	[[ $# -gt 0 ]] || { usage >&2; die "no command given"; }
	CMD=("$@")
	[[ $TIMEOUT =~ ^[1-9][0-9]*$ ]] || die "--timeout wants seconds"
	# A module is built for one kernel: B's own kernel needs its own.
	if [[ " ${B_ARGS[*]} " == *" --kernel "* && " ${RUN_ARGS[*]} " == *" --module "* &&
		" ${B_ARGS[*]} " != *" --module "* ]]; then
		die "--b-kernel with --module needs --b-module"
	fi
	# Two 2-vCPU TCG guests overload two cores: one vCPU each.
	RUN_ARGS+=(--smp "$smp" --timeout "$TIMEOUT")
}

# guest_args ROLE: run.sh's options for guest ROLE, in GUEST_ARGS: the
# common ones, then B's own (later options win in run.sh).
guest_args() {
	GUEST_ARGS=("${RUN_ARGS[@]}")
	[[ $1 == B ]] && GUEST_ARGS+=("${B_ARGS[@]}")
	return 0
}

# The work directory: sockets, and the logs and share unless given.
setup_dirs() {
	local base=${TMPDIR:-/tmp}

	# Unix socket paths are short: keep the work directory near the root.
	[[ $base != *[[:space:],]* && ${#base} -lt 40 ]] || base=/tmp
	WORK=$(mktemp -d "$base/xr-pair.XXXXXX")
	if [[ -z $LOGS ]]; then
		LOGS=$WORK/logs
	fi
	mkdir -p "$LOGS" || die "cannot create $LOGS"
	LOGS=$(realpath "$LOGS")
	if [[ -z $SHARE ]]; then
		SHARE=$WORK/share
		mkdir -p "$SHARE"
	fi
	[[ -d $SHARE ]] || die "--share $SHARE is not a directory"
	SHARE=$(realpath "$SHARE")
	# Barrier and pause files of an earlier run must not satisfy this one.
	find "$SHARE" -mindepth 1 -maxdepth 1 -name 'pair-*' -exec rm -rf {} +
}

stop_pid() {
	th_stop_pid "$1" 10
}

# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	local rc=$? r

	for r in A B; do
		# run.sh's own TERM trap stops its QEMU (by PID).
		stop_pid "${PID[$r]:-}"
		stop_pid "${TAIL[$r]:-}"
	done
	if ((KEEP)) && [[ $LOGS == "$WORK/logs" ]]; then
		rm -f "$WORK/net.sock" "$WORK"/mon-*.sock
	else
		rm -rf "$WORK"
	fi
	exit "$rc"
}

# Start guest ROLE's run.sh in the background. Its command finds in
# pair-life-ROLE how many times the guest has booted.
start_guest() {
	local r=$1

	echo "${LIFE[$r]}" >"$SHARE/pair-life-$r"
	guest_args "$r"
	"$RUN" "${GUEST_ARGS[@]}" --pair-role "$r" --pair-net "$WORK/net.sock" \
		--monitor "$WORK/mon-$r.sock" --share "$SHARE" --log "$LOGS/$r.console" \
		-- "${CMD[@]}" </dev/null >"$LOGS/$r.out" 2>"$LOGS/$r.err" &
	PID[$r]=$!
	if ((!KTAP)); then
		tail -n +1 -F --pid="${PID[$r]}" "$LOGS/$r.out" 2>/dev/null |
			sed -u "s/^/$r: /" &
		TAIL[$r]=$!
	fi
}

running() {
	[[ -n ${PID[$1]:-} ]] && kill -0 "${PID[$1]}" 2>/dev/null
}

# Collect ROLE's status once its run.sh has ended.
reap() {
	local r=$1 rc=0

	[[ -n ${PID[$r]:-} ]] || return 0
	running "$r" && return 0
	wait "${PID[$r]}" || rc=$?
	RC[$r]=$rc
	PID[$r]=
	if [[ -n ${TAIL[$r]:-} ]]; then
		wait "${TAIL[$r]}" 2>/dev/null || true
		TAIL[$r]=
	fi
	say "guest $r ended: exit $rc"
	if ((rc != 0)) && [[ ! -e $SHARE/pair-abort ]]; then
		# The other side's bounded waits end at once.
		echo "guest $r exit $rc" >"$SHARE/pair-abort"
	fi
}

# One HMP command on a QEMU monitor socket; prints the reply.
monitor() {
	python3 - "$1" "$2" <<'PY'
import socket
import sys

sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.settimeout(10)
sock.connect(sys.argv[1])


def until_prompt():
    buf = b""
    while b"(qemu)" not in buf:
        data = sock.recv(4096)
        if not data:
            sys.exit("monitor closed the connection")
        buf += data
    return buf.decode(errors="replace")


until_prompt()
sock.sendall(sys.argv[2].encode() + b"\n")
print(until_prompt().replace("\r", ""))
PY
}

vm_status() {
	monitor "$WORK/mon-$1.sock" "info status" | sed -n 's/.*VM status: \([a-z-]*\).*/\1/p'
}

# Guest ROLE asked (file pair-pause-ROLE holding seconds) to be paused:
# stop its vCPUs, wait, continue them; report in pair-pause-ROLE.done
# (or .failed with the reason). Its clock stands still meanwhile.
serve_pause() {
	local r=$1 req=$SHARE/pair-pause-$1 secs="" status

	read -r secs <"$req" || true
	rm -f "$req"
	if [[ ! $secs =~ ^[1-9][0-9]*$ ]] || ((secs > PAUSE_MAX)); then
		say "guest $r: bad pause request '$secs' (1..$PAUSE_MAX seconds)"
		echo "bad request '$secs'" >"$req.failed"
		return
	fi
	if ! running "$r"; then
		echo "guest $r is not running" >"$req.failed"
		return
	fi
	say "pausing guest $r for $secs s"
	if ! monitor "$WORK/mon-$r.sock" stop >/dev/null ||
		[[ $(vm_status "$r") != paused ]]; then
		echo "stop failed" >"$req.failed"
		return
	fi
	sleep "$secs"
	monitor "$WORK/mon-$r.sock" cont >/dev/null || true
	status=$(vm_status "$r") || true
	if [[ $status != running ]]; then
		say "guest $r: not running after cont: '$status'"
		echo "cont failed: '$status'" >"$req.failed"
		return
	fi
	say "guest $r continues"
	echo "$secs" >"$req.done"
}

# Guest ROLE is to be killed and booted again (file pair-restart-ROLE,
# written by the other guest): its QEMU quits at once, as if the power
# went, and the guest boots again with the same command. Guest B only:
# A holds the listening end of the network, which takes B back. The
# killed life must end as run.sh reports a guest that died without a
# result (124) and nothing else: a kernel problem found in its console
# fails the pair. Its logs are kept as ROLE.lifeN.*. Reports in
# pair-restart-ROLE.done (or .failed with the reason).
serve_restart() {
	local r=$1 req=$SHARE/pair-restart-$1 n rc=0 f

	rm -f "$req"
	if [[ $r != B ]] || ! running "$r"; then
		echo "guest $r cannot be restarted" >"$req.failed"
		return
	fi
	say "killing guest $r"
	# The monitor closes as QEMU quits: no prompt comes back.
	monitor "$WORK/mon-$r.sock" quit >/dev/null 2>&1 || true
	for ((n = 0; n < 300; n++)); do
		running "$r" || break
		sleep 0.1
	done
	running "$r" && stop_pid "${PID[$r]}"
	wait "${PID[$r]}" || rc=$?
	PID[$r]=
	if [[ -n ${TAIL[$r]:-} ]]; then
		wait "${TAIL[$r]}" 2>/dev/null || true
		TAIL[$r]=
	fi
	n=${LIFE[$r]}
	if ((rc != EXIT_TIMEOUT)) ||
		! grep -q "FAIL: guest died without reporting" "$LOGS/$r.err"; then
		say "guest $r: killed life $n ended with exit $rc, not as a killed guest"
		RC[$r]=$rc
		((rc != 0)) || RC[$r]=1
		echo "killed guest $r exit $rc" >"$req.failed"
		echo "guest $r exit $rc when killed" >"$SHARE/pair-abort"
		return
	fi
	for f in console out err; do
		mv "$LOGS/$r.$f" "$LOGS/$r.life$n.$f"
	done
	LIFE[$r]=$((n + 1))
	say "booting guest $r again (life ${LIFE[$r]})"
	start_guest "$r"
	echo "${LIFE[$r]}" >"$req.done"
}

wait_socket() {
	local i

	for ((i = 0; i < SOCKET_WAIT * 10; i++)); do
		[[ -S $WORK/net.sock ]] && return 0
		running A || return 1
		sleep 0.1
	done
	return 1
}

# While either guest runs: serve pause requests, note who ended.
supervise() {
	local r

	while running A || running B; do
		for r in A B; do
			[[ -e $SHARE/pair-pause-$r ]] && serve_pause "$r"
			[[ -e $SHARE/pair-restart-$r ]] && serve_restart "$r"
			reap "$r"
		done
		sleep 0.2
	done
	reap A
	reap B
}

# The pair's status: a guest problem first, then a failed command.
pair_status() {
	local r

	for r in A B; do
		case "${RC[$r]}" in 124 | 125) return "${RC[$r]}" ;; esac
	done
	for r in A B; do
		((RC[$r] == 0)) || return "${RC[$r]}"
	done
	return 0
}

report() {
	local r

	for r in A B; do
		sed -n "s/^testhost: \\(kernel .*\\)/guest $r: \\1/p" "$LOGS/$r.err" >&2
		((RC[$r] == 0)) && continue
		sed -n "s/^testhost: \\(FAIL: .*\\)/guest $r: \\1/p; s/^testhost: \\(trace: .*\\)/guest $r: \\1/p" \
			"$LOGS/$r.err" >&2
		case "${RC[$r]}" in
		124 | 125) sed "s/^/$r! /" "$LOGS/$r.err" >&2 ;;
		esac
	done
}

# KTAP: each guest is a test, its command's output indented under it.
print_ktap() {
	local r n=0 life

	echo "TAP version 13"
	echo "1..2"
	for r in A B; do
		n=$((n + 1))
		echo "# pair: guest $r"
		for ((life = 1; life < LIFE[$r]; life++)); do
			echo "# life $life, killed:"
			sed 's/^/# /' "$LOGS/$r.life$life.out"
		done
		sed 's/^/# /' "$LOGS/$r.out"
		if ((RC[$r] == 0)); then
			echo "ok $n pair: guest $r"
		else
			echo "not ok $n pair: guest $r # exit=${RC[$r]}"
		fi
	done
}

main() {
	local start status=0

	parse_args "$@"
	command -v python3 >/dev/null || die "python3 is needed for the QEMU monitor"
	trap cleanup EXIT
	trap 'say "interrupted"; exit 130' INT
	trap 'say "terminated"; exit 143' TERM
	setup_dirs
	start=$SECONDS

	start_guest A
	if ! wait_socket; then
		say "guest A did not create the network socket"
		reap A
		[[ -n ${RC[A]:-} ]] || stop_pid "${PID[A]}"
		RC[A]=${RC[A]:-$EXIT_TIMEOUT}
		RC[B]=$EXIT_TIMEOUT
		sed "s/^/A! /" "$LOGS/A.err" >&2
		KEEP=1
		say "logs kept in $LOGS"
		exit "$EXIT_TIMEOUT"
	fi
	start_guest B
	supervise

	pair_status || status=$?
	report
	say "guest A exit ${RC[A]}, guest B exit ${RC[B]}, $((SECONDS - start)) s in all"
	((KTAP)) && print_ktap
	if ((status != 0)); then
		KEEP=1
		say "logs kept in $LOGS"
	fi
	exit "$status"
}

main "$@"
