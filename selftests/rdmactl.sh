#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rdmactl against the live module: what it shows, the errors it reports
# (the kernel's extended ack message, exit 1) and its usage errors (exit 2).
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_RDMA_DEV XR_NETDEV
need_rdmactl

OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"; "$RDMACTL" dev set "$XR_RDMA_DEV" enabled on 2>/dev/null' EXIT

dev_show_text() {
	expect 0 "$RDMACTL" dev show || return 1
	grep -Eq "^[0-9]+: $XR_RDMA_DEV: .*state ACTIVE.*netdev $XR_NETDEV" "$OUT" ||
		fail "text output: $(cat "$OUT")"
}

dev_show_json() {
	expect 0 "$RDMACTL" -j dev show || return 1
	json_check "any(.[]; .ifname == \"$XR_RDMA_DEV\" and .usable and .enabled and
		.ports[0].state == \"ACTIVE\" and .ports[0].netdev == \"$XR_NETDEV\")"
}

dev_show_one() {
	expect 0 "$RDMACTL" -j device show "$XR_RDMA_DEV" || return 1
	json_check "length == 1 and .[0].ifname == \"$XR_RDMA_DEV\"" || return 1
	# Abbreviations, as in the rdma tool.
	expect 0 "$RDMACTL" d sh "$XR_RDMA_DEV" || return 1
	grep -q "$XR_RDMA_DEV" "$OUT" || fail "abbreviated command output"
}

dev_show_unknown() {
	expect 1 "$RDMACTL" dev show nosuchdev0 || return 1
	grep -q "no RDMA device of that name" "$ERR" || fail "no extack message: $(cat "$ERR")"
}

# rdmactl knows the spec's limit and refuses before asking the kernel (the
# kernel's own answer to a long name is checked by nl_test).
dev_show_name_too_long() {
	expect 2 "$RDMACTL" dev show "$(printf 'x%.0s' $(seq 1 100))" || return 1
	grep -q "longer than 63" "$ERR" || fail "stderr: $(cat "$ERR")"
}

module_show() {
	expect 0 "$RDMACTL" -j module show || return 1
	json_check ".build_kernel == \"$(uname -r)\" and (.version | length > 0) and
		(.mode == \"dropin\" or .mode == \"sidebyside\") and .live_objects.device >= 1" ||
		return 1
	expect 0 "$RDMACTL" module show || return 1
	grep -q "$(uname -r)" "$OUT" || fail "text module show: $(cat "$OUT")"
}

dev_set_toggle() {
	expect 0 "$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || return 1
	expect 0 "$RDMACTL" -j dev show "$XR_RDMA_DEV" || return 1
	json_check '.[0] | (.enabled | not) and (.usable | not)' || return 1
	expect 0 "$RDMACTL" dev set "$XR_RDMA_DEV" enabled on || return 1
	expect 0 "$RDMACTL" -j dev show "$XR_RDMA_DEV" || return 1
	json_check '.[0] | .enabled and .usable'
}

dev_set_unprivileged() {
	expect 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || return 1
	grep -q "Operation not permitted" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	# Unprivileged users may still look.
	expect 0 setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all "$RDMACTL" dev show "$XR_RDMA_DEV" || return 1
	expect 0 "$RDMACTL" -j dev show "$XR_RDMA_DEV" || return 1
	json_check '.[0].enabled'
}

usage_errors() {
	expect 2 "$RDMACTL" nosuchobject || return 1
	[ -s "$ERR" ] || fail "no message for an unknown object" || return 1
	expect 2 "$RDMACTL" dev nosuchcommand || return 1
	expect 2 "$RDMACTL" dev set "$XR_RDMA_DEV" enabled maybe || return 1
	expect 2 "$RDMACTL" dev set "$XR_RDMA_DEV" || return 1
	expect 0 "$RDMACTL" help || return 1
	expect 0 "$RDMACTL" dev help
}

ktap_header 9
run_test dev_show_text dev_show_text
run_test dev_show_json dev_show_json
run_test dev_show_one dev_show_one
run_test dev_show_unknown dev_show_unknown
run_test dev_show_name_too_long dev_show_name_too_long
run_test module_show module_show
run_test dev_set_toggle dev_set_toggle
run_test dev_set_unprivileged dev_set_unprivileged
run_test usage_errors usage_errors
ktap_finish
