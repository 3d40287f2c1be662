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
# writes a random file of XR_KRB5_BIG_MB MiB (default 16) in 1 MiB
# calls (nfsd's max_block_size is raised to 1 MiB); after the page
# cache is dropped every file reads back (as it was written, buffered or
# O_DIRECT; the large file both ways) with the SHA-256 of its local
# copy; from our server, the large file is also read with O_DIRECT in
# one call of its whole size, XR_KRB5_BURSTS (4) times, so that all its
# READs are in flight at once. Under krb5i and krb5p the payload is
# inside the GSS token, so no data item may be placed directly: our
# client sends no call with a Read list and offers no Write chunk (long
# calls go in a position-zero Read chunk, long replies in a Reply
# chunk), and our server sends no reply through a Write chunk. Under
# plain krb5 large WRITEs and READs still use Read lists and Write
# chunks.
#
# Then, our client to our server once more: NFSv3 krb5i with the fewest
# client credits, calls longer than three memory regions each (see
# krb5_few_credits), none of which may wait for a region.
#
# A control first: krb5p mounted over TCP, per NFS version. A kernel on
# which that fails as well (6.1 here) gets its krb5p cases skipped, with
# the reason: that is no matter of the transport.
#
# Under testhost/pair.sh (XR_ROLE set) it runs the third combination: our
# client in guest B -> the in-tree server in guest A, which also runs the
# KDC (B takes its keytab from the pair directory).
# A first checks its in-tree server with the in-tree client (NFSv4.1
# krb5i, O_DIRECT): where even that reads wrong data (7.3 here), B skips
# that one case, saying so.
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
BIG_MB=${XR_KRB5_BIG_MB:-16}
BURSTS=${XR_KRB5_BURSTS:-4}
# READ and WRITE of 1 MiB, as with nfsd on a server of 4 GiB or more
# (a test host's picks 512 KiB): under krb5i and krb5p the whole call
# or reply, a full payload and its RPC and GSS headers, goes in one
# chunk, longer than the payload.
NFS_MAX_BLOCK=$((1024 * 1024))
BLOCK=/etc/modprobe.d/xr-krb5.conf
MNT=$NFS_RUN/mnt-krb5
# A soft mount: a call the server drops (a GSS checksum that does not
# verify) fails in seconds instead of hanging the test.
MOUNT_OPTS=soft,timeo=100,retrans=2
# Guest B of a pair runs no rpc.statd: NFSv3 locks stay local.
[ "${XR_ROLE:-}" != B ] || MOUNT_OPTS+=,nolock
NFS_EXPORT_OPTS=$NFS_EXPORT_OPTS,sec=krb5:krb5i:krb5p:sys

cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	krb5_gss_stop >/dev/null 2>&1
	nfs_server_stop >/dev/null 2>&1
	krb5_realm_stop >/dev/null 2>&1
	rm -f "$BLOCK"
	[ -z "$TRACEFS_MOUNTED" ] || umount "$TRACEFS"
	module_loaded || insmod "$XR_MODULE"
}
trap cleanup EXIT

# Counters of a case: our client's (when it is the client) and our
# server's (module-wide, when it is the server), each side read in one
# rdmactl call: a Python start costs seconds under TCG.
declare -A C0 CSUM S0 SSUM
CLIENT_STATS="read-chunk-calls write-chunk-calls nomsg-calls reply-chunk-calls"
SERVER_STATS="replies-write-chunk replies-reply-chunk"

# client_stats: our client transport's CLIENT_STATS, in that order.
client_stats() {
	nfs_client_eval "${XR_NFS_SERVER:-$XR_ADDR}" "$PORT" "$(jq_fields .stats $CLIENT_STATS)"
}

# server_stats: our server's SERVER_STATS, in that order.
server_stats() {
	"$RDMACTL" -j stats show | jq -r "$(jq_fields .server $SERVER_STATS)"
}

