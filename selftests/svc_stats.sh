#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The server's transports as netlink shows them, with a real nfsd and an
# NFSv3 mount: rdmactl listener add makes nfsd listen on the module's class
# (refused unprivileged, and twice), transport show lists the listeners and
# the one connection with its peer, credits, inline sizes and counters,
# another network namespace sees, closes and tunes none of them, ynl
# cli.py sees the same, listener del stops the listeners (refused
# unprivileged) while the connection stays up, and once the mount and the
# server are gone no transport is left but the module-wide counters are.
#
# Runs after svc_nfs.sh, which leaves the module loaded side by side with
# rpcrdma; it reloads it that way itself when it is not.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_RDMA_DEV XR_ADDR
need_rdmactl

nfs_need_server

CLASS=xrdma
PORT=20050
MNT=$NFS_RUN/mnt
OUT=$(mktemp)
ERR=$(mktemp)

cleanup() {
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT" "$ERR"
}
trap cleanup EXIT

# For json_check: $listeners and $conns, the entries of a list in $OUT
# whose role is server-listener and server-connection.
# shellcheck disable=SC2034 # lib.sh's json_check reads it
JSON_DEFS='(if type == "array" then . else [] end) as $all |
	($all | map(select(.role == "server-listener"))) as $listeners |
	($all | map(select(.role == "server-connection"))) as $conns | '

unprivileged() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"
}

server_start() {
	if [ "$(module_mode 2>/dev/null)" != sidebyside ] || [ ! -d /sys/module/rpcrdma ]; then
		echo "# reloading xrpcrdma side by side with rpcrdma"
		if module_loaded; then
			rmmod xrpcrdma || fail "rmmod" || return 1
		fi
		load_rpcrdma || return 1
		insmod "$XR_MODULE" || fail "insmod" || return 1
	fi
	[ "$(module_mode)" = sidebyside ] || fail "mode $(module_mode), expected sidebyside" ||
		return 1
	nfs_server_start
}

listener_add_unprivileged() {
	expect 1 unprivileged "$RDMACTL" listener add || return 1
	grep -q "Permission denied" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 0 "$RDMACTL" -j listener show || return 1
	json_check '. == []'
}

