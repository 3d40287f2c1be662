#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""report.py RAW.jsonl OUTDIR: medians, ratios, a Markdown table, a JSON
file and a latency plot from the records of bench/guest.sh.

Every figure is the median of its repetitions; ratios compare xrpcrdma
with the in-tree rpcrdma (and with TCP, and with the soft-RoCE ceiling)
measured in the same run. bench/guest.sh measures the transports back to
back in each repetition of the RPC and NFS figures: a ratio between two
of them there is the median of the repetitions' own ratios, which are
shown beside it, so that the host's drift from one repetition to the
next does not weigh on it (without a repetition that has both, the ratio
of the medians). The memory figures, taken once per transport after the
repetitions, are compared by their medians. Errors are carried into the
table as such."""

import json
import statistics
import sys
from pathlib import Path

TRANSPORTS = ["xrpcrdma", "in-tree", "tcp"]
NFS_FIGURES = [
    ("seq_write", "write_mib_s", "sequential write, MiB/s"),
    ("seq_read", "read_mib_s", "sequential read, MiB/s"),
    ("rand_rw", "read_iops", "4 KiB random read, IOPS"),
    ("rand_rw", "write_iops", "4 KiB random write, IOPS"),
    ("meta", "ops_s", "metadata load, ops/s"),
]
# The soft-RoCE ceiling of a sequential figure: the RDMA operation that
# moves its payload, measured in the kernel (rdmactl bench op rdma-read
# and rdma-write). The server pulls an NFS WRITE's data with RDMA Reads
# and pushes an NFS READ's with RDMA Writes.
CEILINGS = {"seq_write": ("kread_bw_mib_s", "rdma-read"),
            "seq_read": ("kwrite_bw_mib_s", "rdma-write")}
# xr-metaload's kinds of operation, in its order.
META_KINDS = ["create", "write", "stat", "rename", "unlink", "readdir"]


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def values(records, kind, transport, vers, key):
    return list(by_rep(records, kind, transport, vers, key).values())


# A figure's value in each repetition: {rep: value}.
def by_rep(records, kind, transport, vers, key):
    return {r["rep"]: r["data"][key] for r in records
            if r["kind"] == kind and r["transport"] == transport and r["vers"] == vers
            and key in r["data"]}


def errors(records, kind, transport, vers):
    return sorted({r["data"]["error"] for r in records
                   if r["kind"] == kind and r["transport"] == transport
                   and r["vers"] in (vers, "-") and "error" in r["data"]})


def median(xs):
    return statistics.median(xs) if xs else None


def percentile(xs, p):
    xs = sorted(xs)
    if not xs:
        return None
    return xs[min(len(xs) - 1, int(len(xs) * p / 100))]


def ratio(a, b):
    return a / b if a is not None and b else None


# paired(XS, YS): the ratio of two figures measured in the same
# repetitions ({rep: value} each): the median of each repetition's own
# ratio, and those ratios in the order of the repetitions. Without a
# repetition that has both, the ratio of the medians, and no list.
def paired(xs, ys):
    rs = [xs[k] / ys[k] for k in sorted(xs) if k in ys and ys[k]]
    if rs:
        return median(rs), rs
    return ratio(median(list(xs.values())), median(list(ys.values()))), []


# set_ratio(ROW, NAME, XS, YS): ROW[NAME] and ROW[NAME + " by rep"] from
# paired(XS, YS).
def set_ratio(row, name, xs, ys):
    row[name], row[name + " by rep"] = paired(xs, ys)


def rate_values(records, transport, conc, key):
    return {r["rep"]: r["data"][key] for r in records
            if r["kind"] == "rpc_rate" and r["transport"] == transport
            and r["data"].get("concurrency") == conc and key in r["data"]}


# RPC NULL rates from the kernel-side benchmark, a row each figure and
# concurrency: ops/s, p50 and p99 in microseconds.
def summarize_rates(records):
    rows = {}
    for conc in (1, 16):
        for key, label, scale in (("ops-per-sec", "ops/s", 1),
                                  ("lat-p50-ns", "p50 us", 1000),
                                  ("lat-p99-ns", "p99 us", 1000)):
            row = {}
            reps = {t: rate_values(records, t, conc, key) for t in TRANSPORTS}
            for t in TRANSPORTS:
                m = median(list(reps[t].values()))
                row[t] = m / scale if m is not None else None
            set_ratio(row, "xrpcrdma/in-tree", reps["xrpcrdma"], reps["in-tree"])
            set_ratio(row, "xrpcrdma/tcp", reps["xrpcrdma"], reps["tcp"])
            row["errors"] = {t: errors(records, "rpc_rate", t, "-") for t in TRANSPORTS
                             if errors(records, "rpc_rate", t, "-")}
            rows[f"RPC NULL (c={conc}), {label}"] = row
    return rows


# Kernel memory, KiB, of an idle server connection (mem_idle) or an idle
# NFS mount with its client transport and server connection (mem_mount),
# a row for each number of them measured at once (COUNT in the records),
# keyed by that number as a string, in increasing order. Errors are the
# kind's, in the row of the smallest number.
def summarize_memory(records, kind, key, count):
    counts = sorted({r["data"][count] for r in records
                     if r["kind"] == kind and count in r["data"]})
    rows = {}
    for n in counts or [None]:
        row = {t: median([r["data"][key] for r in records
                          if r["kind"] == kind and r["transport"] == t
                          and r["data"].get(count) == n and key in r["data"]])
               for t in ("xrpcrdma", "in-tree")}
        row["xrpcrdma/in-tree"] = ratio(row["xrpcrdma"], row["in-tree"])
        row["errors"] = {} if rows else {
            t: errors(records, kind, t, "-") for t in ("xrpcrdma", "in-tree")
            if errors(records, kind, t, "-")}
        rows[str(n) if n is not None else "-"] = row
    return rows


# The metadata load per kind of operation: medians over the repetitions
# of each one's p50 and p99 latency, microseconds.
def summarize_meta(records, versions):
    out = {}
    for v in versions:
        for k in META_KINDS:
            row = {}
            for t in TRANSPORTS:
                ks = [x[k] for x in values(records, "meta", t, v, "kinds") if k in x]
                row[t] = {"ops": median([x["ops"] for x in ks]),
                          "p50_us": median([x["p50_us"] for x in ks]),
                          "p99_us": median([x["p99_us"] for x in ks])}
            out[f"NFSv{v} {k}"] = row
    return out


# What a workload did on the wire, per 1000 RPCs: memory regions the
# client registered (every segment it offers is one), RDMA Reads the
# server made (Read list segments), RDMA Writes (Write and Reply chunk
# segments) and calls sent as RDMA_NOMSG. The other calls went inline.
WIRE_FIGURES = [
    ("registrations", ("read_segs", "write_segs", "reply_segs")),
    ("rdma_reads", ("read_segs",)),
    ("rdma_writes", ("write_segs", "reply_segs")),
    ("nomsg_calls", ("nomsg_calls",)),
]
WIRE_KINDS = [("seq_write", "sequential write"), ("seq_read", "sequential read"),
              ("rand_rw", "4 KiB random read and write"), ("meta", "metadata load")]


def per_1000(x, keys):
    if not x.get("rpcs"):
        return None
    return 1000 * sum(x.get(k, 0) for k in keys) / x["rpcs"]


def summarize_wire(records, versions):
    out = {}
    for v in versions:
        for kind, label in WIRE_KINDS:
            row = {}
            for t in ("xrpcrdma", "in-tree"):
                xs = values(records, kind, t, v, "xprt")
                fig = {"rpcs": median([x["rpcs"] for x in xs])}
                for name, keys in WIRE_FIGURES:
                    fig[name] = median([y for y in (per_1000(x, keys) for x in xs)
                                        if y is not None])
                row[t] = fig
            out[f"NFSv{v} {label}"] = row
    return out


def summarize(records):
    out = {"ceiling": {}, "rpc_null": {}, "nfs": {}}
    out["rpc_rate"] = summarize_rates(records)
    out["memory_idle_kib"] = summarize_memory(records, "mem_idle", "kib_per_conn", "conns")
    out["memory_mount_kib"] = summarize_memory(records, "mem_mount", "kib_per_mount", "mounts")
    # perftest's "MB/sec" are MiB/s (2^20 bytes a second); send_bw keeps
    # its earlier name.
    out["ceiling"]["send_bw_mb_s"] = median(values(records, "send_bw", "rxe", "-", "mb_s"))
    out["ceiling"]["write_bw_mib_s"] = median(values(records, "write_bw", "rxe", "-", "mb_s"))
    out["ceiling"]["read_bw_mib_s"] = median(values(records, "read_bw", "rxe", "-", "mb_s"))
    out["ceiling"]["send_lat_us"] = median(values(records, "send_lat", "rxe", "-", "typical_us"))
    # The in-kernel ceilings: the best of the repetitions, as a ceiling is
    # what the device was seen to do.
    for kind in ("kwrite_bw", "kread_bw"):
        xs = values(records, kind, "rxe", "-", "mib_s")
        out["ceiling"][f"{kind}_mib_s"] = max(xs) if xs else None
    out["ceiling"]["errors"] = sorted({
        f"{kind}: {r['data']['error']}" for r in records
        for kind in ("send_bw", "write_bw", "read_bw", "send_lat", "kwrite_bw", "kread_bw")
        if r["kind"] == kind and "error" in r["data"]})
    ping = {}
    for t in ("xrpcrdma", "in-tree"):
        reps = {k: x for k, x in by_rep(records, "rpc_null", t, "-", "rtt_us").items() if x}
        ping[t] = {"p50_us": {k: percentile(x, 50) for k, x in reps.items()},
                   "p99_us": {k: percentile(x, 99) for k, x in reps.items()},
                   "ops_s": {k: len(x) / (sum(x) / 1e6) for k, x in reps.items()}}
        fig = {name: median(list(xs.values())) for name, xs in ping[t].items()}
        fig["errors"] = errors(records, "rpc_null", t, "-")
        out["rpc_null"][t] = fig
    for name, key in (("ratio_ops", "ops_s"), ("ratio_p50", "p50_us"), ("ratio_p99", "p99_us")):
        out["rpc_null"][name], out["rpc_null"][name + "_by_rep"] = paired(
            ping["xrpcrdma"][key], ping["in-tree"][key])
    versions = sorted({r["vers"] for r in records if r["vers"] not in ("-",)})
    for v in versions:
        rows = {}
        for kind, key, label in NFS_FIGURES:
            reps = {t: by_rep(records, kind, t, v, key) for t in TRANSPORTS}
            row = {t: median(list(reps[t].values())) for t in TRANSPORTS}
            row["errors"] = {t: errors(records, kind, t, v) for t in TRANSPORTS
                             if errors(records, kind, t, v)}
            set_ratio(row, "xrpcrdma/in-tree", reps["xrpcrdma"], reps["in-tree"])
            set_ratio(row, "xrpcrdma/tcp", reps["xrpcrdma"], reps["tcp"])
            if kind in CEILINGS:
                key, tool = CEILINGS[kind]
                row["xrpcrdma/ceiling"] = ratio(row["xrpcrdma"], out["ceiling"][key])
                row["ceiling"] = tool
            rows[label] = row
        out["nfs"]["NFSv" + v] = rows
    out["per_1000_rpcs"] = summarize_wire(records, versions)
    out["metadata_per_kind"] = summarize_meta(records, versions)
    return out


def ms(us):
    return us / 1000 if us is not None else None


def fmt(x, digits=1):
    if x is None:
        return "n/a"
    return f"{x:.{digits}f}"


# A ratio with the repetitions' own ratios it is the median of, if more
# than one: "1.10 (1.02 1.10 1.31)".
def fmt_ratio(x, reps=()):
    if x is None or len(reps) < 2:
        return fmt(x, 2)
    return f"{x:.2f} ({' '.join(f'{r:.2f}' for r in reps)})"


def ratios(row):
    return " ".join(f"| {fmt_ratio(row[n], row.get(n + ' by rep', ()))}"
                    for n in ("xrpcrdma/in-tree", "xrpcrdma/tcp"))


def markdown(s):
    lines = ["Figures: medians of the repetitions. Ratios between transports of the RPC "
             "and NFS figures: the median of the repetitions' own ratios (each repetition "
             "measures them back to back), those ratios in parentheses; of the memory "
             "figures: the ratio of the medians.", "",
             "| figure | xrpcrdma | in-tree | tcp | xrpcrdma / in-tree | xrpcrdma / tcp "
             "| xrpcrdma / ceiling |", "|---|---|---|---|---|---|---|"]
    for vers, rows in s["nfs"].items():
        for label, row in rows.items():
            lines.append(f"| {vers} {label} | {fmt(row['xrpcrdma'])} | {fmt(row['in-tree'])} "
                         f"| {fmt(row['tcp'])} {ratios(row)} "
                         f"| {fmt(row.get('xrpcrdma/ceiling'), 2)} |")
    for label, row in s["rpc_rate"].items():
        lines.append(f"| {label} | {fmt(row['xrpcrdma'])} | {fmt(row['in-tree'])} "
                     f"| {fmt(row['tcp'])} {ratios(row)} | n/a |")
    for key, label, what in (
            ("memory_idle_kib", "kernel memory per idle server connection", "peers"),
            ("memory_mount_kib", "kernel memory per idle NFS mount (client and server ends)",
             "mounts")):
        for n, m in s[key].items():
            at = f", {n} {what}" if n != "-" else ""
            lines.append(f"| {label}{at}, KiB | {fmt(m['xrpcrdma'], 0)} "
                         f"| {fmt(m['in-tree'], 0)} | n/a "
                         f"| {fmt(m['xrpcrdma/in-tree'], 2)} | n/a | n/a |")
    p = s["rpc_null"]
    x, i = p["xrpcrdma"], p["in-tree"]
    for key, name, label in (("ops_s", "ratio_ops", "ops/s"), ("p50_us", "ratio_p50", "p50 us"),
                             ("p99_us", "ratio_p99", "p99 us")):
        lines.append(f"| rdmactl ping (c=1), {label} | {fmt(x[key])} | {fmt(i[key])} | n/a "
                     f"| {fmt_ratio(p[name], p[name + '_by_rep'])} | n/a | n/a |")
    lines += ["", "Per 1000 RPCs (medians; RPCs: calls the workload sent):", "",
              "| workload | transport | RPCs | registrations | RDMA Reads | RDMA Writes "
              "| NOMSG calls |", "|---|---|---|---|---|---|---|"]
    for label, row in s["per_1000_rpcs"].items():
        for t, fig in row.items():
            lines.append(f"| {label} | {t} | {fmt(fig['rpcs'], 0)} "
                         + " ".join(f"| {fmt(fig[name], 0)}" for name, _ in WIRE_FIGURES)
                         + " |")
    lines += ["", "Metadata load per kind of operation (medians; latency p50 / p99, ms):", "",
              "| operation | xrpcrdma | in-tree | tcp |", "|---|---|---|---|"]
    for label, row in s["metadata_per_kind"].items():
        lines.append(f"| {label} "
                     + " ".join(f"| {fmt(ms(row[t]['p50_us']), 2)} / "
                                f"{fmt(ms(row[t]['p99_us']), 2)}" for t in TRANSPORTS)
                     + " |")
    c = s["ceiling"]
    lines.append("")
    lines.append(f"Soft-RoCE ceiling, 1 MiB messages on four QPs over rdma_cm, MiB/s: "
                 f"in the kernel (rdmactl bench, the best of the repetitions) RDMA Writes "
                 f"{fmt(c['kwrite_bw_mib_s'])} and RDMA Reads {fmt(c['kread_bw_mib_s'])}; "
                 f"perftest (its MB/s are MiB/s, medians) ib_write_bw "
                 f"{fmt(c['write_bw_mib_s'])} (polling: perftest has no completion events "
                 f"for RDMA Writes), ib_read_bw {fmt(c['read_bw_mib_s'])} (waiting for "
                 f"completion events), ib_send_bw {fmt(c['send_bw_mb_s'])} (one QP); "
                 f"ib_send_lat 2 B {fmt(c['send_lat_us'], 2)} us (typical). xrpcrdma / "
                 f"ceiling: sequential write against the in-kernel RDMA Reads (the server "
                 f"pulls a WRITE's data with RDMA Reads), sequential read against the "
                 f"in-kernel RDMA Writes (it pushes a READ's with RDMA Writes).")
    errs = [f"- soft-RoCE ceiling: {e}" for e in c["errors"]]
    for vers, rows in s["nfs"].items():
        for label, row in rows.items():
            for t, e in row["errors"].items():
                errs.append(f"- {vers} {label}, {t}: {'; '.join(e)}")
    for t in ("xrpcrdma", "in-tree"):
        for e in s["rpc_null"][t]["errors"]:
            errs.append(f"- rdmactl ping, {t}: {e}")
    seen = set()
    for row in (list(s["rpc_rate"].values()) + list(s["memory_idle_kib"].values())
                + list(s["memory_mount_kib"].values())):
        for t, e in row["errors"].items():
            for msg in e:
                if (t, msg) not in seen:
                    seen.add((t, msg))
                    errs.append(f"- {t}: {msg}")
    if errs:
        lines += ["", "Failed steps (their figures are n/a or medians of fewer runs):"] + errs
    return "\n".join(lines) + "\n"


def plot(records, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for t in ("xrpcrdma", "in-tree"):
        xs = sorted(v for r in records if r["kind"] == "rpc_null" and r["transport"] == t
                    for v in r["data"].get("rtt_us", []))
        if xs:
            ax.plot(xs, [(k + 1) / len(xs) for k in range(len(xs))], label=t)
    ax.set_xscale("log")
    ax.set_xlabel("RPC NULL round trip, us (rdmactl ping, one call in flight)")
    ax.set_ylabel("fraction of calls")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py RAW.jsonl OUTDIR")
    records = load(sys.argv[1])
    out = Path(sys.argv[2])
    s = summarize(records)
    (out / "results.json").write_text(json.dumps(s, indent=2) + "\n", encoding="utf-8")
    table = markdown(s)
    (out / "results.md").write_text(table, encoding="utf-8")
    plot(records, out / "latency.png")
    sys.stdout.write(table)


if __name__ == "__main__":
    main()
