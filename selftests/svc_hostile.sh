#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Malformed RPC-over-RDMA calls against this module's server transport
# (nfsd listening on our class): each case sends one message, built here
# word by word, with `rdmactl ping --raw-hex` on a connection of its own and
# asserts what RFC 8166 has the server do: RDMA_ERROR with ERR_VERS or
# ERR_CHUNK, or closing the connection. Then a burst of calls far over the
# credits granted, and a peer that takes no reply. Afterwards a normal
# ping still works, no connection is left behind, and (the test host
# checks it) the kernel logged no warning.
#
# Well-formed Read chunks here name memory the peer never registered: the
# server's RDMA Read fails and it closes the connection (RFC 8166 leaves a
# responder that cannot pull a chunk no other way out), except in the
# chunk budget cases at the end, where rdmactl offers memory of its own
# (--region) and nfsd is restarted with several max_block_size values:
# a Read chunk the request's pages cannot hold gets ERR_CHUNK, one at the
# limit is pulled and the call answered.
set -u
source "$(dirname "$0")/nfs_lib.sh"

need_env XR_TESTHOST XR_MODULE XR_ADDR XR_RDMA_DEV
need_rdmactl
nfs_need_server

ORIG_BLOCK_SIZE=
OUT=$(mktemp)
ERR=$(mktemp)
BIG=$(mktemp)
REGION_OUT=$(mktemp)
PATTERN=$(mktemp)
cleanup() {
	"$RDMACTL" dev set "$XR_RDMA_DEV" enabled on >/dev/null 2>&1
	# Later tests size their transfers by nfsd's block size: leave it as
	# found even when a case failed half-way.
	if [ -n "$ORIG_BLOCK_SIZE" ] && [ -e "$NFSD_FS/max_block_size" ] &&
	   [ "$(cat "$NFSD_FS/max_block_size")" != "$ORIG_BLOCK_SIZE" ]; then
		timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 0 >/dev/null 2>&1
		echo "$ORIG_BLOCK_SIZE" >"$NFSD_FS/max_block_size"
	fi
	nfs_server_stop >/dev/null 2>&1
	rm -f "$OUT" "$ERR" "$BIG" "$REGION_OUT" "$PATTERN"
}
trap cleanup EXIT

# Seconds to wait for a reply that should come; cases expecting silence
# wait this long too.
T=${XR_HOSTILE_TIMEOUT:-3}

XID=0x11223344
PORT=
CLASS=
BASE_XPRTS=
# Options hostile() adds to rdmactl ping (with_region sets them).
RAW_OPTS=()
# rdmactl's --region: a segment with handle OURS names it, its offset
# taken within it; it holds byte i = i mod 251 until the server writes.
# 5 MiB: the largest Read chunk of a 7.x server (4 MiB and a page).
REGION=$((5 * 1024 * 1024))
OURS=0xffffffff
# The region's first word (bytes 0 1 2 3): the XID of a call pulled from
# its start.
REGION_XID=0x00010203

# ---- Messages, as hex XDR words ----

# w WORD...: each word as 8 hex digits.
w() {
	local v

	for v in "$@"; do
		printf '%08x' "$((v))"
	done
}

# hdr VERS PROC [XID]: the fixed part of a transport header (credits 32).
hdr() {
	w "${3:-$XID}" "$1" 32 "$2"
}

# An RPC NULL call to NFSv3 with AUTH_NONE.
call() {
	w "${1:-$XID}" 0 2 100003 3 0 0 0 0 0
}

NO_CHUNKS=$(w 0 0 0)
# A segment: handle, length, offset (64 bits).
seg() {
	w "$1" "$2" 0 "${3:-0x1000}"
}

# ---- Cases ----

# hostile NAME EXPECT HEX [REGEX]: send HEX on a connection of its own,
# expect the outcome EXPECT (rdmactl ping --expect) and, when given, a
# line of output matching REGEX.
hostile() {
	local name=$1 expect=$2 hex=$3 re=${4:-} rc=0

	"$RDMACTL" ping -t "$T" "${RAW_OPTS[@]}" --raw-hex "$hex" --expect "$expect" \
		"$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" || rc=$?
	echo "# $name: $(head -n 1 "$OUT")"
	if [ "$rc" -ne 0 ]; then
		sed 's/^/# stderr: /' "$ERR"
		return 1
	fi
	[ -z "$re" ] || grep -Eq "$re" "$OUT" || fail "output does not match '$re'"
}

valid_call() {
	hostile "$FUNCNAME" reply "$(hdr 1 0)$NO_CHUNKS$(call)" "^reply xid=$XID RDMA_MSG SUCCESS$"
}

# RFC 8166, Section 4.5: a version the responder does not support gets
# ERR_VERS with the range it does support.
bad_version() {
	hostile "$FUNCNAME" error "$(hdr 2 0)$NO_CHUNKS$(call)" "^rdma_error ERR_VERS 1-1 xid=$XID$"
}

# A message shorter than the fixed part of the header (16 bytes: XID,
# version, credits, procedure) has no XID to answer to: it is discarded,
# and the connection stays. 12 bytes.
truncated_fixed_part() {
	hostile "$FUNCNAME" none "$(w $XID 1 32)"
}

# RFC 8166, Section 4.5: once the fixed part is there, the XID is: a
# version 1 header cut short before its lists end is an XDR error
# (ERR_CHUNK), and a version the responder does not support gets
# ERR_VERS, whatever follows. 16, 20 and 24 bytes.
truncated_header() {
	hostile "$FUNCNAME" error "$(hdr 1 0)" "^rdma_error ERR_CHUNK xid=$XID$" || return 1
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 0)" "^rdma_error ERR_CHUNK xid=$XID$" || return 1
	hostile "$FUNCNAME" error "$(hdr 1 1)$(w 0 0)" "^rdma_error ERR_CHUNK xid=$XID$" || return 1
	hostile "$FUNCNAME" error "$(hdr 2 0)" "^rdma_error ERR_VERS 1-1 xid=$XID$" || return 1
	hostile "$FUNCNAME" error "$(hdr 2 0)$(w 0)" "^rdma_error ERR_VERS 1-1 xid=$XID$"
}

# Only a responder sends RDMA_ERROR: one from a client (well formed,
# ERR_CHUNK and ERR_VERS, or cut short) is dropped, unanswered, and the
# connection stays.
client_rdma_error() {
	hostile "$FUNCNAME" none "$(hdr 1 4)$(w 2)" || return 1
	hostile "$FUNCNAME" none "$(hdr 1 4)$(w 1 1 1)" || return 1
	hostile "$FUNCNAME" none "$(hdr 1 4)"
}

