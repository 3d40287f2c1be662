#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/run.sh [KVER]: `make bench`. Builds the module and rdmactl, boots
# one test host (the newest installed kernel, or KVER), runs bench/guest.sh
# in it, and turns its records into build/bench/KVER/{results.md,
# results.json,latency.png} with bench/report.py. Prints the table.
# rdmactl's build has xr-metaload, the metadata load the guest runs.
# XR_BENCH_* knobs (see guest.sh) pass through to the guest;
# XR_BENCH_MODULE measures that xrpcrdma.ko (built for KVER, say from an
# earlier commit, for a before-and-after comparison) instead of the build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kver=${1:-$(for d in /lib/modules/*/build; do
	if [ -f "$d/Makefile" ]; then basename "$(dirname "$d")"; fi; done | sort -V | tail -n 1)}
[ -n "$kver" ] || { echo "bench: no kernel headers installed (make deps)" >&2; exit 1; }

make --no-print-directory module KVER="$kver" KDIR="/lib/modules/$kver/build" >/dev/null
make --no-print-directory ctl >/dev/null
command -v fio >/dev/null || { echo "bench: fio is missing (make deps)" >&2; exit 1; }

out=$top/build/bench/$kver
ko=${XR_BENCH_MODULE:-$top/build/kmod/$kver/module/xrpcrdma.ko}
[ -f "$ko" ] || { echo "bench: no module $ko" >&2; exit 1; }
ko=$(realpath "$ko")
rm -rf "$out"
mkdir -p "$out"
knobs=()
for v in XR_BENCH_REPS XR_BENCH_SIZE_MB XR_BENCH_RAND_S XR_BENCH_VERS XR_BENCH_PINGS \
	XR_BENCH_RPCS XR_BENCH_CONNS XR_BENCH_META_S XR_BENCH_META_PROCS; do
	[ -n "${!v:-}" ] && knobs+=("$v=${!v}")
done

start=$(date +%s)
selftests/testhost/run.sh --kernel "$kver" --module "$ko" --share "$out" \
	--timeout "${XR_BENCH_TIMEOUT:-1800}" --log "$out/console.log" -- \
	env XR_MODULE="$ko" "${knobs[@]}" bench/guest.sh "$out"
echo "bench: kernel $kver, $(($(date +%s) - start)) s in the test host"
bench/report.py "$out/raw.jsonl" "$out"
echo "bench: results in ${out#"$top"/}/ (results.md, results.json, latency.png)"
