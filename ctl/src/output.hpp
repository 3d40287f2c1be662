// SPDX-License-Identifier: GPL-2.0
// Text and JSON output. Both are made from one description of the fields of
// each object (see output.cpp), so they show the same things.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <linux/xrpcrdma.h>
#include <nlohmann/json.hpp>

#include "types.hpp"

namespace rdmactl {

struct OutputOptions {
    bool json = false;
    bool pretty = false;  // indent JSON
    bool details = false; // e.g. one line per port even for one port
};

// "5054:00ff:fe12:3456": four groups of four hex digits, most significant first.
std::string format_guid(uint64_t guid);

// "ACTIVE", ..., or the number for a state this tool does not know.
std::string port_state_name(uint32_t state);
std::string mode_name(uint32_t mode);

// "server-listener", "server-connection", "client" / "listening",
// "connected", "closing", or the number for a value this tool does not know.
std::string transport_role_name(uint32_t role);
std::string transport_state_name(uint32_t state);

// "10.0.0.1:20050", "[fe80::1]:20050".
std::string format_sockaddr(const SockAddr &end);

nlohmann::ordered_json device_json(const Device &dev);
nlohmann::ordered_json module_json(const ModuleInfo &info);

// One device: a line, plus an indented line per port when there are several
// ports (or always, with details). Every line ends with '\n'.
std::string device_text(const Device &dev, bool details);
std::string module_text(const ModuleInfo &info, bool details);

// A transport: one line ("3: server-connection class xrdma ..."); with
// details also the queues, and an indented line with the counters.
nlohmann::ordered_json transport_json(const Transport &t);
std::string transport_text(const Transport &t, bool details);

// A listener as listener show lists it: id, class, serv, state, local.
nlohmann::ordered_json listener_json(const Transport &t);
std::string listener_text(const Transport &t);

// {"server":{"calls-received":N,...}}; "server: calls-received N ...", with
// details one counter per indented line.
nlohmann::ordered_json stats_json(const Stats &stats);
std::string stats_text(const Stats &stats, bool details);

// {"transport-id":3,"credits":64,...} (transport-id only for one
// transport's values); text: "transport 3" first for one transport, then
// "NAME VALUE" a line, in the spec's order.
nlohmann::ordered_json config_json(const Config &cfg);
std::string config_text(const Config &cfg);

// JSON: an array of devices (also for a single one); text: device_text() each.
void print_devices(std::ostream &out, const std::vector<Device> &devs, const OutputOptions &opts);
void print_module(std::ostream &out, const ModuleInfo &info, const OutputOptions &opts);

// JSON: an array (also for one transport); text: a transport_text() each.
void print_transports(std::ostream &out, const std::vector<Transport> &list,
                      const OutputOptions &opts);
void print_listeners(std::ostream &out, const std::vector<Transport> &list,
                     const OutputOptions &opts);
void print_stats(std::ostream &out, const Stats &stats, const OutputOptions &opts);
void print_config(std::ostream &out, const Config &cfg, const OutputOptions &opts);

// "local", "peer", ... (enum xrpcrdma_close_reason); "send", "recv",
// "rdma-read", "rdma-write" (enum xrpcrdma_wc_kind); the number for a value
// this tool does not know.
std::string close_reason_name(uint32_t reason);
std::string reject_reason_name(uint32_t reason);

// Fault points: the spec's names of points and triggers; errno names
// (EIO) of the errors a point can return, the number for others.
std::string fault_point_name(uint32_t point);
// The last fault point this tool knows; they are numbered from 0.
constexpr uint32_t fault_point_last = XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY;
std::string fault_trigger_name(uint32_t trigger);
std::string errno_name(uint32_t error);
std::optional<uint32_t> errno_by_name(const std::string &name);
nlohmann::ordered_json fault_json(const Fault &fault);
std::string fault_text(const Fault &fault);
void print_faults(std::ostream &out, const std::vector<Fault> &faults, const OutputOptions &opts);
std::string wc_kind_name(uint32_t kind);

// Benchmarks: "rpc-null", "rdma-write", "rdma-read" (enum
// xrpcrdma_bench_op) or the number; "tcp", "rdma" (enum
// xrpcrdma_bench_transport) or the number; a status as JSON shows it: 0,
// or the errno's name ("ECONNREFUSED"; its number as a string when it
// has no name here).
std::string bench_op_name(uint32_t op);
std::optional<uint32_t> bench_op_by_name(const std::string &name);
std::string bench_transport_name(uint32_t transport);
std::optional<uint32_t> bench_transport_by_name(const std::string &name);
std::string bench_status_name(int32_t status);

// A message size as bench run takes it: "4MiB", "64KiB", "1000".
std::string bench_size_text(uint32_t bytes);

// {"id":3,"op":"rpc-null","transport":"tcp","addr":"10.0.0.1","port":2049,
// "program":...,"running":false,"done":...,"errors":...,"status":0,
// "elapsed-ns":...,"ops-per-sec":...,"lat-p50-ns":...}: the result's keys
// (status on) only once the benchmark no longer runs. The RDMA ops have
// size and qps instead of transport, program and version, and
// bytes-per-sec after ops-per-sec.
nlohmann::ordered_json bench_json(const Bench &b);

// "3: rpc-null tcp server 10.0.0.1:2049 program 100003 version 3 count
// 2000 concurrency 16 finished" ("4: rdma-write local 10.0.0.1:41000 size
// 1MiB qps 4 count ..."), then indented lines with the progress and
// status (and MiB/s), and the latencies (not while it runs). Durations in
// ns, us, ms or s.
std::string bench_text(const Bench &b);

// JSON: an array of benchmarks; text: a bench_text() each.
void print_benches(std::ostream &out, const std::vector<Bench> &list, const OutputOptions &opts);
// JSON: one object.
void print_bench(std::ostream &out, const Bench &b, const OutputOptions &opts);

// "812ns", "52.1us", "1.20ms", "2.35s": three digits or so.
std::string duration_text(uint64_t ns);

// The progress bar of `bench run` on a terminal, without the carriage
// return: "[#######-------------]  700/2000  35% errors 0".
std::string bench_progress_bar(uint32_t done, uint32_t count, uint32_t errors);

// "device-add", ..., "module-unload", "events-lost", "unknown", "error".
std::string event_name(EventType type);

// {"event":"listener-add","time":...,"id":1,...}: the name, the time when
// the monitor recorded one, then the object's fields as device show and
// transport show name them, and the event's own (reason, completion
// status, ...).
nlohmann::ordered_json event_json(const Event &e);

// "listener-add 1: server-listener class xrdma ...", one line ending in
// '\n'; "[TIME] " first when there is a time. Counters of a disconnect
// only with details.
std::string event_text(const Event &e, bool details);

// The line `rdmactl monitor` prints for an event: event_text(), or
// event_json() on one line (also with -p).
std::string event_line(const Event &e, const OutputOptions &opts);

// JSON as the commands print it, one value and a newline: indented with
// -p; invalid UTF-8 (names come from the kernel) replaced, never thrown.
void print_json(std::ostream &out, const nlohmann::ordered_json &json, const OutputOptions &opts);

// text begins with prefix.
bool starts_with(std::string_view text, std::string_view prefix);

} // namespace rdmactl
