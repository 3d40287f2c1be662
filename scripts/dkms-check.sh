#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-check.sh [KVER...] - build the module with DKMS from dkms.conf for
# each kernel given (default: every installed kernel with headers), in a
# DKMS tree of its own under build/dkms: nothing is written to /usr/src,
# /var/lib/dkms or /lib/modules. Checks that dkms.conf's version is the
# VERSION file's and that each build yields xrpcrdma.ko for its kernel.
# The builds run with a warning our own builds never enable (-Wpadded,
# through kbuild's KCFLAGS), as an administrator's newer compiler may warn
# where ours does not: a warning must not fail an install, so DKMS builds
# go without -Werror.
# The built tree is kept for selftests/dkms.sh, which installs it with
# `dkms install` in a test host.
#
# With --root ROOT (build/trixie-root) it builds for the kernels of that
# Debian root with the root's own dkms and compiler: the script runs
# again inside ROOT (scripts/root-run.sh, the work tree at its own path
# there), into build/dkms-root, so that the test host booted with that
# root installs what Debian 13's dkms built.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ "${1:-}" = --root ]; then
	[ $# -ge 2 ] || { echo "dkms-check: --root needs a directory" >&2; exit 1; }
	root=$2
	shift 2
	[ -x "$root/usr/sbin/dkms" ] ||
		{ echo "dkms-check: $root has no dkms (make deps)" >&2; exit 1; }
	exec scripts/root-run.sh "$root" "$top" "$top" \
		env XR_DKMS_OUT="$top/build/dkms-root" bash "$top/scripts/dkms-check.sh" "$@"
fi
out=${XR_DKMS_OUT:-$top/build/dkms}
command -v dkms >/dev/null || { echo "dkms-check: dkms is not installed (make deps)" >&2; exit 1; }

version=$(cat VERSION)
# dkms.conf is shell: read its PACKAGE_VERSION without running the rest.
conf_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
if [ "$conf_version" != "$version" ]; then
	echo "dkms-check: dkms.conf has PACKAGE_VERSION=$conf_version, VERSION has $version" >&2
	exit 1
fi

kvers=("$@")
if [ ${#kvers[@]} -eq 0 ]; then
	for d in /lib/modules/*/build; do
		[ -f "$d/Makefile" ] && kvers+=("$(basename "$(dirname "$d")")")
	done
fi
[ ${#kvers[@]} -gt 0 ] || { echo "dkms-check: no kernel headers installed" >&2; exit 1; }

rm -rf "$out"
src=$out/src/xrpcrdma-$version
mkdir -p "$src" "$out/tree" "$out/install"
# What a clean tree hands to `dkms add .`, less what the module build
# does not read (the same list as the Makefile's MODULE_SRCS).
cp --parents -t "$src" dkms.conf Kbuild VERSION module/Kbuild module/*.c module/*.h \
	module/conftest.sh uapi/linux/xrpcrdma.h

# No signing: Debian's dkms would otherwise create a key in /var/lib/dkms.
export sign_file=$out/no-sign-file
trees=(--sourcetree "$out/src" --dkmstree "$out/tree" --installtree "$out/install")
dkms add "${trees[@]}" -m xrpcrdma -v "$version"
rc=0
export KCFLAGS=-Wpadded
for k in "${kvers[@]}"; do
	# The headers where the kernel's packages put them: DKMS 3.2 would
	# look for them in the install tree.
	if dkms build "${trees[@]}" -m xrpcrdma -v "$version" -k "$k" \
		--kernelsourcedir "/lib/modules/$k/build" &&
	   modinfo -F vermagic "$out/tree/xrpcrdma/$version/$k/x86_64/module/xrpcrdma.ko"* |
		grep -q "^$k "; then
		echo "dkms-check: ok $k"
	else
		echo "dkms-check: FAIL $k"
		cat "$out/tree/xrpcrdma/$version/build/make.log" 2>/dev/null || true
		rc=1
	fi
done
# The tree stays (until the next run): selftests/dkms.sh installs these
# builds in a test host.
exit $rc