# jq_fields OBJECT NAME...: a jq filter printing OBJECT's NAMEs, in that
# order, on one line.
jq_fields() {
	local obj=$1 n f=

	shift
	for n; do
		f+="${f:+, }${obj}[\"$n\"]"
	done
	echo "[$f] | map(tostring) | join(\" \")"
}

# read_into ARRAY NAMES VALUES: ARRAY[NAME] = VALUE, pairwise.
read_into() {
	local -n arr=$1
	local -a names vals
	local i

	read -ra names <<<"$2"
	read -ra vals <<<"$3"
	[ ${#vals[@]} -eq ${#names[@]} ] || return 1
	for i in "${!names[@]}"; do
		# shellcheck disable=SC2034 # the caller's array, by name
		arr[${names[$i]}]=${vals[$i]}
	done
}

client_snapshot() {
	[ "$CLIENT" = ours ] || return 0
	read_into C0 "$CLIENT_STATS" "$(client_stats)" || fail "no client transport"
}

# What the mount's transport counted since client_snapshot, into CSUM.
client_add() {
	local -A now
	local n

	[ "$CLIENT" = ours ] || return 0
	read_into now "$CLIENT_STATS" "$(client_stats)" || fail "no client transport" || return 1
	for n in $CLIENT_STATS; do
		CSUM[$n]=$((${CSUM[$n]:-0} + now[$n] - C0[$n]))
	done
}

server_snapshot() {
	CSUM=() SSUM=()
	[ "$SERVER" = ours ] || return 0
	read_into S0 "$SERVER_STATS" "$(server_stats)" || fail "no server counters"
}

# What our server counted since server_snapshot, into SSUM.
server_add() {
	local -A now
	local n

	[ "$SERVER" = ours ] || return 0
	read_into now "$SERVER_STATS" "$(server_stats)" || fail "no server counters" || return 1
	for n in $SERVER_STATS; do
		SSUM[$n]=$((now[$n] - S0[$n]))
	done
}

# delta c|s NAME: how much a counter grew in this case.
delta() {
	if [ "$1" = c ]; then
		echo "${CSUM[$2]:-0}"
	else
		echo "${SSUM[$2]:-0}"
	fi
}

# ms: milliseconds since the epoch.
ms() {
	echo $(($(date +%s%N) / 1000000))
}

# ddw DD-ARGS...: a bounded dd.
ddw() {
	nfs_dd 60 "$@" status=none
}

# The I/O of one case, into $MNT/$1, local copies in $NFS_DATA/$1.
krb5_io() {
	local tag=$1 dir=$MNT/$1 loc=$NFS_DATA/$1 s p off len t0 rc=0

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
	t0=$(ms)
	nfs_write_file "$loc/big" "$dir/big" "$BIG_MB" || fail "write $BIG_MB MiB" || rc=1
	echo "# big file: $BIG_MB MiB written in $(($(ms) - t0)) ms"
	return $rc
}

# Every file of a case reads back as its local copy after the page cache
# is dropped: what was written buffered is read buffered, what was
# written with O_DIRECT is read with O_DIRECT, the large file both ways.
krb5_verify() {
	local dir=$MNT/$1 loc=$NFS_DATA/$1 f want t0 t1 rc=0

	nfs_drop_caches
	for f in $(cd "$loc" && ls); do
		want=$(nfs_sha256 "$loc/$f")
		case "$f" in
		f*) _verify_pair "$dir/b${f#f}" "$want" "" || rc=1
		    _verify_pair "$dir/d${f#f}" "$want" direct || rc=1 ;;
		u) _verify_pair "$dir/u" "$want" "" || rc=1 ;;
		v) _verify_pair "$dir/v" "$want" direct || rc=1 ;;
		*) t0=$(ms)
		   _verify_pair "$dir/$f" "$want" "" || rc=1
		   t1=$(ms)
		   _verify_pair "$dir/$f" "$want" direct || rc=1
		   echo "# $f: read in $((t1 - t0)) ms buffered, $(($(ms) - t1)) ms O_DIRECT" ;;
		esac
		case "$f" in
		big) [ "$SERVER" = intree ] || krb5_direct_burst "$dir/$f" "$want" || rc=1 ;;
		esac
	done
	rm -rf "$loc"
	return $rc
}

