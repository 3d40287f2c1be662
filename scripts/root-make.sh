#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs make for an external module inside a Debian root (build/trixie-root),
# for a kernel whose kbuild tools and compiler the host cannot run. The
# module's directory is bind-mounted into the root at /mnt/xrpcrdma, with
# /dev and /proc, in a mount namespace of its own: the mounts vanish when
# make ends, whatever happens.
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
[[ $(id -u) == 0 ]] || die "chroot needs root"

# shellcheck disable=SC2016 # the inner shell expands its own arguments
exec unshare --mount --propagation private -- /bin/bash -eu -c '
	root=$1 moddir=$2 kdir=$3
	shift 3
	mkdir -p "$root/mnt/xrpcrdma"
	mount --bind "$moddir" "$root/mnt/xrpcrdma"
	mount --rbind /dev "$root/dev"
	mount -t proc proc "$root/proc"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 \
		make -C "$kdir" M=/mnt/xrpcrdma "$@"
' root-make "$root" "$moddir" "$kdir" "$@"
