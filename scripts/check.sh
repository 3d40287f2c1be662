#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - everything `make check` runs, in order: generated files fresh,
# module builds for every installed kernel with -Werror, sparse, the DKMS
# build, the Debian packages (lintian), rdmactl and its unit tests, the
# header codec's tests and fuzzer, checkpatch, the documentation (Sphinx,
# warnings as errors; its commands tested), the layering rules, each
# module header compiled alone, the selftests in a test host (and the
# two-guest ones in a pair of test hosts) for each kernel line, the test
# host's own detector test, and last a reliability report from their
# logs. The steps that keep to one core (each test host: single-threaded
# TCG) run side by side, one per host core, and the pairs among them
# weighed as 1.4 cores (see pool). Each step logs to build/check/; the
# closing line counts every test: "N passed, N failed, N skipped".
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logs=$top/build/check
mkdir -p "$logs"

passed=0
failed=0
skipped=0
failed_steps=()

# Kernels with headers and an image the test host can boot, oldest first.
kernels=()
for d in /lib/modules/*/build; do
	k=$(basename "$(dirname "$d")")
	[ -f "$d/Makefile" ] && [ -f "/boot/vmlinuz-$k" ] && kernels+=("$k")
done
mapfile -t kernels < <(printf '%s\n' "${kernels[@]}" | sort -V)
host_kernels=("${kernels[@]}")
# And the kernels of the Debian 13 root (`make deps`), built and booted
# with that root (scripts/root-make.sh, run.sh --root).
root=$top/build/trixie-root
root_kernels=()
for d in "$root"/lib/modules/*/build; do
	k=$(basename "$(dirname "$d")")
	[ -f "$d/Makefile" ] && [ -f "$root/boot/vmlinuz-$k" ] &&
		[ ! -d "/lib/modules/$k" ] && root_kernels+=("$k")
done
mapfile -t root_kernels < <(printf '%s\n' "${root_kernels[@]}" | sort -V | grep .)
kernels+=("${root_kernels[@]}")

# root_args KVER: the test host's --root for a kernel of the root.
root_args() {
	local k

	for k in "${root_kernels[@]}"; do
		[ "$k" = "$1" ] && echo "--root $root"
	done
}

# count_ktap LOG RC: add the leaf results of a KTAP log to the totals: the
# subtests of each test where there are any (lines "# ok N ..."), else the
# top-level tests. A test skipped whole (no subtests) counts as one skip.
# A step that failed without reporting a failed test (a crash, a dirty
# guest) counts as one failure.
count_ktap() {
	local log=$1 rc=$2 prefix='' p f s

	grep -qE '^# (not )?ok [0-9]+ ' "$log" && prefix='# '
	p=$(grep -cE "^${prefix}ok [0-9]+ " "$log")
	s=$(grep -cE "^${prefix}ok [0-9]+ .*# SKIP" "$log")
	f=$(grep -cE "^${prefix}not ok [0-9]+ " "$log")
	p=$((p - s))
	# A test skipped whole printed "1..0 # SKIP" (a test whose cases all
	# skipped is "ok ... # SKIP" too, its cases counted already).
	[ -z "$prefix" ] || s=$((s + $(grep -c '^# 1\.\.0 # SKIP' "$log")))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	[ "$f" -eq 0 ]
}