# krb5_direct_burst FILE SHA256: FILE read with O_DIRECT in one call of
# its whole size, BURSTS times: every READ of it at once, more than nfsd
# has threads, so each thread answers READs back to back while the RDMA
# Writes of its last reply may still be reading that reply's pages. A
# 1 MiB READ fills its last page, and under krb5i the reply's checksum
# then goes into a page past the one nfsd marks as its last: a server
# that lets svc reuse that page too early sends a wrong checksum (EIO).
# Only against our server: the in-tree servers of 6.12 and 7.3 keep just
# the pages up to nfsd's mark as well (svc_rdma_save_io_pages()), which
# is no matter of our client.
krb5_direct_burst() {
	local i rc=0

	for i in $(seq 1 "$BURSTS"); do
		_verify_pair "$1" "$2" direct "$BIG_MB"M || rc=1
	done
	return $rc
}

# _verify_pair FILE SHA256 [direct [BLOCK]]: FILE reads to its end, in
# BLOCK (1M) calls, without an error (a READ at end of file included) and
# has that SHA-256.
#
# Against the in-tree server an O_DIRECT READ at end of file under
# NFSv4.1 krb5i fails with EIO on 6.12, and does so with the in-tree
# client too: there the read stops at the file's size instead.
_verify_pair() {
	local file=$1 want=$2 how=$3 sum st stop=()

	if [ "$SERVER" = intree ] && [ -n "$how" ]; then
		how+=,count_bytes
		stop=("count=$(stat -c %s "$file")")
	fi
	sum=$(set -o pipefail; timeout -k 5 120 dd if="$file" bs="${4:-1M}" ${how:+iflag=$how} \
		"${stop[@]}" status=none | sha256sum) && st=0 || st=$?
	sum=${sum%% *}
	[ "$st" -eq 0 ] || fail "${file##*/} (${3:-buffered} read): dd exited $st" || return 1
	[ "$sum" = "$want" ] || fail "${file##*/} (${3:-buffered} read): sha256 $sum, wrote $want"
}

# Chunk rules of a case from the counters of our client and our server.
krb5_chunks() {
	local sec=$1 rl wc nomsg rpl swc=0 rc=0

	if [ "$CLIENT" = ours ]; then
		rl=$(delta c read-chunk-calls) wc=$(delta c write-chunk-calls)
		nomsg=$(delta c nomsg-calls) rpl=$(delta c reply-chunk-calls)
		echo "# client: read-list calls $rl, write-chunk calls $wc, nomsg $nomsg," \
			"reply-chunk calls $rpl"
	fi
	if [ "$SERVER" = ours ]; then
		swc=$(delta s replies-write-chunk)
		echo "# server: write-chunk replies $swc," \
			"reply-chunk replies $(delta s replies-reply-chunk)"
	fi
	case "$sec" in
	krb5)
		if [ "$CLIENT" = ours ]; then
			[ "$rl" -gt 0 ] || fail "no Read list for WRITE data under krb5" || rc=1
			[ "$wc" -gt 0 ] || fail "no Write chunk for READ data under krb5" || rc=1
		fi
		[ "$SERVER" != ours ] || [ "$swc" -gt 0 ] ||
			fail "the server sent no Write chunk under krb5" || rc=1
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

