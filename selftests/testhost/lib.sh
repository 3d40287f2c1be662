# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers shared by the test host's scripts (sourced, not run): which
# installed kernel a --kernel argument means, where build products and
# caches go, and stopping a process by its PID.

# Installed kernels (vmlinuz in /boot and modules in /lib/modules), oldest
# first; those of the root file system ROOT when given.
th_installed_kernels() {
	local root=${1:-} f

	for f in "$root"/boot/vmlinuz-*; do
		[[ -e $f ]] || continue
		f=${f#"$root"/boot/vmlinuz-}
		[[ -d $root/lib/modules/$f ]] && echo "$f"
	done | sort -V
}

# Print the KVER that WANT names: an exact version as in /boot/vmlinuz-KVER,
# a line such as "6.1" or "6.12" (its newest installed), or the newest
# installed when WANT is empty; of the root file system ROOT when given.
# Fails with a message on stderr.
th_resolve_kernel() {
	local want=$1 root=${2:-} all pick=

	all=$(th_installed_kernels "$root")
	if [[ -z $all ]]; then
		echo "testhost: no kernel in /boot with modules in /lib/modules" >&2
		return 1
	fi
	if [[ -z $want ]]; then
		pick=$(tail -n 1 <<<"$all")
	elif grep -qxF -- "$want" <<<"$all"; then
		pick=$want
	elif [[ $want =~ ^[0-9]+\.[0-9]+$ ]]; then
		pick=$(grep -E "^${want//./\\.}\." <<<"$all" | tail -n 1) || true
	fi
	if [[ -z $pick ]]; then
		echo "testhost: kernel '$want' is not installed${root:+ in $root} (have: ${all//$'\n'/ })" >&2
		return 1
	fi
	echo "$pick"
}

# Directory for the test host's build products and caches: $XR_TESTHOST_CACHE,
# else build/testhost at the top of the repository holding DIR.
th_build_dir() {
	local dir=$1 top

	if [[ -n ${XR_TESTHOST_CACHE:-} ]]; then
		echo "$XR_TESTHOST_CACHE"
		return
	fi
	top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) ||
		top=$(cd "$dir/../.." && pwd)
	echo "$top/build/testhost"
}

# th_stop_pid PID SECONDS: TERM the process PID (nothing when empty or
# gone), KILL it when it is still there after SECONDS.
th_stop_pid() {
	local pid=$1 i

	[[ -n $pid ]] || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}
