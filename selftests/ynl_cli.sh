#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An independent client checks the spec against the live module: the
# kernel's ynl cli.py, reading only Documentation/netlink/specs/xrpcrdma.yaml,
# must see the same devices and module facts that rdmactl shows.
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

ynl() {
	python3 "$YNL_CLI" --spec "$XR_SPEC" --schema "$YNL_SCHEMA" --output-json "$@"
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

def ctl_dev(d):
    return {k: d[k] for k in ("ifindex", "ifname", "node_guid", "usable", "enabled")} | {
        "ports": [{k: p[k] for k in ("port", "state", "netdev") if k in p} for p in d["ports"]]}

if what == "devices":
    a = sorted((ynl_dev(d) for d in ynl), key=lambda d: d["ifindex"])
    b = sorted((ctl_dev(d) for d in ctl), key=lambda d: d["ifindex"])
elif what == "device":
    a, b = ynl_dev(ynl), ctl_dev(ctl[0])
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

ktap_header 3
run_test ynl_dump_device_get dump_devices
run_test ynl_do_device_get get_device
run_test ynl_do_module_get get_module
ktap_finish
