#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel-side RPC benchmark (bench-run) against nfsd: bench_test over
# TCP and over "rdma", which in drop-in mode is xrpcrdma's client talking
# to xrpcrdma's server. The module is reloaded in drop-in mode (rpcrdma
# unloaded and kept out) and loaded back in its default mode at the end.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl
nfs_need_server
TEST=${OUTPUT:-$XR_TOP/build/selftests}/bench_test
[ -x "$TEST" ] || skip_all "bench_test not built: make -C selftests"
BLOCK=/etc/modprobe.d/xr-bench.conf

cleanup() {
	nfs_server_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	if [ "$(module_mode 2>/dev/null)" = dropin ]; then
		wait_for 30 rmmod xrpcrdma
	fi
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

setup() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod xrpcrdma"; return 1; }
	fi
	if [ -d /sys/module/rpcrdma ]; then
		rmmod rpcrdma || { fail "rmmod rpcrdma"; return 1; }
	fi
	echo "install rpcrdma /bin/false" >"$BLOCK" || return 1
	insmod "$XR_MODULE" mode=dropin || { fail "insmod mode=dropin"; return 1; }
	nfs_server_start && nfs_listen rdma 20049
}

bench() {
	"$TEST" 2>&1 | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "bench_test failed"
}

in_tree_kept_out() {
	[ ! -d /sys/module/rpcrdma ] || fail "rpcrdma was loaded: the rdma bench was not ours"
}

ktap_header 3
run_test setup_dropin_nfsd setup
run_test bench_test bench
run_test in_tree_kept_out in_tree_kept_out
ktap_finish
