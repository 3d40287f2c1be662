# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# nfs_lib.sh - an NFS server and its client in one test-host guest, for
# the NFS-over-RDMA tests. Source it instead of lib.sh: it sources lib.sh
# itself when that is not loaded yet.
#
# The server is the in-kernel nfsd, run the way Debian's units would but
# without systemd: rpcbind, nfsdcld, rpc.statd and rpc.mountd in the
# foreground as background jobs (killed by PID), an export of a tmpfs of its
# own (NFS cannot export the guest's overlay root). It rewrites /etc/exports,
# so it refuses to run outside the test host. Every wait is bounded, and so
# is every mount, umount and data transfer: an NFS mount over a dead RDMA
# path can hang for minutes.
#
# Knobs (environment):
#   XR_NFS_RUN          state directory (default /run/xr-nfs, a tmpfs in the guest)
#   XR_NFS_THREADS      nfsd threads (default 4)
#   XR_NFS_GRACE        nfsd grace and lease time, seconds (default 10, the minimum)
#   XR_NFS_OP_TIMEOUT   bound on one mount or umount, seconds (default 60)
#   XR_NFS_IO_TIMEOUT   bound on one data transfer, seconds (default 60 + 8 per MiB)
#   XR_NFS_SERVER       address nfs_mount mounts from (default $XR_ADDR: this guest)
#   NFS_MAX_BLOCK       nfsd's max_block_size, set by nfs_server_start when it
#                       starts nfsd (default: nfsd's own, 512 KiB in a 2 GiB guest);
#                       nfs_server_stop puts the earlier value back

# shellcheck source=selftests/lib.sh
declare -F ktap_header >/dev/null || source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

NFS_RUN=${XR_NFS_RUN:-/run/xr-nfs}
NFS_EXPORT=$NFS_RUN/export
NFS_DATA=$NFS_RUN/data
NFS_THREADS=${XR_NFS_THREADS:-4}
NFS_GRACE=${XR_NFS_GRACE:-10}
NFS_OP_TIMEOUT=${XR_NFS_OP_TIMEOUT:-60}
NFSD_FS=/proc/fs/nfsd
NFS_EXPORT_OPTS=fsid=0,rw,no_root_squash,insecure,no_subtree_check
NFS_TOOLS="rpcbind rpcinfo rpc.nfsd rpc.mountd rpc.statd exportfs mount.nfs sha256sum"

# rpc_pipefs goes where nfs-utils looks for it: nfs.conf's pipefs-directory
# (Debian 12: /run/rpc_pipefs, mounted by a systemd generator; the static
# var-lib-nfs-rpc_pipefs.mount unit names the old place).
nfs_pipefs_dir() {
	local d=

	command -v nfsconf >/dev/null && d=$(nfsconf --get general pipefs-directory 2>/dev/null)
	echo "${d:-/var/lib/nfs/rpc_pipefs}"
}

# nfs_missing_tools: print the tools (and modules) the NFS tests need that
# are not there; empty output means all are.
nfs_missing_tools() {
	local t m

	for t in $NFS_TOOLS; do
		command -v "$t" >/dev/null || echo "$t"
	done
	for m in nfsd nfsv3 nfsv4 rpcrdma; do
		modprobe -n -q "$m" 2>/dev/null || echo "module:$m"
	done
}

# nfs_need_server: skip the whole test unless it can run an NFS server.
nfs_need_server() {
	local missing

	[ "$(id -u)" -eq 0 ] || skip_all "needs root"
	missing=$(nfs_missing_tools)
	[ -z "$missing" ] || skip_all "missing: ${missing//$'\n'/ }"
}

# nfs_is_mounted DIR [FSTYPE]: DIR is a mount point (of FSTYPE).
nfs_is_mounted() {
	local mnt type rest

	while read -r _ mnt type rest; do
		[ "$mnt" = "$1" ] || continue
		[ -z "${2:-}" ] || [ "$type" = "$2" ] || continue
		return 0
	done </proc/self/mounts
	return 1
}

# nfs_mount_opts DIR: the options column of DIR's (last) line in /proc/mounts.
nfs_mount_opts() {
	local mnt type opts rest found=

	while read -r _ mnt type opts rest; do
		[ "$mnt" = "$1" ] && found=$opts
	done </proc/self/mounts
	[ -n "$found" ] && echo "$found"
}

# PID files of the daemons started here, in $NFS_RUN.
nfs_pid() {
	local pid=

	[ -r "$NFS_RUN/$1.pid" ] && read -r pid <"$NFS_RUN/$1.pid"
	echo "$pid"
}

