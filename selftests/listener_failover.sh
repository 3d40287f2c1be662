#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A bonding fail-over under a listener. nfsd listens on our class at one
# address of an active-backup bond (fail_over_mac=active, soft-RoCE on
# the bond). When the bond fails over, its MAC address changes and the
# connection manager sends RDMA_CM_EVENT_ADDR_CHANGE to every ID bound to
# it: a real event, not the addr-change fault point faults.sh uses. The
# listener must go on accepting connections on that address, through a
# fail-over and back, and the listeners nfsd sees must stay the same.
#
# Only nfsd's netlink family (listener-set, Linux 6.10 and later) binds an
# RDMA listener to one address; /proc/fs/nfsd/portlist listens on every
# address, where no ADDR_CHANGE ever comes. Older kernels skip the test.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV
need_rdmactl

BOND=xrbond0
BOND_DEV=xrrxe1
BOND_ADDR=10.98.0.1
BOND_PORT=20051
NFSD_SPEC=$XR_TOP/build/linux-src/Documentation/netlink/specs/nfsd.yaml
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

nfsd_ynl() {
	python3 "$YNL_CLI" --spec "$NFSD_SPEC" --no-schema --output-json "$@"
}

[ -f "$YNL_CLI" ] && [ -f "$NFSD_SPEC" ] || skip_all "ynl or nfsd.yaml not extracted"
modprobe nfsd 2>/dev/null
nfsd_ynl --do listener-get >/dev/null 2>&1 ||
	skip_all "nfsd has no netlink listener-set on $(uname -r): no RDMA listener binds one address"
modprobe bonding 2>/dev/null || skip_all "no bonding module"

ktap_header 6

# The bond's two slaves are veths whose peers stay up, so both links are
# up and the fail-over is ours to order.
bond_up() {
	local n

	"$IP" link add "$BOND" type bond mode active-backup fail_over_mac active miimon 100 ||
		{ fail "cannot create $BOND"; return 1; }
	for n in 2 4; do
		"$IP" link add "xrveth$n" type veth peer name "xrveth$((n + 1))" &&
			"$IP" link set "xrveth$n" master "$BOND" &&
			"$IP" link set "xrveth$((n + 1))" up ||
			{ fail "cannot enslave xrveth$n"; return 1; }
	done
	"$IP" link set "$BOND" up &&
		"$IP" addr add "$BOND_ADDR/24" dev "$BOND" ||
		{ fail "cannot bring $BOND up"; return 1; }
	"$RDMA" link add "$BOND_DEV" type rxe netdev "$BOND" ||
		{ fail "cannot add soft-RoCE on $BOND"; return 1; }
	wait_for 10 "$RDMACTL" dev show "$BOND_DEV" ||
		fail "the module did not take $BOND_DEV"
}

bond_down() {
	"$RDMA" link del "$BOND_DEV" 2>/dev/null
	"$IP" link del "$BOND" 2>/dev/null
	"$IP" link del xrveth2 2>/dev/null
	"$IP" link del xrveth4 2>/dev/null
	return 0
}

# nfsd's listeners now, with ours on the bond's address added. nfsd
# takes a new list only while it runs no thread (else -EBUSY), so the
# threads stop for the change and start again.
listen_on_bond() {
	local cur threads

	nfs_our_server_start || return 1
	cur=$(nfsd_ynl --do listener-get) || { fail "nfsd listener-get"; return 1; }
	threads=$(nfsd_threads)
	rpc.nfsd 0 || { fail "rpc.nfsd 0"; return 1; }
	XR_CUR=$cur python3 - "$NFS_CLASS" "$BOND_ADDR" "$BOND_PORT" >"$OUT.set" <<'PY' || return 1
import ipaddress, json, os, socket, struct, sys

cls, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
cur = json.loads(os.environ["XR_CUR"])
sin = struct.pack("<H", socket.AF_INET) + struct.pack(">H", port)
sin += ipaddress.IPv4Address(addr).packed + bytes(8)
cur.setdefault("addr", []).append({"transport-name": cls, "addr": sin.hex()})
print(json.dumps(cur))
PY
	nfsd_ynl --do listener-set --json "$(cat "$OUT.set")" >/dev/null ||
		{ fail "nfsd listener-set"; return 1; }
	rpc.nfsd "$threads" || { fail "rpc.nfsd $threads"; return 1; }
	nfs_portlist_has "$NFS_CLASS" "$BOND_PORT" ||
		fail "no '$NFS_CLASS $BOND_PORT' in portlist: $(tr '\n' ' ' <$NFSD_FS/portlist)" ||
		return 1
	listeners >"$OUT.before"
	grep -q " local $BOND_ADDR:$BOND_PORT\$" "$OUT.before" ||
		{ sed 's/^/# /' "$OUT.before"; fail "no listener on $BOND_ADDR:$BOND_PORT"; } ||
		return 1
	accepts_on_bond
}

