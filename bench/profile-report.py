#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""profile-report.py OUTDIR: where the CPU time of each workload went,
from bench/profile-guest.sh's perf reports, by layer: the idle loop, the
RPC-over-RDMA transport's own code (xrpcrdma or rpcrdma), rxe (with the
CRC it computes for every packet), the RDMA core, SUNRPC, NFS (client
and server), the rest of the kernel, and user space. Writes
OUTDIR/profile.md and OUTDIR/profile.json and prints the table.

A symbol's layer is its module's, from the module symbols the guest
listed (TRANSPORT.WORKLOAD.kallsyms) when the workload ended."""

import json
import re
import sys
from pathlib import Path

TRANSPORTS = ["in-tree", "xrpcrdma"]
WORKLOADS = [("seq_write", "NFSv3 1 MiB sequential write"),
             ("seq_read", "NFSv3 1 MiB sequential read"),
             ("rand_rw", "NFSv3 4 KiB random read and write"),
             ("meta", "NFSv3 metadata load"),
             ("rpc_null", "RPC NULL at concurrency 16")]
LAYERS = [("idle", "idle"), ("transport", "transport"), ("rxe", "rxe and its CRC"),
          ("rdma_core", "RDMA core"), ("sunrpc", "SUNRPC"), ("nfs", "NFS"),
          ("other_modules", "other modules"), ("kernel", "rest of the kernel"),
          ("user", "user space")]
MODULE_LAYERS = {
    "xrpcrdma": "transport", "rpcrdma": "transport",
    "rdma_rxe": "rxe",
    "ib_core": "rdma_core", "rdma_cm": "rdma_core", "ib_cm": "rdma_core",
    "iw_cm": "rdma_core", "ib_uverbs": "rdma_core",
    "sunrpc": "sunrpc", "auth_rpcgss": "sunrpc", "rpcsec_gss_krb5": "sunrpc",
    "nfs": "nfs", "nfsv3": "nfs", "nfsv4": "nfs", "nfsd": "nfs", "lockd": "nfs",
    "nfs_acl": "nfs", "grace": "nfs",
}
# The idle loop's halt, where an idle CPU's samples land.
IDLE = {"pv_native_safe_halt", "native_safe_halt", "default_idle", "acpi_safe_halt",
        "acpi_idle_do_entry", "cpu_idle_poll", "intel_idle", "mwait_idle"}
# rxe's CRC of every packet runs in the kernel's CRC library.
RXE_CRC = re.compile(r"^(crc32|__crc32|crypto_shash_update$)")
SAMPLE = re.compile(r"^\s*([0-9.]+)%\s+\[(.)\]\s+(\S+)")


def module_symbols(path):
    syms = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4 and parts[3].startswith("["):
                syms[parts[2]] = parts[3].strip("[]")
    return syms


def layer(kind, sym, syms):
    if kind == ".":
        return "user"
    if sym in IDLE:
        return "idle"
    if sym in syms:
        return MODULE_LAYERS.get(syms[sym], "other_modules")
    if RXE_CRC.match(sym):
        return "rxe"
    return "kernel"


# The share of the samples, percent, of each layer in one perf report.
def shares(sym_path, kallsyms_path):
    syms = module_symbols(kallsyms_path)
    out = {name: 0.0 for name, _ in LAYERS}
    with open(sym_path, encoding="utf-8") as f:
        for line in f:
            m = SAMPLE.match(line)
            if m:
                out[layer(m[2], m[3], syms)] += float(m[1])
    return out


def summarize(outdir):
    s = {}
    for w, _ in WORKLOADS:
        for t in TRANSPORTS:
            base = outdir / f"{t}.{w}"
            key = f"{t} {w}"
            if (outdir / f"{t}.error").exists():
                s[key] = {"error": (outdir / f"{t}.error").read_text(encoding="utf-8").strip()}
            elif Path(f"{base}.error").exists():
                s[key] = {"error": Path(f"{base}.error").read_text(encoding="utf-8").strip()}
            elif Path(f"{base}.sym").exists() and Path(f"{base}.kallsyms").exists():
                s[key] = shares(f"{base}.sym", f"{base}.kallsyms")
            else:
                s[key] = {"error": "no profile"}
    return s


def markdown(s):
    lines = ["Share of the CPU samples, percent (perf record -a; 2 CPUs):", "",
             "| workload | transport | " + " | ".join(label for _, label in LAYERS) + " |",
             "|---|---|" + "---|" * len(LAYERS)]
    errs = []
    for w, label in WORKLOADS:
        for t in TRANSPORTS:
            row = s[f"{t} {w}"]
            if "error" in row:
                errs.append(f"- {label}, {t}: {row['error']}")
                cells = ["n/a"] * len(LAYERS)
            else:
                cells = [f"{row[name]:.1f}" for name, _ in LAYERS]
            lines.append(f"| {label} | {t} | " + " | ".join(cells) + " |")
    if errs:
        lines += ["", "Failed:"] + errs
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: profile-report.py OUTDIR")
    outdir = Path(sys.argv[1])
    s = summarize(outdir)
    (outdir / "profile.json").write_text(json.dumps(s, indent=2) + "\n", encoding="utf-8")
    table = markdown(s)
    (outdir / "profile.md").write_text(table, encoding="utf-8")
    sys.stdout.write(table)
    if any("error" in row for row in s.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
