#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NFS over xrpcrdma with Kerberos, in one guest: a realm set up by
# krb5_lib.sh (KDC, keytab, rpc.svcgssd, rpc.gssd), an export allowing
# sec=krb5, krb5i and krb5p, and for NFSv3 and NFSv4.1 with each flavour:
#
#  1. our client -> our server (the module in drop-in mode, rpcrdma
#     unloaded and kept from loading);
#  2. the in-tree client -> our server (the module beside rpcrdma, our
#     server on "xrdma 20050").
#
# Each case writes files of 1, 4095, 4097 and 65537 bytes buffered and
# with O_DIRECT, overwrites a file at unaligned offsets (both ways), and
# writes a random file of XR_KRB5_BIG_MB MiB (default 4); after the page
# cache is dropped every file reads back (buffered and O_DIRECT) with the
# SHA-256 of its local copy. Under krb5i and krb5p the payload is inside
# the GSS token, so no data item may be placed directly: our client sends
# no call with a Read list and offers no Write chunk (long calls go in a
# position-zero Read chunk, long replies in a Reply chunk), and our
# server sends no reply through a Write chunk. Under plain krb5 large
# WRITEs and READs still use Read lists and Write chunks.
set -u
source "$(dirname "$0")/nfs_lib.sh"
# shellcheck source=selftests/krb5_lib.sh
source "$(dirname "$0")/krb5_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl
nfs_need_server
missing=$(krb5_missing_tools)
[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"

VERS="3 4.1"
FLAVOURS="krb5 krb5i krb5p"
SIZES="1 4095 4097 65537"
# Unaligned overwrites: offset:length.
PATCHES="1:4097 4095:3 8191:65537 131073:1"
BIG_MB=${XR_KRB5_BIG_MB:-4}
BLOCK=/etc/modprobe.d/xr-krb5.conf
MNT=$NFS_RUN/mnt-krb5
# A soft mount: a call the server drops (a GSS checksum that does not
# verify) fails in seconds instead of hanging the test.
MOUNT_OPTS=soft,timeo=100,retrans=2
NFS_EXPORT_OPTS=$NFS_EXPORT_OPTS,sec=krb5:krb5i:krb5p:sys

cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	nfs_server_stop >/dev/null 2>&1
	krb5_realm_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

# Counters of a case: our client's (when it is the client), summed over
# the transports of its two mounts, and our server's (module-wide).
declare -A C0 CSUM S0
CLIENT_STATS="read-chunk-calls write-chunk-calls nomsg-calls reply-chunk-calls"

client_stat() {
	nfs_client_eval "$XR_ADDR" "$PORT" "c['stats']['$1']"
}

client_snapshot() {
	local n

	[ "$CLIENT" = ours ] || return 0
	for n in $CLIENT_STATS; do
		C0[$n]=$(client_stat "$n") || fail "no client transport" || return 1
	done
}

# What the mount's transport counted since client_snapshot, into CSUM.
client_add() {
	local n v

	[ "$CLIENT" = ours ] || return 0
	for n in $CLIENT_STATS; do
		v=$(client_stat "$n") || fail "no client transport" || return 1
		CSUM[$n]=$((${CSUM[$n]:-0} + v - C0[$n]))
	done
}

server_snapshot() {
	local n

	CSUM=()
	for n in replies-write-chunk replies-reply-chunk; do
		S0[$n]=$(server_counter "$n") || return 1
	done
}

# delta c|s NAME: how much a counter grew in this case.
delta() {
	if [ "$1" = c ]; then
		echo "${CSUM[$2]:-0}"
	else
		echo $(($(server_counter "$2") - S0[$2]))
	fi
}

# ddw DD-ARGS...: a bounded dd.
ddw() {
	nfs_dd 60 "$@" status=none
}

# The I/O of one case, into $MNT/$1, local copies in $NFS_DATA/$1.
krb5_io() {
	local tag=$1 dir=$MNT/$1 loc=$NFS_DATA/$1 s p off len rc=0

	mkdir -p "$dir" "$loc" || fail "mkdir $dir" || return 1
	for s in $SIZES; do
		head -c "$s" /dev/urandom >"$loc/f$s" || return 1
		ddw if="$loc/f$s" of="$dir/b$s" bs=64k conv=fsync || fail "buffered write of $s" || rc=1
		ddw if="$loc/f$s" of="$dir/d$s" bs="$s" oflag=direct || fail "O_DIRECT write of $s" ||
			rc=1
	done
	# Unaligned overwrites of a 192 KiB file, buffered and O_DIRECT.
	head -c 196611 /dev/urandom >"$loc/u" && cp "$loc/u" "$loc/v" || return 1
	ddw if="$loc/u" of="$dir/u" bs=64k conv=fsync || fail "write u" || rc=1
	ddw if="$loc/v" of="$dir/v" bs=64k conv=fsync || fail "write v" || rc=1
	for p in $PATCHES; do
		off=${p%:*} len=${p#*:}
		head -c "$len" /dev/urandom >"$loc/p" || return 1
		for f in u v; do
			dd if="$loc/p" of="$loc/$f" bs="$len" seek="$off" oflag=seek_bytes \
				conv=notrunc status=none || return 1
		done
		ddw if="$loc/p" of="$dir/u" bs="$len" seek="$off" oflag=seek_bytes \
			conv=notrunc,fsync || fail "buffered write of $len at $off" || rc=1
		ddw if="$loc/p" of="$dir/v" bs="$len" seek="$off" oflag=seek_bytes,direct \
			conv=notrunc || fail "O_DIRECT write of $len at $off" || rc=1
	done
	rm -f "$loc/p"
	nfs_random_file "$loc/big" "$BIG_MB" >/dev/null || return 1
	nfs_write_file "$loc/big" "$dir/big" "$BIG_MB" || fail "write $BIG_MB MiB" || rc=1
	return $rc
}

# Every file of a case reads back as its local copy, buffered and with
# O_DIRECT, after the page cache is dropped.
krb5_verify() {
	local dir=$MNT/$1 loc=$NFS_DATA/$1 f want how rc=0

	nfs_drop_caches
	for f in $(cd "$loc" && ls); do
		for how in "" direct; do
			want=$(nfs_sha256 "$loc/$f")
			case "$f" in
			f*) _verify_pair "$dir/b${f#f}" "$want" "$how" || rc=1
			    _verify_pair "$dir/d${f#f}" "$want" "$how" || rc=1 ;;
			*) _verify_pair "$dir/$f" "$want" "$how" || rc=1 ;;
			esac
		done
	done
	rm -rf "$loc"
	return $rc
}

