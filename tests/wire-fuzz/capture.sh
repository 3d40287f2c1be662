#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The wire fuzzer's captured seed corpus, part one: real RPC-over-RDMA
# traffic of the in-tree client (rpcrdma), recorded on the wire between
# two test-host guests (selftests/testhost/pair.sh). Guest A serves NFS
# over the in-tree server; guest B mounts it with the in-tree client and
# records every RoCE v2 packet on eth0 (UDP 4791) with tcpdump while it
# runs an NFS workload chosen to make each kind of call the client sends:
# inline calls, Read chunks (large WRITEs), position-zero Read chunks
# (calls too long to send inline: a long symlink target), Write lists
# (large READs) and Reply chunks (a long directory listing, READLINK of
# the long target), over NFSv3 and NFSv4.1. The capture lands in the
# directory the two guests share, as client.pcap; capture-parse.py makes
# the corpus files from it. Run by scripts/wire-corpus.sh.
set -u
# shellcheck source=selftests/nfs_lib.sh
source "$(dirname "$(realpath "$0")")/../../selftests/nfs_lib.sh"

need_env XR_TESTHOST XR_ROLE XR_ADDR XR_PEER_ADDR XR_PAIR_DIR XR_NETDEV
nfs_need_server
command -v tcpdump >/dev/null || skip_all "missing: tcpdump"

PORT=20049
VERS="3 4.1"
STEP_WAIT=600
MNT=$NFS_RUN/mnt-capture
PCAP=$NFS_RUN/client.pcap
DIRENTS=600
ACL_ENTRIES=400
TCPDUMP_PID=

# A: nfsd over the in-tree server.
a_server() {
	load_rpcrdma || return 1
	nfs_server_start && nfs_listen rdma "$PORT"
}

b_capture_start() {
	load_rpcrdma || return 1
	mkdir -p "$NFS_RUN" "$NFS_DATA" || return 1
	tcpdump -i "$XR_NETDEV" -s 0 -B 16384 -U -w "$PCAP" udp port 4791 \
		2>"$NFS_RUN/tcpdump.err" &
	TCPDUMP_PID=$!
	# tcpdump says "listening on" once the capture is open.
	wait_for 20 grep -q "listening on" "$NFS_RUN/tcpdump.err" ||
		fail "tcpdump did not start: $(cat "$NFS_RUN/tcpdump.err")"
}

b_capture_stop() {
	kill -INT "$TCPDUMP_PID" && wait "$TCPDUMP_PID"
	sed 's/^/# tcpdump: /' "$NFS_RUN/tcpdump.err"
	grep -q "^0 packets dropped by kernel" "$NFS_RUN/tcpdump.err" ||
		fail "tcpdump dropped packets" || return 1
	cp "$PCAP" "$XR_PAIR_DIR/client.pcap" || fail "cannot copy the capture out"
}

# The workload on MNT (mounted with NFS version V): every call kind and
# many procedures. O_DIRECT keeps the sizes of READs and WRITEs as asked.
b_workload() {
	local d=$MNT/w-$1 long i

	mkdir "$d" || return 1
	cd "$d" || return 1
	# Inline WRITE and READ, then a Read chunk and a Write list.
	dd if=/dev/urandom of=small bs=512 count=1 oflag=direct status=none || return 1
	dd if=small of=/dev/null bs=512 iflag=direct status=none || return 1
	dd if=/dev/urandom of=big bs=64k count=4 oflag=direct status=none || return 1
	dd if=big of=/dev/null bs=64k iflag=direct status=none || return 1
	# Buffered: UNSTABLE WRITEs and a COMMIT.
	dd if=/dev/urandom of=buffered bs=1M count=1 conv=fsync status=none || return 1
	nfs_drop_caches
	cat buffered >/dev/null || return 1
	# SETATTR, truncate, ACCESS, LINK, RENAME, REMOVE.
	chmod 600 small && truncate -s 100 small && test -r small || return 1
	ln small hard && mv hard moved && rm moved || return 1
	# A symlink whose target does not fit in one inline call: the call
	# goes by a position-zero Read chunk, READLINK's reply by a Reply chunk.
	long=$(printf 'x%.0s' $(seq 1 4000))
	ln -s "$long" longlink && ln -s short shortlink || return 1
	nfs_drop_caches
	readlink longlink >/dev/null && readlink shortlink >/dev/null || return 1
	# An ACL too long to send inline, with no file data to go by a Read
	# chunk: the whole call goes by a position-zero Read chunk
	# (RDMA_NOMSG). NFSv3 sets it with NFSACL's SETACL, NFSv4 with SETATTR.
	: >acl && set_long_acl "$1" acl || return 1
	# MKDIR, a directory long enough that READDIR replies by Reply chunk.
	mkdir many || return 1
	for ((i = 1; i <= DIRENTS; i++)); do
		: >"many/entry-with-a-longer-name-$i" || return 1
	done
	nfs_drop_caches
	ls -l many >/dev/null || return 1
	ls -f many >/dev/null || return 1
	# FSSTAT, FSINFO, PATHCONF and friends, then clean up.
	df "$MNT" >/dev/null && stat -f "$MNT" >/dev/null || return 1
	rm -rf many && rm -f small big buffered longlink shortlink acl || return 1
	cd / && rmdir "$d"
}

