#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's "A short tour", as typed. The commands are read from
# README.md itself (the indented block under "## A short tour"; a
# trailing "  # comment" is dropped, comment lines are not commands), so
# this test fails when the README drifts from what works. One
# substitution is made: SERVER becomes this test host's address
# ($XR_ADDR). Each command runs in the work tree with bash, as root, and
# must exit 0 and produce what it is there to show (the expectations
# below, keyed by the command as the README writes it; a command without
# one fails the test: add it here when the tour grows).
#
# The host starts out as fresh as the test host allows: xrpcrdma (the
# module the test host loaded) and rpcrdma unloaded, the NFS modules and
# sunrpc unloaded where nothing holds them, no installed xrpcrdma or
# rdmactl. The tour's preconditions are set up here, as its prose says:
# rxe0 is the test host's device, and nfsd (nfs_lib.sh, exporting a
# tmpfs at /export) is started right before the first NFS command.
# `make install` writes into the guest's overlay root; its module, its
# depmod output and rdmactl are taken away again at the end and the
# module given to the test host is loaded again. Its depmod runs over a
# trimmed module tree (lib.sh's modules_trim).
#
# The tour's make finds the host's builds up to date (compiling under
# emulation takes many minutes) when it builds with the same flags: make
# check builds with WERROR=y, which make takes from the environment.
# Set XR_TOUR_WERROR=n where the host built without it.
#
# The tour is written for Debian 12: the Debian 13 root's test host skips.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl

[ "$(id -u)" -eq 0 ] || skip_all "needs root"
missing=$(nfs_missing_tools)
[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"
case "$(cat /etc/debian_version 2>/dev/null)" in
12.*) ;;
*) skip_all "the tour is written for Debian 12, this root is Debian $(cat /etc/debian_version)" ;;
esac
[ "$XR_RDMA_DEV" = rxe0 ] || skip_all "the tour names rxe0, the test host has $XR_RDMA_DEV"

KVER=$(uname -r)
VERSION=$(cat "$XR_TOP/VERSION")
TOUR=$NFS_RUN/tour
MODDIR=/lib/modules/$KVER
# The tour's export (its prose: nfsd running with /export exported).
# shellcheck disable=SC2034 # nfs_lib.sh's nfs_server_start exports it
NFS_EXPORT=/export
OUT=$TOUR/out
export WERROR=${XR_TOUR_WERROR:-y}

# The tour's commands, one a line, as README.md writes them.
tour_commands() {
	awk '/^## / { intour = ($0 == "## A short tour"); next }
	     intour && /^    / { sub(/^    /, ""); print }' "$XR_TOP/README.md" |
		sed -E 's/[[:space:]]+#[[:space:]].*$//; s/[[:space:]]+$//' | grep -v '^#' | grep .
}

# Installed copies of the module (make install: under updates/ on 6.12,
# extra/ on 6.1) and of rdmactl.
installed_files() {
	find "$MODDIR/updates" "$MODDIR/extra" -name 'xrpcrdma.ko*' 2>/dev/null
	ls /usr/local/sbin/rdmactl 2>/dev/null
	[ -f "$XR_TOP/build/ctl/install_manifest.txt" ] &&
		grep '^/usr/local/' "$XR_TOP/build/ctl/install_manifest.txt"
}

restore() {
	nfs_is_mounted /mnt && umount -f -l /mnt
	nfs_server_stop >/dev/null 2>&1
	module_loaded && wait_for 30 rmmod xrpcrdma
	installed_files | xargs -r rm -f
	# depmod's output as it was before make install (a second depmod
	# takes minutes under emulation).
	moddep_restore "$TOUR/moddep"
	modules_untrim "$TOUR/trim"
	"$RDMACTL" dev show "$XR_RDMA_DEV" >/dev/null 2>&1 &&
		"$RDMACTL" dev set "$XR_RDMA_DEV" enabled on >/dev/null 2>&1
	return 0
}

