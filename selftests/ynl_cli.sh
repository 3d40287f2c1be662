#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An independent client checks the spec against the live module: the
# kernel's ynl cli.py, reading only Documentation/netlink/specs/xrpcrdma.yaml,
# must see the same devices, module facts, transports and counters that
# rdmactl shows.
#
# Fault points armed through ynl dump the same with both, and the kernel
# refuses fault-set combinations that do not go together, naming the rule.
#
# ynl_cli.sh [CASE...] runs only the cases named (dump_devices get_device
# get_module dump_transports get_stats dump_faults fault_set_refusals
# get_config set_config): svc_stats.sh runs the transport cases while an
# NFS mount keeps a connection up, when there is more to
# compare than the empty list seen here.
set -u
source "$(dirname "$0")/lib.sh"

need_env XR_RDMA_DEV
need_rdmactl
if [ ! -f "$YNL_CLI" ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP ynl cli.py not extracted: $YNL_CLI"
	exit 4
fi

YNL_OUT=$(mktemp)
CTL_OUT=$(mktemp)
trap 'rm -f "$YNL_OUT" "$CTL_OUT"' EXIT

# No schema check here: ynl-gen validates the spec against the genetlink
# schema whenever make check regenerates the code from it; checking it
# again on every call would test nothing new.
ynl() {
	python3 "$YNL_CLI" --spec "$XR_SPEC" --no-schema --output-json "$@"
}

compare() {
	python3 - "$YNL_OUT" "$CTL_OUT" "$1" <<'PY'
import json, sys

ynl = json.load(open(sys.argv[1]))
ctl = json.load(open(sys.argv[2]))
what = sys.argv[3]

def guid(v):
    # The spec's display hint makes ynl print the GUID as a hex string.
    h = "%016x" % (int(v, 16) if isinstance(v, str) else v)
    return ":".join(h[i:i + 4] for i in range(0, 16, 4))

def ynl_dev(d):
    return {
        "ifindex": d["index"], "ifname": d["name"],
        "node_guid": guid(d["node-guid"]),
        "usable": bool(d["usable"]), "enabled": bool(d["enabled"]),
        "ports": [{"port": p["number"], "state": p["state"].upper().replace("-", "_"),
                   **({"netdev": p["netdev"]} if "netdev" in p else {})}
                  for p in d.get("port", [])],
    }

def ynl_transport(t):
    # The spec's display hints make ynl print addresses as text; ports are
    # big-endian u16, which ynl turns into numbers.
    out = {k: t[k] for k in ("id", "role", "class", "serv", "state")}
    for end in ("local", "peer"):
        if end + "-port" in t:
            out[end + "_addr"] = t.get(end + "-addr4", t.get(end + "-addr6"))
            out[end + "_port"] = t[end + "-port"]
    for k in ("credits", "inline-send", "inline-recv", "peer-inline-send",
              "peer-inline-recv", "sq-depth", "sq-free", "rq-depth",
              "sendctx-allocated", "sendctx-free", "recvctx-allocated",
              "recvctx-bytes"):
        if k in t:
            out[k.replace("-", "_")] = t[k]
    if "stat" in t:
        out["stats"] = {s["name"]: s["value"] for s in t["stat"]}
    return out

def ctl_dev(d):
    return {k: d[k] for k in ("ifindex", "ifname", "node_guid", "usable", "enabled")} | {
        "ports": [{k: p[k] for k in ("port", "state", "netdev") if k in p} for p in d["ports"]]}

if what == "devices":
    a = sorted((ynl_dev(d) for d in ynl), key=lambda d: d["ifindex"])
    b = sorted((ctl_dev(d) for d in ctl), key=lambda d: d["ifindex"])
elif what == "device":
    a, b = ynl_dev(ynl), ctl_dev(ctl[0])
elif what == "transports":
    a = [ynl_transport(t) for t in ynl]
    b = ctl
elif what == "faults":
    # rdmactl names errnos and calls the probability trigger "prob".
    names = {5: "EIO", 12: "ENOMEM"}
    keys = {"n": "n", "probability": "probability", "times": "times",
            "delay-ms": "delay_ms", "transport-id": "transport"}
    a = []
    for f in ynl:
        o = {"point": f["point"],
             "trigger": "prob" if f["trigger"] == "probability" else f["trigger"]}
        o |= {keys[k]: f[k] for k in keys if k in f}
        if "errno" in f:
            o["errno"] = names.get(f["errno"], str(f["errno"]))
        o |= {"hits": f["hits"], "fired": f["fired"]}
        a.append(o)
    b = [dict(sorted(f.items())) for f in ctl]
    a = [dict(sorted(f.items())) for f in a]
elif what == "config":
    # Both name the tunables as the spec does.
    a, b = ynl, ctl
elif what == "stats":
    a = {"server": {s["name"]: s["value"] for s in ynl["stat"]}}
    b = ctl
else:
    a = {"version": ynl["version"], "build_kernel": ynl["build-kernel"],
         "mode": ynl["mode"],
         "live_objects": {o["name"]: o["count"] for o in ynl["live-object"]}}
    b = ctl
if a != b:
    print("# ynl:     %s" % a)
    print("# rdmactl: %s" % b)
    sys.exit(1)
if what == "devices" and not a:
    print("# no devices")
    sys.exit(1)
PY
}

dump_devices() {
	ynl --dump device-get >"$YNL_OUT" || return 1
	"$RDMACTL" -j dev show >"$CTL_OUT" || return 1
	compare devices
}

get_device() {
	ynl --do device-get --json "{\"name\": \"$XR_RDMA_DEV\"}" >"$YNL_OUT" || return 1
	"$RDMACTL" -j dev show "$XR_RDMA_DEV" >"$CTL_OUT" || return 1
	compare device
}

get_module() {
	ynl --do module-get >"$YNL_OUT" || return 1
	"$RDMACTL" -j module show >"$CTL_OUT" || return 1
	compare module
}

# Counters and free slots move with traffic: compare again a few times
# before calling a difference a failure.
compare_settled() {
	local what=$1

	shift
	for _ in 1 2 3; do
		"$@" || return 1
		compare "$what" >/dev/null && return 0
	done
	compare "$what"
}

dump_transports_once() {
	ynl --dump transport-get >"$YNL_OUT" && "$RDMACTL" -j transport show >"$CTL_OUT"
}

dump_transports() {
	compare_settled transports dump_transports_once
}

get_stats_once() {
	ynl --do stats-get >"$YNL_OUT" && "$RDMACTL" -j stats show >"$CTL_OUT"
}

get_stats() {
	compare_settled stats get_stats_once
}

# Two points armed through ynl (fault-set), then both tools dump them.
dump_faults() {
	local rc=0

	ynl --do fault-set --json '{"point": "post-send", "trigger": "every", "n": 7000000,
		"times": 3, "errno": 12, "transport-id": 4000000000}' >/dev/null || return 1
	ynl --do fault-set --json '{"point": "completion-delay", "trigger": "probability",
		"probability": 1, "times": 1, "delay-ms": 1, "transport-id": 4000000000}' \
		>/dev/null || rc=1
	ynl --dump fault-get >"$YNL_OUT" && "$RDMACTL" -j fault show >"$CTL_OUT" &&
		compare faults || rc=1
	"$RDMACTL" fault clear all || rc=1
	return $rc
}