# count_ctest LOG RC: add ctest's "N tests failed out of M" to the totals.
count_ctest() {
	local log=$1 rc=$2 line f t

	line=$(grep -E 'tests failed out of [0-9]+' "$log" | tail -n1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return 1
	fi
	f=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
	t=$(sed -E 's/.* tests failed out of ([0-9]+).*/\1/' <<<"$line")
	passed=$((passed + t - f))
	failed=$((failed + f))
	[ "$rc" -eq 0 ] && [ "$f" -eq 0 ]
}

# run_step NAME CMD...: run CMD with its output in build/check/NAME.log;
# its exit status, duration and the CPU time it and its children used
# (user and system seconds) go to NAME.rc, NAME.secs and NAME.cpu. A step
# whose CPU time is well under its duration left a core idle: where the
# time of make check can be found.
run_step() {
	local name=$1 rc=0 start=$SECONDS TIMEFORMAT='%U %S'

	shift
	{ time "$@" >"$logs/$name.log" 2>&1 || rc=$?; } 2>"$logs/$name.cpu"
	echo "$rc" >"$logs/$name.rc"
	echo "$((SECONDS - start))" >"$logs/$name.secs"
}

# step_cpu NAME: the CPU seconds a step used, rounded.
step_cpu() {
	local user sys

	# No process substitution: the pool's `wait -n` would see it.
	[ -r "$logs/$1.cpu" ] && read -r user sys <<<"$(tr , . <"$logs/$1.cpu")" ||
		{ echo "?"; return; }
	awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", u + s + 0.5 }'
}

# report_step NAME KIND: count the results of a step run_step ran. KIND
# says how: one (one test), ktap, ctest.
report_step() {
	local name=$1 kind=$2 log=$logs/$1.log rc ok=0

	rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 255)
	echo "== $name"
	case "$kind" in
	one)
		if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); ok=1; fi ;;
	ktap)	count_ktap "$log" "$rc" || ok=1 ;;
	ctest)	count_ctest "$log" "$rc" || ok=1 ;;
	esac
	[ "$rc" -eq 0 ] || ok=1
	if [ "$ok" -eq 0 ]; then
		echo "ok $name ($(cat "$logs/$name.secs") s, CPU $(step_cpu "$name") s)"
	else
		echo "not ok $name (exit $rc, $(cat "$logs/$name.secs") s)"
		# What failed first: a long log may be cut short where it is
		# shown.
		echo "  its failures:"
		grep -E '^(# )*not ok |# FAIL: |^testhost(-pair)?: (FAIL|trace)|^guest [AB]: (FAIL|trace)' \
			"$log" | head -n 60 | sed 's/^/    /'
		echo "  its log:"
		sed 's/^/    /' "$log"
		failed_steps+=("$name")
	fi
}

# step NAME KIND CMD...: run a step and count it.
step() {
	local name=$1 kind=$2

	shift 2
	rm -f "$logs/$name.rc"
	run_step "$name" "$@"
	report_step "$name" "$kind"
}