# set_long_acl VERS FILE: give FILE an access ACL of ACL_ENTRIES entries
# (the POSIX ACL xattr over NFSv3, the NFSv4 ACL attribute over 4.x). The
# server's answer does not matter: the call has been sent.
set_long_acl() {
	python3 - "$1" "$2" "$ACL_ENTRIES" <<'PY'
import os, struct, sys
vers, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if vers == '3':
    # struct posix_acl_xattr_header and _entry (little-endian): tag, perm, id.
    ents = [(0x01, 6, 0)] + [(0x02, 4, 1000 + i) for i in range(n)] + \
        [(0x04, 4, 0), (0x10, 6, 0), (0x20, 4, 0)]
    name = 'system.posix_acl_access'
    value = struct.pack('<I', 2) + b''.join(struct.pack('<HHI', *e) for e in ents)
else:
    # nfsace4<> (RFC 8881): type ALLOW, flags, mask READ_DATA, who.
    name = 'system.nfs4_acl'
    value = struct.pack('>I', n)
    for i in range(n):
        who = str(1000 + i).encode()
        value += struct.pack('>IIII', 0, 0, 1, len(who)) + who + b'\0' * (-len(who) % 4)
try:
    os.setxattr(path, name, value)
except OSError as e:
    print('# setting the ACL: %s (the call was sent)' % e)
PY
}

b_version() {
	local v=$1

	nfs_mount "$v" "$PORT" "$MNT" nolock || return 1
	timeout -k 5 600 bash -c "$(declare -f b_workload set_long_acl nfs_drop_caches);
		MNT=$MNT DIRENTS=$DIRENTS ACL_ENTRIES=$ACL_ENTRIES b_workload $v" || fail "workload over NFSv$v" ||
		{ nfs_umount "$MNT"; return 1; }
	nfs_umount "$MNT"
}

b_cleanup() {
	nfs_is_mounted "$MNT" && umount -f -l "$MNT"
	[ -n "$TCPDUMP_PID" ] && kill "$TCPDUMP_PID" 2>/dev/null
}

role_b() {
	local v

	XR_NFS_SERVER=$XR_PEER_ADDR
	export XR_NFS_SERVER
	trap b_cleanup EXIT
	ktap_header 5
	echo "# client guest B ($XR_ADDR, in-tree rpcrdma on $(uname -r)), server A ($XR_PEER_ADDR)"
	run_test capture_start b_capture_start
	run_test wait_server pair_wait srv "$STEP_WAIT"
	for v in $VERS; do
		run_test "workload_v$v" b_version "$v"
	done
	run_test capture_stop b_capture_stop
	pair_signal cli-done
	ktap_finish
}

role_a() {
	local status=ok

	trap 'nfs_server_stop >/dev/null 2>&1' EXIT
	ktap_header 3
	run_test server_start a_server
	nfs_portlist_has rdma "$PORT" 2>/dev/null || status=failed
	pair_signal srv "$status"
	run_test wait_client pair_wait cli-done "$STEP_WAIT"
	run_test server_stop nfs_server_stop
	ktap_finish
}

case "$XR_ROLE" in
A) role_a ;;
B) role_b ;;
*) skip_all "XR_ROLE is '$XR_ROLE', not A or B" ;;
esac
