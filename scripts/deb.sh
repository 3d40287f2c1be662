#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deb.sh [--check] - build the Debian packages (xrpcrdma-dkms, rdmactl)
# with dpkg-buildpackage into build/deb/. dpkg-buildpackage writes its
# results to the parent of the source tree, so it builds a copy of the
# tree (the files Git knows of, committed or not, and new ones it does
# not ignore) in build/deb/xrpcrdma-VERSION: nothing is written outside
# build/. Fails when debian/changelog's version is not the VERSION
# file's. With --check (make check): lintian on the result fails on any
# error, and systemd-analyze verify on rdmactl-monitor.service on any
# finding.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

check=0
[ "${1:-}" = --check ] && check=1

for t in dpkg-buildpackage dh dh_dkms; do
	command -v "$t" >/dev/null || { echo "deb: $t is not installed (make deps)" >&2; exit 1; }
done

version=$(cat VERSION)
cl_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ "$cl_version" != "$version" ]; then
	echo "deb: debian/changelog is at $cl_version, VERSION has $version: add a changelog entry" >&2
	exit 1
fi

out=$top/build/deb
rm -rf "$out"
src=$out/xrpcrdma-$version
mkdir -p "$src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$src"
else
	tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi

# -us -uc: unsigned; the source package too (3.0 native), so that lintian
# sees it.
(cd "$src" && dpkg-buildpackage -us -uc -j"$(nproc)") >"$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log" >&2; echo "deb: dpkg-buildpackage failed (build/deb/build.log)" >&2; exit 1; }
rm -rf "$src"
ls "$out"/*.deb

[ $check -eq 1 ] || exit 0

# The unit as installed, its ExecStart pointed at the packaged binary
# (verify checks the command exists). It warns without failing on, e.g.,
# an unknown Type=: any output is a failure.
unit_check() {
	local tmp rc=0 findings

	tmp=$(mktemp -d)
	dpkg-deb -x "$out/rdmactl_${version}_amd64.deb" "$tmp/root"
	mkdir "$tmp/unit"
	sed "s|=/usr/sbin/rdmactl|=$tmp/root/usr/sbin/rdmactl|" \
		"$tmp/root/lib/systemd/system/rdmactl-monitor.service" \
		>"$tmp/unit/rdmactl-monitor.service"
	findings=$(systemd-analyze verify --man=no "$tmp/unit/rdmactl-monitor.service" 2>&1) || rc=1
	[ -z "$findings" ] || { echo "$findings"; rc=1; }
	rm -rf "$tmp"
	[ $rc -eq 0 ] && echo "deb: rdmactl-monitor.service verified"
	return $rc
}

rc=0
unit_check || rc=1
# Errors fail; warnings are printed (Documentation/admin-guide.rst says
# which remain and why).
lintian --fail-on error "$out"/xrpcrdma_"${version}"_*.changes || rc=1
exit $rc
