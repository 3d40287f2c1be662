#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh [--no-build] [KVER] - `make demo`: build the module for KVER
# (default: the newest kernel the host builds for, as `make`) and
# rdmactl, boot a test host on that kernel with soft-RoCE and run
# scripts/demo-guest.sh in it: NFSv4.1 over xrpcrdma, end to end. A
# kernel of the Debian 13 root (build/trixie-root) boots with that root.
# The console log goes to build/demo/console-KVER.log. Exit status: the
# guest script's, or the test host's (125: the guest kernel misbehaved).
# --no-build: the module and rdmactl are built already (make check).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=1
if [ "${1:-}" = --no-build ]; then
	build=0
	shift
fi
kver=${1:-$(for d in /lib/modules/*/build; do
	k=$(basename "$(dirname "$d")")
	[ -f "$d/Makefile" ] && [ -f "/boot/vmlinuz-$k" ] && echo "$k"
done | sort -V | tail -n1)}
[ -n "$kver" ] || { echo "demo: no kernel to boot (make deps)" >&2; exit 1; }

root=()
if [ ! -f "/boot/vmlinuz-$kver" ]; then
	[ -f "build/trixie-root/boot/vmlinuz-$kver" ] ||
		{ echo "demo: no kernel $kver, neither here nor in build/trixie-root" >&2; exit 1; }
	root=(--root build/trixie-root)
fi
if [ "$build" = 1 ]; then
	make --no-print-directory module KVER="$kver"
	make --no-print-directory ctl
fi
ko=$top/build/kmod/$kver/module/xrpcrdma.ko
[ -f "$ko" ] || { echo "demo: no module $ko" >&2; exit 1; }
mkdir -p build/demo
echo "demo: booting a test host on $kver (emulated: about two minutes)"
exec selftests/testhost/run.sh --kernel "$kver" "${root[@]}" --timeout 600 \
	--log "$top/build/demo/console-$kver.log" -- \
	env XR_DEMO_MODULE="$ko" "$top/scripts/demo-guest.sh"
