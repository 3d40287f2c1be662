#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs a command inside a Debian root (build/trixie-root) with a directory
# of the host bind-mounted into it, and /dev and /proc, in a mount
# namespace of its own: the mounts vanish when the command ends, whatever
# happens. The command starts in a clean environment (PATH, HOME, LANG).
#
# usage: root-run.sh ROOT DIR DEST CMD [ARGS...]
#        (DIR of the host appears at DEST inside ROOT; DEST may be DIR)

set -euo pipefail

die() {
	echo "root-run: $*" >&2
	exit 1
}

[[ $# -ge 4 ]] || die "usage: root-run.sh ROOT DIR DEST CMD [ARGS...]"
root=$(realpath "$1")
dir=$(realpath "$2")
dest=$3
shift 3
[[ -x $root/bin/sh ]] || die "$root is not a root"
[[ $dest == /* ]] || die "DEST must be an absolute path: $dest"
[[ $(id -u) == 0 ]] || die "chroot needs root"
# DEST as the root's own symbolic links would lead: a link that leads out
# of the root must not make the host's directory the mount point.
target=$(realpath -m "$root$dest")
[[ $target == "$root"/* ]] || die "$dest leads out of $root"
# The mount point stays in the root (an empty directory): a run beside
# this one may be using it in a namespace of its own, and removing it
# here would detach that run's mount.

# shellcheck disable=SC2016 # the inner shell expands its own arguments
exec unshare --mount --propagation private -- /bin/bash -eu -c '
	root=$1 dir=$2 target=$3
	shift 3
	mkdir -p "$target"
	mount --bind "$dir" "$target"
	mount --rbind /dev "$root/dev"
	mount -t proc proc "$root/proc"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 "$@"
' root-run "$root" "$dir" "$target" "$@"
