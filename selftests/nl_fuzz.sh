#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Random netlink requests to every operation (nl_fuzz), as root, then the
# module is reloaded, since a random request may have set a fault point or
# a tunable, and must unload and load cleanly. The test host fails the
# run on any kernel warning the fuzzing caused.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_MODULE
need_rdmactl
FUZZ=${OUTPUT:-$XR_TOP/build/selftests}/nl_fuzz
[ -x "$FUZZ" ] || skip_all "nl_fuzz not built: make -C selftests"

fuzz() {
	"$FUZZ" 2>&1 | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "nl_fuzz failed"
}

reload() {
	wait_for 30 rmmod xrpcrdma || { fail "rmmod after fuzzing"; return 1; }
	insmod "$XR_MODULE" || { fail "insmod after fuzzing"; return 1; }
	"$RDMACTL" module show >/dev/null || fail "module show after reload"
}

ktap_header 2
run_test nl_fuzz fuzz
run_test reload_after_fuzzing reload
ktap_finish
