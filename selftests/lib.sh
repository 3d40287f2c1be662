# SPDX-License-Identifier: GPL-2.0
# lib.sh - what every shell selftest of xrpcrdma sources: KTAP output,
# bounded waits, and where the project's binaries are. Never sleep
# blindly: wait for a condition with a bound.

XR_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RDMACTL=${RDMACTL:-$XR_TOP/build/ctl/rdmactl}
YNL_CLI=${YNL_CLI:-$XR_TOP/build/linux-src/tools/net/ynl/cli.py}
XR_SPEC=$XR_TOP/Documentation/netlink/specs/xrpcrdma.yaml
IP=$(command -v /usr/sbin/ip || command -v /sbin/ip || echo ip)
RDMA=$(command -v /usr/sbin/rdma || command -v /sbin/rdma || echo rdma)

ksft_pass=0
ksft_fail=0
ksft_skip=0
ksft_num=0

ktap_header() {
	echo "TAP version 13"
	echo "1..$1"
}

# log_test RC NAME: report one test case; RC 0 passes, 4 skips.
log_test() {
	local rc=$1 name=$2

	ksft_num=$((ksft_num + 1))
	case "$rc" in
	0) ksft_pass=$((ksft_pass + 1)); echo "ok $ksft_num $name" ;;
	4) ksft_skip=$((ksft_skip + 1)); echo "ok $ksft_num $name # SKIP" ;;
	*) ksft_fail=$((ksft_fail + 1)); echo "not ok $ksft_num $name" ;;
	esac
}

# run_test NAME FUNCTION [ARGS]: run a test function, report its result
# and, on a comment line before it, how long it took (to find slow cases).
run_test() {
	local name=$1 rc=0 t0=${EPOCHREALTIME/[.,]/} t1

	shift
	"$@" || rc=$?
	t1=${EPOCHREALTIME/[.,]/}
	echo "# $name took $(((t1 - t0) / 1000)) ms"
	log_test "$rc" "$name"
}

ktap_finish() {
	echo "# Totals: pass:$ksft_pass fail:$ksft_fail xfail:0 xpass:0 skip:$ksft_skip error:0"
	[ "$ksft_fail" -eq 0 ] || exit 1
	[ "$ksft_pass" -gt 0 ] || exit 4
	exit 0
}

# fail MSG: print why a test case fails and return 1.
fail() {
	echo "# FAIL: $*"
	return 1
}

# wait_for TIMEOUT_S CMD...: poll CMD every 50 ms until it succeeds.
wait_for() {
	local deadline=$(($(date +%s%N) + $1 * 1000000000))

	shift
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s%N)" -lt "$deadline" ] || return 1
		sleep 0.05
	done
}

# skip_all REASON: skip the whole test (exit 4) before any test case.
skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit 4
}

# need_env VAR...: skip the whole test unless each VAR is set.
need_env() {
	local v

	for v in "$@"; do
		[ -n "${!v:-}" ] || skip_all "$v not set (run inside the test host)"
	done
}

# The tests read rdmactl's JSON with jq: a Python start costs seconds
# under emulation, jq a tenth of one. A missing jq is a broken test host
# (make deps installs it), not a reason to skip.
# config_value NAME: the default of tunable NAME as config show gives it.
config_value() {
	"$RDMACTL" -j config show | jq -r --arg k "$1" '.[$k]'
}

# trace_start EVENT: record the module's trace event EVENT (its name
# without the xrpcrdma_ prefix) from now on, in an emptied trace buffer.
trace_start() {
	local tr=/sys/kernel/tracing

	[ -d $tr/events ] || mount -t tracefs nodev $tr || { fail "tracefs"; return 1; }
	: >$tr/trace
	echo 1 >"$tr/events/xrpcrdma/xrpcrdma_$1/enable" ||
		fail "cannot enable xrpcrdma_$1"
}

# trace_stop EVENT: stop recording EVENT, and print how many it recorded.
trace_stop() {
	local tr=/sys/kernel/tracing

	echo 0 >"$tr/events/xrpcrdma/xrpcrdma_$1/enable"
	grep -c " xrpcrdma_$1:" $tr/trace
}