# The control: whether SEC works for VERS over TCP, with the same
# kernels, daemons and realm and no RPC-over-RDMA at all. Where it does
# not, the RDMA cases of SEC are skipped with the reason, never counted
# as passed. It costs a mount and a umount where SEC works, and a few
# seconds where it fails: the server answers at once.
#
# Debian's 6.1 kernel (6.1.192) is such a kernel for krb5p, in both
# versions and as a server only: its svcauth_gss unwraps a krb5p call
# through the argument xdr_stream (svcauth_gss_unwrap_priv(), taken from
# a later kernel), which leaves rq_arg's head where the wrapped body
# began, and nfsd_dispatch() starts the argument stream again from there:
# nfsd decodes the length and sequence number of the token as the
# procedure's arguments and answers GARBAGE_ARGS to every krb5p call.
# Where the server is in this guest, the control counts those answers
# (nfsd's nfsd_garbage_args_err trace event) and names the cause.
declare -A TCP_BROKEN
TRACEFS_MOUNTED=
TRACEFS=/sys/kernel/tracing
GARBAGE_EVENT=$TRACEFS/events/nfsd/nfsd_garbage_args_err

# garbage_trace on|off: nfsd's GARBAGE_ARGS answers into the trace buffer
# (cleared when turned on), where the server is in this guest.
garbage_trace() {
	[ -z "${XR_NFS_SERVER:-}" ] || return 1
	if [ "$1" = off ]; then
		[ -w "$GARBAGE_EVENT/enable" ] && echo 0 >"$GARBAGE_EVENT/enable"
		return 0
	fi
	if [ ! -d "$TRACEFS/events" ]; then
		mount -t tracefs tracefs "$TRACEFS" 2>/dev/null || return 1
		TRACEFS_MOUNTED=1
	fi
	[ -w "$GARBAGE_EVENT/enable" ] && : >"$TRACEFS/trace" && echo 1 >"$GARBAGE_EVENT/enable"
}

garbage_answers() {
	grep -c ' nfsd_garbage_args_err: ' "$TRACEFS/trace"
}

# One mount over TCP, with a small write and read: "" when it works, else
# what failed.
tcp_try() {
	local vers=$1 sec=$2 src=$3 mnt=$4

	timeout -k 5 60 mount -t nfs -o "vers=$vers,proto=tcp,sec=$sec,$MOUNT_OPTS" \
		"$src" "$mnt" 2>/dev/null || { echo "mount over TCP fails too"; return; }
	echo tcp >"$mnt/tcp-$sec" && [ "$(cat "$mnt/tcp-$sec")" = tcp ] && rm -f "$mnt/tcp-$sec" ||
		echo "I/O over TCP fails too"
	nfs_umount "$mnt" >/dev/null
}

# A failure is tried once more, unless nfsd said why: a GSS context the
# server's rpc.svcgssd is slow to accept (a loaded host) can cost a
# soft mount its retries.
tcp_control() {
	local vers=$1 sec=$2 mnt=$NFS_RUN/mnt-krb5-tcp server=${XR_NFS_SERVER:-$XR_ADDR} src
	local t0=$SECONDS traced=0 n=0 try why=

	case "$vers" in
	3) src=$server:$NFS_EXPORT ;;
	*) src=$server:/ ;;
	esac
	mkdir -p "$mnt"
	garbage_trace on && traced=1
	for try in 1 2; do
		why=$(tcp_try "$vers" "$sec" "$src" "$mnt")
		[ -n "$why" ] || break
		[ $traced = 0 ] || n=$(garbage_answers)
		[ "${n:-0}" -eq 0 ] || break
		[ $try = 2 ] || echo "# control: NFSv$vers sec=$sec: $why, once more"
	done
	garbage_trace off
	[ -z "$why" ] || [ "${n:-0}" -eq 0 ] ||
		why+=": nfsd answered $n calls GARBAGE_ARGS after svcauth_gss unwrapped them"
	echo "# control: NFSv$vers sec=$sec over TCP: ${why:-works} ($((SECONDS - t0)) s)"
	[ -z "$why" ] || TCP_BROKEN[$vers-$sec]="$why on $(uname -r)"
}

# The TCP control of krb5p, the flavour a kernel may lack, per version.
tcp_controls() {
	local v

	for v in $VERS; do
		nfs_wait_grace && tcp_control "$v" krb5p
	done
}

