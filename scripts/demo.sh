#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh - build everything, boot a test host on the newest installed
# kernel with soft-RoCE, load xrpcrdma and show it working with rdmactl.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
make --no-print-directory kernel-src all
kver=$(for d in /lib/modules/*/build; do
	k=$(basename "$(dirname "$d")")
	[ -f "/boot/vmlinuz-$k" ] && echo "$k"
done | sort -V | tail -n1)
exec selftests/testhost/run.sh --kernel "$kver" \
	--module "$top/build/kmod/$kver/module/xrpcrdma.ko" -- "$top/scripts/demo-guest.sh"