listener_add() {
	expect 0 "$RDMACTL" listener add || return 1
	nfs_portlist_has "$CLASS" "$PORT" ||
		fail "'$CLASS $PORT' not in portlist: $(tr '\n' ' ' <"$NFSD_FS/portlist")" || return 1
	expect 0 "$RDMACTL" -j listener show || return 1
	json_check "(map(.local_addr) | sort) == [\"0.0.0.0\", \"::\"] and
		all(.[]; .local_port == $PORT and .class == \"$CLASS\" and .serv == \"nfsd\" and
			.state == \"listening\")" || return 1
	expect 0 "$RDMACTL" listener show || return 1
	grep -Eq "^[0-9]+: class $CLASS serv nfsd state listening local 0\.0\.0\.0:$PORT$" "$OUT" ||
		fail "text: $(cat "$OUT")"
}

listener_add_twice() {
	expect 1 "$RDMACTL" listener add "*:$PORT" || return 1
	grep -q "nfsd refused '$CLASS $PORT': .* (does something listen on that port already?)" "$ERR" ||
		fail "stderr: $(cat "$ERR")"
}

traffic() {
	nfs_write_verify "$MNT" 1 stats-data || return 1
	[ "$(nfs_count_entries "$MNT")" -ge 1 ] || fail "empty listing"
}

# The listeners and exactly one connection, from the client's address,
# with the sizes the server grants and counters that moved.
transport_show() {
	local id

	expect 0 "$RDMACTL" -j transport show || return 1
	json_check '($listeners | length) == 2 and ($conns | length) == 1' || return 1
	json_check "\$conns[0] | .peer_addr == \"$XR_ADDR\" and .local_port == $PORT and
		.state == \"connected\" and .serv == \"nfsd\" and .class == \"$CLASS\"" ||
		return 1
	# The send queue holds the Sends (one per credit) and the RDMA Read and
	# Write contexts (at least one work request each, one per credit); the
	# receive queue one Receive per credit and two for backchannel replies.
	json_check '$conns[0] | .credits == 64 and .inline_send == 4096 and .inline_recv == 4096 and
		.peer_inline_send >= 1024 and .peer_inline_recv >= 1024 and .sq_depth >= 128 and
		.rq_depth == 66' || return 1
	json_check '$conns[0].stats | .["calls-received"] > 0 and .["replies-inline"] > 0 and
		.["bad-headers"] == 0 and .["send-errors"] == 0 and .["recv-errors"] == 0' || return 1
	echo "# connection: $(jq -c 'first(.[] | select(.role == "server-connection"))' "$OUT")"

	id=$(jq -r 'first(.[] | select(.role == "server-connection")) | .id' "$OUT")
	expect 0 "$RDMACTL" -d transport show "$id" || return 1
	grep -Eq "^$id: server-connection class $CLASS serv nfsd state connected .*peer $XR_ADDR:[0-9]+ credits 64 " "$OUT" ||
		fail "text: $(cat "$OUT")" || return 1
	grep -Eq "^    stats: calls-received [1-9][0-9]* replies-inline [1-9]" "$OUT" ||
		fail "text: $(cat "$OUT")"
}

# Run "$@" in a network namespace of its own.
in_other_netns() {
	unshare --net "$@"
}

# A caller in another network namespace (with every capability) sees none
# of this namespace's transports, and can neither close its listeners nor
# read or change its connections' tunables.
other_netns_sees_none() {
	local conn listener

	expect 0 "$RDMACTL" -j transport show || return 1
	conn=$(jq -r 'first(.[] | select(.role == "server-connection")) | .id' "$OUT")
	listener=$(jq -r 'first(.[] | select(.role == "server-listener")) | .id' "$OUT")
	[ -n "$conn" ] && [ -n "$listener" ] || fail "ids: '$conn' '$listener'" || return 1

	expect 0 in_other_netns "$RDMACTL" -j transport show || return 1
	json_check '. == []' || return 1
	expect 0 in_other_netns "$RDMACTL" -j listener show || return 1
	json_check '. == []' || return 1
	expect 1 in_other_netns "$RDMACTL" transport show "$conn" || return 1
	grep -q "no transport with that id" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 1 in_other_netns "$RDMACTL" listener del id "$listener" || return 1
	grep -q "no transport with that id" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 1 in_other_netns "$RDMACTL" config show transport "$conn" || return 1
	grep -q "no transport with that id" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 1 in_other_netns "$RDMACTL" config set sendctx-max 2 transport "$conn" || return 1
	grep -q "no transport with that id" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	other_netns_changes_nothing_global "$conn" || return 1

	# Here, all of it is still there and unchanged.
	expect 0 "$RDMACTL" -j listener show || return 1
	json_check 'length == 2' || return 1
	expect 0 "$RDMACTL" -j config show transport "$conn" || return 1
	json_check '.["sendctx-max"] != 2'
}

# What is the whole module's (the tunables' defaults, the fault points)
# and the devices of the initial namespace (rdma's shared netns mode) are
# changed from there only: from another namespace the changes are
# refused and say why, and nothing changes. The device is listed there,
# but not the name of its network device, which is not in that namespace.
other_netns_changes_nothing_global() {
	local conn=$1 credits

	credits=$(config_value credits)
	expect 1 in_other_netns "$RDMACTL" config set credits 4 || return 1
	grep -q "module-wide settings are changed from the initial network namespace" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	[ "$(config_value credits)" = "$credits" ] || fail "credits changed" || return 1
	expect 1 in_other_netns "$RDMACTL" fault set post-send every 1 transport "$conn" || return 1
	grep -q "module-wide settings are changed from the initial network namespace" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	expect 0 "$RDMACTL" -j fault show || return 1
	json_check '.[] | select(.point == "post-send") | .trigger == "off"' || return 1
	expect 1 in_other_netns "$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || return 1
	grep -q "belongs to another network namespace" "$ERR" ||
		fail "stderr: $(cat "$ERR")" || return 1
	expect 0 "$RDMACTL" -j dev show "$XR_RDMA_DEV" || return 1
	json_check '.[0].enabled == true and (.[0].ports[0].netdev | length > 0)' || return 1
	expect 0 in_other_netns "$RDMACTL" -j dev show "$XR_RDMA_DEV" || return 1
	json_check '.[0].ifname == $ENV.XR_RDMA_DEV and (.[0].ports[0].netdev // null) == null'
}

stats_show() {
	expect 0 "$RDMACTL" -j stats show || return 1
	json_check '.server | .["calls-received"] > 0 and .["bad-headers"] == 0 and
		.["replies-inline"] <= .["calls-received"]' || return 1
	expect 0 "$RDMACTL" stats show || return 1
	grep -Eq "^server: calls-received [1-9]" "$OUT" || fail "text: $(cat "$OUT")"
}

ynl_transports() {
	local rc

	"$(dirname "$0")/ynl_cli.sh" dump_transports get_stats | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	[ "$rc" -ne 4 ] || return 4
	return "$rc"
}

listener_del_unprivileged() {
	expect 1 unprivileged "$RDMACTL" listener del || return 1
	grep -q "Operation not permitted" "$ERR" || fail "stderr: $(cat "$ERR")" || return 1
	expect 0 "$RDMACTL" -j listener show || return 1
	json_check 'length == 2'
}

no_listener_left() {
	"$RDMACTL" -j listener show >"$OUT" 2>"$ERR" && jq -e '. == []' "$OUT" >/dev/null
}

# The listeners go; the connection accepted on one of them stays.
listener_del() {
	expect 0 "$RDMACTL" listener del || return 1
	wait_for 20 no_listener_left || fail "listeners left: $(cat "$OUT")" || return 1
	! nfs_portlist_has "$CLASS" "$PORT" ||
		fail "'$CLASS $PORT' still in portlist" || return 1
	expect 0 "$RDMACTL" -j transport show || return 1
	json_check '($conns | length) == 1 and $conns[0].state == "connected" and
		($listeners | length) == 0'
}

io_after_listener_del() {
	local got

	nfs_drop_caches
	got=$(nfs_read_sha256 "$MNT/stats-data" 1) || fail "reading back" || return 1
	[ -n "$got" ] || fail "no data"
}

listener_del_none_left() {
	expect 1 "$RDMACTL" listener del || return 1
	grep -q "no $CLASS listener on \*:$PORT" "$ERR" || fail "stderr: $(cat "$ERR")"
}

no_connection_left() {
	"$RDMACTL" -j transport show >"$OUT" 2>"$ERR" && jq -e '. == []' "$OUT" >/dev/null
}

umount_closes() {
	nfs_umount "$MNT" || return 1
	wait_for 30 no_connection_left || fail "transports left: $(cat "$OUT")"
}

# Nothing is listed after the server stops; the totals keep what was counted.
server_stop() {
	nfs_server_stop || fail "server stop" || return 1
	wait_for 30 no_connection_left || fail "transports left: $(cat "$OUT")" || return 1
	expect 0 "$RDMACTL" -j stats show || return 1
	json_check '.server | .["calls-received"] > 0 and .["replies-inline"] > 0'
}

ktap_header 16
run_test server_start server_start
run_test listener_add_unprivileged_refused listener_add_unprivileged
run_test listener_add listener_add
run_test listener_add_twice_refused listener_add_twice
run_test mount_v3 nfs_mount 3 "$PORT" "$MNT" rsize=1024,wsize=1024
run_test traffic traffic
run_test transport_show transport_show
run_test other_netns_sees_none other_netns_sees_none
run_test stats_show stats_show
run_test ynl_dump_transports_and_stats ynl_transports
run_test listener_del_unprivileged_refused listener_del_unprivileged
run_test listener_del listener_del
run_test io_after_listener_del io_after_listener_del
run_test listener_del_none_left listener_del_none_left
run_test umount_closes_the_connection umount_closes
run_test server_stop_leaves_no_transport server_stop
ktap_finish
