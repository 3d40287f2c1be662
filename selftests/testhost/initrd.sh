#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the test host's initramfs for one installed kernel: busybox-static,
# guest/init and the modules (with dependencies) needed to mount the host
# root over virtio-9p with an overlay. Owns nothing else; run.sh decides
# when to call it and where the cached result lives.
#
# usage: initrd.sh KVER OUT.cpio.gz [ROOT]
#   ROOT: the root file system whose /lib/modules/KVER the modules come from

set -euo pipefail

HERE=$(cd "$(dirname "$(realpath "${BASH_SOURCE[0]}")")" && pwd)
readonly HERE
readonly BUSYBOX=/bin/busybox
readonly ROOT_MODULES=(virtio_pci 9pnet_virtio 9p overlay)
readonly APPLETS=(sh cat echo mkdir mount umount insmod sleep poweroff switch_root)

die() {
	echo "initrd.sh: $*" >&2
	exit 1
}

# Print the module files ROOT_MODULES need, dependencies first, once each.
module_files() {
	local kver=$1 mod line
	local -A seen=()

	for mod in "${ROOT_MODULES[@]}"; do
		modprobe -d "${ROOT:-/}" -S "$kver" --show-depends "$mod" ||
			die "modprobe cannot resolve $mod for $kver"
	done | while read -r line; do
		case "$line" in
		insmod\ *)
			line=${line#insmod }
			line=${line%% *}
			if [[ -z ${seen[$line]:-} ]]; then
				seen[$line]=1
				echo "$line"
			fi
			;;
		builtin\ *) ;;
		*) die "unexpected modprobe output: $line" ;;
		esac
	done
}

# Copy one module into DIR uncompressed; print the name it got there.
copy_module() {
	local src=$1 dir=$2 name

	name=$(basename "$src")
	case "$name" in
	*.ko.xz) name=${name%.xz}; xz -dc "$src" >"$dir/$name" ;;
	*.ko.zst) name=${name%.zst}; zstd -qdc "$src" >"$dir/$name" ;;
	*.ko.gz) name=${name%.gz}; gzip -dc "$src" >"$dir/$name" ;;
	*.ko) cp "$src" "$dir/$name" ;;
	*) die "unknown module file type: $src" ;;
	esac
	echo "$name"
}

# One newc cpio entry for a character device, so that /dev/console exists
# when the kernel starts /init (no mknod, hence no root, needed to build).
newc_chardev() {
	local name=$1 mode=$2 major=$3 minor=$4 namesize hdr pad

	namesize=$((${#name} + 1))
	hdr=$(printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		0 "$mode" 0 0 1 0 0 0 0 "$major" "$minor" "$namesize" 0)
	pad=$(((4 - (110 + namesize) % 4) % 4))
	printf '%s%s\0' "$hdr" "$name"
	head -c "$pad" /dev/zero
}

newc_trailer() {
	newc_chardev 'TRAILER!!!' 0 0 0
}

build() {
	local kver=$1 out=$2 stage mod app mods

	[[ -d ${ROOT:-}/lib/modules/$kver ]] || die "no ${ROOT:-}/lib/modules/$kver"
	[[ -x $BUSYBOX ]] || die "$BUSYBOX missing (install busybox-static)"

	stage=$(mktemp -d "${TMPDIR:-/tmp}/xr-initrd.XXXXXX")
	# shellcheck disable=SC2064 # expand now: $stage is local
	trap "rm -rf '$stage'" EXIT

	mkdir -p "$stage"/{bin,dev,proc,sys,lower,rw,newroot,modules}
	cp "$BUSYBOX" "$stage/bin/busybox"
	for app in "${APPLETS[@]}"; do
		ln -s busybox "$stage/bin/$app"
	done
	install -m 0755 "$HERE/guest/init" "$stage/init"

	mods=$(module_files "$kver")
	: >"$stage/modules/order"
	for mod in $mods; do
		copy_module "$mod" "$stage/modules" >>"$stage/modules/order"
	done

	mkdir -p "$(dirname "$out")"
	{
		(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
			cpio --quiet -o -H newc -R 0:0)
		newc_chardev dev/console $((0020600)) 5 1
		newc_trailer
	} | gzip -6n >"$out.tmp.$$"
	mv -f "$out.tmp.$$" "$out"
}

[[ $# -eq 2 || $# -eq 3 ]] || die "usage: initrd.sh KVER OUT.cpio.gz [ROOT]"
ROOT=${3:-}
build "$1" "$2"
