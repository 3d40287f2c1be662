#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo-guest.sh - what `make demo` runs inside the test host.
set -euo pipefail

rdmactl=$(cd "$(dirname "$0")/.." && pwd)/build/ctl/rdmactl

show() {
	echo
	echo "\$ $*"
	"$@"
}

echo "kernel $(uname -r); soft-RoCE device $XR_RDMA_DEV on $XR_NETDEV ($XR_ADDR)"
show "$rdmactl" module show
show "$rdmactl" dev show
show "$rdmactl" -d dev show "$XR_RDMA_DEV"
show "$rdmactl" -j -p dev show
show "$rdmactl" dev set "$XR_RDMA_DEV" enabled off
show "$rdmactl" dev show "$XR_RDMA_DEV"
show "$rdmactl" dev set "$XR_RDMA_DEV" enabled on
echo
echo "\$ $rdmactl dev show nosuchdev0   # errors carry the kernel's message"
"$rdmactl" dev show nosuchdev0 || echo "(exit status $?)"
show "$rdmactl" -j module show