# fault_refused JSON MESSAGE: the kernel refuses fault-set JSON with
# MESSAGE in the extended ack, and arms nothing.
fault_refused() {
	local out

	if out=$(ynl --do fault-set --json "$1" 2>&1); then
		fail "fault-set $1 accepted"
		return 1
	fi
	case "$out" in
	*"$2"*) ;;
	*) fail "fault-set $1: no '$2' in: $out"; return 1 ;;
	esac
}

fault_set_refusals() {
	local rc=0

	fault_refused '{"point": "recv-drop", "trigger": "nth", "n": 1, "errno": 5}' \
		"errno is only for points that fail an operation" || rc=1
	fault_refused '{"point": "post-send", "trigger": "nth", "n": 1, "delay-ms": 5}' \
		"delay-ms is only for points that hold their caller back" || rc=1
	fault_refused '{"point": "post-send", "trigger": "every"}' \
		"triggers nth and every need n" || rc=1
	fault_refused '{"point": "post-send", "trigger": "nth", "n": 1, "times": 2}' \
		"times is for triggers every and probability only" || rc=1
	fault_refused '{"point": "post-send", "trigger": "probability", "probability": 1000001}' \
		"probability must be 1 to 1000000 per million" || rc=1
	fault_refused '{"point": "post-send", "trigger": "probability"}' \
		"trigger probability needs probability" || rc=1
	fault_refused '{"point": "post-send", "transport-id": 3}' \
		"trigger off (disarm) takes no other attribute" || rc=1
	fault_refused '{"trigger": "nth", "n": 1}' "missing fault point attribute" || rc=1
	"$RDMACTL" -j fault show >"$CTL_OUT" || return 1
	python3 -c "import json,sys; sys.exit(any(f['trigger'] != 'off' for f in json.load(open('$CTL_OUT'))))" ||
		fail "a refused fault-set armed a point" || rc=1
	return $rc
}


