#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module tracks RDMA devices as they come and go: rdma link add/delete
# of soft-RoCE devices shows at once in rdmactl and in the live-object
# counters.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_RDMA_DEV XR_NETDEV
need_rdmactl

EXTRA_DEV=xrtest1
EXTRA_NETDEV=xrveth2

cleanup() {
	"$RDMA" link delete "$EXTRA_DEV" 2>/dev/null
	"$IP" link delete "$EXTRA_NETDEV" 2>/dev/null
	if ! "$RDMA" link show "$XR_RDMA_DEV/1" >/dev/null 2>&1; then
		"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV"
	fi
}
trap cleanup EXIT

dev_listed() {
	"$RDMACTL" -j dev show | jq -e --arg n "$1" 'any(.[]; .ifname == $n)' >/dev/null
}

dev_active() {
	"$RDMACTL" -j dev show "$1" | jq -e '.[0] | .usable and .ports[0].state == "ACTIVE"' >/dev/null
}

count_devices() {
	"$RDMACTL" -j dev show | jq length
}

add_second_device() {
	local before

	before=$(live_objects device)
	"$IP" link add "$EXTRA_NETDEV" type veth peer name "${EXTRA_NETDEV}p" || return 1
	"$IP" addr add 10.98.0.1/24 dev "$EXTRA_NETDEV" || return 1
	"$IP" link set "$EXTRA_NETDEV" up && "$IP" link set "${EXTRA_NETDEV}p" up || return 1
	"$RDMA" link add "$EXTRA_DEV" type rxe netdev "$EXTRA_NETDEV" || return 1
	wait_for 10 dev_listed "$EXTRA_DEV" || fail "$EXTRA_DEV not listed"  || return 1
	wait_for 20 dev_active "$EXTRA_DEV" || fail "$EXTRA_DEV not active" || return 1
	[ "$(live_objects device)" -eq $((before + 1)) ] ||
		fail "device objects: $(live_objects device), expected $((before + 1))"
}

remove_second_device() {
	local before

	before=$(live_objects device)
	"$RDMA" link delete "$EXTRA_DEV" || return 1
	wait_for 10 eval "! dev_listed $EXTRA_DEV" || fail "$EXTRA_DEV still listed" || return 1
	[ "$(live_objects device)" -eq $((before - 1)) ] ||
		fail "device objects not decremented"
}

port_down_seen() {
	"$IP" link set "$XR_NETDEV" down || return 1
	wait_for 10 eval "! dev_active $XR_RDMA_DEV"
	local rc=$?
	"$IP" link set "$XR_NETDEV" up
	[ $rc -eq 0 ] || fail "port still active with $XR_NETDEV down" || return 1
	wait_for 20 dev_active "$XR_RDMA_DEV" || fail "port not active again"
}

remove_and_readd() {
	"$RDMA" link delete "$XR_RDMA_DEV" || return 1
	wait_for 10 eval "! dev_listed $XR_RDMA_DEV" || fail "still listed after delete" || return 1
	[ "$(count_devices)" -eq "$(live_objects device)" ] || fail "count mismatch" || return 1
	"$RDMA" link add "$XR_RDMA_DEV" type rxe netdev "$XR_NETDEV" || return 1
	wait_for 10 dev_listed "$XR_RDMA_DEV" || fail "not listed after re-add" || return 1
	wait_for 20 dev_active "$XR_RDMA_DEV" || fail "not active after re-add"
}

ktap_header 4
run_test add_second_device add_second_device
run_test remove_second_device remove_second_device
run_test port_down_seen port_down_seen
run_test remove_and_readd remove_and_readd
ktap_finish
