#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The wire fuzzer (xr-wire-fuzz, ctl/tools/xr_wire_fuzz.cpp) against this
# module's server transport with nfsd behind it: a bounded number of
# calls made from the seed corpus (tests/wire-fuzz/corpus: the calls
# captured from the in-tree client first, then the synthesized ones) and mutated
# with a seeded generator (chunk lists, segment counts, lengths,
# positions, offsets and handles, some naming a region the fuzzer
# registered so the server's RDMA Reads and Writes really happen; credits,
# procedure, version, XID, message sizes around the server's inline
# limit, truncations, bit flips of the RPC message). After every batch the
# fuzzer checks on a fresh connection that a valid NULL call still gets
# its reply. Then: a normal ping works, no connection is left behind, and
# the kernel logged no warning and nothing from the module but the
# completion errors hostile chunks cause.
#
# XR_WIRE_FUZZ_COUNT (default 1000) and XR_WIRE_FUZZ_SEED (default: a
# fixed one, so make check is repeatable; "random" for a new one each
# run) set the campaign, XR_WIRE_FUZZ_ARGS adds options of xr-wire-fuzz;
# `make fuzz-wire` runs a longer one.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl
nfs_need_server
FUZZER=${XR_WIRE_FUZZ:-$XR_TOP/build/ctl/xr-wire-fuzz}
[ -x "$FUZZER" ] || skip_all "xr-wire-fuzz not built: $FUZZER"

COUNT=${XR_WIRE_FUZZ_COUNT:-1000}
SEED=${XR_WIRE_FUZZ_SEED:-8166}
CORPUS=$XR_TOP/tests/wire-fuzz/corpus
OUT=$(mktemp)
cleanup() {
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT"
}
trap cleanup EXIT

PORT=
BASE_XPRTS=
DMESG_FROM=0

server_start() {
	nfs_our_server_start || return 1
	PORT=$NFS_PORT
	BASE_XPRTS=$(live_objects svc-xprt)
	DMESG_FROM=$(dmesg | wc -l)
}

fuzz() {
	local rc=0 seed=()

	[ "$SEED" = random ] || seed=(--seed "$SEED")
	# shellcheck disable=SC2086 # XR_WIRE_FUZZ_ARGS: more options, split
	timeout "${XR_WIRE_FUZZ_TIMEOUT:-600}" "$FUZZER" "${seed[@]}" ${XR_WIRE_FUZZ_ARGS:-} --count "$COUNT" --batch 50 \
		--corpus "$CORPUS/captured" --corpus "$CORPUS/synthesized" "$XR_ADDR:$PORT" \
		>"$OUT" 2>&1 || rc=$?
	sed 's/^\([^#]\)/# \1/' "$OUT"
	[ "$rc" -eq 0 ] || fail "xr-wire-fuzz exited $rc"
}

ping_still_works() {
	"$RDMACTL" ping -c 5 -i 0 "$XR_ADDR:$PORT" >"$OUT" 2>&1 ||
		{ sed 's/^/# /' "$OUT"; fail "ping failed"; return 1; }
	grep -E '^[0-9]+ sent' "$OUT" | sed 's/^/# /'
}

no_connection_left() {
	nfs_connections_released "$BASE_XPRTS"
}

# Hostile chunks make RDMA operations and receives fail (logged, rate
# limited); anything else the module says, and any kernel warning, is a
# finding.
EXPECTED='xrpcrdma: (receive completion|send completion|RDMA (Read|Write)): '
kernel_log_clean() {
	local new bad

	new=$(dmesg | tail -n "+$((DMESG_FROM + 1))")
	grep xrpcrdma <<<"$new" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/# dmesg: /'
	bad=$(grep -E 'WARNING:|BUG:|Oops|RIP:|general protection|refcount_t|corruption|blocked for more than|xrpcrdma' <<<"$new" |
		grep -Ev "$EXPECTED")
	[ -z "$bad" ] || { sed 's/^/# unexpected: /' <<<"$bad" | head -n 20; fail "kernel log"; }
}

ktap_header 5
run_test server_start server_start
run_test wire_fuzz fuzz
run_test ping_still_works ping_still_works
run_test no_connection_left no_connection_left
run_test kernel_log_clean kernel_log_clean
ktap_finish
