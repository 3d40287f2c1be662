#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# completion.sh SCRIPT RDMACTL: sources the bash completion and completes
# a few command lines the way bash does, through the real binary.
set -u
source "$1" || exit 1
rdmactl=$2
failed=0

# expect "WORDS..." "CANDIDATES..." (the last word is completed)
expect() {
	local words=$1 want=$2 got
	read -r -a COMP_WORDS <<<"$rdmactl $words"
	[[ $words == *" " || -z $words ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_rdmactl
	got="${COMPREPLY[*]}"
	if [[ $got != "$want" ]]; then
		echo "FAIL: rdmactl $words<TAB>: got '$got', want '$want'"
		failed=1
	else
		echo "ok: rdmactl $words<TAB>: $got"
	fi
}

[[ $(complete -p rdmactl) == "complete -F _rdmactl rdmactl" ]] ||
	{ echo "FAIL: not registered: $(complete -p rdmactl)"; failed=1; }
expect "tr" "transport"
expect "" "dev module transport listener stats config fault bench ping monitor help"
expect "bench run 10.0.0.1 con" "concurrency"
expect "bench run 10.0.0.1 op rdma-" "rdma-write rdma-read"
expect "bench run 10.0.0.1 op rdma-write s" "size"
expect "fault set post-s" "post-send"
expect "config set inline-s" "inline-send"
expect "-j dev " "show set help"
expect "dev set rxe0 enabled o" "on off"
expect "ping --co" "--count"
expect "bogus " ""
tmp=$(mktemp -d) && touch "$tmp/hdr.bin"
expect "ping --raw $tmp/hd" "$tmp/hdr.bin"
rm -rf "$tmp"
exit $failed