listeners() {
	"$RDMACTL" listener show | sed 's/ state [a-z]*//'
}

ping_bond() {
	"$RDMACTL" ping -c 1 -t 5 "$BOND_ADDR:$BOND_PORT" >"$OUT" 2>&1
}

accepts_on_bond() {
	ping_bond || { sed 's/^/# /' "$OUT"; fail "no answer on $BOND_ADDR:$BOND_PORT"; }
}

# The connection manager's own word that it sent ADDR_CHANGE to an ID on
# the bond (ours is the only one there).
addr_changes() {
	dmesg | grep -c "RDMA CM addr change for ndev $BOND "
}

addr_changed_since() {
	[ "$(addr_changes)" -gt "$1" ]
}

# fail_over SLAVE: make SLAVE the active one; the bond takes its MAC, the
# listener sees ADDR_CHANGE, and a new connection is accepted.
fail_over() {
	local slave=$1 before mac0 mac1

	before=$(addr_changes)
	mac0=$(cat "/sys/class/net/$BOND/address")
	"$IP" link set "$BOND" type bond active_slave "$slave" ||
		{ fail "cannot make $slave active"; return 1; }
	mac1=$(cat "/sys/class/net/$BOND/address")
	echo "# $BOND: $mac0 -> $mac1 ($slave active)"
	[ "$mac0" != "$mac1" ] || fail "the bond kept its MAC address: no fail-over" || return 1
	wait_for 10 addr_changed_since "$before" ||
		fail "the connection manager sent no address change" || return 1
	wait_for 10 ping_bond ||
		{ sed 's/^/# /' "$OUT"; fail "no connection accepted after the fail-over"; return 1; }
	listeners >"$OUT.after"
	diff "$OUT.before" "$OUT.after" >/dev/null ||
		{ diff "$OUT.before" "$OUT.after" | sed 's/^/# /'; fail "the listeners changed"; }
}

on_bond() {
	"$RDMACTL" listener show | grep -q " local $BOND_ADDR:$BOND_PORT\( \|\$\)"
}

# The device under the bound listener goes while nfsd runs no thread
# (as between setting its listeners and starting it): no thread takes a
# close queued for one, so the listener must be closed at once, or the
# device removal, which waits for every ID on the device, does not end
# (until a thread starts: the threads are started again either way).
removal_without_threads() {
	local threads pid rc=0

	threads=$(nfsd_threads)
	rpc.nfsd 0 || { fail "rpc.nfsd 0"; return 1; }
	nfsd_ynl --do listener-set --json "$(cat "$OUT.set")" >/dev/null ||
		{ fail "nfsd listener-set"; rpc.nfsd "$threads"; return 1; }
	on_bond || fail "no listener on $BOND_ADDR:$BOND_PORT before the removal" || rc=1
	"$RDMA" link del "$BOND_DEV" &
	pid=$!
	wait_for 20 eval "! kill -0 $pid 2>/dev/null" ||
		fail "removing $BOND_DEV under a listener of nfsd without threads hangs" || rc=1
	rpc.nfsd "$threads" || fail "rpc.nfsd $threads" || rc=1
	wait "$pid" || fail "rdma link del $BOND_DEV failed" || rc=1
	! on_bond || fail "the listener on the removed device is still there" || rc=1
	return $rc
}

# After nfsd stops, every object is released.
released() {
	nfs_server_stop || fail "nfsd did not stop cleanly"
	bond_down
	wait_for 30 nfs_server_objects_at 0 ||
		fail "live objects: $("$RDMACTL" -j module show)"
}

run_test bond_with_soft_roce bond_up
run_test nfsd_listens_on_bond_address listen_on_bond
run_test fail_over_keeps_accepting fail_over xrveth4
run_test fail_back_keeps_accepting fail_over xrveth2
run_test removal_without_threads removal_without_threads
run_test listeners_released released
rm -f "$OUT.before" "$OUT.after" "$OUT.set"
ktap_finish