# A reply-direction RPC message (an NFSv4.1 callback reply) that answers
# no callback: dropped, nothing answered, the connection stays.
stray_backchannel_reply() {
	hostile "$FUNCNAME" none "$(hdr 1 0)$NO_CHUNKS$(w $XID 1 0 0 0 0)" || return 1
	hostile "$FUNCNAME" none "$(hdr 1 0)$NO_CHUNKS$(w $XID 1)"
}

empty_send() {
	hostile "$FUNCNAME" none ""
}

# Section 4.5.2: an invalid rdma_proc is an XDR error: ERR_CHUNK.
unknown_procedure() {
	hostile "$FUNCNAME" error "$(hdr 1 7)$NO_CHUNKS$(call)" "^rdma_error ERR_CHUNK xid=$XID$"
}

# Section 4.6: RDMA_MSGP and RDMA_DONE are no longer part of version 1.
rdma_msgp() {
	hostile "$FUNCNAME" error "$(hdr 1 2)$(w 4096 1024)$NO_CHUNKS$(call)" "ERR_CHUNK xid=$XID"
}

rdma_done() {
	hostile "$FUNCNAME" error "$(hdr 1 3)$NO_CHUNKS" "ERR_CHUNK xid=$XID"
}

# An "optional-data" discriminator other than 0 or 1.
read_list_bad_discriminator() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 2)$(w 0 0)$(call)" "ERR_CHUNK xid=$XID"
}

# A Read segment whose Position plus length passes 2^32.
read_chunk_position_overflow() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 1 0xfffffff0)$(seg 1 0x100)$(w 0)$(w 0 0)$(call)" \
		"ERR_CHUNK xid=$XID"
}

# A Read list cut off in the middle of a segment.
read_list_truncated() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 1 40 1 8)" "ERR_CHUNK xid=$XID"
}

# A well-formed Read chunk whose handle the peer never registered.
read_chunk_invalid_rkey() {
	hostile "$FUNCNAME" disconnect "$(hdr 1 0)$(w 1 40)$(seg 1 8)$(w 0)$(w 0 0)$(call)"
}

# A Write chunk with no segments means nothing in a call.
write_chunk_zero_segments() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 0)$(w 1 0)$(w 0)$(w 0)$(call)" "ERR_CHUNK xid=$XID"
}

# A segment count larger than the bytes that follow could hold.
write_chunk_count_beyond_message() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 0)$(w 1 1000)$(seg 1 8)$(w 0)$(w 0)$(call)" \
		"ERR_CHUNK xid=$XID"
}

reply_chunk_count_beyond_message() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$(w 0 0)$(w 1 0x10000000)$(seg 1 8)" "ERR_CHUNK xid=$XID"
}

# Section 4.5.2: RDMA_NOMSG with no chunks at all is an XDR error.
nomsg_without_chunks() {
	hostile "$FUNCNAME" error "$(hdr 1 1)$NO_CHUNKS" "ERR_CHUNK xid=$XID"
}

# RDMA_NOMSG with the call in a Position-zero Read chunk, under a handle
# the peer never registered.
nomsg_read_chunk_invalid_rkey() {
	hostile "$FUNCNAME" disconnect "$(hdr 1 1)$(w 1 0)$(seg 1 40)$(w 0)$(w 0 0)"
}

# Section 4.5.2: rdma_xid must equal the XID of the RPC message.
xid_mismatch() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$NO_CHUNKS$(call 0x55667788)" "ERR_CHUNK xid=$XID"
}

# RDMA_MSG with nothing after the header.
msg_without_rpc_message() {
	hostile "$FUNCNAME" error "$(hdr 1 0)$NO_CHUNKS" "ERR_CHUNK xid=$XID"
}

# A transport header that is fine around an RPC call nfsd cannot take
# (rpcvers 3): the transport passes it on, RPC answers RPC_MISMATCH.
rpc_version_mismatch() {
	hostile "$FUNCNAME" reply "$(hdr 1 0)$NO_CHUNKS$(w $XID 0 3 100003 3 0 0 0 0 0)" \
		"^reply xid=$XID RDMA_MSG denied RPC_MISMATCH 2-2$"
}

# 8 KiB inline into $BIG: more than the server's 4096-byte receive
# buffers.
oversized_message() {
	local size=8192

	python3 -c "
import struct, sys
x = $XID
m = struct.pack('>7I', x, 1, 32, 0, 0, 0, 0)
m += struct.pack('>10I', x, 0, 2, 100003, 3, 0, 0, 0, 0, 0)
sys.stdout.buffer.write(m + bytes($size - len(m)))" >"$BIG"
}

# send_oversized NAME [RDMACTL_OPTION...]: the Receive cannot hold the
# oversized message, so the Send fails and the connection goes.
send_oversized() {
	local name=$1

	shift
	oversized_message || return 1
	"$RDMACTL" ping -t "$T" "$@" --raw "$BIG" --expect disconnect "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" ||
		{ echo "# $name: $(cat "$OUT")"; sed 's/^/# stderr: /' "$ERR"; return 1; }
	echo "# $name: $(cat "$OUT")"
}

oversized_inline() {
	send_oversized "$FUNCNAME"
}

# cm_sent KIND: messages of KIND (rej, dreq, ...) the device's connection
# manager has sent, retries included.
cm_sent() {
	cat "/sys/class/infiniband/$XR_RDMA_DEV/ports/1/cm_tx_msgs/$1"
}