_verify_pair() {
	local file=$1 want=$2 how=$3 got sum rest

	read -r sum rest < <(timeout -k 5 120 dd if="$file" bs=1M ${how:+iflag=$how} \
		status=none | sha256sum)
	got=$sum
	[ "$got" = "$want" ] || fail "${file##*/} (${how:-buffered} read): sha256 $got, wrote $want"
}

# Chunk rules of a case from the counters.
krb5_chunks() {
	local sec=$1 rl wc nomsg rpl swc rc=0

	swc=$(delta s replies-write-chunk)
	if [ "$CLIENT" = ours ]; then
		rl=$(delta c read-chunk-calls) wc=$(delta c write-chunk-calls)
		nomsg=$(delta c nomsg-calls) rpl=$(delta c reply-chunk-calls)
		echo "# client: read-list calls $rl, write-chunk calls $wc, nomsg $nomsg," \
			"reply-chunk calls $rpl; server: write-chunk replies $swc"
	else
		echo "# server: write-chunk replies $swc," \
			"reply-chunk replies $(delta s replies-reply-chunk)"
	fi
	case "$sec" in
	krb5)
		if [ "$CLIENT" = ours ]; then
			[ "$rl" -gt 0 ] || fail "no Read list for WRITE data under krb5" || rc=1
			[ "$wc" -gt 0 ] || fail "no Write chunk for READ data under krb5" || rc=1
		fi
		[ "$swc" -gt 0 ] || fail "the server sent no Write chunk under krb5" || rc=1
		;;
	*)
		if [ "$CLIENT" = ours ]; then
			[ "$rl" -eq 0 ] || fail "$rl calls with a Read list under $sec" || rc=1
			[ "$wc" -eq 0 ] || fail "$wc calls offered a Write chunk under $sec" || rc=1
			[ "$nomsg" -gt 0 ] || fail "no position-zero Read chunk under $sec" || rc=1
			[ "$rpl" -gt 0 ] || fail "no Reply chunk under $sec" || rc=1
		fi
		[ "$swc" -eq 0 ] || fail "the server sent $swc Write chunks under $sec" || rc=1
		;;
	esac
	return $rc
}

