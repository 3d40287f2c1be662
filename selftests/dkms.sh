#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS installs the module where modprobe finds it: `dkms install` of the
# build scripts/dkms-check.sh made for this kernel (a test host compiles
# too slowly under emulation to build it again), into the guest's real
# /lib/modules (a tmpfs overlay: nothing reaches the host). Then modprobe
# loads that copy, and `dkms remove` takes it away again. depmod runs
# over a trimmed module tree (lib.sh's modules_trim: over the whole one
# it takes minutes under emulation); the removal skips the second one and
# puts back the depmod output kept from before the install: the host is
# left as it was, with no modules.dep line for the removed file. The
# module given to the test host is loaded again at the end.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_MODULE XR_RDMA_DEV
need_rdmactl
command -v dkms >/dev/null || skip_all "dkms is not installed (make deps)"

KVER=$(uname -r)
VERSION=$(cat "$XR_TOP/VERSION")
DKMS_DIR=$(dkms_dir "$VERSION") ||
	skip_all "no DKMS build for $KVER: run scripts/dkms-check.sh first"
TREES=(--sourcetree "$DKMS_DIR/src" --dkmstree "$DKMS_DIR/tree")
MODDEP=$(mktemp -d)/moddep
TRIM=$(dirname "$MODDEP")/trim

# The file modprobe would load, or nothing.
module_file() {
	modinfo -k "$KVER" -n xrpcrdma 2>/dev/null
}

dkms_install() {
	if module_loaded; then
		rmmod xrpcrdma || { fail "rmmod of the test host's module failed"; return 1; }
	fi
	moddep_save "$MODDEP" || { fail "saving the depmod output"; return 1; }
	dkms install "${TREES[@]}" -m xrpcrdma -v "$VERSION" -k "$KVER" ||
		{ fail "dkms install failed"; return 1; }
	dkms status "${TREES[@]}" -m xrpcrdma -v "$VERSION" -k "$KVER" | grep -q ": installed" ||
		{ fail "dkms status: $(dkms status "${TREES[@]}" -m xrpcrdma)"; return 1; }
}

modprobe_loads_the_dkms_copy() {
	local file version

	file=$(module_file)
	case "$file" in
	/lib/modules/"$KVER"/updates/dkms/xrpcrdma.ko*) ;;
	*) fail "modprobe would load '$file', not the DKMS copy"; return 1 ;;
	esac
	modprobe xrpcrdma || { fail "modprobe xrpcrdma failed"; return 1; }
	version=$("$RDMACTL" -j module show | jq -r .version) ||
		{ fail "rdmactl module show failed"; return 1; }
	[ "$version" = "$VERSION" ] || { fail "version $version, VERSION says $VERSION"; return 1; }
	"$RDMACTL" dev show "$XR_RDMA_DEV" >/dev/null ||
		{ fail "the DKMS module does not see $XR_RDMA_DEV"; return 1; }
}

dkms_remove() {
	rmmod xrpcrdma || { fail "rmmod of the DKMS module failed"; return 1; }
	# No second depmod (over a minute under emulation): the file is gone.
	dkms remove --no-depmod "${TREES[@]}" -m xrpcrdma -v "$VERSION" -k "$KVER" ||
		{ fail "dkms remove failed"; return 1; }
	moddep_restore "$MODDEP" || { fail "restoring the depmod output"; return 1; }
	! ls /lib/modules/"$KVER"/updates/dkms/xrpcrdma.ko* >/dev/null 2>&1 ||
		{ fail "still installed: $(ls /lib/modules/"$KVER"/updates/dkms/)"; return 1; }
	! dkms status "${TREES[@]}" -m xrpcrdma -k "$KVER" | grep -q installed ||
		{ fail "dkms still lists it: $(dkms status "${TREES[@]}" -m xrpcrdma)"; return 1; }
	modprobe_finds_nothing ||
		fail "modprobe still finds xrpcrdma: $(modprobe -n -v xrpcrdma 2>&1)"
}

# A failed step leaves no DKMS copy for the tests after this one.
cleanup() {
	if dkms status "${TREES[@]}" -m xrpcrdma -k "$KVER" 2>/dev/null | grep -q installed; then
		module_loaded && rmmod xrpcrdma
		dkms remove --no-depmod "${TREES[@]}" -m xrpcrdma -v "$VERSION" -k "$KVER" >/dev/null 2>&1
	fi
	moddep_restore "$MODDEP"
	modules_untrim "$TRIM" && rm -rf "$(dirname "$MODDEP")"
	module_loaded || insmod "$XR_MODULE" 2>/dev/null
	return 0
}
trap cleanup EXIT

reload_test_module() {
	insmod "$XR_MODULE" || { fail "insmod $XR_MODULE failed"; return 1; }
}

ktap_header 5
run_test module_tree_trimmed modules_trim "$TRIM"
run_test dkms_install dkms_install
run_test modprobe_loads_the_dkms_copy modprobe_loads_the_dkms_copy
run_test dkms_remove dkms_remove
run_test reload_test_module reload_test_module
ktap_finish
