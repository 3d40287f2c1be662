// SPDX-License-Identifier: GPL-2.0
// Plain C++ views of the objects of the xrpcrdma netlink family.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdmactl {

struct Port {
    uint32_t number = 0;
    uint32_t state = 0; // enum xrpcrdma_port_state
    std::optional<std::string> netdev;
};

struct Device {
    uint32_t index = 0;
    std::string name;
    uint64_t node_guid = 0; // host byte order
    std::vector<Port> ports;
    bool usable = false;
    bool enabled = false;
};

// A named count: a live-object count or a counter.
struct Counter {
    std::string name;
    uint64_t count = 0;
};
using LiveObject = Counter;

struct ModuleInfo {
    std::string version;
    std::string build_kernel;
    uint32_t mode = 0;
    std::vector<LiveObject> live_objects;
};

// One end of a transport: an IPv4 or IPv6 address (as text) and a port.
struct SockAddr {
    int family = 0; // AF_INET or AF_INET6; 0: absent (a client without a connection)
    std::string addr;
    uint16_t port = 0; // host byte order
};

// What a connection has beyond a listener. A client transport always has
// its server (peer) and its counters; the numbers only while connected.
struct ConnectionInfo {
    SockAddr peer;
    uint32_t credits = 0;
    uint32_t inline_send = 0;
    uint32_t inline_recv = 0;
    uint32_t peer_inline_send = 0;
    uint32_t peer_inline_recv = 0;
    uint32_t sq_depth = 0;
    uint32_t sq_free = 0;
    uint32_t rq_depth = 0;
    uint32_t sendctx_allocated = 0;
    uint32_t sendctx_free = 0;
    uint32_t recvctx_allocated = 0;
    uint32_t recvctx_bytes = 0;
    std::vector<Counter> stats;
    bool numbers = true; // credits ... recvctx_bytes are there (false: a
                         // client without a connection)
};

// A transport (transport-get) or a listener (listener-get, no connection).
struct Transport {
    uint32_t id = 0;
    uint32_t role = 0;  // enum xrpcrdma_transport_role
    uint32_t state = 0; // enum xrpcrdma_transport_state
    std::string cls;    // the SUNRPC transport class, "xrdma" or "rdma"
    std::string serv;   // the RPC service, e.g. "nfsd"; empty for a client
    SockAddr local;     // absent (family 0) for a client without a connection
    std::optional<ConnectionInfo> conn;
};

// One tunable and its value (config-get, config-set), by its spec name.
struct ConfigValue {
    std::string name;
    uint32_t value = 0;
};

// config-get: the defaults for new transports, or (with transport_id) the
// values of one transport; the tunables in the spec's order.
struct Config {
    std::optional<uint32_t> transport_id;
    std::vector<ConfigValue> values;
};

// stats-get: the server's counters for the whole module.
struct Stats {
    std::vector<Counter> server;
};

// A fault point (fault-get), or how to arm one (fault-set): the optional
// fields are those that go with the trigger and the point.
struct Fault {
    uint32_t point = 0;   // enum xrpcrdma_fault_point
    uint32_t trigger = 0; // enum xrpcrdma_fault_trigger
    std::optional<uint32_t> n;           // nth, every
    std::optional<uint32_t> probability; // per million
    std::optional<uint32_t> times;       // every, probability; 0: no limit
    std::optional<uint32_t> error;       // a positive errno
    std::optional<uint32_t> delay_ms;    // the points that hold their caller back
    std::optional<uint32_t> transport_id;
    uint64_t hits = 0;
    uint64_t fired = 0;
};

// completion-error-ntf: a work completion with an error other than a flush.
struct CompletionError {
    std::optional<uint32_t> transport_id; // absent before the transport was numbered
    std::string device;
    uint32_t qp_num = 0;
    uint32_t kind = 0;   // enum xrpcrdma_wc_kind
    uint32_t status = 0; // enum ib_wc_status
    std::string status_msg;
    uint32_t vendor_err = 0;
    uint32_t suppressed = 0; // left out by the module's rate limit before this one
};