# krb5_case VERS SEC: mount, I/O, remount, verify, chunk rules, umount.
krb5_case() {
	local vers=$1 sec=$2 tag t0=$SECONDS rc=0

	tag=v${vers/./}-$sec
	nfs_wait_grace || return 1
	server_snapshot || return 1
	nfs_mount "$vers" "$PORT" "$MNT" "sec=$sec,$MOUNT_OPTS" || return 1
	case ",$(nfs_mount_opts "$MNT")," in
	*,sec=$sec,*) ;;
	*) fail "not sec=$sec: $(nfs_mount_opts "$MNT")"; rc=1 ;;
	esac
	client_snapshot || rc=1
	[ $rc -eq 0 ] && { krb5_io "$tag" || rc=1; }
	client_add || rc=1
	# The remount reads through a fresh client: nothing cached.
	nfs_umount "$MNT" || rc=1
	nfs_mount "$vers" "$PORT" "$MNT" "sec=$sec,$MOUNT_OPTS" || rc=1
	client_snapshot || rc=1
	[ $rc -eq 0 ] && { krb5_verify "$tag" || rc=1; }
	client_add || rc=1
	krb5_chunks "$sec" || rc=1
	rm -rf "${MNT:?}/$tag" "${NFS_DATA:?}/$tag"
	nfs_umount "$MNT" || rc=1
	echo "# $tag: $((SECONDS - t0)) s"
	return $rc
}

setup_dropin() {
	load_dropin "$BLOCK" || return 1
	CLIENT=ours PORT=20049
	krb5_realm_start && nfs_server_start && nfs_listen rdma "$PORT" && krb5_gss_start
}

setup_intree_client() {
	krb5_gss_stop
	nfs_server_stop >/dev/null 2>&1
	unload_clean || return 1
	rm -f "$BLOCK"
	load_rpcrdma && insmod "$XR_MODULE" mode=sidebyside || fail "insmod sidebyside" || return 1
	CLIENT=intree PORT=20050
	nfs_server_start && nfs_listen xrdma "$PORT" && krb5_gss_start
}

teardown() {
	nfs_server_stop || fail "nfs_server_stop"
	krb5_realm_stop
	unload_clean || return 1
	insmod "$XR_MODULE" || fail "insmod again"
}

CLIENT=ours
PORT=20049
n=$((2 + 2 * $(wc -w <<<"$VERS") * $(wc -w <<<"$FLAVOURS") + 1))
ktap_header "$n"
run_test setup_dropin setup_dropin
for v in $VERS; do
	for s in $FLAVOURS; do
		run_test "ours_to_ours_v${v/./}_$s" krb5_case "$v" "$s"
	done
done
run_test setup_intree_client setup_intree_client
for v in $VERS; do
	for s in $FLAVOURS; do
		run_test "intree_to_ours_v${v/./}_$s" krb5_case "$v" "$s"
	done
done
run_test teardown teardown
ktap_finish