get_config() {
	ynl --do config-get >"$YNL_OUT" || return 1
	"$RDMACTL" -j config show >"$CTL_OUT" || return 1
	compare config
}

# ynl sets a default that rdmactl then shows, and gets the module's
# message for a value out of range; the default is put back.
set_config() {
	local def err

	def=$("$RDMACTL" -j config show | python3 -c "import json,sys; print(json.load(sys.stdin)['credits'])")
	ynl --do config-set --json '{"credits": 100}' >"$YNL_OUT" || return 1
	"$RDMACTL" -j config show >"$CTL_OUT" || return 1
	python3 -c "import json,sys; sys.exit(json.load(open('$CTL_OUT'))['credits'] != 100)" ||
		fail "credits not 100: $(cat "$CTL_OUT")" || return 1
	"$RDMACTL" config set credits "$def" || return 1
	if err=$(ynl --do config-set --json '{"inline-send": 512}' 2>&1); then
		fail "ynl set inline-send 512: accepted"
		return 1
	fi
	case "$err" in
	*"inline-send: below the minimum 1024"*) ;;
	*) fail "ynl's error: $err" || return 1 ;;
	esac
}

all_cases="dump_devices get_device get_module dump_transports get_stats dump_faults fault_set_refusals get_config set_config"
cases=("$@")
[ $# -gt 0 ] || read -r -a cases <<<"$all_cases"
for c in "${cases[@]}"; do
	case " $all_cases " in
	*" $c "*) ;;
	*) echo "ynl_cli.sh: unknown case '$c' (cases: $all_cases)" >&2; exit 2 ;;
	esac
done

ktap_header ${#cases[@]}
for c in "${cases[@]}"; do
	case "$c" in
	dump_devices) run_test ynl_dump_device_get dump_devices ;;
	get_device) run_test ynl_do_device_get get_device ;;
	get_module) run_test ynl_do_module_get get_module ;;
	dump_transports) run_test ynl_dump_transport_get dump_transports ;;
	get_stats) run_test ynl_do_stats_get get_stats ;;
	dump_faults) run_test ynl_dump_fault_get dump_faults ;;
	fault_set_refusals) run_test ynl_fault_set_refusals fault_set_refusals ;;
	get_config) run_test ynl_do_config_get get_config ;;
	set_config) run_test ynl_do_config_set set_config ;;
	esac
done
ktap_finish