# The oversized message from a peer whose RTU comes a second after the
# server's REP (rdmactl --hold-rtu): the server closes the connection
# before its connection manager counts it as up. A peer that had the REP
# counts its connection as up, so it must not get the REJ an ID
# destroyed in that state sends (after a REJ following its ESTABLISHED
# the in-tree client keeps its endpoint for good): the server waits for
# the RTU and disconnects then. No REJ may be counted (rdmactl sends
# none), and the server's disconnect must come soon after the RTU:
# rdmactl waits 10 s for it before it disconnects itself, so a run of
# more than 8 s says the server never did.
closed_before_rtu() {
	local rejs start secs rc=0

	rejs=$(cm_sent rej) || { fail "no connection manager counters for $XR_RDMA_DEV"; return 1; }
	oversized_message || return 1
	start=$(date +%s%N)
	"$RDMACTL" ping -t 10 --hold-rtu 1000 --raw "$BIG" --expect disconnect \
		"$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" ||
		{ echo "# $FUNCNAME: $(cat "$OUT")"; sed 's/^/# stderr: /' "$ERR"; return 1; }
	secs=$((($(date +%s%N) - start) / 1000000000))
	echo "# $FUNCNAME: $(cat "$OUT") (${secs} s)"
	[ "$secs" -le 8 ] ||
		fail "the server did not disconnect after the RTU: rdmactl ran ${secs} s" || rc=1
	[ "$(cm_sent rej)" -eq "$rejs" ] ||
		fail "a REJ ended the connection: REJs sent $rejs -> $(cm_sent rej)" || rc=1
	wait_for 10 transports_released "$BASE_XPRTS" ||
		fail "the connection was not let go: $("$RDMACTL" -j module show)" || rc=1
	return $rc
}

# A peer that had the REP, called and had its reply, then went away
# without its RTU: its connection manager sends the REJ. The server,
# told the connection is over, has no RTU left to wait for: it lets the
# connection go at once (not after the 4 s a held disconnect waits for
# an event that has come already) and sends no REJ of its own.
rejected_before_rtu() {
	local rejs pid rc=0

	rejs=$(cm_sent rej) || { fail "no connection manager counters for $XR_RDMA_DEV"; return 1; }
	"$RDMACTL" ping -t "$T" --hold-rtu 60000 --raw-hex "$(hdr 1 0)$NO_CHUNKS$(call)" \
		--expect reply "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" &
	pid=$!
	wait_for 10 grep -q "^reply xid=$XID RDMA_MSG SUCCESS$" "$OUT" ||
		fail "no reply: $(cat "$OUT" "$ERR")" || rc=1
	# The process's end destroys its ID: the REJ.
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	wait_for 2 transports_released "$BASE_XPRTS" ||
		fail "the connection was not let go at once: $("$RDMACTL" -j module show)" || rc=1
	# One device carries both ends: the peer's REJ is counted too.
	[ "$(cm_sent rej)" -eq $((rejs + 1)) ] ||
		fail "REJs sent $rejs -> $(cm_sent rej), not the peer's one" || rc=1
	return $rc
}

# Calls far over the credits granted (64), without waiting for replies
# (rdmactl posts a Receive for each). Whatever the server does (let the
# connection's receiver-not-ready retries hold the excess back and answer
# everything, or close), it must not crash and the next ping must work.
# rdmactl exits 0 or 1, never more.
credit_overrun() {
	local rc=0

	"$RDMACTL" ping --burst -c 300 -t 10 "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" || rc=$?
	grep -A2 -- '---' "$OUT" | sed "s/^/# $FUNCNAME: /"
	sed "s/^/# $FUNCNAME: stderr: /" "$ERR"
	[ "$rc" -le 1 ] || fail "rdmactl exited $rc"
}

# ---- Chunks against the request's page budget ----

# with_region CMD...: run CMD with rdmactl offering its region, whose
# bytes land in $REGION_OUT after each message.
with_region() {
	local RAW_OPTS=(--region "$REGION" --region-out "$REGION_OUT")

	"$@"
}

