#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extracts the uncompressed kernel (an ELF with a PVH entry point) from an
# installed /boot/vmlinuz-KVER, so that QEMU can boot it directly: under TCG,
# decompressing an XZ kernel in the guest costs several seconds per boot.
# Owns only the extraction; run.sh caches the result.
#
# usage: vmlinux.sh KVER OUT [ROOT]   (ROOT: the root file system holding /boot)

set -euo pipefail

die() {
	echo "vmlinux.sh: $*" >&2
	exit 1
}

# Unsigned little-endian integer of SIZE bytes at OFFSET in FILE.
le() {
	od -An -tu"$3" -j "$2" -N "$3" "$1" | tr -d ' '
}

# Decompressor for the data at OFFSET in FILE, from its magic.
decompressor() {
	case "$(od -An -tx1 -j "$2" -N 6 "$1" | tr -d ' ')" in
	fd377a585a00) echo "xz -dc" ;;
	28b52ffd*) echo "zstd -qdc" ;;
	1f8b*) echo "gzip -dc" ;;
	*) return 1 ;;
	esac
}

extract() {
	local kver=$1 out=$2 root=${3:-} bz setup_sects off len start size tool

	bz=$root/boot/vmlinuz-$kver
	[[ -r $bz ]] || die "no $bz"
	[[ $(od -An -c -j 514 -N 4 "$bz" | tr -d ' ') == HdrS ]] ||
		die "$bz is not a bzImage"
	setup_sects=$(le "$bz" $((0x1f1)) 1)
	off=$(le "$bz" $((0x248)) 4)
	len=$(le "$bz" $((0x24c)) 4)
	((setup_sects > 0)) || setup_sects=4
	start=$(((setup_sects + 1) * 512 + off))
	# The payload ends with the uncompressed size (4 bytes, LE).
	size=$(le "$bz" $((start + len - 4)) 4)
	tool=$(decompressor "$bz" "$start") || die "unknown compression in $bz"

	mkdir -p "$(dirname "$out")"
	# shellcheck disable=SC2086 # "tool -flags"
	dd if="$bz" iflag=skip_bytes,count_bytes skip="$start" count=$((len - 4)) \
		status=none | $tool >"$out.tmp.$$" ||
		{ rm -f "$out.tmp.$$"; die "cannot decompress $bz"; }
	if [[ $(od -An -c -N 4 "$out.tmp.$$" | tr -d ' ') != 177ELF ||
		$(stat -c %s "$out.tmp.$$") != "$size" ]]; then
		rm -f "$out.tmp.$$"
		die "what $bz holds is not the expected ELF"
	fi
	mv -f "$out.tmp.$$" "$out"
}

[[ $# -eq 2 || $# -eq 3 ]] || die "usage: vmlinux.sh KVER OUT [ROOT]"
extract "$@"
