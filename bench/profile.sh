#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/profile.sh [--kernel KVER]: where the CPU time goes, by layer,
# for each workload of `make bench` over the in-tree rpcrdma and over
# xrpcrdma. Builds the module and rdmactl, boots one test host of KVER
# (the newest installed kernel), runs bench/profile-guest.sh in it under
# perf, and prints bench/profile-report.py's table; the reports are
# kept in build/bench-profile/KVER/. XR_PROF_* knobs: see
# bench/profile-guest.sh.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=
if [ "${1:-}" = --kernel ]; then
	[ $# -ge 2 ] || { echo "usage: bench/profile.sh [--kernel KVER]" >&2; exit 2; }
	kver=$2
fi
[ -n "$kver" ] || kver=$(for d in /lib/modules/*/build; do
	if [ -f "$d/Makefile" ]; then basename "$(dirname "$d")"; fi; done | sort -V | tail -n 1)
[ -n "$kver" ] || { echo "profile: no kernel headers installed (make deps)" >&2; exit 1; }
command -v perf >/dev/null || { echo "profile: perf is missing (make deps)" >&2; exit 1; }

cd "$top"
make --no-print-directory module KVER="$kver" KDIR="/lib/modules/$kver/build" >/dev/null
make --no-print-directory ctl >/dev/null
ko=$top/build/kmod/$kver/module/xrpcrdma.ko
out=$top/build/bench-profile/$kver
rm -rf "$out"
mkdir -p "$out"
knobs=()
for v in XR_PROF_SIZE_MB XR_PROF_SECONDS XR_PROF_RPCS; do
	[ -n "${!v:-}" ] && knobs+=("$v=${!v}")
done
selftests/testhost/run.sh --kernel "$kver" --module "$ko" --share "$out" \
	--timeout "${XR_PROF_TIMEOUT:-1200}" --log "$out/console.log" -- \
	env XR_MODULE="$ko" "${knobs[@]}" bench/profile-guest.sh "$out"
bench/profile-report.py "$out"