# region_untouched: $REGION_OUT still holds the pattern rdmactl filled in.
region_untouched() {
	if [ ! -s "$PATTERN" ]; then
		python3 -c "
import sys
n = $REGION
sys.stdout.buffer.write((bytes(range(251)) * (n // 251 + 1))[:n])" >"$PATTERN" || return 1
	fi
	cmp -s "$REGION_OUT" "$PATTERN"
}

# read_chunk_call BYTES NSEGS HANDLE: a NULL call followed by a Read chunk
# of BYTES at position 40 (the call's end), in NSEGS segments of equal
# length (the last takes the rest) at consecutive offsets from 0.
read_chunk_call() {
	local bytes=$1 n=$2 handle=$3 i len off=0 segs=

	for ((i = 0; i < n; i++)); do
		len=$((bytes / n))
		[ "$i" -lt $((n - 1)) ] || len=$((bytes - off))
		segs+=$(w 1 40)$(seg "$handle" "$len" "$off")
		off=$((off + len))
	done
	echo "$(hdr 1 0)$segs$(w 0)$(w 0 0)$(call)"
}

# server_block_size BYTES: restart nfsd with max_block_size BYTES (it can
# only change while nfsd has no service) and listen again. "max" is the
# largest nfsd takes (it clamps what is written to the kernel's largest
# payload, RPCSVC_MAXPAYLOAD): 1 MiB on 6.1 and 6.12, 4 MiB on 7.3; BS is set
# to what it took.
server_block_size() {
	local bs=$1

	timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 0 || fail "rpc.nfsd 0" || return 1
	[ "$bs" != max ] || bs=$((64 * 1024 * 1024))
	echo "$bs" >$NFSD_FS/max_block_size || fail "max_block_size $bs refused" || return 1
	[ "$1" != max ] || bs=$(cat $NFSD_FS/max_block_size)
	[ "$(cat $NFSD_FS/max_block_size)" -eq "$bs" ] ||
		fail "max_block_size is $(cat $NFSD_FS/max_block_size), not $bs" || return 1
	BS=$bs
	rpc.nfsd -G "$NFS_GRACE" -L "$NFS_GRACE" "$NFS_THREADS" ||
		fail "rpc.nfsd $NFS_THREADS" || return 1
	nfs_listen "$CLASS" "$PORT"
}

# nfsd back at the block size it had before the budget cases: the
# tests after this one size their transfers by it.
block_size_restored() {
	server_block_size "$ORIG_BLOCK_SIZE"
}

# The largest Read chunk after a 40-byte inline call: the whole call
# within nfsd's largest message (sv_max_mesg, the block size plus a
# page). That is more than the block size: a call under RPCSEC_GSS
# integrity or privacy carries a full payload and its headers in one
# chunk.
read_chunk_limit() {
	echo $(($1 + 4096 - 40))
}

# read_chunk_budget BLOCK_SIZE|max: Read chunks of 1 MiB (one segment),
# 768 KiB (twelve of 64 KiB), at the limit and 4 bytes over it, under
# valid handles: over the limit ERR_CHUNK, else a reply. Over the limit
# under a handle nobody registered too: refused before any Read.
read_chunk_budget() {
	local BS limit shape bytes n expect re
	local -A tried=()

	server_block_size "$1" || return 1
	limit=$(read_chunk_limit "$BS")
	echo "# max_block_size $BS: Read chunks up to $limit bytes after a NULL call"
	for shape in 1048576:1 786432:12 "$limit:1" "$((limit + 4)):1"; do
		[ -z "${tried[$shape]:-}" ] || continue
		tried[$shape]=1
		bytes=${shape%:*} n=${shape#*:}
		if [ "$bytes" -gt "$limit" ]; then
			expect=error re="^rdma_error ERR_CHUNK xid=$XID$"
		else
			expect=reply re="^reply xid=$XID RDMA_MSG SUCCESS$"
		fi
		with_region hostile "$FUNCNAME $BS: $bytes/$n" "$expect" \
			"$(read_chunk_call "$bytes" "$n" $OURS)" "$re" || return 1
		region_untouched || fail "the server wrote into a Read chunk" || return 1
		[ "$expect" = error ] || continue
		hostile "$FUNCNAME $BS: $bytes/$n, no such handle" "$expect" \
			"$(read_chunk_call "$bytes" "$n" 0x0bad)" "$re" || return 1
	done
}

read_chunk_budget_64k() {
	read_chunk_budget $((64 * 1024))
}

read_chunk_budget_512k() {
	read_chunk_budget $((512 * 1024))
}

# Write and Reply chunks far larger than any reply, in valid memory: a
# NULL reply has no payload and fits inline, so nothing is written into
# them and the reply says so. A Reply chunk over a whole receive buffer
# (a page, 1 MiB and a page: what a client offers for a full-size READ
# under krb5i) is taken too. Chunks far over the largest payload get
# ERR_CHUNK. Either way the region is as rdmactl filled it.
huge_write_reply_chunks() {
	local mib=1048576 half=524288 page=4096

	# Two Write chunks of 1 MiB (one segment, then two) and a 1 MiB Reply
	# chunk of two segments.
	with_region hostile "$FUNCNAME: 1 MiB each" reply \
		"$(hdr 1 0)$(w 0)$(w 1 1)$(seg $OURS $mib 0)$(w 1 2)$(seg $OURS $half 0)$(seg $OURS $half $half)$(w 0)$(w 1 2)$(seg $OURS $half $mib)$(seg $OURS $half $((mib + half)))$(call)" \
		"^reply xid=$XID RDMA_MSG SUCCESS$" || return 1
	with_region hostile "$FUNCNAME: Reply chunk of 1 MiB and two pages" reply \
		"$(hdr 1 0)$(w 0)$(w 0)$(w 1 3)$(seg $OURS $page 0)$(seg $OURS $mib $page)$(seg $OURS $page $((mib + page)))$(call)" \
		"^reply xid=$XID RDMA_MSG SUCCESS$" || return 1
	region_untouched || fail "the server wrote into the chunks of a NULL reply" || return 1
	# 2 GiB and 4 GiB - 1 chunks.
	with_region hostile "$FUNCNAME: 2 GiB Write chunk" error \
		"$(hdr 1 0)$(w 0)$(w 1 1)$(seg $OURS 0x80000000 0)$(w 0)$(w 0)$(call)" \
		"^rdma_error ERR_CHUNK xid=$XID$" || return 1
	with_region hostile "$FUNCNAME: 4 GiB Reply chunk" error \
		"$(hdr 1 0)$(w 0)$(w 0)$(w 1 2)$(seg $OURS 0x80000000 0)$(seg $OURS 0x7fffffff 0)$(call)" \
		"^rdma_error ERR_CHUNK xid=$XID$" || return 1
	region_untouched || fail "the server wrote into refused chunks"
}

# nfsd at 1 MiB: the whole call of a 1 MiB WRITE fits, more than 1 MiB.
read_chunk_budget_1m() {
	read_chunk_budget $((1024 * 1024))
}

# nfsd at the largest block size it takes: 4 MiB on 7.3, so a 7.x
# server pulls Read chunks of 4 MiB and more; 1 MiB on 6.x. The server
# stays so for the cases after: none depends on the block size.
read_chunk_budget_max() {
	read_chunk_budget max
}

# ---- Chunk shapes and counts the server does not take ----
#
# The chunks lie in rdmactl's region, so a server that took one of these
# calls would pull its Read chunk and answer: only a refusal passes, and
# it comes before any transfer, the region left as rdmactl filled it.
# Where a limit is tried, a call at the limit is answered first.

# region_segs N LEN [OFF]: N segments of LEN bytes in rdmactl's region,
# one after the other from OFF (0 unless given).
region_segs() {
	local i

	for ((i = 0; i < $1; i++)); do
		seg $OURS "$2" $((${3:-0} + i * $2))
	done
}

# read_items POS N LEN [OFF]: N Read list items at Position POS, their
# segments laid out as region_segs N LEN OFF does; the caller ends the
# list.
read_items() {
	local i

	for ((i = 0; i < $2; i++)); do
		w 1 "$1"
		seg $OURS "$3" $((${4:-0} + i * $3))
	done
}

# write_chunks N NSEGS LEN: N Write list items, each a chunk of NSEGS
# segments of LEN bytes, all one after the other in rdmactl's region;
# the caller ends the list.
write_chunks() {
	local i

	for ((i = 0; i < $1; i++)); do
		w 1 "$2"
		region_segs "$2" "$3" $((i * $2 * $3))
	done
}

# refused NAME HEX [XID]: HEX, sent with rdmactl's region, gets ERR_CHUNK
# to XID (the header's, $XID unless given), and the region is untouched.
refused() {
	with_region hostile "$1" error "$2" "^rdma_error ERR_CHUNK xid=${3:-$XID}$" || return 1
	region_untouched || fail "$1: the server wrote into the region"
}

# taken NAME HEX: HEX, sent with rdmactl's region, gets the NULL call's
# reply, and the region is untouched (a NULL reply fills no chunk).
taken() {
	with_region hostile "$1" reply "$2" "^reply xid=$XID RDMA_MSG SUCCESS$" || return 1
	region_untouched || fail "$1: the server wrote into the region"
}

# A Read chunk's Position is an offset into the RPC message (RFC 8166,
# Section 3.4.5): after a 40-byte call, Positions 44 and 4096 lie past
# its end. (Position 40, the call's end, is taken: read_chunk_budget.)
read_chunk_past_message() {
	local pos

	for pos in 44 4096; do
		refused "${FUNCNAME[0]}: Position $pos" \
			"$(hdr 1 0)$(read_items $pos 1 8)$(w 0)$(w 0 0)$(call)" || return 1
	done
}

# The server takes one Read chunk per call: two, at Positions 40 and 48
# of an RDMA_MSG, get ERR_CHUNK; so do a Position-zero chunk and another
# at Position 8 in an RDMA_NOMSG, whose header carries the XID the
# Position-zero chunk starts with, so that only the second chunk is
# wrong with it.
two_read_chunks() {
	refused "${FUNCNAME[0]}: RDMA_MSG, Positions 40 and 48" \
		"$(hdr 1 0)$(read_items 40 1 8)$(read_items 48 1 8 8)$(w 0)$(w 0 0)$(call)" ||
		return 1
	refused "${FUNCNAME[0]}: RDMA_NOMSG, Positions 0 and 8" \
		"$(hdr 1 1 $REGION_XID)$(read_items 0 1 40)$(read_items 8 1 8 64)$(w 0)$(w 0 0)" \
		$REGION_XID
}

# A Read chunk of zero-length segments has nothing to pull: one segment,
# three, and the Position-zero chunk of an RDMA_NOMSG.
read_chunk_zero_length() {
	refused "${FUNCNAME[0]}: one segment" \
		"$(hdr 1 0)$(read_items 40 1 0)$(w 0)$(w 0 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: three segments" \
		"$(hdr 1 0)$(read_items 40 3 0)$(w 0)$(w 0 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: RDMA_NOMSG" "$(hdr 1 1)$(read_items 0 1 0)$(w 0)$(w 0 0)"
}

# RDMA_NOMSG: the call's XID, known once its Position-zero chunk is
# pulled, must be the header's (RFC 8166, Section 4.2.1). The chunk, the
# region's first 40 bytes, starts with 0x00010203: under the header XID
# 0x11223344 the call gets ERR_CHUNK. Under 0x00010203 the same chunk
# passes the transport, and svc drops it unanswered (its second word,
# 0x04050607, is no CALL): the XID check alone tells the two apart.
nomsg_xid_mismatch() {
	refused "${FUNCNAME[0]}" "$(hdr 1 1)$(read_items 0 1 40)$(w 0)$(w 0 0)" || return 1
	with_region hostile "${FUNCNAME[0]}: the XIDs equal" none \
		"$(hdr 1 1 $REGION_XID)$(read_items 0 1 40)$(w 0)$(w 0 0)" || return 1
	region_untouched || fail "the server wrote into the region"
}

# Read list Positions the header decoder refuses (proto.c): one that is
# no multiple of 4, zero in an RDMA_MSG (whose call is inline), one
# lower than the chunk's before, and one inside the chunk before.
read_list_bad_positions() {
	refused "${FUNCNAME[0]}: Position 42" \
		"$(hdr 1 0)$(read_items 42 1 8)$(w 0)$(w 0 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: Position 0 in RDMA_MSG" \
		"$(hdr 1 0)$(read_items 0 1 40)$(w 0)$(w 0 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: Position 48, then 40" \
		"$(hdr 1 0)$(read_items 48 1 8)$(read_items 40 1 8 8)$(w 0)$(w 0 0)$(call)" ||
		return 1
	refused "${FUNCNAME[0]}: Position 40 for 16 bytes, then 48" \
		"$(hdr 1 0)$(read_items 40 1 16)$(read_items 48 1 8 16)$(w 0)$(w 0 0)$(call)"
}

# RFC 8166, Section 3.5.3: in an RDMA_NOMSG the whole call is in the
# chunk, and nothing follows the header: a call after it is an XDR
# error. The header's XID is the chunk's, so only the trailing call is
# wrong with it.
nomsg_trailing_message() {
	refused "${FUNCNAME[0]}" \
		"$(hdr 1 1 $REGION_XID)$(read_items 0 1 40)$(w 0)$(w 0 0)$(call $REGION_XID)" \
		$REGION_XID
}

# The server's limits on a call's chunk lists (recvq.h, checked by the
# header decoder): 16 Read segments, 16 segments in a Write chunk or the
# Reply chunk, 4 Write chunks, 32 segments in all. At each limit the
# call is answered; one segment or chunk over it gets ERR_CHUNK.
read_chunk_17_segments() {
	taken "${FUNCNAME[0]}: 16" "$(hdr 1 0)$(read_items 40 16 256)$(w 0)$(w 0 0)$(call)" ||
		return 1
	refused "${FUNCNAME[0]}: 17" "$(hdr 1 0)$(read_items 40 17 256)$(w 0)$(w 0 0)$(call)"
}

chunk_17_segments() {
	taken "${FUNCNAME[0]}: Write chunk of 16" \
		"$(hdr 1 0)$(w 0)$(write_chunks 1 16 4096)$(w 0)$(w 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: Write chunk of 17" \
		"$(hdr 1 0)$(w 0)$(write_chunks 1 17 4096)$(w 0)$(w 0)$(call)" || return 1
	taken "${FUNCNAME[0]}: Reply chunk of 16" \
		"$(hdr 1 0)$(w 0)$(w 0)$(w 1 16)$(region_segs 16 4096)$(call)" || return 1
	refused "${FUNCNAME[0]}: Reply chunk of 17" \
		"$(hdr 1 0)$(w 0)$(w 0)$(w 1 17)$(region_segs 17 4096)$(call)"
}

five_write_chunks() {
	taken "${FUNCNAME[0]}: 4" "$(hdr 1 0)$(w 0)$(write_chunks 4 1 4096)$(w 0)$(w 0)$(call)" ||
		return 1
	refused "${FUNCNAME[0]}: 5" "$(hdr 1 0)$(w 0)$(write_chunks 5 1 4096)$(w 0)$(w 0)$(call)"
}

# 32 segments, each list within its own limit, then one more in the
# Reply chunk or the Write list. The Read chunk lies at 1 MiB, the
# Reply chunk at 2 MiB, apart from the Write chunks.
header_33_segments() {
	local mib=1048576 reads reply

	reads=$(read_items 40 16 256 $mib)
	reply=$(w 1 1)$(region_segs 1 4096 $((2 * mib)))
	taken "${FUNCNAME[0]}: 32 in two Write chunks" \
		"$(hdr 1 0)$(w 0)$(write_chunks 2 16 4096)$(w 0)$(w 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: 32 in two Write chunks, 1 in the Reply chunk" \
		"$(hdr 1 0)$(w 0)$(write_chunks 2 16 4096)$(w 0)$reply$(call)" || return 1
	taken "${FUNCNAME[0]}: 16 Read, 16 in a Write chunk" \
		"$(hdr 1 0)$reads$(w 0)$(write_chunks 1 16 4096)$(w 0)$(w 0)$(call)" || return 1
	refused "${FUNCNAME[0]}: 16 Read, 16 in a Write chunk, 1 in the Reply chunk" \
		"$(hdr 1 0)$reads$(w 0)$(write_chunks 1 16 4096)$(w 0)$reply$(call)" || return 1
	refused "${FUNCNAME[0]}: 16 Read, Write chunks of 16 and 1" \
		"$(hdr 1 0)$reads$(w 0)$(write_chunks 1 16 4096)$(w 1 1)$(region_segs 1 4096 $((2 * mib)))$(w 0)$(w 0)$(call)"
}

# A peer that takes no reply: it posts no Receive, and its connection
# request has the server retry its Sends for ever (RNR retry count 7).
# With send-timeout at 10 minutes its call stays unanswered and the
# connection open until it gives up; with 2000 ms the server breaks the
# connection once the reply's Send has had no completion that long, and
# says so in the kernel log. Both with every Send signaled
# (signal-interval 1) and with a Send asking for a completion only
# every 16: then the lone reply goes out unsignaled, and the server
# asks for a completion behind it (a zero-length RDMA Write) once the
# queue has made no progress for send-timeout, and breaks the
# connection when that has none either: 2 s with 1000 ms, before rxe
# gives up on the Send itself (its retry counter, about 5 s here),
# which the log line tells apart.
peer_takes_no_reply() {
	local sig timeout rc=0

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	"$RDMACTL" config set signal-interval 1 send-timeout 600000 || return 1
	RAW_OPTS=(--no-receives)
	hostile "$FUNCNAME, 10 minutes" none "$(hdr 1 0)$NO_CHUNKS$(call)" || rc=1
	"$RDMACTL" config set send-timeout 2000 || rc=1
	stuck_reply_broken "$FUNCNAME, 2000 ms" 2000 || rc=1
	"$RDMACTL" config set signal-interval 16 send-timeout 1000 || rc=1
	stuck_reply_broken "$FUNCNAME, 1000 ms, unsignaled" 1000 probe || rc=1
	RAW_OPTS=()
	"$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	return $rc
}

# stuck_reply_broken NAME MS [probe]: a call from the peer that takes no
# reply ends in a disconnect, and the kernel log says the send queue made
# no progress for MS ms; with probe, after a completion was asked for
# behind the reply (event xrpcrdma_sq_probe).
stuck_reply_broken() {
	local name=$1 msg="the send queue made no progress for $2 ms" probe=${3:-}
	local logged probes rc=0

	logged=$(dmesg | grep -c "$msg")
	[ -z "$probe" ] || trace_start sq_probe || return 1
	T=20 hostile "$name" disconnect "$(hdr 1 0)$NO_CHUNKS$(call)" || rc=1
	if [ -n "$probe" ]; then
		probes=$(trace_stop sq_probe)
		[ "$probes" -ge 1 ] || fail "$name: no completion asked for" || rc=1
	fi
	[ "$(dmesg | grep -c "$msg")" -gt "$logged" ] ||
		fail "$name: nothing in the kernel log about the send queue" || rc=1
	return $rc
}

# The same peer, two calls with a 4 KiB Read chunk in rdmactl's region
# sent back to back, with a Send asking for a completion every 16: the
# second call's RDMA Read may be posted behind the first call's stuck
# reply, with an nfsd thread waiting for it, or both Reads complete
# first and both replies wait unsignaled with no thread behind them.
# The connection must end within the peer's 20 s, and the threads be
# free again (a normal ping works after the cases). The waiting thread
# breaks the connection past send-timeout (1000 ms here), or the
# watchdog does, asking for a completion behind the unsignaled replies
# first: either says so in the kernel log, within 2 s, before rxe
# gives up on the Send the peer refuses or loses the Read behind it to
# the peer's sequence check (a transport retry error, about 5 s here).
read_behind_stuck_reply() {
	local sig timeout logged rc=0
	local msg='the send queue made no progress for 1000 ms'

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	logged=$(dmesg | grep -c "$msg")
	"$RDMACTL" config set signal-interval 16 send-timeout 1000 || return 1
	RAW_OPTS=(--region "$REGION" --no-receives --repeat 2)
	T=20 hostile "$FUNCNAME" disconnect "$(read_chunk_call 4096 1 $OURS)" || rc=1
	RAW_OPTS=()
	"$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	[ "$(dmesg | grep -c "$msg")" -gt "$logged" ] ||
		fail "nothing in the kernel log about the send queue" || rc=1
	return $rc
}

# The same peer, its reply unsignaled, while no send context can be had
# (fault points sendctx-alloc and dma-map on its connection, armed once
# the reply went out, for 1.7 s): the watchdog's first ask for a
# completion, send-timeout (1500 ms) after the reply, finds no context
# for it, and it must go on asking (a second later), not stop watching:
# the next, once the points are cleared, gets one (a probe posted after
# a context was refused), and the connection must end. Who ends it is
# not asked: the watchdog breaks it send-timeout after the probe, and
# rxe gives up on the Send about as soon (a loaded host has rxe first;
# read_behind_stuck_reply checks the watchdog's word).
#
# One try: 0 when the points refused the probe's context and the
# connection was broken, 1 on a failure, 2 when the probe had its
# context before the points were armed (a loaded host took over 1.5 s
# to arm them after the reply; once, five times in a row): that try
# says nothing, and is made again, up to 10 times.
PROBE_TIMEOUT_MS=1500
probe_without_context_try() {
	local pid conn fired probes i rc=0
	local replied='[.[] | select(.role == "server-connection" and .stats["replies-inline"] > 0) | .id] | first // empty'

	trace_start sq_probe || return 1
	"$RDMACTL" ping -t 20 --no-receives --raw-hex "$(hdr 1 0)$NO_CHUNKS$(call)" \
		--expect disconnect "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" &
	pid=$!
	for i in $(seq 50); do
		conn=$("$RDMACTL" -j transport show | jq -r "$replied")
		[ -n "$conn" ] && break
		sleep 0.05
	done
	if [ -n "$conn" ]; then
		"$RDMACTL" fault set sendctx-alloc every 1 transport "$conn" &&
			"$RDMACTL" fault set dma-map every 1 transport "$conn" ||
			{ fail "arming"; rc=1; }
		sleep 1.7
		fired=$("$RDMACTL" -j fault show |
			jq '[.[] | select(.point == "sendctx-alloc") | .fired] | add')
		"$RDMACTL" fault clear all || rc=1
	else
		fail "the reply did not go out"
		rc=1
	fi
	wait "$pid" || { sed 's/^/# stderr: /' "$ERR"; fail "no disconnect"; rc=1; }
	probes=$(trace_stop sq_probe)
	echo "# sendctx-alloc fired ${fired:-0} times, $probes probes posted"
	if [ "$rc" -eq 0 ] && [ "${fired:-0}" -eq 0 ] && [ "${probes:-0}" -ge 1 ]; then
		echo "# the probe went out before the points were armed: again"
		return 2
	fi
	[ "${fired:-0}" -ge 1 ] || fail "no context was refused" || rc=1
	[ "${probes:-0}" -ge 1 ] || fail "no probe after the refused context" || rc=1
	return $rc
}

probe_retried_without_context() {
	local sig timeout try rc

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	"$RDMACTL" config set signal-interval 16 send-timeout $PROBE_TIMEOUT_MS || return 1
	for try in $(seq 10); do
		probe_without_context_try
		rc=$?
		[ $rc -ne 2 ] && break
	done
	"$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	[ $rc -ne 2 ] || fail "no try armed the points in time" || rc=1
	return $rc
}

# A peer that takes its replies, but calls less often than send-timeout
# (1000 ms; a call every 2.5 s): each reply goes out unsignaled
# (signal-interval 16) and nothing says it went until a later Send asks.
# The watchdog asks for a completion behind it (event
# xrpcrdma_sq_probe), which comes at once: every call is answered on
# the one connection, and the kernel log tells of no stuck queue.
idle_unsignaled_replies_kept() {
	local sig timeout logged probes rc=0
	local msg='the send queue made no progress'

	sig=$(config_value signal-interval)
	timeout=$(config_value send-timeout)
	logged=$(dmesg | grep -c "$msg")
	"$RDMACTL" config set signal-interval 16 send-timeout 1000 || return 1
	trace_start sq_probe || rc=1
	"$RDMACTL" ping -c 3 -i 2.5 "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" ||
		{ cat "$OUT" "$ERR" | sed 's/^/# /'; fail "ping failed"; rc=1; }
	probes=$(trace_stop sq_probe)
	grep -E '^[0-9]+ sent' "$OUT" | sed 's/^/# /'
	echo "# $probes completions asked for behind unsignaled replies"
	[ "$probes" -ge 2 ] || fail "expected a probe after each idle reply" || rc=1
	"$RDMACTL" config set signal-interval "$sig" send-timeout "$timeout" || rc=1
	[ "$(dmesg | grep -c "$msg")" -eq "$logged" ] ||
		fail "a healthy idle connection was taken for a stuck one" || rc=1
	return $rc
}

ping_still_works() {
	"$RDMACTL" ping -c 5 -i 0 "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR" ||
		{ cat "$OUT" "$ERR" | sed 's/^/# /'; fail "ping failed"; return 1; }
	grep -E '^[0-9]+ sent' "$OUT" | sed 's/^/# /'
}

# A device switched off with `rdmactl dev set DEV enabled off` takes no
# new connections; switched on again, it does.
disabled_device_refuses() {
	local rc=0

	"$RDMACTL" dev set "$XR_RDMA_DEV" enabled off || { fail "dev set off"; return 1; }
	if "$RDMACTL" ping -c 1 -t "$T" "$XR_ADDR:$PORT" >"$OUT" 2>"$ERR"; then
		fail "connected to a disabled device"
		rc=1
	fi
	sed 's/^/# disabled: /' "$ERR"
	"$RDMACTL" dev set "$XR_RDMA_DEV" enabled on || { fail "dev set on"; return 1; }
	[ $rc -eq 0 ] || return 1
	ping_still_works
}

no_connection_left() {
	nfs_connections_released "$BASE_XPRTS"
}

server_start() {
	nfs_our_server_start || return 1
	CLASS=$NFS_CLASS PORT=$NFS_PORT
	BASE_XPRTS=$(live_objects svc-xprt)
	ORIG_BLOCK_SIZE=$(cat $NFSD_FS/max_block_size)
	echo "# max_block_size $(cat $NFSD_FS/max_block_size)"
}

# What the module said in the kernel log during the cases, for the record.
module_log() {
	dmesg | grep 'xrpcrdma' | tail -n 20 | sed 's/^/# dmesg: /'
	return 0
}

# The codec fuzzer's kept seed corpus (tests/proto/corpus: valid headers
# of each procedure and near misses) and deterministic mutations of each
# (words flipped, cut short, a count blown up), each sent as it is on a
# connection of its own. Whatever each gets (a reply, RDMA_ERROR, a closed
# connection, or nothing), rdmactl sees a well-formed outcome, and the
# checks after the cases (a normal ping, no connection left, a clean
# kernel log) hold.
mutate_corpus() {
	python3 - "$1" "$2" <<'PY'
import os, random, struct, sys
src, dst = sys.argv[1:]
rnd = random.Random(8166)
for name in sorted(os.listdir(src)):
    if name.startswith('cm-pdata'):
        continue
    data = open(os.path.join(src, name), 'rb').read()
    words = list(struct.unpack('>%dI' % (len(data) // 4), data[:len(data) // 4 * 4]))
    variants = {'orig': words}
    flip = list(words)
    for _ in range(2):
        i = rnd.randrange(len(flip))
        flip[i] ^= 1 << rnd.randrange(32)
    variants['flip'] = flip
    variants['short'] = words[:max(7, len(words) // 2)]
    big = list(words)
    i = rnd.randrange(4, len(big)) if len(big) > 4 else len(big) - 1
    big[i] = 0xffffffff
    variants['count'] = big
    for tag, ws in variants.items():
        with open(os.path.join(dst, '%s.%s' % (name, tag)), 'wb') as f:
            f.write(struct.pack('>%dI' % len(ws), *ws))
PY
}

corpus_replay() {
	local dir f first n=0 out
	local -A seen=()

	dir=$(mktemp -d)
	mutate_corpus "$XR_TOP/tests/proto/corpus" "$dir" || { fail "mutating the corpus"; return 1; }
	for f in "$dir"/*; do
		# Not 1 s: under load, address resolution alone can take that.
		out=$("$RDMACTL" ping -t 3 --raw "$f" "$XR_ADDR:$PORT" 2>&1) ||
			{ fail "$(basename "$f"): $out"; rm -rf "$dir"; return 1; }
		first=${out%%$'\n'*}
		first=${first%% *}
		case "$first" in
		reply|rdma_error|disconnected|no) ;;
		*) fail "$(basename "$f"): unexpected output: $out"; rm -rf "$dir"; return 1 ;;
		esac
		seen[$first]=$((${seen[$first]:-0} + 1))
		n=$((n + 1))
	done
	rm -rf "$dir"
	echo "# $n messages: $(for k in "${!seen[@]}"; do printf '%s %s, ' "$k" "${seen[$k]}"; done)"
	[ "$n" -ge 40 ] || fail "only $n messages sent"
}

# An NFSv4.0 COMPOUND with two READs of one file (the READ-bypass
# stateid, no open needed) and a Write list of two chunks in the
# registered region: chunk 0 at region offset 0, chunk 1 at 64 KiB, each
# 8 KiB long. RFC 8166, Section 3.4.6: the n-th result payload goes into
# the n-th Write chunk. So chunk 0 holds the file's first 8176 bytes,
# chunk 1 the 4 KiB from 16 KiB on, and the rest of chunk 1 is untouched.
#
# Why 8176: Linux 6.12's nfsd reads a READ's data into the page after
# the one its reply continues in (rq_next_page runs a page ahead of the
# XDR stream) unless the data starts on a page boundary of the reply, so
# over any transport the second READ's result would hold other bytes.
# With 8176 bytes in the first READ and the second READ's 16 bytes of
# results before its data, that data starts on a page of its own.
compound_two_reads() {
	local dir msg region file=$NFS_EXPORT/two-reads rc=0

	dir=$(mktemp -d)
	msg=$dir/msg
	region=$dir/region
	head -c 65536 /dev/urandom >"$file" || fail "writing $file" || return 1
	python3 - "$msg" <<'PY' || { fail "building the message"; rm -rf "$dir"; return 1; }
import struct, sys

def w(*v):
    return b''.join(struct.pack('>I', x & 0xffffffff) for x in v)

def opaque(b):
    return w(len(b)) + b + b'\0' * (-len(b) % 4)

def seg(length, off):
    return w(0xffffffff, length) + struct.pack('>Q', off)

def read(off, count):
    return w(25, 0xffffffff) + b'\xff' * 12 + struct.pack('>Q', off) + w(count)

xid = 0x5eed0001
# RPC-over-RDMA: no Read list, two Write chunks of one segment, no Reply chunk.
hdr = w(xid, 1, 32, 0) + w(0) + w(1, 1) + seg(8192, 0) + w(1, 1) + seg(8192, 65536) + w(0) + w(0)
cred = w(0) + opaque(b'xr') + w(0, 0, 0)
call = w(xid, 0, 2, 100003, 4, 1) + w(1) + opaque(cred) + w(0, 0)
args = opaque(b'') + w(0, 4) + w(24) + w(15) + opaque(b'two-reads')
args += read(0, 8176) + read(16384, 4096)
open(sys.argv[1], 'wb').write(hdr + call + args)
PY
	"$RDMACTL" ping -t "$T" --raw "$msg" --expect reply --region 131072 --region-out "$region" \
		"$XR_ADDR:$PORT" \
		>"$OUT" 2>"$ERR" || { fail "no reply: $(cat "$OUT" "$ERR")"; rc=1; }
	sed 's/^/# /' "$OUT"
	if [ $rc -eq 0 ]; then
		python3 - "$file" "$region" <<'PY' || fail "the READ results are not where they belong" || rc=1
import sys
data = open(sys.argv[1], 'rb').read()
reg = open(sys.argv[2], 'rb').read()
pattern = bytes(i % 251 for i in range(len(reg)))
checks = [
    ('chunk 0: the first READ', reg[0:8176] == data[0:8176]),
    ('chunk 0 past its payload untouched', reg[8176:8192] == pattern[8176:8192]),
    ('chunk 1: the second READ', reg[65536:69632] == data[16384:20480]),
    ('chunk 1 past its payload untouched', reg[69632:73728] == pattern[69632:73728]),
    ('between the chunks untouched', reg[8192:65536] == pattern[8192:65536]),
]
bad = [name for name, ok in checks if not ok]
for name, ok in checks:
    print('# %s: %s' % (name, 'ok' if ok else 'WRONG'))
if reg[0:4096] == data[16384:20480]:
    print('# chunk 0 holds the second READ')
if bad:
    got = reg[65536:69632]
    print('# chunk 1 starts %s; pattern: %s; found in the file at %d' % (
        got[:16].hex(), got == pattern[65536:69632], data.find(got[:64])))
sys.exit(1 if bad else 0)
PY
	fi
	rm -rf "$dir" "$file"
	return $rc
}

CASES="valid_call bad_version truncated_fixed_part truncated_header client_rdma_error stray_backchannel_reply empty_send unknown_procedure rdma_msgp
	rdma_done read_list_bad_discriminator read_chunk_position_overflow read_list_truncated
	read_chunk_invalid_rkey write_chunk_zero_segments write_chunk_count_beyond_message
	reply_chunk_count_beyond_message nomsg_without_chunks nomsg_read_chunk_invalid_rkey
	xid_mismatch msg_without_rpc_message rpc_version_mismatch
	read_chunk_past_message two_read_chunks read_chunk_zero_length nomsg_xid_mismatch
	read_list_bad_positions nomsg_trailing_message read_chunk_17_segments chunk_17_segments
	five_write_chunks header_33_segments
	oversized_inline closed_before_rtu
	rejected_before_rtu credit_overrun
	corpus_replay compound_two_reads huge_write_reply_chunks read_chunk_budget_64k
	read_chunk_budget_512k read_chunk_budget_1m read_chunk_budget_max block_size_restored
	peer_takes_no_reply read_behind_stuck_reply probe_retried_without_context
	idle_unsignaled_replies_kept"

# XR_HOSTILE_CASES: run only these cases.
CASES=${XR_HOSTILE_CASES:-$CASES}

ktap_header $((5 + $(wc -w <<<"$CASES")))
run_test server_start server_start
for c in $CASES; do
	run_test "$c" "$c"
done
run_test ping_still_works ping_still_works
run_test disabled_device_refuses disabled_device_refuses
run_test no_connection_left no_connection_left
run_test module_log module_log
ktap_finish