// A benchmark to start (bench-run): the server (for the RDMA ops,
// rdma-write and rdma-read, the local address to listen on), and the
// settings given; what is left out is the kernel's default.
struct BenchRequest {
    SockAddr server;                     // port 0: not given (the kernel's default)
    std::optional<uint32_t> op;          // enum xrpcrdma_bench_op
    std::optional<uint32_t> transport;   // enum xrpcrdma_bench_transport; rpc-null only
    std::optional<uint32_t> program;     // rpc-null only
    std::optional<uint32_t> version;     // rpc-null only
    std::optional<uint32_t> size;        // RDMA ops only: bytes a message
    std::optional<uint32_t> qps;         // RDMA ops only: queue pairs
    std::optional<uint32_t> reply_size;  // rpc-null only: reply room a call asks for
    std::optional<uint32_t> count;       // RDMA ops: messages over all queue pairs
    std::optional<uint32_t> concurrency; // RDMA ops: on each queue pair
};

// What a finished benchmark reports.
struct BenchResult {
    int32_t status = 0; // 0, or the negative errno that stopped it early
    uint64_t elapsed_ns = 0;
    uint64_t ops_per_sec = 0;
    uint64_t lat_p50_ns = 0;
    uint64_t lat_p99_ns = 0;
    uint64_t lat_p999_ns = 0;
    uint64_t lat_max_ns = 0;
    std::optional<uint64_t> bytes_per_sec = std::nullopt; // RDMA ops: payload bytes a second
};

// A benchmark (bench-get, bench-done-ntf), or its progress
// (bench-progress-ntf: id, count, done and errors only).
struct Bench {
    uint32_t id = 0;
    uint32_t op = 0;              // enum xrpcrdma_bench_op (0: rpc-null)
    uint32_t transport = 0;       // enum xrpcrdma_bench_transport; rpc-null only
    SockAddr server;              // RDMA ops: the local address and the listener's port
    uint32_t program = 0;         // rpc-null only
    uint32_t version = 0;         // rpc-null only
    std::optional<uint32_t> size; // RDMA ops only: bytes a message
    std::optional<uint32_t> qps;  // RDMA ops only: queue pairs
    std::optional<uint32_t> reply_size; // rpc-null: reply room a call asks for, when not 0
    uint32_t count = 0;
    uint32_t concurrency = 0; // RDMA ops: on each queue pair
    bool running = false;
    uint32_t done = 0;
    uint32_t errors = 0;
    std::optional<BenchResult> result; // once it is no longer running
};

// What `rdmactl monitor` reports: the family's notifications, and what the
// monitor itself sees happen to the family (it goes with the module).
enum class EventType {
    DeviceAdd,           // device-add-ntf
    DeviceDel,           // device-del-ntf
    ListenerAdd,         // listener-add-ntf
    ListenerDel,         // listener-del-ntf
    TransportConnect,    // transport-connect-ntf
    TransportDisconnect, // transport-disconnect-ntf
    CompletionError,     // completion-error-ntf
    BenchProgress,       // bench-progress-ntf
    BenchDone,           // bench-done-ntf
    ConnectReject,       // connect-reject-ntf
    ModuleUnload,        // the family went away
    ModuleLoad,          // the family came back; the monitor joined its group again
    EventsLost,          // the socket overran: the kernel dropped events
    Unknown,             // a notification this rdmactl does not know
    Error,               // one that could not be decoded
};

struct Event {
    EventType type = EventType::Unknown;
    std::string time;                // when the monitor got it, if asked for
    Device device;                   // device-*
    Transport transport;             // listener-*, transport-*: conn has only what the
                                     // event carries (peer; numbers; counters)
    bool negotiated = false;         // transport-connect: conn has credits and inline sizes
    std::optional<uint32_t> reason;  // listener-del, transport-disconnect: enum xrpcrdma_close_reason
    std::optional<uint32_t> reject_reason; // connect-reject: enum xrpcrdma_reject_reason
    CompletionError wc;              // completion-error
    Bench bench;                     // bench-*: progress has id, count, done, errors
    uint32_t cmd = 0;                // unknown: the generic netlink command
    std::string message;             // error: what was wrong
};

} // namespace rdmactl