cleanup() {
	restore
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

fresh_host() {
	local m

	moddep_save "$TOUR/moddep" || fail "saving $MODDIR/modules.*" || return 1
	module_loaded && { rmmod xrpcrdma || { fail "rmmod xrpcrdma"; return 1; }; }
	rpcrdma_loaded && { rmmod rpcrdma || { fail "rmmod rpcrdma"; return 1; }; }
	# What the earlier tests loaded, where nothing holds it any more.
	for m in nfsd nfsv4 nfsv3 nfs rpcsec_gss_krb5 sunrpc; do
		[ -d "/sys/module/$m" ] && modprobe -r "$m" >/dev/null 2>&1
	done
	if [ -d /sys/module/sunrpc ]; then
		echo "# sunrpc stays loaded (held by: $(find /sys/module/sunrpc/holders -mindepth 1 -printf '%f '))"
	else
		echo "# no sunrpc loaded: insmod of the module would fail with Unknown symbol"
	fi
	installed_files | xargs -r rm -f
	modprobe_finds_nothing ||
		fail "modprobe finds an xrpcrdma already: $(modprobe -n -v xrpcrdma 2>&1)" || return 1
	! command -v rdmactl >/dev/null || fail "rdmactl on PATH already: $(command -v rdmactl)"
}

# ---- what each command of the tour must show ----

json_dev_enabled() {
	rdmactl -j dev show rxe0 | jq -r '.[0].enabled'
}

no_listeners() {
	[ "$(rdmactl -j listener show)" = "[]" ]
}

out_has() {
	grep -qE -- "$1" "$OUT" || fail "output lacks /$1/"
}

# expect_of CMD: check what CMD (the README's text) did; its output is in
# $OUT.
expect_of() {
	local file

	case "$1" in
	make)
		[ -f "$XR_TOP/module/xrpcrdma.ko" ] && [ -x "$XR_TOP/build/ctl/rdmactl" ] ||
			fail "no module/xrpcrdma.ko or build/ctl/rdmactl" ;;
	"make install")
		file=$(modinfo -n xrpcrdma 2>&1)
		case "$file" in
		"$MODDIR"/updates/*xrpcrdma.ko* | "$MODDIR"/extra/*xrpcrdma.ko*) ;;
		*) fail "modprobe would load '$file'"; return 1 ;;
		esac
		echo "# modprobe finds $file"
		[ "$(command -v rdmactl)" = /usr/local/sbin/rdmactl ] ||
			fail "rdmactl on PATH is '$(command -v rdmactl)'" || return 1
		rdmactl -V | grep -q "^rdmactl $VERSION" || fail "rdmactl -V: $(rdmactl -V)" ;;
	"modprobe xrpcrdma")
		module_loaded || fail "xrpcrdma not loaded" || return 1
		[ -d /sys/module/sunrpc ] || fail "sunrpc not loaded" || return 1
		[ "$(cat /sys/module/xrpcrdma/srcversion)" = "$(modinfo -F srcversion xrpcrdma)" ] ||
			fail "the loaded module is not the installed one" ;;
	"rdmactl module show")
		out_has "^xrpcrdma version $VERSION kernel .* mode dropin" ;;
	"rdmactl dev show")
		out_has "rxe0: .*usable yes enabled yes" ;;
	"rdmactl -j -p dev show rxe0")
		jq -e '.[0].ifname == "rxe0"' "$OUT" >/dev/null || fail "not rxe0's JSON" ;;
	"rdmactl dev set rxe0 enabled off")
		[ "$(json_dev_enabled)" = false ] || fail "rxe0 still enabled" ;;
	"rdmactl dev set rxe0 enabled on")
		[ "$(json_dev_enabled)" = true ] || fail "rxe0 not enabled" ;;
	"rdmactl listener add")
		nfs_portlist_has rdma 20049 || fail "no 'rdma 20049' in nfsd's portlist" || return 1
		[ "$(live_objects svc-xprt)" -ge 1 ] || fail "no listener of xrpcrdma" ;;
	"mount -t nfs -o vers=3,proto=rdma,port=20049 SERVER:/export /mnt")
		case ",$(nfs_mount_opts /mnt)," in
		*,proto=rdma,*port=20049,*) ;;
		*) fail "/mnt: $(nfs_mount_opts /mnt)"; return 1 ;;
		esac
		nfs_client_eval "$XR_ADDR" 20049 .state >/dev/null ||
			fail "the mount has no client transport of xrpcrdma" ;;
	"rdmactl ping SERVER:20049")
		out_has "^5 sent, 5 received, 0 errors, 0 lost" ;;
	"rdmactl -d transport show")
		out_has "server-listener class rdma serv nfsd state listening" &&
			out_has "server-connection class rdma serv nfsd state connected" &&
			out_has "client class rdma state connected .*peer $XR_ADDR:20049" &&
			out_has "rpcs-sent [1-9]" ;;
	"rdmactl stats show")
		out_has "^server: calls-received [1-9]" ;;
	"rdmactl config show")
		out_has "credits" ;;
	"umount /mnt")
		! nfs_is_mounted /mnt || fail "/mnt still mounted" ;;
	"rdmactl listener del")
		wait_for 10 no_listeners ||
			fail "listeners left: $(rdmactl listener show)" ;;
	*)
		fail "tour.sh has no expectation for '$1': add one" ;;
	esac
}

# The commands that need nfsd (the tour's prose says it runs).
needs_nfsd() {
	case "$1" in
	"rdmactl listener"* | mount* | "rdmactl ping"*) return 0 ;;
	esac
	return 1
}

# run_tour_command CMD: the README's CMD, SERVER substituted, run as typed.
run_tour_command() {
	local cmd=$1 line=${1//SERVER/$XR_ADDR} t=120 rc=0

	if needs_nfsd "$cmd" && ! nfs_daemon_alive mountd; then
		nfs_server_start >"$TOUR/nfsd.log" 2>&1 ||
			{ sed 's/^/# /' "$TOUR/nfsd.log"; fail "starting nfsd for the tour"; return 1; }
	fi
	# make install's depmod reads every module of the kernel: minutes
	# under emulation.
	case "$cmd" in
	make*) t=1200 ;;
	esac
	echo "# \$ $line"
	(cd "$XR_TOP" && timeout -k 5 "$t" bash -c "$line") >"$OUT" 2>&1 || rc=$?
	grep -v -e '^  [A-Z]' -e '^make\[' "$OUT" | tail -n 12 | sed 's/^/#   /'
	[ "$rc" -eq 0 ] || fail "'$line' exited $rc" || return 1
	expect_of "$cmd"
}

reload_test_module() {
	restore
	insmod "$XR_MODULE" || fail "insmod $XR_MODULE"
}

mapfile -t cmds < <(tour_commands)
[ "${#cmds[@]}" -ge 10 ] || skip_all "found ${#cmds[@]} commands under '## A short tour' in README.md"
mkdir -p "$TOUR"
ktap_header $((${#cmds[@]} + 3))
run_test module_tree_trimmed modules_trim "$TOUR/trim"
run_test fresh_host fresh_host
for c in "${cmds[@]}"; do
	run_test "tour: $c" run_tour_command "$c"
done
run_test reload_test_module reload_test_module
ktap_finish
