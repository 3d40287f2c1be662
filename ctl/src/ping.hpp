// SPDX-License-Identifier: GPL-2.0
// `rdmactl ping`: RPC NULL calls over RPC-over-RDMA version 1 to any
// RPC/RDMA server, with ping-like latency output; and --raw, which sends
// caller-made bytes as one RDMA Send and reports what the server did.
//
// This file holds what needs no RDMA: options, the ping and raw sessions
// over an abstract Connection (tests drive them with a fake), latency
// statistics and the output. The librdmacm connection is rpcrdma_conn.*.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "output.hpp"
#include "rpcrdma_msg.hpp"

namespace rdmactl {

using Clock = std::chrono::steady_clock;

constexpr uint16_t ping_default_port = 20049;

// What --raw's caller expects to happen (exit 0 when it does).
enum class Expect { Any, Error, Disconnect, Reply, ErrorOrDisconnect, None };

struct PingOptions {
    bool help = false;
    std::string host; // without brackets
    uint16_t port = ping_default_port;
    uint32_t count = 5;
    double interval = 0.2; // seconds between calls
    uint32_t program = 100003;
    uint32_t version = 3;
    double timeout = 5; // seconds, for each reply and for connecting
    bool burst = false; // every call at once, credits ignored
    uint8_t responder_resources = 1; // RDMA Reads this side offers to answer
    // --raw FILE / --raw-hex HEX: one Send of these bytes instead of calls.
    std::optional<std::string> raw_file;
    std::optional<std::vector<uint8_t>> raw_bytes; // from --raw-hex
    Expect expect = Expect::Any;
    // --region BYTES: memory the server may RDMA Read and Write, offered
    // through the raw message's placeholder segments; --region-out FILE:
    // where its contents go after the outcome.
    std::optional<uint64_t> region_size;
    std::optional<std::string> region_out;
    // --no-receives: post no Receive, and have the server retry a Send to
    // us for ever (RNR retry count 7): a peer that takes no reply.
    bool no_receives = false;
    // --hold-rtu MS: send the RTU that completes the connection
    // handshake no sooner than MS after the REP, and only once the
    // outcome is known (the queue pair is made ready by hand): a peer
    // whose RTU comes late. 0: at once, as usual.
    uint32_t hold_rtu_ms = 0;
    // --repeat N: send the raw message N times, back to back.
    uint32_t repeat = 1;
    // --private-data KIND: what the connection request carries.
    PrivateData private_data = PrivateData::Rfc8797;

