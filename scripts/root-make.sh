#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs make for an external module inside a Debian root (build/trixie-root),
# for a kernel whose kbuild tools and compiler the host cannot run. The
# module's directory is bind-mounted into the root at /mnt/xrpcrdma
# (scripts/root-run.sh).
#
# usage: root-make.sh ROOT KVER MODDIR [MAKE ARGS...]
#        (runs "make -C /usr/src/linux-headers-KVER M=/mnt/xrpcrdma ARGS")

set -euo pipefail

die() {
	echo "root-make: $*" >&2
	exit 1
}

[[ $# -ge 3 ]] || die "usage: root-make.sh ROOT KVER MODDIR [MAKE ARGS...]"
root=$(realpath "$1")
kver=$2
moddir=$(realpath "$3")
shift 3
kdir=/lib/modules/$kver/build
[[ -f $root$kdir/Makefile ]] || die "no headers for $kver in $root"

exec "$(dirname "$0")/root-run.sh" "$root" "$moddir" /mnt/xrpcrdma \
	make -C "$kdir" M=/mnt/xrpcrdma "$@"