# pool "NAME KIND FUNCTION [ARG...]"...: steps side by side, as many as
# the host's cores (XR_CHECK_JOBS, default: their number) keep busy. A
# step weighs the tenths of a core it uses (measured with make check's
# CPU times): a test host guest (single-threaded TCG, idle while its
# tests wait) 7, a pair of them (guest_pair) 14, anything else 10.
# Whenever a step ends, the first steps in the order given whose weight
# fits start, while the weights of those running stay within ten per
# core and four more: on two cores three guests, or a pair and a guest,
# or two host steps and a guest; a step that weighs more than that
# starts alone. The arguments are words (no spaces
# within one; an entry may span lines). The steps are counted in the
# order given, once all have ended.
guest_jobs=${XR_CHECK_JOBS:-$(nproc)}
pool() {
	local cap=$((guest_jobs * 10 + 4)) used=0 w pid i
	local -a steps=("$@") words
	local -A weight=() todo=()

	for i in "${!steps[@]}"; do
		todo[$i]=1
	done
	while [ ${#todo[@]} -gt 0 ]; do
		for i in "${!steps[@]}"; do
			[ -n "${todo[$i]:-}" ] || continue
			read -r -d '' -a words <<<"${steps[$i]}" || true
			case ${words[2]} in
			guest_pair) w=14 ;;
			guest_selftests | detector | demo) w=7 ;;
			*) w=10 ;;
			esac
			[ "$used" -eq 0 ] || [ $((used + w)) -le "$cap" ] || continue
			unset "todo[$i]"
			rm -f "$logs/${words[0]}.rc"
			# NAME, then FUNCTION [ARG...]
			run_step "${words[0]}" "${words[@]:2}" &
			weight[$!]=$w
			used=$((used + w))
		done
		[ ${#todo[@]} -gt 0 ] || break
		# One step ended (or none was running): weigh those still running.
		wait -n || true
		used=0
		for pid in $(jobs -rp); do
			used=$((used + ${weight[$pid]:-10}))
		done
	done
	wait
	for i in "${!steps[@]}"; do
		read -r -d '' -a words <<<"${steps[$i]}" || true
		report_step "${words[0]}" "${words[1]}"
	done
}

check_generated() {
	local tmp rc=0 f

	tmp=$(mktemp -d)
	scripts/kernel-src.sh build/linux-src || return 1
	scripts/nl-gen.sh build/linux-src "$tmp" || { rm -rf "$tmp"; return 1; }
	for f in uapi/linux/xrpcrdma.h module/nl-gen.c module/nl-gen.h \
		 module/nl-gen-legacy.c module/nl-gen-legacy.h; do
		if ! diff -u "$f" "$tmp/$f"; then
			echo "$f is stale: run 'make regen' and commit the result"
			rc=1
		fi
	done
	rm -rf "$tmp"
	return $rc
}

# The module with warnings as errors; the flag must have reached the
# compiler (an admin's DKMS build goes without it: scripts/dkms-check.sh).
build_module() {
	make --no-print-directory module KVER="$1" KDIR="/lib/modules/$1/build" WERROR=y ||
		return 1
	grep -qE -- '-Werror( |$)' "build/kmod/$1/module/.main.o.cmd" ||
		{ echo "build: -Werror did not reach the compiler"; return 1; }
}

# sparse over every file of the module (C=2 checks even up-to-date files).
sparse_module() {
	local out

	out=$(make --no-print-directory module KVER="$1" KDIR="/lib/modules/$1/build" \
		C=2 WERROR=y 2>&1)
	echo "$out"
	! grep -E '(warning|error):' <<<"$out"
}

# checkpatch --strict on the project's own kernel-style C files, with two
# justified exceptions:
# - compat.h is where version checks belong, so LINUX_VERSION_CODE (and the
#   constant comparison checkpatch sees in KERNEL_VERSION()) is allowed
#   there alone;
# - the selftests are userspace: they use <stdint.h> types (the kernel's
#   u32 does not exist there), and their attribute iterator names its
#   cursor twice, as list_for_each() does.
checkpatch() {
	perl build/linux-src/scripts/checkpatch.pl --no-tree --strict --terse \
		--show-types "$@" | grep -v '^total:' | grep .
}

run_checkpatch() {
	local rc=0

	checkpatch -f $(ls module/*.c module/*.h | grep -v '^module/compat.h$') && rc=1
	checkpatch --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON -f module/compat.h && rc=1
	checkpatch --ignore PREFER_KERNEL_TYPES,MACRO_ARG_REUSE \
		-f selftests/*.c selftests/*.h && rc=1
	[ $rc -eq 0 ] && echo "checkpatch: no findings"
	return $rc
}

# The header codec on the host: unit tests under ASan/UBSan, then a
# bounded libFuzzer run from the kept corpus.
proto_unit() {
	cmake -S tests/proto -B build/proto >/dev/null &&
		cmake --build build/proto -j2 &&
		ctest --test-dir build/proto --output-on-failure
}

build_ctl() {
	make --no-print-directory ctl &&
		ctest --test-dir build/ctl --output-on-failure
}

# The selftests of a kernel run in two test hosts side by side: part 2
# is the data path (NFS both ways, hostile peers, faults, load), part 1
# everything else (netlink, rdmactl, installing the module, Kerberos,
# tracing, the benchmark's tooling). Every kernel runs every test: each
# kernel line has its own sunrpc, nfsd, svcauth_gss and netlink, and its
# users install the module with their own userland's dkms and dpkg.
part2_tests=(svc_hostile.sh wire_fuzz.sh listener_failover.sh svc_nfs.sh svc_stats.sh
	faults.sh stress.sh nfs_rdma.sh xprt_hostile.sh xprt_nfs.sh)

# in_list WORD LIST...: WORD is one of LIST.
in_list() {
	local w=$1

	shift
	[[ " $* " == *" $w "* ]]
}

# tests_of KVER PART: the selftests of part PART (1 or 2) of kernel
# KVER, in the Makefile's order.
tests_of() {
	local k=$1 part=$2 t p

	for t in $(make -s --no-print-directory -C selftests list_tests); do
		p=1
		in_list "$t" "${part2_tests[@]}" && p=2
		[ "$p" = "$part" ] && echo "$t"
	done
}

# guest_selftests KVER.partN: one part of a kernel's selftests.
guest_selftests() {
	local k=${1%.part*} part=${1##*.part} ko

	ko=$top/build/kmod/$k/module/xrpcrdma.ko
	# shellcheck disable=SC2046 # root_args gives two words or none
	selftests/testhost/run.sh --kernel "$k" $(root_args "$k") --module "$ko" --timeout 2700 \
		--log "$logs/guest-$1.console" -- \
		env XR_MODULE="$ko" make --no-print-directory -C selftests run_tests \
		TESTS="$(tests_of "$k" "$part" | tr '\n' ' ')"
}

# guest_pair KVER DIR TEST [SECONDS [KVER_B]]: the two-guest selftests
# (testhost/pair.sh), logs in DIR, each guest bounded by SECONDS
# (default 900); guest B boots KVER_B where it is given, each guest with
# its kernel's root and module. TEST is xprt_interop.sh
# (interoperability with the in-tree transport, the client's reconnect
# after an RPC timeout), peer_restart.sh (the server's guest killed under
# load and booted again) or krb5.sh (our client with Kerberos against the
# in-tree server).
guest_pair() {
	local k=$1 dir=$2 test=$3 timeout=${4:-900} kb=${5:-}
	local -a b=()

	if [ -n "$kb" ]; then
		b=(--b-kernel "$kb" --b-module "$top/build/kmod/$kb/module/xrpcrdma.ko")
		if [ -n "$(root_args "$kb")" ]; then
			b+=(--b-root "$root")
		else
			b+=(--b-no-root)
		fi
	fi
	# shellcheck disable=SC2046 # root_args gives two words or none
	selftests/testhost/pair.sh --kernel "$k" $(root_args "$k") \
		--module "$top/build/kmod/$k/module/xrpcrdma.ko" "${b[@]}" --timeout "$timeout" \
		--logs "$logs/$dir" --ktap -- "./selftests/$test"
}

detector() {
	selftests/testhost/test-detector.sh --kernel "$1"
}

# make demo's guest script in its test host, as `make demo` boots it
# (the module and rdmactl are built by then).
demo() {
	scripts/demo.sh --no-build "$1"
}

docs() {
	make --no-print-directory htmldocs
}

selftests_build() {
	make --no-print-directory -C selftests
}

step generated-files-fresh one check_generated
# The module builds (make runs one compiler at a time in each) side by
# side, then sparse.
build_steps=()
sparse_steps=()
for k in "${kernels[@]}"; do
	build_steps+=("build-$k one build_module $k")
	sparse_steps+=("sparse-$k one sparse_module $k")
done
pool "${build_steps[@]}"
pool "${sparse_steps[@]}"
# DKMS builds with the host's dkms for the host's kernels and, beside
# it, with the Debian 13 root's dkms (inside that root) for its kernels.
# The Debian packages, lintian (no errors) and the systemd unit (fails
# when debian/changelog is not at VERSION; selftests/deb.sh installs
# them), rdmactl and its unit tests, the header codec's: builds of a
# core or so each, side by side with the DKMS ones.
package_steps=("dkms one scripts/dkms-check.sh ${host_kernels[*]}")
[ ${#root_kernels[@]} -eq 0 ] ||
	package_steps+=("dkms-root one scripts/dkms-check.sh --root $root ${root_kernels[*]}")
package_steps+=("deb one scripts/deb.sh --check" "rdmactl ctest build_ctl"
	"proto-unit ctest proto_unit")
pool "${package_steps[@]}"
# The steps that keep to one core, side by side (the fuzzer's minute
# runs among the test host steps).
pool "checkpatch one run_checkpatch" \
	"docs one docs" \
	"doc-commands one scripts/doc-commands.py" \
	"layering one scripts/layering-check.py --selftest" \
	"headers one scripts/header-check.sh" \
	"selftests-build one selftests_build" \
	"reliability-unit one tests/reliability/run.sh" \
	"bench-unit one tests/bench/run.sh" \
	"trixie-root-unit one tests/trixie-root/run.sh"
# The test host steps: the pairs first (on two cores one at a time,
# beside one single-guest step: see pool), then the single-guest steps,
# the longer parts 1 before parts 2, so that the cores end together. An
# earlier run's pair logs (other kernels, other names) must not be read
# as this run's.
rm -rf "$logs"/selftests-pair-* "$logs"/pair-*
guest_steps=()
# Interoperability between the oldest kernel and the newest: guest A
# (the server) boots the oldest, guest B (the client) the newest, as when
# a server and its clients are upgraded at different times (each
# kernel's own in-tree transport is the peer of ours on the other).
if [ "${kernels[-1]}" != "${kernels[0]}" ]; then
	guest_steps+=("selftests-pair-${kernels[0]}-${kernels[-1]} ktap guest_pair ${kernels[0]}
		pair-${kernels[0]}-${kernels[-1]} xprt_interop.sh 900 ${kernels[-1]}")
else
	guest_steps+=("selftests-pair-${kernels[0]} ktap guest_pair ${kernels[0]}
		pair-${kernels[0]} xprt_interop.sh")
fi
# Kerberos: our client of each kernel (guest B) against the in-tree
# server of the newest Debian 12 kernel (guest A, with the KDC), the one
# in-tree server here that serves all three flavours: 6.1's cannot
# unwrap krb5p, 7.3's answers NFSv4.1 krb5i O_DIRECT reads wrongly
# (Documentation/admin-guide.rst). krb5.sh in the single-guest steps
# has both roles of ours on every kernel.
for k in "${kernels[@]}"; do
	kb=$k
	[ "$k" != "${host_kernels[-1]}" ] || kb=
	guest_steps+=("selftests-pair-krb5-$k ktap guest_pair ${host_kernels[-1]} pair-krb5-$k
		krb5.sh 1500 $kb")
done
# The peer restart, on the newest kernel.
guest_steps+=("selftests-pair-restart-${kernels[-1]} ktap guest_pair ${kernels[-1]}
	pair-restart-${kernels[-1]} peer_restart.sh")
for part in 1 2; do
	for k in "${kernels[@]}"; do
		guest_steps+=("selftests-$k.part$part ktap guest_selftests $k.part$part")
	done
done
# The detector tests the test host itself: once, on the newest host
# kernel.
guest_steps+=("testhost-detector-${host_kernels[-1]} ktap detector ${host_kernels[-1]}")
# make demo (about two minutes): on its default kernel, the newest one
# the host builds for.
guest_steps+=("demo-${host_kernels[-1]} one demo ${host_kernels[-1]}")
# The header codec's fuzzer, a minute on one core, fills in at the end.
guest_steps+=("proto-fuzz one tests/proto/run-fuzz.sh ${XR_FUZZ_SECONDS:-60}")
pool "${guest_steps[@]}"
# What the guest runs tried and found, from their logs; fails when a
# fault point was not tried, a case failed, or the module leaked or did
# not unload. Documentation/reliability.rst is a kept copy.
step reliability one scripts/reliability-report.py "$logs" \
	Documentation/netlink/specs/xrpcrdma.yaml "$logs/reliability.rst"

echo
[ ${#failed_steps[@]} -eq 0 ] || echo "failed steps: ${failed_steps[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ ${#failed_steps[@]} -eq 0 ]
