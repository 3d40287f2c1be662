#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages in a test host, as an administrator uses them:
# `dpkg -i` of rdmactl and xrpcrdma-dkms (their maintainer scripts: DKMS
# builds and installs the module, depmod), then with nothing more done
# nfsd's "rdma 20049" listener and an NFSv3 mount with proto=rdma load
# xrpcrdma in drop-in mode (through the package's modprobe rule), and
# their traffic moves its counters; rdmactl-monitor.service's command
# logs the mount's connect event. `dpkg -r` takes the module and the rule
# away, and the same listener and mount are served by the in-tree
# rpcrdma. The guest's root is an overlay: nothing reaches the host.
#
# DKMS compiles the module in the maintainer script. Under emulation that
# takes too long for make check: in a 6.12 test host it had not finished
# after eight minutes. So by default the test hands the postinst DKMS's
# own prebuilt form of the build scripts/dkms-check.sh made on the host
# for this kernel from the same dkms.conf and sources (checked identical
# to the package's): a tarball from `dkms mktarball`, put where dh_dkms's
# postinst looks for one (/usr/share/xrpcrdma-dkms). The postinst loads
# it (`dkms ldtarball`) and installs it instead of compiling. The
# postinst would also build for the newest kernel with headers, and
# DKMS 3.0.10 neither archives nor loads more than one kernel in such a
# tarball (`local -r` in a loop), so the other kernels' headers are
# hidden during dpkg -i (make check's dkms step builds for each kernel).
# XR_DEB_COMPILE=1 lets the postinst compile for every kernel it
# chooses. The depmod of each dpkg -i and -r runs over a trimmed module
# tree (lib.sh's modules_trim): over the whole one, three minutes each.
#
# Needs build/deb (make deb) and build/dkms, or build/dkms-root in the
# Debian 13 root's test host (scripts/dkms-check.sh).
# Loads the module given to the test host again at the end.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
missing=$(nfs_missing_tools)
[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"
command -v dpkg >/dev/null && command -v dkms >/dev/null || skip_all "no dpkg or dkms"

export DEBIAN_FRONTEND=noninteractive
KVER=$(uname -r)
VERSION=$(cat "$XR_TOP/VERSION")
DEBS=$XR_TOP/build/deb
DKMS_DEB=$DEBS/xrpcrdma-dkms_${VERSION}_all.deb
CTL_DEB=$DEBS/rdmactl_${VERSION}_amd64.deb
DKMS_DIR=$(dkms_dir "$VERSION") || DKMS_DIR=$XR_TOP/build/dkms
PREBUILT=/usr/share/xrpcrdma-dkms/xrpcrdma-$VERSION.dkms.tar.gz
RULE=/lib/modprobe.d/xrpcrdma.conf
UNIT=/lib/systemd/system/rdmactl-monitor.service
PORT=20049
MNT=$NFS_RUN/mnt-deb
MON_LOG=$NFS_RUN/deb-monitor.log
MON_PID=
PKG_RDMACTL=/usr/sbin/rdmactl
BUILD_RDMACTL=$RDMACTL
TRIM=$NFS_RUN/deb-trim

[ -f "$DKMS_DEB" ] && [ -f "$CTL_DEB" ] || skip_all "no packages in build/deb: make deb"

# quiet CMD...: run CMD with its output kept; print it (as KTAP comments)
# only when it fails.
quiet() {
	local log=$NFS_RUN/deb-cmd.log

	mkdir -p "$NFS_RUN"
	"$@" >"$log" 2>&1 && return 0
	grep -v "^readelf: Warning" "$log" | sed 's/^/# /'
	return 1
}

cleanup() {
	[ -n "$MON_PID" ] && kill "$MON_PID" 2>/dev/null
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	dpkg -s xrpcrdma-dkms >/dev/null 2>&1 && dpkg -r xrpcrdma-dkms >/dev/null 2>&1
	dpkg -s rdmactl >/dev/null 2>&1 && dpkg -r rdmactl >/dev/null 2>&1
	rm -f "$PREBUILT"
	hide_headers off 2>/dev/null
	modules_untrim "$TRIM"
	module_loaded || { rpcrdma_loaded && rmmod rpcrdma; insmod "$XR_MODULE"; }
}
trap cleanup EXIT

# The other kernels whose headers are installed: the postinst would build
# for the newest of them too.
other_kernels() {
	local d k

	for d in /lib/modules/*/build; do
		k=${d#/lib/modules/}
		k=${k%/build}
		[ "$k" != "$KVER" ] && [ -e "$d/include" ] && echo "$k"
	done
}

# The host's DKMS build for this kernel, as a DKMS prebuilt tarball, of
# the package's own sources.
seed_prebuilt() {
	local tmp

	[ "${XR_DEB_COMPILE:-0}" = 1 ] && { echo "# DKMS compiles in the postinst"; return 0; }
	tmp=$(mktemp -d)
	dpkg-deb -x "$DKMS_DEB" "$tmp" || { fail "dpkg-deb -x"; return 1; }
	diff -r "$tmp/usr/src/xrpcrdma-$VERSION" "$DKMS_DIR/src/xrpcrdma-$VERSION" ||
		{ fail "build/dkms was not built from the packaged source: run scripts/dkms-check.sh"; return 1; }
	rm -rf "$tmp"
	ls "$DKMS_DIR/tree/xrpcrdma/$VERSION/$KVER/x86_64/module/xrpcrdma.ko"* >/dev/null 2>&1 ||
		{ fail "no DKMS build for $KVER: run scripts/dkms-check.sh"; return 1; }
	mkdir -p "$(dirname "$PREBUILT")"
	quiet dkms mktarball --sourcetree "$DKMS_DIR/src" --dkmstree "$DKMS_DIR/tree" \
		-m xrpcrdma -v "$VERSION" -k "$KVER" --archive "$PREBUILT" ||
		{ fail "dkms mktarball"; return 1; }
	[ -f "$PREBUILT" ] || fail "no $PREBUILT"
}

# hide_headers on|off: the other kernels' headers out of the postinst's
# sight (an empty directory mounted over their build directory), or back.
hide_headers() {
	local k

	[ "${XR_DEB_COMPILE:-0}" = 1 ] && return 0
	for k in $(other_kernels) $(cat "$NFS_RUN/hidden" 2>/dev/null); do
		if [ "$1" = on ]; then
			mkdir -p "$NFS_RUN/empty" && mount --bind "$NFS_RUN/empty" "/lib/modules/$k/build" &&
				echo "$k" >>"$NFS_RUN/hidden" || return 1
		else
			umount "/lib/modules/$k/build" || return 1
		fi
	done
	[ "$1" = on ] || rm -f "$NFS_RUN/hidden"
}

install_rdmactl() {
	quiet dpkg -i "$CTL_DEB" || { fail "dpkg -i rdmactl"; return 1; }
	"$PKG_RDMACTL" -V | grep -q "^rdmactl $VERSION" ||
		fail "rdmactl -V: $("$PKG_RDMACTL" -V)" || return 1
	[ -f "$UNIT" ] || fail "no $UNIT" || return 1
	# Disabled: no wants link, and the postinst started nothing.
	! ls /etc/systemd/system/*.wants/rdmactl-monitor.service 2>/dev/null ||
		fail "rdmactl-monitor.service enabled at install" || return 1
	RDMACTL=$PKG_RDMACTL
}

install_dkms() {
	local start=$SECONDS k

	[ -f "$PREBUILT" ] || [ "${XR_DEB_COMPILE:-0}" = 1 ] ||
		fail "no prebuilt tarball: not compiling under emulation" || return 1
	# The test host's module out of the way: modprobe must load the
	# package's.
	module_loaded && { rmmod xrpcrdma || { fail "rmmod xrpcrdma"; return 1; }; }
	rpcrdma_loaded && { rmmod rpcrdma || { fail "rmmod rpcrdma"; return 1; }; }
	mkdir -p "$NFS_RUN"
	hide_headers on || fail "hiding the other kernels' headers" || return 1
	quiet dpkg -i "$DKMS_DEB" || { hide_headers off; fail "dpkg -i xrpcrdma-dkms"; return 1; }
	hide_headers off || fail "the other kernels' headers back" || return 1
	echo "# dpkg -i xrpcrdma-dkms: $((SECONDS - start)) s"
	dkms status -m xrpcrdma -v "$VERSION" -k "$KVER" | grep -q ": installed" ||
		fail "not installed for $KVER: $(dkms status -m xrpcrdma)" || return 1
	case "$(modinfo -k "$KVER" -n xrpcrdma 2>/dev/null)" in
	/lib/modules/"$KVER"/updates/dkms/xrpcrdma.ko*) ;;
	*) fail "modprobe would load '$(modinfo -n xrpcrdma 2>&1)'"; return 1 ;;
	esac
	[ -f "$RULE" ] || fail "no $RULE"
	! module_loaded || fail "the postinst loaded xrpcrdma"
}

# What a request for the in-tree transport's names resolves to.
requests_resolve_to_xrpcrdma() {
	local name out

	for name in svcrdma xprtrdma rpcrdma; do
		out=$(modprobe -n -v "$name" 2>&1)
		echo "# modprobe -n -v $name: $out"
		grep -q "^install /sbin/modprobe xrpcrdma " <<<"$out" ||
			fail "$name does not resolve to xrpcrdma" || return 1
	done
}

nfsd_listener_loads_xrpcrdma() {
	nfs_server_start || return 1
	module_loaded && { fail "xrpcrdma loaded before the listener"; return 1; }
	# nfsd finds no "rdma" class and asks for svcrdma.
	nfs_listen rdma "$PORT" || return 1
	module_loaded || fail "xrpcrdma not loaded by the listener" || return 1
	! rpcrdma_loaded || fail "rpcrdma loaded" || return 1
	[ "$(module_mode)" = dropin ] || fail "mode $(module_mode), expected dropin" || return 1
	modinfo -n xrpcrdma | grep -q /updates/dkms/ || fail "not the DKMS module"
	[ "$(live_objects svc-xprt)" -ge 1 ] || fail "no listener of ours: $("$RDMACTL" -j module show)"
}

# The command of the unit's ExecStart, as systemd would run it: no
# systemd in the test host.
monitor_unit_starts() {
	local cmd

	cmd=$(sed -n 's/^ExecStart=//p' "$UNIT")
	[ -n "$cmd" ] || fail "no ExecStart in $UNIT" || return 1
	echo "# ExecStart=$cmd"
	# shellcheck disable=SC2086 # the unit's command line, split as systemd does
	$cmd >"$MON_LOG" 2>&1 &
	MON_PID=$!
	wait_for 5 grep -q . "$MON_LOG" 2>/dev/null
	kill -0 "$MON_PID" 2>/dev/null || fail "monitor exited: $(cat "$MON_LOG")"
}

mount_is_ours() {
	local file=$NFS_DATA/deb-file want got sent c

	nfs_mount 3 "$PORT" "$MNT" || return 1
	! rpcrdma_loaded || fail "rpcrdma loaded by the mount" || return 1
	head -c $((4 << 20)) /dev/urandom >"$file" || return 1
	want=$(sha256sum "$file" | cut -d' ' -f1)
	timeout -k 5 120 cp "$file" "$MNT/deb-file" || fail "cp to the mount" || return 1
	sync
	nfs_drop_caches
	got=$(timeout -k 5 120 sha256sum "$MNT/deb-file" | cut -d' ' -f1)
	[ "$want" = "$got" ] || fail "sha256 $got, wrote $want" || return 1
	sent=$(nfs_client_eval "$XR_ADDR" "$PORT" '.stats["rpcs-sent"]') ||
		fail "no client transport of ours: $("$RDMACTL" -j transport show)" || return 1
	echo "# our client transport: rpcs-sent $sent"
	[ "$sent" -gt 0 ] || fail "rpcs-sent 0" || return 1
	# The file's WRITEs came to our server by RDMA Read.
	for c in replies-inline rdma-read-bytes; do
		echo "# our server: $c $(server_counter "$c")"
		[ "$(server_counter "$c")" -gt 0 ] || fail "$c is 0" || return 1
	done
}

monitor_logged_connect() {
	wait_for 10 grep -q transport-connect "$MON_LOG" ||
		fail "no transport-connect in the monitor's log: $(cat "$MON_LOG")" || return 1
	kill -TERM "$MON_PID" || fail "kill monitor" || return 1
	wait "$MON_PID" || fail "monitor exit status $?"
	MON_PID=
}

# Stop everything that uses xrpcrdma, unload it, remove the package.
remove_dkms() {
	nfs_server_stop || fail "nfs_server_stop" || return 1
	unload_clean || return 1
	quiet dpkg -r xrpcrdma-dkms || { fail "dpkg -r xrpcrdma-dkms"; return 1; }
	[ ! -e "$RULE" ] || fail "$RULE left behind" || return 1
	! ls /lib/modules/*/updates/dkms/xrpcrdma.ko* 2>/dev/null || fail "DKMS module left" || return 1
	[ -z "$(dkms status -m xrpcrdma)" ] || fail "dkms status: $(dkms status -m xrpcrdma)"
}

# The same listener and mount, now served by rpcrdma.
intree_restored() {
	nfs_server_start || return 1
	nfs_listen rdma "$PORT" || return 1
	rpcrdma_loaded || fail "the listener did not load rpcrdma" || return 1
	! module_loaded || fail "xrpcrdma loaded" || return 1
	nfs_mount 3 "$PORT" "$MNT" || return 1
	timeout -k 5 60 ls "$MNT" >/dev/null || fail "ls over rpcrdma" || return 1
	# The mount's rdma transport is rpcrdma's: it holds the module.
	[ -n "$(nfs_xprt_field "$MNT" 5)" ] || fail "no rdma xprt in mountstats" || return 1
	[ "$(cat /sys/module/rpcrdma/refcnt)" -gt 0 ] || fail "rpcrdma not in use by the mount" ||
		return 1
	nfs_umount "$MNT" || fail "umount" || return 1
	nfs_server_stop || fail "nfs_server_stop" || return 1
	wait_for 30 rmmod rpcrdma || fail "rmmod rpcrdma"
}

remove_rdmactl() {
	RDMACTL=$BUILD_RDMACTL
	quiet dpkg -r rdmactl || { fail "dpkg -r rdmactl"; return 1; }
	[ ! -e "$PKG_RDMACTL" ] || fail "$PKG_RDMACTL left behind"
}

reload_test_module() {
	insmod "$XR_MODULE" || fail "insmod $XR_MODULE failed"
}

ktap_header 13
run_test module_tree_trimmed modules_trim "$TRIM"
run_test seed_prebuilt seed_prebuilt
run_test install_rdmactl install_rdmactl
run_test install_dkms install_dkms
run_test requests_resolve_to_xrpcrdma requests_resolve_to_xrpcrdma
run_test nfsd_listener_loads_xrpcrdma nfsd_listener_loads_xrpcrdma
run_test monitor_unit_starts monitor_unit_starts
run_test mount_is_ours mount_is_ours
run_test monitor_logged_connect monitor_logged_connect
run_test remove_dkms remove_dkms
run_test intree_restored intree_restored
run_test remove_rdmactl remove_rdmactl
run_test reload_test_module reload_test_module
ktap_finish
