#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The server transport with nfsd: the module is reloaded side by side with
# the in-tree rpcrdma (which the NFS client needs), drop-in mode is refused
# while rpcrdma is loaded, and an NFSv3 mount through "xrdma 20050" writes
# and reads back data and lists a directory. This slice carries inline
# messages only, so the mount uses 1 KiB rsize/wsize (the client may still
# offer a Reply chunk for calls whose reply could be large; the server
# answers inline when the reply fits), and no data moves in Read or Write
# chunks. Afterwards every transport object is gone.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV
need_rdmactl

module_mode() {
	"$RDMACTL" -j module show | python3 -c "import json,sys; print(json.load(sys.stdin)['mode'])"
}

reload_side_by_side() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod"; return 1; }
	fi
	modprobe rpcrdma || { fail "modprobe rpcrdma"; return 1; }
	insmod "$XR_MODULE" || { fail "insmod"; return 1; }
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside"
}

dropin_refused() {
	rmmod xrpcrdma || { fail "rmmod"; return 1; }
	if insmod "$XR_MODULE" mode=dropin 2>/dev/null; then
		fail "mode=dropin loaded beside rpcrdma"
		return 1
	fi
	dmesg | tail -n 20 | grep -q "drop-in mode: an rdma transport is already registered" ||
		{ fail "no clear message in the kernel log"; return 1; }
	if insmod "$XR_MODULE" mode=nosuchmode 2>/dev/null; then
		fail "mode=nosuchmode loaded"
		return 1
	fi
	insmod "$XR_MODULE" mode=sidebyside || { fail "insmod mode=sidebyside"; return 1; }
	[ "$(module_mode)" = sidebyside ]
}

nfs_through_xrdma() {
	XR_NFS_CLASS=xrdma XR_NFS_PORT=20050 XR_NFS_VERS=3 \
		XR_NFS_OPTS=rsize=1024,wsize=1024 XR_NFS_INLINE_DATA=1 \
		XR_NFS_SIZE_MB=${XR_SVC_NFS_SIZE_MB:-2} \
		XR_NFS_DIRENTS=${XR_SVC_NFS_DIRENTS:-200} \
		"$(dirname "$0")/nfs_rdma.sh" | sed 's/^/# /'
	return "${PIPESTATUS[0]}"
}

transports_released() {
	local kind

	for kind in svc-xprt sendctx recvctx; do
		[ "$(live_objects "$kind")" -eq 0 ] || return 1
	done
}

no_transport_left() {
	wait_for 30 transports_released ||
		fail "live objects left: $("$RDMACTL" -j module show)"
}

ktap_header 4
run_test reload_side_by_side reload_side_by_side
run_test dropin_refused_beside_rpcrdma dropin_refused
run_test nfs3_inline_through_xrdma nfs_through_xrdma
run_test no_transport_left no_transport_left
ktap_finish