need_rdmactl() {
	[ -x "$RDMACTL" ] || skip_all "rdmactl not built: $RDMACTL"
	command -v jq >/dev/null || { echo "jq is missing: make deps" >&2; exit 1; }
}

# expect RC CMD...: run CMD with stdout in $OUT and stderr in $ERR (the
# caller makes both files) and check its exit status.
expect() {
	local want=$1 rc=0

	shift
	"$@" >"$OUT" 2>"$ERR" || rc=$?
	[ "$rc" -eq "$want" ] && return 0
	echo "# '$*' exited $rc, expected $want"
	sed 's/^/# stdout: /' "$OUT"
	sed 's/^/# stderr: /' "$ERR"
	return 1
}

# json_check FILTER: the jq FILTER over the JSON in $OUT is true (jq,
# not Python: a Python start costs seconds in an emulated test host).
# A test may set JSON_DEFS to jq bindings ("EXPR as $name | ...") that
# every FILTER of it can use.
json_check() {
	jq -e "${JSON_DEFS:-}$1" "$OUT" >/dev/null || fail "JSON check failed: $1: $(cat "$OUT")"
}

# json_schema_check SCHEMA:FILE[:lines]...: each FILE is valid under the
# JSON Schema ctl/schema/SCHEMA (with ":lines", each line of FILE is a
# document of its own, as rdmactl -j monitor writes them), strictly: the
# published schemas accept what a later version may add, so here the
# schema's $defs/strict applies too, and no key it does not list may be
# at the top. Prints what is not valid. Python and its jsonschema take
# seconds to start under emulation: check every file of a test in one
# call.
json_schema_check() {
	local dir

	dir=$XR_TOP/ctl/schema
	python3 - "$dir" "$@" <<-'EOF' || fail "not valid under the schema: $*"
		import json, sys
		from jsonschema import Draft202012Validator as Validator
		bad = 0
		for arg in sys.argv[2:]:
		    name, path, *mode = arg.split(":")
		    schema = json.load(open(f"{sys.argv[1]}/{name}"))
		    Validator.check_schema(schema)
		    schema.setdefault("allOf", []).append({"$ref": "#/$defs/strict"})
		    schema["unevaluatedProperties"] = False
		    text = open(path).read()
		    docs = text.splitlines() if mode == ["lines"] else [text]
		    for n, doc in enumerate(docs, 1):
		        for err in Validator(schema).iter_errors(json.loads(doc)):
		            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
		            print(f"# {path}, document {n}: {where}: {err.message}")
		            bad += 1
		    print(f"# {path}: {len(docs)} document(s) checked against {schema['$id']}")
		    bad += not docs
		sys.exit(1 if bad else 0)
	EOF
}

# The mode the module runs in: dropin or sidebyside.
module_mode() {
	"$RDMACTL" -j module show | jq -r .mode
}

# dkms_dir VERSION: the DKMS tree scripts/dkms-check.sh built this
# kernel's module in: the host's dkms builds for the host's kernels
# (build/dkms), the Debian 13 root's for the root's (build/dkms-root,
# dkms-check.sh --root), so that a test host installs what its own
# userland's dkms built. Nothing (and status 1) when neither did.
dkms_dir() {
	local d

	for d in "$XR_TOP/build/dkms" "$XR_TOP/build/dkms-root"; do
		ls "$d/tree/xrpcrdma/$1/$(uname -r)/x86_64/module/xrpcrdma.ko"* >/dev/null 2>&1 &&
			{ echo "$d"; return 0; }
	done
	return 1
}

# moddep_save DIR: keep a copy of the running kernel's depmod output
# (modules.dep and the rest) in DIR, for moddep_restore. A test that
# installs a module puts the output back instead of running depmod again,
# which reads every module of the kernel: minutes under emulation.
moddep_save() {
	mkdir -p "$1" && cp -a "/lib/modules/$(uname -r)"/modules.* "$1"/
}

# moddep_restore DIR: put back what moddep_save kept in DIR (nothing when
# it kept nothing) and forget it.
moddep_restore() {
	[ -d "$1" ] || return 0
	cp -a "$1"/modules.* "/lib/modules/$(uname -r)"/ && rm -rf "$1"
}

