#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, idempotently, every Debian package xrpcrdma needs to build and test.
# Kernel ABI numbers change with each security update: discover, never hard-code.
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
top=$(cd "$(dirname "$0")/.." && pwd)

pkgs=(
	linux-image-amd64 linux-headers-amd64
	linux-source-6.12
	busybox-static
	rdma-core ibverbs-utils rdmacm-utils perftest iproute2
	libnl-3-dev libnl-genl-3-dev libibverbs-dev librdmacm-dev
	libcli11-dev nlohmann-json3-dev libgtest-dev cmake g++ make
	nfs-kernel-server nfs-common tcpdump jq
	krb5-kdc krb5-admin-server krb5-user
	python3 python3-yaml python3-jsonschema sparse
	clang libclang-rt-14-dev
	build-essential bc kmod cpio xz-utils
	python3-sphinx dkms groff-base man-db
	fio python3-matplotlib linux-perf
	debhelper dh-dkms dpkg-dev fakeroot lintian
	mmdebstrap
)

missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

# The newest 6.12 kernel line Debian offers for bookworm (e.g. 6.12.117+deb12).
newest_612() {
	apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' |
		sed -n 's/^linux-image-\(6\.12\.[0-9]*+deb12\)-amd64-unsigned .*/\1/p' |
		sort -V | tail -n 1
}

# The test hosts' QEMU comes from bookworm-backports. Under TCG, QEMU 7.2
# (bookworm's own) now and then hands a 6.12 guest an impossible EFLAGS
# at an interrupt in the slab allocator, and the guest dies of a double
# fault; see selftests/testhost/run.sh.
readonly QEMU_SUITE=bookworm-backports QEMU_MIN=1:10.0
readonly BACKPORTS_LIST=/etc/apt/sources.list.d/xrpcrdma-backports.sources

qemu_ok() {
	local v

	v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) || return 1
	[ -n "$v" ] && dpkg --compare-versions "$v" ge "$QEMU_MIN"
}

# apt_mirror: the mirror apt already uses.
source "$(dirname "${BASH_SOURCE[0]}")/apt-mirror.sh"

# Add the backports suite, once, beside the sources apt already has, from
# the same mirror.
add_backports() {
	local mirror

	if apt-cache policy 2>/dev/null | grep -q " $QEMU_SUITE/main "; then
		return 0
	fi
	mirror=$(apt_mirror) ||
		{ echo "deps: no bookworm source in apt's configuration to take a mirror from" >&2; exit 1; }
	cat >"$BACKPORTS_LIST" <<-SOURCES
	Types: deb
	URIs: $mirror
	Suites: $QEMU_SUITE
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	SOURCES
	updated=0
}

install_qemu() {
	add_backports
	apt_update_once
	apt-get install -y -qq --no-install-recommends -t "$QEMU_SUITE" qemu-system-x86
	qemu_ok || { echo "deps: qemu-system-x86 >= $QEMU_MIN not installed" >&2; exit 1; }
}

updated=0
apt_update_once() {
	if [ "$updated" = 0 ]; then
		apt-get update -qq
		updated=1
	fi
}

# Fast path: everything is present already (no network touched).
have_612=$(dpkg-query -W -f='${Package} ${Status}\n' 'linux-image-6.12.*+deb12-amd64-unsigned' 2>/dev/null |
	grep -c 'install ok installed' || true)
todo=$(missing_pkgs "${pkgs[@]}")
if [ -z "$todo" ] && [ "$have_612" -gt 0 ] && qemu_ok; then
	exec "$top/scripts/trixie-root.sh" "$top"
fi

apt_update_once
v612=$(newest_612)
if [ -z "$v612" ]; then
	apt-get update -qq
	v612=$(newest_612)
fi
[ -n "$v612" ] || { echo "deps: no 6.12 kernel found in the archive" >&2; exit 1; }
pkgs+=("linux-image-$v612-amd64-unsigned" "linux-headers-$v612-amd64")

todo=$(missing_pkgs "${pkgs[@]}")
if [ -n "$todo" ]; then
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $todo
fi
qemu_ok || install_qemu
# The Debian 13 root for the 7.x kernel (cached: see the script).
"$top/scripts/trixie-root.sh" "$top"