# krb5_case VERS SEC: mount, I/O, verify after dropping the page cache,
# chunk rules, umount. Skipped (4) when SEC fails over TCP as well.
krb5_case() {
	local vers=$1 sec=$2 tag t0=$SECONDS t1 t2 rc=0

	tag=v${vers/./}-$sec
	if [ -n "${TCP_BROKEN[$vers-$sec]:-}" ]; then
		echo "# SKIP NFSv$vers sec=$sec: ${TCP_BROKEN[$vers-$sec]}"
		return 4
	fi
	if [ "$SERVER" = intree ] && [ "$vers-$sec" = 4.1-krb5i ] && [ -n "$INTREE_DIRECT" ] &&
		[ "$INTREE_DIRECT" != ok ]; then
		echo "# SKIP NFSv$vers sec=$sec: with the in-tree client too, $INTREE_DIRECT" \
			"on $(uname -r)"
		return 4
	fi
	nfs_wait_grace || return 1
	server_snapshot || return 1
	nfs_mount "$vers" "$PORT" "$MNT" "sec=$sec,$MOUNT_OPTS" || return 1
	case ",$(nfs_mount_opts "$MNT")," in
	*,sec=$sec,*) ;;
	*) fail "not sec=$sec: $(nfs_mount_opts "$MNT")"; rc=1 ;;
	esac
	case ",$(nfs_mount_opts "$MNT")," in
	*,rsize=$NFS_MAX_BLOCK,wsize=$NFS_MAX_BLOCK,*) ;;
	*) fail "not $NFS_MAX_BLOCK-byte calls: $(nfs_mount_opts "$MNT")"; rc=1 ;;
	esac
	client_snapshot || rc=1
	t1=$SECONDS
	[ $rc -eq 0 ] && { krb5_io "$tag" || rc=1; }
	t2=$SECONDS
	[ $rc -eq 0 ] && { krb5_verify "$tag" || rc=1; }
	client_add || rc=1
	server_add || rc=1
	krb5_chunks "$sec" || rc=1
	rm -rf "${MNT:?}/$tag" "${NFS_DATA:?}/$tag"
	nfs_umount "$MNT" || rc=1
	echo "# $tag: $((SECONDS - t0)) s (mount $((t1 - t0)) s, writes $((t2 - t1)) s," \
		"reads and umount $((SECONDS - t2)) s)"
	return $rc
}

# Few credits, long calls, our client: client-credits at its least (4),
# and two processes each write 8 MiB with O_DIRECT in one call from a
# buffer that starts inside a page, then read it back so. Under krb5i
# each 1 MiB WRITE goes whole in a position-zero Read chunk of four
# regions (head, the pages in two, tail), more than three a credit: no
# call may wait for a free region (enobufs, a fixed delay each), and
# the data comes back as written.
UNALIGNED=${OUTPUT:-$XR_TOP/build/selftests}/direct_unaligned

krb5_few_credits() {
	local credits p1 p2 n rc=0

	[ -x "$UNALIGNED" ] || fail "$UNALIGNED not built: make -C selftests" || return 1
	credits=$("$RDMACTL" -j config show | jq '.["client-credits"]') || return 1
	"$RDMACTL" config set client-credits 4 >/dev/null || fail "client-credits 4" || return 1
	nfs_wait_grace || rc=1
	if [ $rc -eq 0 ] && nfs_mount 3 "$PORT" "$MNT" "sec=krb5i,$MOUNT_OPTS"; then
		timeout -k 5 120 "$UNALIGNED" "$MNT/few-1" 8 100 & p1=$!
		timeout -k 5 120 "$UNALIGNED" "$MNT/few-2" 8 3000 & p2=$!
		wait $p1 || fail "O_DIRECT from an unaligned buffer (1)" || rc=1
		wait $p2 || fail "O_DIRECT from an unaligned buffer (2)" || rc=1
		n=$(nfs_client_eval "$XR_ADDR" "$PORT" '.stats | "\(.enobufs) \(.["nomsg-calls"])"') ||
			fail "no client transport" || rc=1
		echo "# enobufs, nomsg-calls: ${n:-none}"
		[ "${n%% *}" = 0 ] || fail "calls waited for a memory region: enobufs ${n%% *}" || rc=1
		[ "${n#* }" -ge 16 ] 2>/dev/null || fail "not 16 calls in Read chunks: ${n#* }" || rc=1
		rm -f "$MNT"/few-*
		nfs_umount "$MNT" || rc=1
	else
		rc=1
	fi
	"$RDMACTL" config set client-credits "$credits" >/dev/null || fail "client-credits back" || rc=1
	return $rc
}

