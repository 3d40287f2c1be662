#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load and unload the module 100 times while an RDMA device exists: every
# load finds the device, every unload leaves nothing behind (the module
# warns on a leak, which fails the test host), and the module stays loaded
# at the end.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_MODULE XR_RDMA_DEV
need_rdmactl
CYCLES=${XR_LOAD_CYCLES:-100}

cycle_all() {
	local i

	for i in $(seq 1 "$CYCLES"); do
		if module_loaded; then
			rmmod xrpcrdma || fail "rmmod failed at cycle $i" || return 1
		fi
		module_loaded && { fail "still loaded after rmmod, cycle $i"; return 1; }
		insmod "$XR_MODULE" || { fail "insmod failed at cycle $i"; return 1; }
		# Every tenth cycle: the device is seen again, counted once.
		if [ $((i % 10)) -eq 0 ]; then
			"$RDMACTL" dev show "$XR_RDMA_DEV" >/dev/null ||
				{ fail "device not seen after load $i"; return 1; }
			[ "$(live_objects device)" -ge 1 ] ||
				{ fail "device objects not counted, cycle $i"; return 1; }
		fi
	done
}

no_leak_reported() {
	! dmesg | grep -q "xrpcrdma: .*leaked" || fail "leak reported in dmesg"
}

ktap_header 3
run_test "load_unload_${CYCLES}_cycles" cycle_all
run_test "no_leak_reported" no_leak_reported
run_test "loaded_at_end" module_loaded
ktap_finish