# What modules_trim keeps besides the modules loaded: what NFS over RDMA
# loads in either role (with what these depend on).
TRIM_KEEP="sunrpc nfs nfsv3 nfsv4 nfsd rpcrdma rpcsec_gss_krb5 rdma_rxe rdma_ucm ib_uverbs"

# modules_trim DIR: until modules_untrim DIR, the running kernel's module
# tree (/lib/modules/KVER/kernel) holds only copies, in DIR, of the
# modules loaded now and of TRIM_KEEP, with what they depend on. depmod
# reads and decompresses every module of that tree: a package's scripts,
# `dkms install` and `make install` run it, and over the thousands of a
# Debian kernel it takes over two minutes under emulation, a few seconds
# over the trimmed tree. What it writes for an installed xrpcrdma is the
# same. The depmod output from before is kept for modules_untrim.
modules_trim() {
	local dir=$1 kdir m f

	kdir=/lib/modules/$(uname -r)/kernel
	moddep_save "$dir/moddep" && mkdir -p "$dir/kernel" || return 1
	for m in $(lsmod | awk 'NR > 1 { print $1 }') $TRIM_KEEP; do
		modprobe --show-depends "$m" 2>/dev/null
	done | awk '$1 == "insmod" { print $2 }' | sort -u >"$dir/files" || return 1
	while read -r f; do
		case "$f" in
		"$kdir"/*) install -D -m 0644 "$f" "$dir/kernel/${f#"$kdir"/}" || return 1 ;;
		esac
	done <"$dir/files"
	[ -n "$(find "$dir/kernel" -name 'sunrpc.ko*')" ] ||
		{ echo "# no sunrpc module among $(wc -l <"$dir/files") kept"; return 1; }
	mount --bind "$dir/kernel" "$kdir"
}

# modules_untrim DIR: the whole module tree and its depmod output back
# (nothing to do when modules_trim DIR was not run).
modules_untrim() {
	local kdir

	kdir=/lib/modules/$(uname -r)/kernel
	[ -d "$1/kernel" ] || return 0
	if mountpoint -q "$kdir"; then
		# Lazily when busy: the whole tree must be back for the tests
		# that follow.
		umount "$kdir" || umount -l "$kdir" || return 1
	fi
	moddep_restore "$1/moddep" && rm -rf "$1"
}

# modprobe_finds_nothing: modprobe has no xrpcrdma to load, not even a
# stale modules.dep line naming a file that is gone.
modprobe_finds_nothing() {
	! modprobe -n xrpcrdma 2>/dev/null
}

# No server connection object is alive, and at most @1 (default 0)
# svc-xprt objects (listeners).
transports_released() {
	"$RDMACTL" -j module show | jq -e --argjson n "${1:-0}" \
		'.live_objects | .["svc-xprt"] <= $n and .sendctx == 0 and .recvctx == 0' >/dev/null
}

module_loaded() {
	[ -d /sys/module/xrpcrdma ]
}

# The live count of one kind of object, from rdmactl's JSON.
live_objects() {
	"$RDMACTL" -j module show | jq -r --arg k "$1" '.live_objects[$k]'
}

rpcrdma_loaded() {
	[ -d /sys/module/rpcrdma ]
}

# load_rpcrdma: the in-tree rpcrdma, loaded for real. modprobe reports
# success when the module's init fails with EEXIST, which it does while
# xrpcrdma in drop-in mode holds the "rdma" transport classes: without
# this check a test meant for the in-tree transport would run on ours.
load_rpcrdma() {
	modprobe rpcrdma || fail "modprobe rpcrdma" || return 1
	rpcrdma_loaded ||
		fail "rpcrdma did not load: xrpcrdma in drop-in mode holds the rdma transport classes"
}

# Every live-object counter of both transports is back to zero.
objects_released() {
	"$RDMACTL" -j module show | jq -e '.live_objects as $l |
		["xprt", "xprt-conn", "xprt-req", "xprt-bc-rqst", "mr", "svc-xprt", "sendctx", "recvctx"] |
		all($l[.] == 0)' >/dev/null
}

# unload_clean: unload xrpcrdma once every object is released, with its
# unload message and no leak report; leaves it unloaded.
unload_clean() {
	module_loaded || return 0
	wait_for 60 objects_released ||
		fail "live objects left: $("$RDMACTL" -j module show)" || return 1
	# The RPC client lets go of the module asynchronously.
	wait_for 30 rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
	dmesg | tail -n 5 | grep -q "xrpcrdma: unloaded" || fail "no unload message" || return 1
	! dmesg | tail -n 20 | grep -q "object(s) leaked" || fail "objects leaked"
}

# load_dropin BLOCK: xrpcrdma alone, in drop-in mode (its client and
# server register as "rdma"): both transports unloaded, the in-tree one
# kept from loading by the modprobe file BLOCK, xrpcrdma loaded with
# mode=dropin.
load_dropin() {
	if module_loaded; then
		rmmod xrpcrdma || fail "rmmod xrpcrdma" || return 1
	fi
	# The in-tree client lets go of its module from a work item.
	if rpcrdma_loaded; then
		wait_for 30 rmmod rpcrdma || fail "rmmod rpcrdma" || return 1
	fi
	echo "install rpcrdma /bin/false" >"$1" || fail "cannot write $1" || return 1
	insmod "$XR_MODULE" mode=dropin || fail "insmod mode=dropin" || return 1
	[ "$(module_mode)" = dropin ] || fail "mode $(module_mode), expected dropin"
}

# Two test hosts (testhost/pair.sh): the commands in guests A and B meet
# through files in $XR_PAIR_DIR, a host directory both see. The host
# writes pair-abort there when either guest's run ends in a failure, so
# the other side's waits end at once.

# pair_signal NAME [STATUS]: tell the other guest that NAME happened;
# STATUS is "ok" (default) or a word saying why it did not.
pair_signal() {
	local f=$XR_PAIR_DIR/pair-$1

	echo "${2:-ok}" >"$f.tmp" && mv "$f.tmp" "$f"
}

# pair_wait NAME TIMEOUT_S: wait for the other guest's NAME; fails when it
# does not come in time, comes with a status other than ok, or the pair
# was aborted. Polls once a second: the other side may be a busy server.
pair_wait() {
	local f=$XR_PAIR_DIR/pair-$1 deadline=$((SECONDS + $2)) st=

	until [ -e "$f" ]; do
		[ ! -e "$XR_PAIR_DIR/pair-abort" ] ||
			fail "waiting for $1: the pair was aborted ($(cat "$XR_PAIR_DIR/pair-abort"))" ||
			return 1
		[ "$SECONDS" -lt "$deadline" ] || fail "waiting for $1: ${2}s passed" || return 1
		sleep 1
	done
	read -r st <"$f"
	[ "$st" = ok ] || fail "the other guest reports $1: $st"
}

# pair_request KIND ROLE VALUE WAIT_S: ask the host for KIND (pause,
# restart) of guest ROLE; waits (bounded) for its answer.
pair_request() {
	local f=$XR_PAIR_DIR/pair-$1-$2 deadline=$((SECONDS + $4))

	rm -f "$f.done" "$f.failed"
	echo "$3" >"$f.tmp" && mv "$f.tmp" "$f" || fail "cannot write $f" || return 1
	until [ -e "$f.done" ] || [ -e "$f.failed" ]; do
		[ "$SECONDS" -lt "$deadline" ] || fail "$1 of $2: no answer from the host" || return 1
		sleep 0.5
	done
	[ -e "$f.done" ] || fail "$1 of $2: $(cat "$f.failed")"
}

# pair_pause ROLE SECONDS: have the host stop guest ROLE's CPUs for
# SECONDS and continue them (its clock stands still meanwhile); returns
# once the host reports it continued (bounded).
pair_pause() {
	pair_request pause "$1" "$2" $(($2 + 60))
}

# pair_restart ROLE: have the host kill guest ROLE at once, as if its
# power went, and boot it again with the same command; returns once the
# new boot has begun (bounded). Only guest B can be restarted.
pair_restart() {
	pair_request restart "$1" now 60
}

# pair_life: how many times this guest has booted in the pair (1, then
# 2 after a pair_restart, ...).
pair_life() {
	local n=1

	[ -r "$XR_PAIR_DIR/pair-life-$XR_ROLE" ] && read -r n <"$XR_PAIR_DIR/pair-life-$XR_ROLE"
	echo "$n"
}