setup_dropin() {
	load_dropin "$BLOCK" || return 1
	CLIENT=ours SERVER=ours PORT=20049
	krb5_realm_start && nfs_server_start && nfs_listen rdma "$PORT" && krb5_gss_start &&
		tcp_controls
}

setup_intree_client() {
	krb5_gss_stop
	nfs_server_stop >/dev/null 2>&1
	unload_clean || return 1
	rm -f "$BLOCK"
	load_rpcrdma && insmod "$XR_MODULE" mode=sidebyside || fail "insmod sidebyside" || return 1
	CLIENT=intree SERVER=ours PORT=20050
	nfs_server_start && nfs_listen xrdma "$PORT" && krb5_gss_start
}

# The GSS daemons go first: rpc.gssd holds rpc_pipefs, which
# nfs_server_stop unmounts.
teardown() {
	krb5_gss_stop
	nfs_server_stop || fail "nfs_server_stop" || return 1
	krb5_realm_stop
	unload_clean || return 1
	insmod "$XR_MODULE" || fail "insmod again"
}

# The cases of one client/server combination, named PREFIX_vV_SEC.
run_cases() {
	local v s

	for v in $VERS; do
		for s in $FLAVOURS; do
			run_test "${1}_v${v/./}_$s" krb5_case "$v" "$s"
		done
	done
}

NCASES=$(($(wc -w <<<"$VERS") * $(wc -w <<<"$FLAVOURS")))

one_guest() {
	ktap_header $((4 + 2 * NCASES))
	run_test setup_dropin setup_dropin
	run_cases ours_to_ours
	run_test ours_to_ours_v3_krb5i_few_credits krb5_few_credits
	run_test setup_intree_client setup_intree_client
	run_cases intree_to_ours
	run_test teardown teardown
	ktap_finish
}

# Two guests (testhost/pair.sh): A runs the KDC and nfsd over the in-tree
# server, B mounts it through our client. They meet at barrier files.
STEP_WAIT=1400

a_server() {
	if module_loaded; then
		rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
	fi
	load_rpcrdma || return 1
	krb5_realm_start && nfs_server_start && nfs_listen rdma 20049 && krb5_gss_start &&
		intree_direct_control
}

# The in-tree control of the in-tree server, in guest A: the in-tree
# client mounts it over RDMA with NFSv4.1 krb5i and reads BIG_MB MiB with
# O_DIRECT, twice. On 7.3 those reads return wrong data or fail with EIO
# (over TCP they do not, and xrpcrdma's server answers them right): that
# is no matter of our client, and B skips that case with the reason.
# The verdict goes to $XR_PAIR_DIR/krb5-intree-direct.
intree_direct_control() {
	local mnt=$NFS_RUN/mnt-krb5-ctl loc=$NFS_DATA/ctl want got i why=

	mkdir -p "$mnt" "$NFS_DATA"
	nfs_wait_grace || return 1
	if ! timeout -k 5 60 mount -t nfs -o "vers=4.1,proto=rdma,port=20049,sec=krb5i,$MOUNT_OPTS" \
		"$XR_ADDR:/" "$mnt"; then
		why="the in-tree client cannot mount it"
	else
		want=$(nfs_random_file "$loc" "$BIG_MB") &&
			nfs_write_file "$loc" "$mnt/ctl" "$BIG_MB" || why="writing $BIG_MB MiB fails"
		for i in 1 2; do
			[ -z "$why" ] || break
			nfs_drop_caches
			got=$(set -o pipefail; timeout -k 5 120 dd if="$mnt/ctl" bs=1M \
				iflag=direct,count_bytes count=$((BIG_MB << 20)) status=none |
				sha256sum) || why="an O_DIRECT read of $BIG_MB MiB fails (EIO)"
			[ -n "$why" ] || [ "${got%% *}" = "$want" ] ||
				why="an O_DIRECT read of $BIG_MB MiB returns wrong data"
		done
		rm -f "$mnt/ctl" "$loc"
		nfs_umount "$mnt" || return 1
	fi
	echo "# control: the in-tree client, NFSv4.1 krb5i O_DIRECT from the in-tree server: ${why:-works}"
	echo "${why:-ok}" >"$XR_PAIR_DIR/krb5-intree-direct"
}

