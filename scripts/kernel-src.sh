#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Extract from Debian's linux-source-6.12 tarball only what the build uses:
# ynl (generator and cli.py), the netlink spec schemas, kselftest_harness.h
# and checkpatch. Nothing extracted here is committed.
set -euo pipefail

dest=${1:?usage: kernel-src.sh DESTDIR}
tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "kernel-src: linux-source-6.12 is not installed (make deps)" >&2; exit 1; }

stamp="$dest/.extracted"
if [ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ]; then
	exit 0
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1 \
	--wildcards \
	'linux-source-6.12/tools/net/ynl/*' \
	'linux-source-6.12/Documentation/netlink/*.yaml' \
	'linux-source-6.12/tools/testing/selftests/kselftest_harness.h' \
	'linux-source-6.12/tools/testing/selftests/kselftest.h' \
	'linux-source-6.12/scripts/checkpatch.pl' \
	'linux-source-6.12/scripts/spelling.txt' \
	'linux-source-6.12/scripts/const_structs.checkpatch'
# ynl-gen-c looks for MAINTAINERS to find the tree's root.
: > "$dest.tmp/MAINTAINERS"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
touch "$stamp"
