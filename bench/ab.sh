#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/ab.sh [--kernel KVER] LABEL=MODULE[:NAME=VALUE...]...: a before
# and after comparison of xrpcrdma.ko builds (say of two commits, each
# built for KVER) in one test host, which loads them in turn, round after
# round (bench/ab-guest.sh), so that the host's drift falls on all alike.
# NAME=VALUE after a module are tunables (rdmactl config set NAME VALUE)
# set after loading it: one build with two settings compares the two.
# Prints, per figure, each module's median and its ratio to the first's,
# with the ratio of every round. XR_AB_* knobs: see bench/ab-guest.sh.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: bench/ab.sh [--kernel KVER] LABEL=MODULE[:NAME=VALUE...] LABEL=MODULE..." >&2
	exit 2
}
kver=
if [ "${1:-}" = --kernel ]; then
	[ $# -ge 2 ] || usage
	kver=$2
	shift 2
fi
[ $# -ge 2 ] || usage
[ -n "$kver" ] || kver=$(for d in /lib/modules/*/build; do
	if [ -f "$d/Makefile" ]; then basename "$(dirname "$d")"; fi; done | sort -V | tail -n 1)
[ -n "$kver" ] || { echo "ab: no kernel headers installed (make deps)" >&2; exit 1; }

args=()
for a in "$@"; do
	label=${a%%=*} ko=${a#*=}
	[[ $a == *=* && $label =~ ^[A-Za-z0-9_.-]+$ ]] || usage
	cfg=${ko#"${ko%%:*}"} ko=${ko%%:*}
	[[ $cfg =~ ^(:[a-z-]+=[0-9]+)*$ ]] ||
		{ echo "ab: tunables are :NAME=NUMBER, not $cfg" >&2; exit 2; }
	[ -f "$ko" ] || { echo "ab: no module $ko" >&2; exit 1; }
	args+=("$label=$(realpath "$ko")$cfg")
done
first=${args[0]#*=}
first=${first%%:*}

cd "$top"
make --no-print-directory ctl >/dev/null
out=$top/build/bench-ab/$kver
mkdir -p "$out"
knobs=()
for v in XR_AB_ROUNDS XR_AB_RPCS XR_AB_RAND_S XR_AB_SIZE_MB XR_AB_META_S; do
	[ -n "${!v:-}" ] && knobs+=("$v=${!v}")
done
selftests/testhost/run.sh --kernel "$kver" --module "$first" \
	--timeout "${XR_AB_TIMEOUT:-3000}" --log "$out/console.log" -- \
	env XR_MODULE="$first" "${knobs[@]}" bench/ab-guest.sh "${args[@]}" | tee "$out/ab.log"
bench/ab-report.py "$out/ab.log"