a_finish() {
	krb5_gss_stop
	nfs_server_stop || fail "nfs_server_stop" || return 1
	krb5_realm_stop
	wait_for 30 rmmod rpcrdma || fail "rmmod rpcrdma" || return 1
	insmod "$XR_MODULE" || fail "insmod again"
}

role_a() {
	local status=ok

	trap 'krb5_gss_stop >/dev/null 2>&1; nfs_server_stop >/dev/null 2>&1;
		krb5_realm_stop >/dev/null 2>&1;
		module_loaded || insmod "$XR_MODULE"' EXIT
	ktap_header 3
	echo "# server guest A ($XR_ADDR): KDC, nfsd over the in-tree server"
	run_test intree_server_krb5 a_server
	nfs_portlist_has rdma 20049 2>/dev/null || status=failed
	pair_signal krb5-srv "$status"
	run_test wait_client_done pair_wait krb5-cli-done "$STEP_WAIT"
	run_test server_finish a_finish
	ktap_finish
}

b_client() {
	local pipefs

	load_dropin "$BLOCK" || return 1
	CLIENT=ours SERVER=intree PORT=20049
	krb5_realm_start || return 1
	pipefs=$(nfs_pipefs_dir)
	mkdir -p "$pipefs" "$NFS_DATA"
	nfs_is_mounted "$pipefs" rpc_pipefs || mount -t rpc_pipefs rpc_pipefs "$pipefs" ||
		fail "mount rpc_pipefs" || return 1
	KRB5_GSS_DAEMONS=gssd krb5_gss_start && tcp_controls
}

b_finish() {
	krb5_realm_stop
	unload_clean || return 1
	rm -f "$BLOCK"
	insmod "$XR_MODULE" || fail "insmod again"
}

role_b() {
	XR_NFS_SERVER=$XR_PEER_ADDR XR_KRB5_KDC_ADDR=$XR_PEER_ADDR
	export XR_NFS_SERVER XR_KRB5_KDC_ADDR
	ktap_header $((3 + NCASES))
	echo "# client guest B ($XR_ADDR), server guest A ($XR_PEER_ADDR)"
	run_test wait_server pair_wait krb5-srv "$STEP_WAIT"
	read -r INTREE_DIRECT <"$XR_PAIR_DIR/krb5-intree-direct" ||
		fail "no in-tree control from guest A"
	run_test ours_client_krb5 b_client
	run_cases ours_to_intree
	pair_signal krb5-cli-done
	run_test client_finish b_finish
	ktap_finish
}

CLIENT=ours
SERVER=ours
PORT=20049
INTREE_DIRECT=
case "${XR_ROLE:-}" in
"") one_guest ;;
A) XR_KRB5_SHARED=$XR_PAIR_DIR role_a ;;
B) XR_KRB5_SHARED=$XR_PAIR_DIR role_b ;;
*) skip_all "XR_ROLE is '$XR_ROLE', not A or B" ;;
esac