    bool raw() const { return raw_file || raw_bytes; }
};

// Parses the words after "ping" (json/pretty go to output). Throws
// UsageError.
PingOptions parse_ping_args(const std::vector<std::string> &args, OutputOptions &output);

// "ADDR", "ADDR:PORT", "[V6ADDR]", "[V6ADDR]:PORT" or a bare IPv6
// address. Throws UsageError.
void parse_target(const std::string &word, std::string &host, uint16_t &port);

// "0a0B ff" -> {0x0a, 0x0b, 0xff}; blanks and ':' between bytes are
// allowed. Throws UsageError.
std::vector<uint8_t> parse_hex(const std::string &text);

std::string ping_usage();

// ---- --region ----

// The handle that marks a segment of a raw message as the region's.
constexpr uint32_t region_placeholder = 0xffffffff;
constexpr uint64_t max_region_size = 64 * 1024 * 1024;
// --repeat: most copies of a raw message (within the server's credits).
constexpr uint32_t max_raw_repeat = 64;
// --hold-rtu: at most a minute.
constexpr uint32_t max_hold_rtu_ms = 60000;

// What the region holds at offset before the server writes into it: the
// offset modulo 251 (a prime, so a shift by any power of two shows).
inline uint8_t region_pattern(uint64_t offset)
{
    return uint8_t(offset % 251);
}

// Walks the RPC-over-RDMA version 1 header of msg (RDMA_MSG, RDMA_NOMSG,
// RDMA_MSGP) through its Read list, Write list and Reply chunk, and gives
// every segment whose handle is region_placeholder the handle rkey and the
// offset addr + its offset. Stops where the lists stop making sense (a
// hostile message); the bytes after the header are never looked at.
// Returns the number of segments changed.
size_t place_region(std::vector<uint8_t> &msg, uint32_t rkey, uint64_t addr);

// ---- The connection a session runs over ----

struct ConnEvent {
    enum class Kind {
        Received,     // a message arrived: data
        Disconnected, // the connection is gone (closed, or a Send failed): detail
        Timeout,      // nothing happened before the deadline
        Interrupted,  // a stop was asked for (SIGINT or SIGTERM under StopSignals)
    };
    Kind kind = Kind::Timeout;
    std::vector<uint8_t> data;
    std::string detail;
    Clock::time_point at; // when it was seen
};

// A buffer of ours registered for remote read and write.
struct RegionInfo {
    uint32_t rkey = 0;
    uint64_t addr = 0; // its address, as segments carry it
    uint64_t size = 0;
    uint8_t *data = nullptr; // where it is in this process
};

class Connection {
public:
    virtual ~Connection() = default;
    // Posts one Send of msg: true when posted, false when the connection
    // is known to be gone (wait() then reports Disconnected). Throws Error
    // on a local failure, or when no send slot frees up before deadline;
    // InterruptedError when a stop is asked for while it waits for one.
    virtual bool send(const std::vector<uint8_t> &msg, Clock::time_point deadline) = 0;
    // The next event, or Timeout at deadline. After Disconnected, always
    // Disconnected. Once a stop was asked for, Interrupted instead of
    // waiting any more (what had already arrived comes first).
    virtual ConnEvent wait(Clock::time_point deadline) = 0;
    // The peer's RFC 8797 inline sizes, as text for the header line, or "".
    virtual std::string peer_description() const = 0;
    // The largest message the peer said it receives inline (RFC 8797), 0
    // when it sent no private data.
    virtual uint32_t peer_recv_size() const { return 0; }
    // The registered --region (ConnectParams::region_size), or nullopt.
    virtual std::optional<RegionInfo> region() const { return std::nullopt; }
    // The region's bytes as they are now; empty without a region.
    virtual std::vector<uint8_t> region_contents() const { return {}; }
};

struct ConnectParams {
    std::string host;
    uint16_t port = ping_default_port;
    double timeout = 5;        // seconds, for the whole connection setup
    uint32_t max_send = 4096;    // largest message this side sends (--raw: maybe more)
    uint32_t inline_send = 4096; // what RFC 8797 private data advertises for sending
    uint32_t recv_size = 4096;   // receive buffer size (advertised)
    PrivateData private_data = PrivateData::Rfc8797; // what advertises them
    uint32_t recv_depth = 32;  // Receives kept posted (credits requested)
    uint32_t send_depth = 32;  // Sends in flight at most
    uint64_t region_size = 0;  // --region: bytes to register, filled with region_pattern()
    // RDMA Reads the peer may have outstanding against us.
    uint8_t responder_resources = 1;
    bool post_receives = true; // false: the Receives are never posted
    // How often the peer retries a Send we have no Receive posted for
    // (the connection request's RNR retry count; 7: for ever).
    uint8_t rnr_retry = 0;
    // Milliseconds from the REP to the RTU, which waits for the outcome
    // as well (--hold-rtu); 0: the RTU goes at once.
    uint32_t hold_rtu_ms = 0;
};

// Opens a connection; throws Error. Replaced by the tests.
using Connector = std::function<std::unique_ptr<Connection>(const ConnectParams &)>;

// ---- Statistics and output ----

// Round-trip times in microseconds. Percentiles are nearest-rank: the
// smallest sample with at least p% of the samples at or below it.
struct LatencySummary {
    double min = 0, avg = 0, p50 = 0, p99 = 0, max = 0;
};
double percentile(std::vector<double> sorted, double p);
std::optional<LatencySummary> summarize(const std::vector<double> &samples_us);

struct PingStats {
    std::string target; // "host:port" as given
    uint32_t program = 0, version = 0;
    uint64_t sent = 0;
    uint64_t received = 0; // replies accepted with SUCCESS
    uint64_t errors = 0;   // RDMA_ERROR, RPC failures, undecodable replies
    uint64_t lost = 0;     // no reply: timed out, or the connection went away
    std::optional<uint32_t> credits; // last grant seen
    bool disconnected = false;
    // Stopped by SIGINT or SIGTERM: the calls still unanswered then count
    // as lost, without a line each.
    bool interrupted = false;
    std::vector<double> rtt_us; // of the received replies
};

nlohmann::ordered_json ping_stats_json(const PingStats &stats);
std::string ping_stats_text(const PingStats &stats);

// ---- The sessions ----

struct SessionIo {
    std::ostream &out;
    std::ostream &err;
    OutputOptions output;
};

// Sends the calls and prints a line per reply (text mode). first_xid: xid
// of the first call, the others follow. receives: Receives the connection
// keeps posted, the credits the calls ask for; outstanding calls stay
// within both that and the server's grant (except with --burst).
PingStats ping_session(const PingOptions &opts, Connection &conn, SessionIo io,
                       uint32_t first_xid, uint32_t receives);

// What --raw saw.
struct RawOutcome {
    // Interrupted: SIGINT or SIGTERM before anything came.
    enum class Kind { RdmaError, Reply, Disconnected, NoReply, Interrupted };
    Kind kind = Kind::NoReply;
    std::string text; // the line printed: "rdma_error ERR_CHUNK xid=0x...", ...
    nlohmann::ordered_json json;
};
// Sends msg repeat times, back to back, and reports the first event after
// the last (or none within timeout seconds, or the interruption).
RawOutcome raw_session(const std::vector<uint8_t> &msg, double timeout, Connection &conn,
                       uint32_t repeat = 1);
// An interruption is no outcome of the server's: it matches nothing, not
// even Expect::Any.
bool outcome_matches(Expect expect, RawOutcome::Kind kind);
const char *expect_name(Expect expect);

// The whole command: connects with connector, runs, prints, and returns
// the exit code (0, 1; usage errors never get here). Once connected,
// SIGINT and SIGTERM stop it (StopSignals) and what was seen is printed.
int run_ping(const PingOptions &opts, const OutputOptions &output, std::ostream &out,
             std::ostream &err, const Connector &connector);

} // namespace rdmactl
