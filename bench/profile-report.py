#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""profile-report.py OUTDIR: where the CPU time of each workload went,
from bench/profile-guest.sh's perf reports, by layer: the idle loop, the
RPC-over-RDMA transport's own code (xrpcrdma or rpcrdma), rxe (with the
CRC it computes for every packet), the RDMA core, SUNRPC, NFS (client
and server), the rest of the kernel, and user space. Writes
OUTDIR/profile.md and OUTDIR/profile.json and prints the table.

A sample's layer is that of the module whose code holds its address
(TRANSPORT.WORKLOAD.samples, from perf script), found from where the
guest's /proc/modules put each module's code (TRANSPORT.WORKLOAD.modules):
the perf of an older kernel does not always tell module symbols apart."""

import bisect
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
    # The CRC rxe computes for every packet, where the crypto API's CRC32
    # is a module.
    "crc32_generic": "rxe", "crc32_pclmul": "rxe",
}
# The idle loop's halt, where an idle CPU's samples land.
IDLE = {"pv_native_safe_halt", "native_safe_halt", "default_idle", "acpi_safe_halt",
        "acpi_idle_do_entry", "cpu_idle_poll", "intel_idle", "mwait_idle", "poll_idle"}
# rxe's CRC of every packet runs in the kernel's CRC library.
RXE_CRC = re.compile(r"^(crc32|__crc32|crypto_shash_update$)")
# Kernel addresses: the upper half (x86-64).
KERNEL_START = 0xffff800000000000


# Each module's code: [(start, end, name)], sorted. /proc/modules gives
# where a module's text starts and the size of all its parts; the parts
# lie apart, so an address belongs to the module whose text starts last
# at or before it, within that size.
def modules(path):
    mods = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5].startswith("0x"):
                start = int(parts[5], 16)
                if start:
                    mods.append((start, start + int(parts[1]), parts[0]))
    if not mods:
        raise ValueError("no module addresses (kptr_restrict?)")
    return sorted(mods)


def module_of(ip, mods):
    i = bisect.bisect_right(mods, (ip, float("inf"), "")) - 1
    if i >= 0 and ip < mods[i][1]:
        return mods[i][2]
    return None


def layer(ip, sym, mods):
    if ip < KERNEL_START:
        return "user"
    if sym in IDLE:
        return "idle"
    mod = module_of(ip, mods)
    if mod:
        return MODULE_LAYERS.get(mod, "other_modules")
    if RXE_CRC.match(sym):
        return "rxe"
    return "kernel"


# The share of the samples, percent, of each layer of one workload.
def shares(samples_path, modules_path):
    mods = modules(modules_path)
    counts = {name: 0 for name, _ in LAYERS}
    with open(samples_path, encoding="utf-8") as f:
        for line in f:
            parts = line.split(None, 1)
            try:
                ip = int(parts[0], 16)
            except (IndexError, ValueError):
                continue
            counts[layer(ip, parts[1].strip() if len(parts) > 1 else "", mods)] += 1
    total = sum(counts.values())
    if not total:
        raise ValueError("no samples")
    return {name: 100 * n / total for name, n in counts.items()}


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
            elif Path(f"{base}.samples").exists() and Path(f"{base}.modules").exists():
                try:
                    s[key] = shares(f"{base}.samples", f"{base}.modules")
                except ValueError as e:
                    s[key] = {"error": str(e)}
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