nfs_daemon_alive() {
	local pid

	pid=$(nfs_pid "$1")
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# nfs_daemon NAME CMD...: run CMD (a daemon in its foreground mode) as a
# background job, output to $NFS_RUN/NAME.log, PID to $NFS_RUN/NAME.pid.
# Nothing is done when it is already running.
nfs_daemon() {
	local name=$1

	shift
	nfs_daemon_alive "$name" && return 0
	"$@" </dev/null >>"$NFS_RUN/$name.log" 2>&1 &
	echo $! >"$NFS_RUN/$name.pid"
}

# nfs_daemon_stop NAME: SIGTERM by PID, bounded wait, then SIGKILL.
nfs_daemon_stop() {
	local name=$1 pid

	pid=$(nfs_pid "$name")
	rm -f "$NFS_RUN/$name.pid"
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill "$pid" 2>/dev/null
	if ! wait_for 10 eval "! kill -0 $pid"; then
		echo "# $name ($pid) ignored SIGTERM"
		kill -9 "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

# The daemon's log as comment lines, after a failure.
nfs_daemon_log() {
	[ -s "$NFS_RUN/$1.log" ] && sed "s/^/# $1: /" "$NFS_RUN/$1.log"
	return 0
}

nfs_rpc_registered() {
	rpcinfo -T tcp 127.0.0.1 "$1" "$2"
}

# An inotify descriptor shows nfsdcld waiting for nfsd's cld pipe.
nfs_cld_waiting() {
	local pid

	pid=$(nfs_pid nfsdcld)
	[ -n "$pid" ] || return 1
	[ -n "$(find "/proc/$pid/fd" -lname 'anon_inode:inotify' -o \
		-lname "$(nfs_pipefs_dir)/nfsd/cld" 2>/dev/null)" ]
}

nfsd_threads() {
	local n=0

	[ -r $NFSD_FS/threads ] && read -r n <$NFSD_FS/threads
	echo "${n:-0}"
}

nfs_grace_ended() {
	local v=N

	read -r v <$NFSD_FS/v4_end_grace && [ "$v" = Y ]
}

# nfs_wait_grace: wait until nfsd's NFSv4 grace period is over (opens stall
# in it). With nfsdcld and no clients to reclaim nfsd skips it; otherwise
# it ends XR_NFS_GRACE seconds after nfsd started, or a lease later.
nfs_wait_grace() {
	local t0=$SECONDS

	[ -e $NFSD_FS/v4_end_grace ] || return 0
	nfs_grace_ended && return 0
	wait_for $((2 * NFS_GRACE + 20)) nfs_grace_ended ||
		fail "nfsd still in its grace period after $((SECONDS - t0)) s" || return 1
	echo "# waited $((SECONDS - t0)) s for nfsd's grace period"
}

# nfsd_max_block_set BYTES: nfsd's max_block_size, while nfsd is stopped.
# nfsd keeps it until it is unloaded, so the value before is saved for
# nfs_server_stop to put back for the tests after this one. That value
# reads 0 until nfsd first starts (nfsd works its default out then, by
# memory): nfsd is started and stopped once to have it. nfsd refuses a
# new value while it has listeners, even without threads.
nfsd_max_block_set() {
	local cur saved=$NFS_RUN/max_block_size.orig

	if [ ! -e "$saved" ]; then
		read -r cur <$NFSD_FS/max_block_size
		if [ "${cur:-0}" -eq 0 ]; then
			timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 1 &&
				timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 0 ||
				fail "starting nfsd for its default max_block_size" || return 1
			read -r cur <$NFSD_FS/max_block_size
		fi
		[ "${cur:-0}" -gt 0 ] || fail "max_block_size reads ${cur:-nothing}" || return 1
		echo "$cur" >"$saved"
	fi
	echo "$1" >$NFSD_FS/max_block_size || fail "max_block_size $1 refused" || return 1
	[ "$(cat $NFSD_FS/max_block_size)" -eq "$1" ] ||
		fail "max_block_size is $(cat $NFSD_FS/max_block_size), not $1"
}

# nfs_server_start: nfsd serving a tmpfs at $NFS_EXPORT (fsid=0) over TCP
# (for mountd and the NFSv3 side protocols). Does not load rpcrdma and
# opens no RDMA listener: see nfs_listen. Idempotent.
nfs_server_start() {
	local pipefs line

	[ -n "${XR_TESTHOST:-}" ] || fail "not in the test host: would rewrite /etc/exports" ||
		return 1
	modprobe -a sunrpc nfsd || fail "modprobe nfsd" || return 1
	mkdir -p "$NFS_RUN" "$NFS_EXPORT" "$NFS_DATA" "$NFS_RUN/nfsdcld" "$NFS_RUN/mnt"
	nfs_is_mounted $NFSD_FS nfsd || mount -t nfsd nfsd $NFSD_FS ||
		fail "mount nfsd on $NFSD_FS" || return 1
	pipefs=$(nfs_pipefs_dir)
	mkdir -p "$pipefs"
	nfs_is_mounted "$pipefs" rpc_pipefs || mount -t rpc_pipefs rpc_pipefs "$pipefs" ||
		fail "mount rpc_pipefs on $pipefs" || return 1
	# A file system the caller mounted there is exported as it is.
	# Small pages: holes are found (SEEK) at page granularity.
	nfs_is_mounted "$NFS_EXPORT" ||
		mount -t tmpfs -o mode=0777,huge=never xr-nfs-export "$NFS_EXPORT" ||
		fail "mount tmpfs on $NFS_EXPORT" || return 1

	[ -e "$NFS_RUN/exports.orig" ] || cp /etc/exports "$NFS_RUN/exports.orig" 2>/dev/null ||
		: >"$NFS_RUN/exports.orig"
	line="$NFS_EXPORT *($NFS_EXPORT_OPTS)"
	echo "$line" >/etc/exports || fail "cannot write /etc/exports" || return 1

	# rpcbind's warm-start files (-w) go to /run/rpcbind.
	mkdir -p /run/rpcbind
	nfs_daemon rpcbind rpcbind -f -w
	wait_for 10 nfs_rpc_registered portmapper 2 ||
		{ nfs_daemon_log rpcbind; fail "rpcbind not answering"; } || return 1

	exportfs -ra || fail "exportfs -ra" || return 1
	nfs_daemon mountd rpc.mountd -F
	nfs_daemon statd rpc.statd -F --no-notify
	# nfsdcld before nfsd: nfsd gives it a second to open its pipe.
	command -v nfsdcld >/dev/null &&
		nfs_daemon nfsdcld nfsdcld -F -p "$pipefs" -s "$NFS_RUN/nfsdcld"
	wait_for 20 nfs_rpc_registered mountd 3 ||
		{ nfs_daemon_log mountd; fail "rpc.mountd not answering"; } || return 1
	wait_for 20 nfs_rpc_registered status 1 ||
		{ nfs_daemon_log statd; fail "rpc.statd not answering"; } || return 1
	if nfs_daemon_alive nfsdcld && ! wait_for 10 nfs_cld_waiting; then
		echo "# nfsdcld not ready: nfsd will fall back to another client tracker"
		nfs_daemon_log nfsdcld
	fi

	if [ "$(nfsd_threads)" -eq 0 ]; then
		if [ -n "${NFS_MAX_BLOCK:-}" ]; then
			nfsd_max_block_set "$NFS_MAX_BLOCK" || return 1
		fi
		rpc.nfsd -G "$NFS_GRACE" -L "$NFS_GRACE" "$NFS_THREADS" ||
			fail "rpc.nfsd $NFS_THREADS" || return 1
	fi
	[ "$(nfsd_threads)" -gt 0 ] || fail "no nfsd threads" || return 1
	wait_for 20 nfs_rpc_registered nfs 3 || fail "nfsd not registered" || return 1
	nfs_wait_grace
}

# nfs_server_stop: undo nfs_server_start (and any listener, any NFS mount
# under $NFS_RUN). Safe to call at any point, and twice.
nfs_server_stop() {
	local mnt type rest pipefs rc=0

	while read -r _ mnt type rest; do
		case "$type:$mnt" in
		nfs*:"$NFS_RUN"/*) nfs_umount "$mnt" || rc=1 ;;
		esac
	done < <(cat /proc/self/mounts)
	if [ "$(nfsd_threads)" -gt 0 ] || [ -s $NFSD_FS/portlist ]; then
		timeout -k 5 "$NFS_OP_TIMEOUT" rpc.nfsd 0 || { rc=1; echo "# rpc.nfsd 0 failed"; }
	fi
	if [ -e "$NFS_RUN/max_block_size.orig" ] && [ "$(nfsd_threads)" -eq 0 ]; then
		cat "$NFS_RUN/max_block_size.orig" >$NFSD_FS/max_block_size ||
			{ rc=1; echo "# max_block_size not restored"; }
		rm -f "$NFS_RUN/max_block_size.orig"
	fi
	command -v exportfs >/dev/null && [ -e "$NFS_RUN/exports.orig" ] && exportfs -ua
	nfs_daemon_stop nfsdcld
	nfs_daemon_stop statd
	nfs_daemon_stop mountd
	nfs_daemon_stop rpcbind
	if [ -e "$NFS_RUN/exports.orig" ]; then
		cat "$NFS_RUN/exports.orig" >/etc/exports
		rm -f "$NFS_RUN/exports.orig"
	fi
	nfs_is_mounted "$NFS_EXPORT" && { umount "$NFS_EXPORT" || rc=1; }
	pipefs=$(nfs_pipefs_dir)
	nfs_is_mounted "$pipefs" rpc_pipefs && { umount "$pipefs" || rc=1; }
	nfs_is_mounted $NFSD_FS nfsd && { umount $NFSD_FS || rc=1; }
	return $rc
}

# nfs_portlist_has CLASS PORT
nfs_portlist_has() {
	local line

	while read -r line; do
		[ "$line" = "$1 $2" ] && return 0
	done <$NFSD_FS/portlist
	return 1
}

# nfs_listen CLASS PORT: have nfsd listen on an RPC transport class
# ("rdma 20049": the in-kernel server; "xrdma 20050": ours).
nfs_listen() {
	local class=$1 port=$2

	nfs_portlist_has "$class" "$port" && return 0
	echo "$class $port" >$NFSD_FS/portlist ||
		fail "nfsd refused '$class $port' in portlist" || return 1
	nfs_portlist_has "$class" "$port" ||
		fail "'$class $port' not in portlist: $(tr '\n' ' ' <$NFSD_FS/portlist)"
}

# nfs_server_objects_at BASE: our server transports are BASE (the
# listeners) and no send or receive context is left.
nfs_server_objects_at() {
	[ "$(live_objects svc-xprt)" -eq "$1" ] &&
		[ "$(live_objects sendctx)" -eq 0 ] && [ "$(live_objects recvctx)" -eq 0 ]
}

# nfs_connections_released BASE: nfs_server_objects_at BASE within 30 s.
nfs_connections_released() {
	wait_for 30 nfs_server_objects_at "$1" ||
		fail "live objects: $("$RDMACTL" -j module show), expected svc-xprt $1"
}

# nfs_our_server_start: start nfsd listening on this module's server
# class, as the module's mode names it: "rdma 20049" in drop-in mode,
# "xrdma 20050" beside the in-tree rpcrdma. Sets NFS_CLASS and NFS_PORT.
nfs_our_server_start() {
	if [ "$(module_mode)" = dropin ]; then
		NFS_CLASS=rdma NFS_PORT=20049
	else
		NFS_CLASS=xrdma NFS_PORT=20050
	fi
	echo "# module mode $(module_mode): our server is '$NFS_CLASS $NFS_PORT'"
	nfs_server_start && nfs_listen "$NFS_CLASS" "$NFS_PORT"
}

# nfs_mount VERS PORT MNT [OPTS]: mount the export over RDMA (the NFSv4
# pseudo-root for 4.x, the export path for 3) from $XR_NFS_SERVER (else
# this guest; an IPv6 address is mounted with proto=rdma6) and check
# /proc/mounts says that protocol on PORT. OPTS: extra mount options,
# comma-separated.
nfs_mount() {
	local vers=$1 port=$2 mnt=$3 extra=${4:-} src opts got server=${XR_NFS_SERVER:-$XR_ADDR}
	local proto=rdma

	case "$server" in
	*:*) proto=rdma6 server=[$server] ;;
	esac
	case "$vers" in
	2|3) src=$server:$NFS_EXPORT ;;
	*) src=$server:/ ;;
	esac
	opts=vers=$vers,proto=$proto,port=$port${extra:+,$extra}
	mkdir -p "$mnt"
	nfs_is_mounted "$mnt" && { fail "$mnt already mounted"; return 1; }
	timeout -k 5 "$NFS_OP_TIMEOUT" mount -t nfs -o "$opts" "$src" "$mnt" ||
		fail "mount -o $opts $src $mnt: $?" || return 1
	got=$(nfs_mount_opts "$mnt") || fail "$mnt not in /proc/mounts" || return 1
	case ",$got," in
	*,proto=$proto,*) ;;
	*) fail "not proto=$proto: $got"; return 1 ;;
	esac
	case ",$got," in
	*,port=$port,*) ;;
	*) fail "not port=$port: $got"; return 1 ;;
	esac
	case ",$got," in
	*,vers=$vers,*|*,vers=$vers.0,*) ;;
	*) fail "not vers=$vers: $got"; return 1 ;;
	esac
}

# nfs_umount MNT: bounded umount; on failure force it and detach lazily
# (and still fail).
nfs_umount() {
	local mnt=$1

	nfs_is_mounted "$mnt" || return 0
	timeout -k 5 "$NFS_OP_TIMEOUT" umount "$mnt" && return 0
	echo "# umount $mnt failed or hung: forcing"
	timeout -k 5 "$NFS_OP_TIMEOUT" umount -f -l "$mnt"
	return 1
}

# nfs_xprt_field MNT N: field N (5: connects) of the xprt line of the
# mount on MNT, from /proc/self/mountstats.
nfs_xprt_field() {
	awk -v mnt="$1" -v n="$2" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" && $2 == "rdma" { print $n; exit }
	' /proc/self/mountstats
}

nfs_drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

nfs_io_timeout() {
	echo "${XR_NFS_IO_TIMEOUT:-$((60 + 8 * $1))}"
}

# nfs_dd TIMEOUT dd-ARGS...: bounded dd; its summary as a comment line.
nfs_dd() {
	local t=$1 err rc=0

	shift
	err=$(timeout -k 5 "$t" dd "$@" 2>&1 >/dev/null) || rc=$?
	[ -n "$err" ] && echo "$err" | tail -n 1 | sed 's/^/# /'
	return $rc
}

# nfs_sha256 FILE: print FILE's SHA-256.
nfs_sha256() {
	local sum rest

	read -r sum rest < <(sha256sum "$1") && [ -n "$sum" ] && echo "$sum"
}

# nfs_random_file FILE MIB: MIB MiB from /dev/urandom into FILE (keep it on
# a local tmpfs); prints its SHA-256.
nfs_random_file() {
	dd if=/dev/urandom of="$1" bs=1M count="$2" status=none && nfs_sha256 "$1"
}

# nfs_write_file SRC DST MIB: copy SRC to DST in 1 MiB blocks, fsync'd.
nfs_write_file() {
	nfs_dd "$(nfs_io_timeout "$3")" if="$1" of="$2" bs=1M conv=fsync
}

# nfs_read_sha256 FILE MIB: read FILE in 1 MiB blocks (bounded), print its
# SHA-256.
nfs_read_sha256() {
	local t sum rest

	t=$(nfs_io_timeout "$2")
	read -r sum rest < <(timeout -k 5 "$t" dd if="$1" bs=1M status=none | sha256sum)
	[ -n "$sum" ] && [ "$sum" != e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ] &&
		echo "$sum"
}

# nfs_write_verify MNT MIB [NAME]: write MIB MiB of random data to
# MNT/NAME, drop the page cache, read it back, compare SHA-256.
nfs_write_verify() {
	local mnt=$1 mib=$2 name=${3:-xr-data} src want got t0

	src=$NFS_DATA/$name
	want=$(nfs_random_file "$src" "$mib") || fail "cannot make $src" || return 1
	t0=$(date +%s%N)
	nfs_write_file "$src" "$mnt/$name" "$mib" || fail "writing $mnt/$name" || return 1
	echo "# write: $mib MiB in $((($(date +%s%N) - t0) / 1000000)) ms"
	nfs_drop_caches
	t0=$(date +%s%N)
	got=$(nfs_read_sha256 "$mnt/$name" "$mib") || fail "reading $mnt/$name back" || return 1
	echo "# read: $mib MiB in $((($(date +%s%N) - t0) / 1000000)) ms"
	rm -f "$src"
	[ "$got" = "$want" ] || fail "$name: sha256 $got, wrote $want"
}

# nfs_op_count MNT OP: how many OP calls (WRITE, READ, ...) the mount on
# MNT has made, from /proc/self/mountstats.
nfs_op_count() {
	awk -v mnt="$1" -v op="$2:" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == op { print $2; exit }
	' /proc/self/mountstats
}

# nfs_full_size_io MNT MIB NAME: the mount on MNT reads and writes 1 MiB
# per call (rsize and wsize), and MIB MiB written and read back with
# O_DIRECT in 1 MiB blocks take MIB WRITE and MIB READ calls and keep
# their SHA-256. The server needs an nfsd max_block_size of 1 MiB.
nfs_full_size_io() {
	local mnt=$1 mib=$2 name=$3 src want got opts w0 r0 w r t

	opts=$(nfs_mount_opts "$mnt") || fail "$mnt not in /proc/mounts" || return 1
	case ",$opts," in
	*,rsize=1048576,*wsize=1048576,*) ;;
	*) fail "rsize and wsize are not 1 MiB: $opts"; return 1 ;;
	esac
	src=$NFS_DATA/$name
	want=$(nfs_random_file "$src" "$mib") || fail "cannot make $src" || return 1
	t=$(nfs_io_timeout "$mib")
	w0=$(nfs_op_count "$mnt" WRITE)
	nfs_dd "$t" if="$src" of="$mnt/$name" bs=1M oflag=direct ||
		fail "direct write of $mnt/$name" || return 1
	r0=$(nfs_op_count "$mnt" READ)
	# count: a read past the end would be one more READ call.
	got=$(timeout -k 5 "$t" dd if="$mnt/$name" bs=1M count="$mib" iflag=direct status=none |
		sha256sum | cut -d' ' -f1)
	w=$(($(nfs_op_count "$mnt" WRITE) - w0))
	r=$(($(nfs_op_count "$mnt" READ) - r0))
	rm -f "$src" "$mnt/$name"
	echo "# $mib MiB: $w WRITE and $r READ calls"
	[ "$got" = "$want" ] || fail "$name: sha256 $got, wrote $want" || return 1
	[ "$w" -eq "$mib" ] && [ "$r" -eq "$mib" ] ||
		fail "$w WRITE and $r READ calls for $mib MiB each way, not $mib"
}

# nfs_small_io MNT NAME: 4 KiB written to MNT/NAME and read back with
# O_DIRECT, a call each way, with the same SHA-256. Whether its data
# goes inline or in chunks is the two ends' business (their inline
# sizes); that it arrives is checked here.
nfs_small_io() {
	local src=$NFS_DATA/$2 want got

	head -c 4096 /dev/urandom >"$src" || return 1
	want=$(nfs_sha256 "$src")
	nfs_dd "$NFS_OP_TIMEOUT" if="$src" of="$1/$2" bs=4k oflag=direct ||
		fail "direct write of $1/$2" || return 1
	got=$(timeout -k 5 "$NFS_OP_TIMEOUT" dd if="$1/$2" bs=4k count=1 iflag=direct \
		status=none | sha256sum | cut -d' ' -f1)
	rm -f "$src" "$1/$2"
	[ "$got" = "$want" ] || fail "$2: sha256 $got, wrote $want"
}

# nfs_make_entries DIR N: create DIR with N empty files e1..eN (bounded).
nfs_make_entries() {
	mkdir "$1" || return 1
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout -k 5 "$(nfs_io_timeout $(($2 / 100)))" bash -c '
		for ((i = 1; i <= $2; i++)); do : >"$1/e$i" || exit 1; done' - "$1" "$2"
}

# nfs_count_entries DIR: print how many entries ls lists in DIR (bounded).
nfs_count_entries() {
	local n

	n=$(timeout -k 5 "$NFS_OP_TIMEOUT" ls -A "$1" | wc -l) && echo "$n"
}

# nfs_rdma_chunks MNT: the RPC-over-RDMA chunk counters of MNT's transport
# from /proc/self/mountstats, "READ WRITE REPLY": segments the client
# registered for Read lists, Write lists and Reply chunks since the mount;
# nothing if it is not RDMA.
nfs_rdma_chunks() {
	awk -v mnt="$1" '
		$1 == "device" { here = ($5 == mnt) }
		here && $1 == "xprt:" && $2 == "rdma" { print $13, $14, $15; exit }
	' /proc/self/mountstats
}

# server_counter NAME: a module-wide counter of xrpcrdma's server
# (rdmactl stats show), e.g. bc-calls-sent.
server_counter() {
	"$RDMACTL" -j stats show | jq -r --arg k "$1" '.server[$k]'
}

# nfs_newest_conn: the id of the newest server connection of ours, 0
# when there is none. Ids only grow: a larger one is a connection made
# later.
nfs_newest_conn() {
	"$RDMACTL" -j transport show |
		jq -r '[.[] | select(.role == "server-connection") | .id] | max // 0'
}

# nfs_client_eval ADDR PORT FILTER: print the jq FILTER (compact, strings
# raw) over the newest client transport of ours to ADDR:PORT in
# `rdmactl -j transport show`; fails when there is none, and when rdmactl
# fails or prints nothing (xrpcrdma not loaded).
nfs_client_eval() {
	local out

	out=$("$RDMACTL" -j transport show) || return 1
	jq -n -r -c --arg a "$1" --argjson p "$2" '
		input | [.[] | select(.role == "client" and .peer_addr == $a and .peer_port == $p)] |
		if length == 0 then "" | halt_error(1) else last | ('"$3"') end' <<<"$out"
}

# nfs_client_invs ADDR PORT: "REGISTRATIONS LOCAL-INVS REMOTE-INVS" of
# the client transport of ours to ADDR:PORT.
nfs_client_invs() {
	nfs_client_eval "$1" "$2" \
		'.stats | "\(.registrations) \(.["local-invs"]) \(.["remote-invs"])"'
}

# nfs_client_invs_balanced ADDR PORT: every region the client registered
# was invalidated, by a LOCAL_INV or by the server's reply.
nfs_client_invs_balanced() {
	local reg loc rem

	read -r reg loc rem < <(nfs_client_invs "$1" "$2") && [ "$reg" -eq $((loc + rem)) ]
}

# nfs_client_regions_released ADDR PORT: once no call is in flight, the
# client transport to ADDR:PORT has invalidated every region it
# registered, and the server invalidated some of them itself (Send With
# Invalidate, which our connect private data allows).
nfs_client_regions_released() {
	local reg loc rem

	wait_for 10 nfs_client_invs_balanced "$1" "$2"
	read -r reg loc rem < <(nfs_client_invs "$1" "$2") ||
		fail "no client transport to $1:$2" || return 1
	echo "# registrations $reg local-invs $loc remote-invs $rem"
	[ "$reg" -gt 0 ] || fail "no region registered" || return 1
	[ "$rem" -gt 0 ] || fail "the server invalidated no region" || return 1
	[ "$reg" -eq $((loc + rem)) ] ||
		fail "$reg regions registered, $((loc + rem)) invalidated"
}

NFS_LEASE_BREAK=/proc/sys/fs/lease-break-time

# nfsd_delegations [NAME]: delegations nfsd holds for its clients; only
# those of files named NAME when given (a client may still hold others
# from earlier reads).
nfsd_delegations() {
	cat $NFSD_FS/clients/*/states 2>/dev/null | grep "type: deleg" |
		grep -c -F "${1:+/$1\"}"
}

# nfs_read_until_delegated FILE: open and read FILE over NFS; true once
# nfsd holds a delegation for it. nfsd gives none while lockd is in its
# grace period.
nfs_read_until_delegated() {
	cat "$1" >/dev/null && [ "$(nfsd_delegations "${1##*/}")" -ge 1 ]
}

# nfs_delegate_files MNT PREFIX N: files PREFIX1 to PREFIXN made in
# $NFS_EXPORT holding "first", and read over the NFSv4.1 mount MNT until
# nfsd holds a delegation for each.
nfs_delegate_files() {
	local mnt=$1 p=$2 n=$3 i

	for ((i = 1; i <= n; i++)); do
		echo first >"$NFS_EXPORT/$p$i" || fail "writing $p$i on the server" || return 1
	done
	for ((i = 1; i <= n; i++)); do
		wait_for 60 nfs_read_until_delegated "$mnt/$p$i" ||
			fail "nfsd granted no delegation for $p$i" || return 1
	done
}

# nfs_write_delegated NAME...: a writer on the server for each file NAME
# of $NFS_EXPORT, all at once, so that nfsd recalls the delegations of
# all of them together. The lease break time is set far above the
# writers' bound: a writer gets through in time only when the client
# returned its delegation, which it does on the recall.
nfs_write_delegated() {
	local f orig pid pids=() rc=0

	orig=$(cat $NFS_LEASE_BREAK)
	echo 600 >$NFS_LEASE_BREAK
	for f in "$@"; do
		timeout -k 5 120 sh -c "echo second >>'$NFS_EXPORT/$f'" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	echo "$orig" >$NFS_LEASE_BREAK
	[ "$rc" -eq 0 ] || fail "a local writer waited for the lease break: no recall"
}

# nfs_recall_on_local_write MNT NAME: over an NFSv4.1 mount MNT of
# $NFS_EXPORT served by xrpcrdma's server, where $NFS_EXPORT/NAME holds
# "first": the client reads NAME and gets a read delegation; a writer on
# the server conflicts with it and nfsd recalls it with CB_RECALL over the
# backchannel. The lease break time is set far above the writer's bound:
# the writer gets through in time only when the client returned the
# delegation, which it does on the recall. The server's backchannel
# counters must show the callback and its reply, and the client must see
# the server's write afterwards.
nfs_recall_on_local_write() {
	local mnt=$1 f=$2 calls replies

	[ "$(cat "$mnt/$f")" = first ] || fail "reading $f over NFS" || return 1
	wait_for 60 nfs_read_until_delegated "$mnt/$f" ||
		fail "nfsd granted no delegation" || return 1
	calls=$(server_counter bc-calls-sent)
	replies=$(server_counter bc-replies-received)
	nfs_write_delegated "$f" || return 1
	echo "# callbacks sent $calls -> $(server_counter bc-calls-sent), replies $replies -> $(server_counter bc-replies-received)"
	[ "$(server_counter bc-calls-sent)" -gt "$calls" ] ||
		fail "no callback sent for the recall" || return 1
	[ "$(server_counter bc-replies-received)" -gt "$replies" ] ||
		fail "no callback reply received" || return 1
	# shellcheck disable=SC2016 # expanded by eval
	wait_for 20 eval '[ "$(nfsd_delegations "$f")" -eq 0 ]' ||
		fail "the delegation was not returned" || return 1
	nfs_drop_caches
	grep -q second "$mnt/$f" || fail "the client does not see the server's write"
}

# NFSv4.2's operations, through nfs42_ops (built with the C tests).
NFS42_OPS=${OUTPUT:-$XR_TOP/build/selftests}/nfs42_ops

# nfs42_ops_delta MNT OP CMD...: run CMD (bounded) and print how many OP
# calls the mount on MNT made meanwhile; fails with CMD.
nfs42_ops_delta() {
	local mnt=$1 op=$2 n0 err rc=0

	shift 2
	n0=$(nfs_op_count "$mnt" "$op")
	err=$(timeout -k 5 "$NFS_OP_TIMEOUT" "$@" 2>&1) || rc=$?
	[ -z "$err" ] || echo "$err" | sed 's/^/# /' >&2
	echo $(($(nfs_op_count "$mnt" "$op") - ${n0:-0}))
	return $rc
}

# nfs42_sparse MNT NAME: a 4 MiB file with two 64 KiB data extents and
# holes around them, read back over the NFSv4.2 mount MNT once the page
# cache is dropped (READ: the Linux client sends no READ_PLUS over RDMA),
# its holes and data found where they are (SEEK).
nfs42_sparse() {
	local mnt=$1 f=$1/$2 seek rd

	nfs42_ops_delta "$mnt" WRITE "$NFS42_OPS" sparse "$f" >/dev/null ||
		fail "making $f" || return 1
	nfs_drop_caches
	rd=$(nfs_op_count "$mnt" READ)
	seek=$(nfs42_ops_delta "$mnt" SEEK "$NFS42_OPS" check-sparse "$f") ||
		fail "$f does not read back as written" || return 1
	rd=$(($(nfs_op_count "$mnt" READ) - rd))
	rm -f "$f"
	echo "# read back with $rd READ calls; $seek SEEK calls"
	[ "$rd" -gt 0 ] || fail "nothing was read over the wire" || return 1
	[ "$seek" -ge 4 ] || fail "$seek SEEK calls for 4 lseeks"
}

# nfs42_copy MNT NAME MIB: MIB MiB of random data copied on the server
# with copy_file_range() (COPY: nfsd answers when it is done, or at once
# and later with a CB_OFFLOAD callback), the copy the same as the
# original once the page cache is dropped.
nfs42_copy() {
	local mnt=$1 src=$1/$2 dst=$1/$2.copy mib=$3 want got n w

	want=$(nfs_random_file "$NFS_DATA/$2" "$mib") || fail "cannot make $2" || return 1
	nfs_write_file "$NFS_DATA/$2" "$src" "$mib" || fail "writing $src" || return 1
	rm -f "$NFS_DATA/$2"
	w=$(nfs_op_count "$mnt" WRITE)
	n=$(nfs42_ops_delta "$mnt" COPY "$NFS42_OPS" copy "$src" "$dst") ||
		fail "copying $src" || return 1
	w=$(($(nfs_op_count "$mnt" WRITE) - ${w:-0}))
	nfs_drop_caches
	got=$(nfs_read_sha256 "$dst" "$mib")
	rm -f "$src" "$dst"
	echo "# $mib MiB copied with $n COPY and $w WRITE calls"
	[ "$got" = "$want" ] || fail "the copy reads back as $got, not $want" || return 1
	# A COPY the server refuses is counted too, and the VFS then copies
	# through the client: with WRITE calls.
	[ "$n" -ge 1 ] && [ "$w" -eq 0 ] || fail "the copy was not made on the server"
}

# nfs42_fallocate MNT NAME: a 2 MiB file punched (DEALLOCATE) and grown
# (ALLOCATE) by fallocate(); its data and zeroes read back where they
# should.
nfs42_fallocate() {
	local mnt=$1 f=$1/$2 d a

	nfs_dd "$NFS_OP_TIMEOUT" if=/dev/zero of="$f" bs=1M count=2 || fail "making $f" || return 1
	d=$(nfs_op_count "$mnt" DEALLOCATE)
	a=$(nfs42_ops_delta "$mnt" ALLOCATE "$NFS42_OPS" punch "$f") ||
		fail "fallocate on $f" || return 1
	d=$(($(nfs_op_count "$mnt" DEALLOCATE) - ${d:-0}))
	rm -f "$f"
	echo "# $d DEALLOCATE and $a ALLOCATE calls"
	[ "$d" -ge 1 ] && [ "$a" -ge 1 ] || fail "fallocate did not go to the server"
}

# nfs42_local_xattrs: print yes when this guest's export (a tmpfs)
# takes user extended attributes (tmpfs does since Linux 6.6), no when
# it says it does not support them; fails on any other answer.
nfs42_local_xattrs() {
	local f=$NFS_EXPORT/.xattr-probe rc=0

	[ -x "$NFS42_OPS" ] && : >"$f" || return 1
	"$NFS42_OPS" xattr-set "$f" 2>/dev/null || rc=$?
	rm -f "$f"
	case $rc in
	0) echo yes ;;
	3) echo no ;;
	*) return 1 ;;
	esac
}

# nfs42_xattrs MNT NAME: 100 user extended attributes set on a file over
# the NFSv4.2 mount MNT (one of 60000 bytes: a Read chunk), listed and
# read back (LISTXATTRS, GETXATTR; the large value in a Reply chunk)
# once the client's caches are dropped, then removed. Where the server's
# file system has no user extended attributes (tmpfs before Linux 6.6),
# setting one must fail with EOPNOTSUPP instead. NFS42_SERVER_XATTRS
# (yes or no) says which, for a server in another guest; else this
# guest's tmpfs is asked.
nfs42_xattrs() {
	local mnt=$1 f=$1/$2 srv=${NFS42_SERVER_XATTRS-} s g l r rc=0

	if [ -z "${NFS42_SERVER_XATTRS+set}" ]; then
		srv=$(nfs42_local_xattrs) ||
			fail "cannot tell whether $NFS_EXPORT takes user extended attributes" ||
			return 1
	fi
	case "$srv" in
	yes|no) ;;
	*) fail "whether the server takes user extended attributes: '$srv'"; return 1 ;;
	esac
	: >"$f" || fail "making $f" || return 1
	s=$(nfs42_ops_delta "$mnt" SETXATTR "$NFS42_OPS" xattr-set "$f") || rc=$?
	if [ "$srv" = no ]; then
		rm -f "$f"
		echo "# the server's tmpfs has no user extended attributes: setxattr gave $rc ($s SETXATTR calls)"
		[ "$rc" -eq 3 ] || fail "setxattr did not fail with EOPNOTSUPP"
		return
	fi
	[ "$rc" -eq 0 ] || fail "setting attributes of $f" || return 1
	nfs_drop_caches
	l=$(nfs_op_count "$mnt" LISTXATTRS)
	g=$(nfs42_ops_delta "$mnt" GETXATTR "$NFS42_OPS" xattr-check "$f") ||
		fail "the attributes of $f do not read back" || return 1
	l=$(($(nfs_op_count "$mnt" LISTXATTRS) - ${l:-0}))
	r=$(nfs42_ops_delta "$mnt" REMOVEXATTR "$NFS42_OPS" xattr-remove "$f") ||
		fail "removing attributes of $f" || return 1
	rm -f "$f"
	echo "# $s SETXATTR, $l LISTXATTRS, $g GETXATTR, $r REMOVEXATTR calls"
	[ "$s" -eq 100 ] && [ "$r" -eq 100 ] || fail "expected 100 of each on the wire" ||
		return 1
	# The client caches values it set or read; dropping the caches
	# evicts the file's inode, and the cache with it.
	[ "$l" -ge 1 ] && [ "$g" -ge 1 ] || fail "the attributes were not read from the server"
}

# nfs42_checks PREFIX MNT NAME: the NFSv4.2 cases above as test cases
# PREFIX_sparse_read_seek, PREFIX_copy, PREFIX_fallocate and
# PREFIX_xattrs (files NAME-*); all skipped when nothing is mounted on
# MNT.
nfs42_checks() {
	local p=$1 mnt=$2 n=$3 t

	if ! nfs_is_mounted "$mnt"; then
		for t in sparse_read_seek copy fallocate xattrs; do
			log_test 4 "${p}_$t"
		done
		return
	fi
	run_test "${p}_sparse_read_seek" nfs42_sparse "$mnt" "$n-sparse"
	run_test "${p}_copy" nfs42_copy "$mnt" "$n-copy" 8
	run_test "${p}_fallocate" nfs42_fallocate "$mnt" "$n-falloc"
	run_test "${p}_xattrs" nfs42_xattrs "$mnt" "$n-xattr"
}
