// SPDX-License-Identifier: GPL-2.0
#include "ping.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include <CLI/CLI.hpp>

#include "errors.hpp"
#include "rpcrdma_msg.hpp"
#include "signals.hpp"

namespace rdmactl {

namespace {

constexpr uint32_t max_count = 1000000;
constexpr double max_seconds = 3600;
constexpr size_t max_raw_bytes = 1024 * 1024;
constexpr uint32_t inline_size = 4096; // what this side sends and receives inline
constexpr uint32_t max_burst_receives = 1024;

struct ExpectName {
    const char *name;
    Expect expect;
};
constexpr ExpectName expect_names[] = {
    {"error", Expect::Error},
    {"disconnect", Expect::Disconnect},
    {"reply", Expect::Reply},
    {"error-or-disconnect", Expect::ErrorOrDisconnect},
    {"none", Expect::None},
};

uint64_t parse_unsigned(const std::string &what, const std::string &text, uint64_t min,
                        uint64_t max)
{
    bool digits = !text.empty() && text.size() <= 20 &&
                  std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    errno = 0;
    unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || errno || v < min || v > max)
        throw UsageError("invalid " + what + " '" + text + "': expected a whole number from " +
                         std::to_string(min) + " to " + std::to_string(max));
    return v;
}

// Seconds: a plain decimal number (no exponent, no inf/nan) within bounds.
double parse_seconds(const std::string &what, const std::string &text, bool zero_ok)
{
    bool plain = !text.empty() && text.size() <= 32 &&
                 std::all_of(text.begin(), text.end(),
                             [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) &&
                 std::count(text.begin(), text.end(), '.') <= 1 && text != ".";
    char *end = nullptr;
    double v = plain ? std::strtod(text.c_str(), &end) : -1;
    if (!plain || *end || v > max_seconds || (zero_ok ? v < 0 : v <= 0))
        throw UsageError("invalid " + what + " '" + text + "': expected seconds, " +
                         (zero_ok ? "0" : "more than 0") + " to 3600");
    return v;
}

Expect parse_expect(const std::string &text)
{
    std::string names;
    for (const ExpectName &e : expect_names) {
        if (text == e.name)
            return e.expect;
        names += (names.empty() ? "" : ", ") + std::string(e.name);
    }
    throw UsageError("invalid --expect '" + text + "': expected one of " + names);
}

Clock::duration seconds(double s)
{
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

double micros(Clock::duration d)
{
    return std::chrono::duration<double, std::micro>(d).count();
}

std::string fixed1(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.1f", v);
    return buf;
}

std::string seconds_text(double s)
{
    std::ostringstream text;
    text << s;
    return text.str();
}

double round3(double v)
{
    return std::round(v * 1000) / 1000;
}

} // namespace

// ---- Options ----

std::vector<uint8_t> parse_hex(const std::string &text)
{
    std::vector<uint8_t> bytes;
    int nibble = -1;
    for (char c : text) {
        int v;
        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v = c - 'A' + 10;
        else if ((c == ' ' || c == ':' || c == '\n' || c == '\t') && nibble < 0)
            continue;
        else
            throw UsageError("invalid hex '" + text.substr(0, 64) +
                             "': expected pairs of hex digits, blanks or ':' between bytes");
        if (nibble < 0) {
            nibble = v;
        } else {
            bytes.push_back(uint8_t(nibble << 4 | v));
            nibble = -1;
        }
        if (bytes.size() > max_raw_bytes)
            throw UsageError("--raw-hex: more than " + std::to_string(max_raw_bytes) + " bytes");
    }
    if (nibble >= 0)
        throw UsageError("invalid hex: odd number of digits");
    return bytes;
}

void parse_target(const std::string &word, std::string &host, uint16_t &port)
{
    std::string port_text;
    if (!word.empty() && word[0] == '[') {
        size_t close = word.find(']');
        if (close == std::string::npos)
            throw UsageError("invalid address '" + word + "': no closing ']'");
        host = word.substr(1, close - 1);
        std::string rest = word.substr(close + 1);
        if (!rest.empty()) {
            if (rest[0] != ':')
                throw UsageError("invalid address '" + word + "': expected ':PORT' after ']'");
            port_text = rest.substr(1);
            if (port_text.empty())
                throw UsageError("invalid address '" + word + "': empty port");
        }
    } else if (std::count(word.begin(), word.end(), ':') == 1) {
        size_t colon = word.find(':');
        host = word.substr(0, colon);
        port_text = word.substr(colon + 1);
        if (port_text.empty())
            throw UsageError("invalid address '" + word + "': empty port");
    } else {
        host = word; // a name, an IPv4 address or a bare IPv6 address
    }
    if (host.empty())
        throw UsageError("invalid address '" + word + "': no host");
    if (!port_text.empty())
        port = uint16_t(parse_unsigned("port", port_text, 1, 65535));
}

PingOptions parse_ping_args(const std::vector<std::string> &args, OutputOptions &output)
{
    CLI::App app{"rdmactl ping"};
    app.set_help_flag();
    PingOptions o;
    std::string count, interval, program, version, timeout, raw_file, raw_hex, expect, rd;
    std::string region, region_out;
    std::vector<std::string> words;
    bool json = false, pretty = false;
    CLI::Option *opt_count = app.add_option("-c,--count", count);
    CLI::Option *opt_interval = app.add_option("-i,--interval", interval);
    CLI::Option *opt_program = app.add_option("-P,--program", program);
    CLI::Option *opt_version = app.add_option("-V,--program-version", version);
    CLI::Option *opt_timeout = app.add_option("-t,--timeout", timeout);
    CLI::Option *opt_raw = app.add_option("--raw", raw_file);
    CLI::Option *opt_raw_hex = app.add_option("--raw-hex", raw_hex);
    CLI::Option *opt_expect = app.add_option("--expect", expect);
    CLI::Option *opt_region = app.add_option("--region", region);
    CLI::Option *opt_region_out = app.add_option("--region-out", region_out);
    CLI::Option *opt_rd = app.add_option("--responder-resources", rd);
    std::string repeat;
    CLI::Option *opt_repeat = app.add_option("--repeat", repeat);
    app.add_flag("--burst", o.burst);
    app.add_flag("--no-receives", o.no_receives);
    std::string hold_rtu;
    CLI::Option *opt_hold_rtu = app.add_option("--hold-rtu", hold_rtu);
    std::string pdata;
    CLI::Option *opt_pdata = app.add_option("--private-data", pdata);
    app.add_flag("-j,--json", json);
    app.add_flag("-p,--pretty", pretty);
    app.add_flag("-h,--help", o.help);
    app.add_option("target", words);

    std::vector<const char *> argv{"ping"};
    for (const std::string &arg : args)
        argv.push_back(arg.c_str());
    try {
        app.parse(int(argv.size()), argv.data());
    } catch (const CLI::ParseError &e) {
        throw UsageError(std::string("ping: ") + e.what());
    }
    output.json = output.json || json;
    output.pretty = output.pretty || pretty;
    if (o.help || (words.size() == 1 && words[0] == "help")) {
        o.help = true;
        return o;
    }

    if (words.empty())
        throw UsageError("'ping' needs an address: ADDR[:PORT]");
    if (words.size() > 1)
        throw UsageError("unexpected argument '" + words[1] + "' for 'ping'");
    parse_target(words[0], o.host, o.port);

    if (*opt_count)
        o.count = uint32_t(parse_unsigned("count", count, 1, max_count));
    if (*opt_interval)
        o.interval = parse_seconds("interval", interval, true);
    if (*opt_program)
        o.program = uint32_t(parse_unsigned("program", program, 0, UINT32_MAX));
    if (*opt_version)
        o.version = uint32_t(parse_unsigned("version", version, 0, UINT32_MAX));
    if (*opt_timeout)
        o.timeout = parse_seconds("timeout", timeout, false);
    if (*opt_expect)
        o.expect = parse_expect(expect);
    if (*opt_rd)
        o.responder_resources = uint8_t(parse_unsigned("responder-resources", rd, 0, UINT8_MAX));
    if (*opt_pdata) {
        std::optional<PrivateData> kind = private_data_by_name(pdata);
        if (!kind)
            throw UsageError("invalid --private-data '" + pdata + "': expected " +
                             private_data_choices());
        o.private_data = *kind;
    }

    if (*opt_raw && *opt_raw_hex)
        throw UsageError("--raw and --raw-hex exclude each other");
    if (*opt_raw) {
        if (raw_file.empty())
            throw UsageError("--raw needs a file name");
        o.raw_file = raw_file;
    }
    if (*opt_raw_hex)
        o.raw_bytes = parse_hex(raw_hex);
    if (o.raw()) {
        for (const CLI::Option *opt : {opt_count, opt_interval, opt_program, opt_version}) {
            if (*opt)
                throw UsageError("--raw sends one message as given: " + opt->get_name() +
                                 " does not apply");
        }
        if (o.burst)
            throw UsageError("--raw sends one message as given: --burst does not apply");
    } else if (*opt_expect) {
        throw UsageError("--expect needs --raw or --raw-hex");
    } else if (*opt_region) {
        throw UsageError("--region needs --raw or --raw-hex");
    } else if (o.no_receives) {
        throw UsageError("--no-receives needs --raw or --raw-hex");
    } else if (*opt_hold_rtu) {
        throw UsageError("--hold-rtu needs --raw or --raw-hex");
    } else if (*opt_repeat) {
        throw UsageError("--repeat needs --raw or --raw-hex");
    }
    if (*opt_repeat)
        o.repeat = uint32_t(parse_unsigned("repeat", repeat, 1, max_raw_repeat));
    if (*opt_hold_rtu)
        o.hold_rtu_ms = uint32_t(parse_unsigned("hold-rtu", hold_rtu, 1, max_hold_rtu_ms));
    if (*opt_region)
        o.region_size = parse_unsigned("region", region, 1, max_region_size);
    if (*opt_region_out) {
        if (!*opt_region)
            throw UsageError("--region-out needs --region");
        if (region_out.empty())
            throw UsageError("--region-out needs a file name");
        o.region_out = region_out;
    }
    if (o.burst && *opt_interval)
        throw UsageError("--burst sends every call at once: -i does not apply");
    return o;
}

namespace {

// A reader of the header's XDR words that stops at the end of msg.
class HeaderWalk {
public:
    explicit HeaderWalk(std::vector<uint8_t> &msg) : msg_(msg) {}

    bool word(uint32_t &v)
    {
        if (msg_.size() - pos_ < 4)
            return false;
        v = uint32_t(msg_[pos_]) << 24 | uint32_t(msg_[pos_ + 1]) << 16 |
            uint32_t(msg_[pos_ + 2]) << 8 | msg_[pos_ + 3];
        pos_ += 4;
        return true;
    }

    bool skip(size_t words)
    {
        if ((msg_.size() - pos_) / 4 < words)
            return false;
        pos_ += 4 * words;
        return true;
    }

    // A segment (handle, length, 64-bit offset): the region's if its
    // handle is the placeholder.
    bool segment(uint32_t rkey, uint64_t addr, size_t &placed)
    {
        if ((msg_.size() - pos_) / 4 < 4)
            return false;
        uint8_t *p = msg_.data() + pos_;
        pos_ += 16;
        if (get(p, 4) != region_placeholder)
            return true;
        put(p, 4, rkey);
        put(p + 8, 8, addr + get(p + 8, 8));
        placed++;
        return true;
    }

private:
    static uint64_t get(const uint8_t *p, int n)
    {
        uint64_t v = 0;
        for (int i = 0; i < n; i++)
            v = v << 8 | p[i];
        return v;
    }

    static void put(uint8_t *p, int n, uint64_t v)
    {
        for (int i = n - 1; i >= 0; i--, v >>= 8)
            p[i] = uint8_t(v);
    }

    std::vector<uint8_t> &msg_;
    size_t pos_ = 0;
};

// A counted array of segments (a Write chunk, the Reply chunk).
bool place_in_chunk(HeaderWalk &walk, uint32_t rkey, uint64_t addr, size_t &placed)
{
    uint32_t nsegs;
    if (!walk.word(nsegs))
        return false;
    for (uint32_t i = 0; i < nsegs; i++) {
        if (!walk.segment(rkey, addr, placed))
            return false;
    }
    return true;
}

} // namespace

size_t place_region(std::vector<uint8_t> &msg, uint32_t rkey, uint64_t addr)
{
    HeaderWalk walk(msg);
    size_t placed = 0;
    uint32_t proc, present = 0;

    // xid, version, credits, then the procedure; RDMA_MSGP has its
    // alignment and threshold before the lists.
    if (!walk.skip(3) || !walk.word(proc) || proc > 2 || (proc == 2 && !walk.skip(2)))
        return 0;
    // Read list: items of a position and a segment, each after a 1.
    while (walk.word(present) && present == 1) {
        if (!walk.skip(1) || !walk.segment(rkey, addr, placed))
            return placed;
    }
    if (present != 0)
        return placed; // cut short, or not XDR's "no more items"
    // Write list: items of a counted array of segments.
    while (walk.word(present) && present == 1) {
        if (!place_in_chunk(walk, rkey, addr, placed))
            return placed;
    }
    if (present != 0)
        return placed;
    // The Reply chunk: optional, one counted array.
    if (walk.word(present) && present == 1)
        place_in_chunk(walk, rkey, addr, placed);
    return placed;
}

std::string ping_usage()
{
    return "Usage: rdmactl [-j [-p]] ping [-c COUNT] [-i SECONDS] [-P PROGRAM] [-V VERSION]\n"
           "                          [-t SECONDS] [--burst] [--responder-resources N]\n"
           "                          [--private-data KIND] ADDR[:PORT]\n"
           "       rdmactl [-j [-p]] ping { --raw FILE | --raw-hex HEX } [--expect OUTCOME]\n"
           "                          [--region BYTES [--region-out FILE]] [--no-receives]\n"
           "                          [--hold-rtu MS] [--repeat N] [--private-data KIND]\n"
           "                          [-t SECONDS] ADDR[:PORT]\n"
           "       rdmactl ping help\n"
           "Sends RPC NULL calls over RPC-over-RDMA version 1 (RFC 8166) and prints the\n"
           "round-trip time of each reply. ADDR is an IP address or a host name\n"
           "([ADDR]:PORT for IPv6); PORT defaults to 20049.\n"
           "\n"
           "  -c, --count COUNT     calls to send (default 5)\n"
           "  -i, --interval S      seconds from one call to the next (default 0.2;\n"
           "                        0: back to back)\n"
           "  -P, --program PROG    RPC program (default 100003, NFS)\n"
           "  -V, --program-version VERS  program version (default 3)\n"
           "  -t, --timeout S       seconds to wait for each reply, and to connect\n"
           "                        (default 5); a call without a reply is lost\n"
           "  --burst               send all COUNT calls at once, ignoring the server's\n"
           "                        credits (for testing servers)\n"
           "  --raw FILE            send the bytes of FILE as one RDMA Send, as they are,\n"
           "                        and report the outcome: an RDMA_ERROR reply, another\n"
           "                        reply, a disconnect or no reply\n"
           "  --raw-hex HEX         the same with the bytes in hex (\"00 00 00 01 ...\")\n"
           "  --expect OUTCOME      with --raw: exit 0 only for this outcome: error,\n"
           "                        disconnect, reply, error-or-disconnect or none\n"
           "  --region BYTES        with --raw: register BYTES (at most 64 MiB) of memory\n"
           "                        for remote read and write, byte i holding i mod 251;\n"
           "                        every segment of the message's Read list, Write list\n"
           "                        and Reply chunk with handle 0xffffffff gets its rkey,\n"
           "                        and its offset becomes an offset into it (unchecked)\n"
           "  --region-out FILE     write the region's bytes to FILE after the outcome\n"
           "  --no-receives         with --raw: post no Receive, and have the server\n"
           "                        retry a Send to us for ever (RNR retry count 7): a\n"
           "                        peer that takes no reply (for testing servers)\n"
           "  --hold-rtu MS         with --raw: send the RTU that completes the\n"
           "                        connection handshake no sooner than MS (1 to\n"
           "                        60000) milliseconds after the server's REP, and\n"
           "                        not before the outcome (the queue pair is made\n"
           "                        ready without it): a peer whose RTU comes late;\n"
           "                        then rdmactl waits up to the timeout for the\n"
           "                        server to disconnect (for testing servers)\n"
           "  --repeat N            with --raw: send the message N times (at most 64),\n"
           "                        back to back; the outcome is the first event after\n"
           "                        the last\n"
           "  --responder-resources N  RDMA Reads the connection request offers to\n"
           "                        answer at once (default 1; for testing servers:\n"
           "                        0 offers none, which an xrpcrdma server refuses)\n"
           "  --private-data KIND   what the connection request carries (for testing\n"
           "                        servers): rfc8797 (default: RFC 8797's inline\n"
           "                        sizes, 4096 both ways), none (a requester older\n"
           "                        than RFC 8797), short (7 bytes), bad-magic,\n"
           "                        version-2 (all three to be taken as none), or\n"
           "                        reserved-flags (RFC 8797's with every reserved\n"
           "                        flag bit set, to be ignored)\n"
           "  -j, --json            print a JSON summary instead of text\n"
           "  -p, --pretty          indent the JSON\n"
           "\n"
           "SIGINT or SIGTERM stops the calls: the calls still unanswered count as lost\n"
           "(without a line each), and the summary says \"interrupted\" (JSON:\n"
           "\"interrupted\": true); with --raw the outcome is \"interrupted\".\n"
           "\n"
           "Exit status: 0 when every call got a successful reply (when interrupted:\n"
           "every call sent, and at least one; with --raw: when the outcome is the\n"
           "expected one, never when interrupted), 1 otherwise, 2 on usage errors.\n";
}

const char *expect_name(Expect expect)
{
    for (const ExpectName &e : expect_names) {
        if (e.expect == expect)
            return e.name;
    }
    return "any";
}

bool outcome_matches(Expect expect, RawOutcome::Kind kind)
{
    using K = RawOutcome::Kind;
    if (kind == K::Interrupted)
        return false; // not the server's doing: whatever was expected did not happen
    switch (expect) {
    case Expect::Any:
        return true;
    case Expect::Error:
        return kind == K::RdmaError;
    case Expect::Disconnect:
        return kind == K::Disconnected;
    case Expect::Reply:
        return kind == K::Reply;
    case Expect::ErrorOrDisconnect:
        return kind == K::RdmaError || kind == K::Disconnected;
    case Expect::None:
        return kind == K::NoReply;
    }
    return false;
}

// ---- Statistics and output ----

double percentile(std::vector<double> sorted, double p)
{
    if (sorted.empty())
        return 0;
    std::sort(sorted.begin(), sorted.end());
    double rank = std::ceil(p / 100.0 * double(sorted.size()));
    size_t index = rank < 1 ? 0 : size_t(rank) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
}

std::optional<LatencySummary> summarize(const std::vector<double> &samples)
{
    if (samples.empty())
        return std::nullopt;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    LatencySummary s;
    s.min = sorted.front();
    s.max = sorted.back();
    double sum = 0;
    for (double v : sorted)
        sum += v;
    s.avg = sum / double(sorted.size());
    s.p50 = percentile(sorted, 50);
    s.p99 = percentile(sorted, 99);
    return s;
}

namespace {

using Json = nlohmann::ordered_json;

// The summary's fields, described once for text and JSON. Counts show in
// text as "N label", joined by ", "; the rest as "label value".
struct CountField {
    const char *key;
    uint64_t PingStats::*member;
};
constexpr CountField count_fields[] = {
    {"sent", &PingStats::sent},
    {"received", &PingStats::received},
    {"errors", &PingStats::errors},
    {"lost", &PingStats::lost},
};

struct RttField {
    const char *key;
    double LatencySummary::*member;
};
constexpr RttField rtt_fields[] = {
    {"min", &LatencySummary::min}, {"avg", &LatencySummary::avg}, {"p50", &LatencySummary::p50},
    {"p99", &LatencySummary::p99}, {"max", &LatencySummary::max},
};
constexpr const char *rtt_key = "rtt_us"; // JSON; text says "rtt ... us"

} // namespace

nlohmann::ordered_json ping_stats_json(const PingStats &stats)
{
    Json obj = Json::object();
    obj["target"] = stats.target;
    obj["program"] = stats.program;
    obj["version"] = stats.version;
    for (const CountField &f : count_fields)
        obj[f.key] = stats.*f.member;
    if (stats.credits)
        obj["credits"] = *stats.credits;
    obj["disconnected"] = stats.disconnected;
    obj["interrupted"] = stats.interrupted;
    if (auto rtt = summarize(stats.rtt_us)) {
        Json r = Json::object();
        for (const RttField &f : rtt_fields)
            r[f.key] = round3((*rtt).*f.member);
        obj[rtt_key] = std::move(r);
    }
    return obj;
}

std::string ping_stats_text(const PingStats &stats)
{
    std::string text = "--- " + stats.target + " ping statistics ---\n";
    std::string line;
    for (const CountField &f : count_fields)
        line += (line.empty() ? "" : ", ") + std::to_string(stats.*f.member) + ' ' + f.key;
    if (stats.credits)
        line += ", credits " + std::to_string(*stats.credits);
    if (stats.disconnected)
        line += ", disconnected";
    if (stats.interrupted)
        line += ", interrupted";
    text += line + '\n';
    if (auto rtt = summarize(stats.rtt_us)) {
        std::string keys, values;
        for (const RttField &f : rtt_fields) {
            keys += (keys.empty() ? "" : "/") + std::string(f.key);
            values += (values.empty() ? "" : "/") + fixed1((*rtt).*f.member);
        }
        text += "rtt " + keys + " = " + values + " us\n";
    }
    return text;
}

// ---- The ping session ----

namespace {

class PingSession {
public:
    PingSession(const PingOptions &opts, Connection &conn, SessionIo io, uint32_t receives)
        : opts_(opts), conn_(conn), io_(io), timeout_(seconds(opts.timeout)),
          receives_(std::max<uint32_t>(receives, 1))
    {
        stats_.target = opts.host + ':' + std::to_string(opts.port);
        stats_.program = opts.program;
        stats_.version = opts.version;
    }

    PingStats run(uint32_t first_xid)
    {
        Clock::time_point last_send = Clock::now();
        for (uint32_t seq = 1; seq <= opts_.count && !stop_; seq++) {
            if (!opts_.burst && !wait_for_credit(Clock::now() + timeout_))
                break;
            uint32_t xid = first_xid + seq - 1;
            last_send = Clock::now();
            if (!send(seq, xid, last_send))
                break;
            if (opts_.burst)
                continue;
            wait_reply(xid, last_send + timeout_);
            if (seq < opts_.count)
                pump_until(last_send + seconds(opts_.interval));
        }
        if (opts_.burst) {
            Clock::time_point deadline = last_send + timeout_;
            while (!waiting_.empty() && !stop_ && pump(deadline))
                ;
            // Interrupted, the calls were not given the time to answer.
            for (auto it = waiting_.begin(); it != waiting_.end() && !stats_.interrupted;)
                it = expire(it);
        }
        stats_.lost = stats_.sent - stats_.received - stats_.errors;
        return stats_;
    }

private:
    struct Pending {
        uint32_t seq;
        Clock::time_point sent;
    };
    using Waiting = std::map<uint32_t, Pending>;

    bool send(uint32_t seq, uint32_t xid, Clock::time_point now)
    {
        try {
            if (!conn_.send(null_call_message(xid, receives_, opts_.program, opts_.version),
                            now + timeout_)) {
                // Gone: take what arrived before, up to the disconnect.
                while (!stats_.disconnected && !stats_.interrupted && pump(now))
                    ;
                stop_ = true;
                return false;
            }
        } catch (const InterruptedError &) {
            interrupted();
            return false;
        } catch (const Error &e) {
            io_.err << "rdmactl: " << e.what() << '\n';
            stop_ = true;
            return false;
        }
        stats_.sent++;
        waiting_[xid] = Pending{seq, now};
        return true;
    }

    // Calls sent and not answered, including those given up on: the server
    // may still be holding them, each with a credit.
    size_t outstanding() const { return waiting_.size() + expired_.size(); }

    // A call needs a credit, and a Receive of ours for its reply.
    bool wait_for_credit(Clock::time_point deadline)
    {
        while (outstanding() >= std::min(granted_, receives_) && !stop_) {
            if (!pump(deadline)) {
                io_.err << "rdmactl: no credit to send another call: " << outstanding()
                        << " calls unanswered, the server granted " << granted_ << '\n';
                return false;
            }
        }
        return !stop_;
    }

    void wait_reply(uint32_t xid, Clock::time_point deadline)
    {
        while (waiting_.count(xid) && !stop_ && pump(deadline))
            ;
        // Interrupted, the call was not given the time to answer.
        auto it = waiting_.find(xid);
        if (it != waiting_.end() && !stats_.interrupted)
            expire(it);
    }

    void pump_until(Clock::time_point until)
    {
        while (!stop_ && Clock::now() < until && pump(until))
            ;
    }

    // Handles one event; false on Timeout.
    bool pump(Clock::time_point deadline)
    {
        ConnEvent ev = conn_.wait(deadline);
        switch (ev.kind) {
        case ConnEvent::Kind::Timeout:
            return false;
        case ConnEvent::Kind::Disconnected:
            stats_.disconnected = true;
            stop_ = true;
            io_.err << "rdmactl: connection lost"
                    << (ev.detail.empty() ? std::string() : ": " + ev.detail) << '\n';
            return true;
        case ConnEvent::Kind::Received:
            received(ev);
            return true;
        case ConnEvent::Kind::Interrupted:
            interrupted();
            return true;
        }
        return false;
    }

    // SIGINT or SIGTERM: no more calls, nor waiting for the replies.
    void interrupted()
    {
        stats_.interrupted = true;
        stop_ = true;
    }

    // Flushed, so that each line shows as it happens when out is a pipe
    // or a file too (a ping's lines are read while it runs). A reader
    // that does not read blocks the write: a stop ends it. That line is
    // lost, and the calls end; the stream is usable again for the
    // summary.
    void line(const std::string &text)
    {
        if (io_.output.json)
            return;
        {
            StopWindow window;
            io_.out << text << '\n' << std::flush;
        }
        if (!io_.out && stop_requested()) {
            io_.out.clear();
            interrupted();
        }
    }

    std::string prefix(uint32_t seq, uint32_t xid)
    {
        return "seq=" + std::to_string(seq) + " xid=" + format_xid(xid);
    }

    void received(const ConnEvent &ev)
    {
        TransportReply r = decode_reply(ev.data.data(), ev.data.size());
        if (!r.has_xid) {
            io_.err << "rdmactl: warning: a message of " << ev.data.size()
                    << " bytes without a transport header\n";
            return;
        }
        if (r.kind != TransportReply::Kind::Malformed)
            grant(r.credits);

        auto it = waiting_.find(r.xid);
        if (it == waiting_.end()) {
            auto late = expired_.find(r.xid);
            if (late != expired_.end()) {
                expired_.erase(late);
                line("xid=" + format_xid(r.xid) + " late reply: " + r.describe());
            } else {
                io_.err << "rdmactl: warning: a reply to no call of ours: xid="
                        << format_xid(r.xid) << ' ' << r.describe() << '\n';
            }
            return;
        }
        Pending call = it->second;
        waiting_.erase(it);
        double us = micros(ev.at - call.sent);
        if (r.kind == TransportReply::Kind::Message && r.rpc && r.rpc->success()) {
            stats_.received++;
            stats_.rtt_us.push_back(us);
            line(prefix(call.seq, r.xid) + " time=" + fixed1(us) + " us");
            return;
        }
        stats_.errors++;
        if (r.kind == TransportReply::Kind::Message)
            line(prefix(call.seq, r.xid) + " rpc error: " + r.rpc->describe());
        else
            line(prefix(call.seq, r.xid) + ' ' + r.describe());
    }

    void grant(uint32_t credits)
    {
        if (!credits && !zero_grant_warned_) {
            io_.err << "rdmactl: warning: the server granted 0 credits; going on with 1\n";
            zero_grant_warned_ = true;
        }
        granted_ = credits ? credits : 1;
        stats_.credits = credits;
    }

    Waiting::iterator expire(Waiting::iterator it)
    {
        line(prefix(it->second.seq, it->first) +
             (stats_.disconnected ? std::string(" no reply: connection lost")
                                  : " no reply within " + seconds_text(opts_.timeout) + " s"));
        expired_.insert(it->first);
        return waiting_.erase(it);
    }

    const PingOptions &opts_;
    Connection &conn_;
    SessionIo io_;
    Clock::duration timeout_;
    uint32_t receives_; // posted for replies: the credits we ask for
    PingStats stats_;
    Waiting waiting_;
    std::set<uint32_t> expired_;
    uint32_t granted_ = 1; // RFC 8166, Section 3.3.1: one until the server says
    bool zero_grant_warned_ = false;
    bool stop_ = false;
};

} // namespace

PingStats ping_session(const PingOptions &opts, Connection &conn, SessionIo io, uint32_t first_xid,
                       uint32_t receives)
{
    return PingSession(opts, conn, io, receives).run(first_xid);
}

// ---- --raw ----

RawOutcome raw_session(const std::vector<uint8_t> &msg, double timeout, Connection &conn,
                       uint32_t repeat)
{
    RawOutcome o;
    Clock::time_point start = Clock::now();
    ConnEvent ev;
    try {
        for (uint32_t i = 0; i < repeat; i++)
            conn.send(msg, start + seconds(timeout)); // when it is gone, wait() says so
        ev = conn.wait(start + seconds(timeout));
    } catch (const InterruptedError &) {
        ev.kind = ConnEvent::Kind::Interrupted;
    }
    switch (ev.kind) {
    case ConnEvent::Kind::Received: {
        TransportReply r = decode_reply(ev.data.data(), ev.data.size());
        std::string xid = r.has_xid ? " xid=" + format_xid(r.xid) : "";
        if (r.kind == TransportReply::Kind::Error) {
            o.kind = RawOutcome::Kind::RdmaError;
            o.text = "rdma_error " + r.error_text() + xid;
            o.json = {{"outcome", "rdma_error"}, {"error", r.error_text()}};
        } else {
            o.kind = RawOutcome::Kind::Reply;
            o.text = "reply" + xid + ' ' + r.describe();
            o.json = {{"outcome", "reply"}, {"reply", r.describe()}};
        }
        if (r.has_xid)
            o.json["xid"] = format_xid(r.xid);
        o.json["bytes"] = ev.data.size();
        break;
    }
    case ConnEvent::Kind::Disconnected:
        o.kind = RawOutcome::Kind::Disconnected;
        o.text = "disconnected" + (ev.detail.empty() ? std::string() : " (" + ev.detail + ")");
        o.json = {{"outcome", "disconnected"}};
        if (!ev.detail.empty())
            o.json["detail"] = ev.detail;
        break;
    case ConnEvent::Kind::Timeout:
        o.kind = RawOutcome::Kind::NoReply;
        o.text = "no reply";
        o.json = {{"outcome", "no_reply"}, {"waited_s", timeout}};
        break;
    case ConnEvent::Kind::Interrupted:
        o.kind = RawOutcome::Kind::Interrupted;
        o.text = "interrupted";
        o.json = {{"outcome", "interrupted"}};
        break;
    }
    return o;
}

// ---- The command ----

namespace {

std::vector<uint8_t> read_file(const std::string &name)
{
    std::ifstream in(name, std::ios::binary);
    if (!in)
        throw Error("cannot open " + name + ": " + std::strerror(errno));
    std::vector<uint8_t> bytes;
    char buf[65536];
    while (in.read(buf, sizeof(buf)) || in.gcount() > 0) {
        bytes.insert(bytes.end(), buf, buf + in.gcount());
        if (bytes.size() > max_raw_bytes)
            throw Error(name + " is larger than " + std::to_string(max_raw_bytes) + " bytes");
    }
    if (in.bad())
        throw Error("cannot read " + name);
    return bytes;
}

void write_file(const std::string &name, const std::vector<uint8_t> &bytes)
{
    std::ofstream file(name, std::ios::binary | std::ios::trunc);
    if (!file)
        throw Error("cannot open " + name + ": " + std::strerror(errno));
    file.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    file.close();
    if (!file)
        throw Error("cannot write " + name);
}

// Puts the connection's region into the raw message's placeholder segments.
void offer_region(std::vector<uint8_t> &raw, const Connection &conn, std::ostream &err)
{
    std::optional<RegionInfo> region = conn.region();
    if (!region)
        throw Error("the connection has no region registered");
    if (!place_region(raw, region->rkey, region->addr))
        err << "rdmactl: warning: --region: no segment of the message has the handle "
            << format_xid(region_placeholder) << '\n';
}

// --raw once connected: the outcome, --region-out, and the exit code.
int raw_command(const PingOptions &opts, const OutputOptions &output, std::vector<uint8_t> raw,
                Connection &conn, std::ostream &out, std::ostream &err)
{
    try {
        if (opts.region_size)
            offer_region(raw, conn, err);
        RawOutcome o = raw_session(raw, opts.timeout, conn, opts.repeat);
        if (output.json)
            print_json(out, o.json, output);
        else
            out << o.text << '\n';
        out.flush();
        if (opts.region_out)
            write_file(*opts.region_out, conn.region_contents());
        if (!outcome_matches(opts.expect, o.kind)) {
            // Without --expect only an interruption gets here: the line
            // printed says it.
            if (opts.expect != Expect::Any)
                err << "rdmactl: expected " << expect_name(opts.expect) << ", got: " << o.text
                    << '\n';
            return 1;
        }
        return 0;
    } catch (const Error &e) {
        err << "rdmactl: " << e.what() << '\n';
        return 1;
    }
}

} // namespace

int run_ping(const PingOptions &opts, const OutputOptions &output, std::ostream &out,
             std::ostream &err, const Connector &connector)
{
    ConnectParams params;
    params.host = opts.host;
    params.port = opts.port;
    params.timeout = opts.timeout;
    params.max_send = inline_size;
    params.recv_size = inline_size;
    params.responder_resources = opts.responder_resources;
    params.private_data = opts.private_data;
    std::vector<uint8_t> raw;
    std::unique_ptr<Connection> conn;
    try {
        if (opts.raw_file)
            raw = read_file(*opts.raw_file);
        else if (opts.raw_bytes)
            raw = *opts.raw_bytes;
        if (opts.raw()) {
            params.max_send = std::max<uint32_t>(inline_size, uint32_t(raw.size()));
            params.send_depth = opts.repeat;
            params.region_size = opts.region_size.value_or(0);
            if (opts.no_receives) {
                params.post_receives = false;
                params.rnr_retry = 7;
            }
            params.hold_rtu_ms = opts.hold_rtu_ms;
        }
        // A burst may have every call outstanding: a Receive for each reply.
        if (opts.burst)
            params.recv_depth = std::clamp<uint32_t>(opts.count, params.recv_depth, max_burst_receives);
        conn = connector(params);
    } catch (const Error &e) {
        err << "rdmactl: " << e.what() << '\n';
        return 1;
    }

    // Like ping(8), SIGINT and SIGTERM end the calls and still print what
    // was seen: the connection's waits return Interrupted. Not before the
    // connection is up: there is nothing to print yet, and the signals end
    // the process there as they always did.
    StopSignals signals;
    if (opts.raw())
        return raw_command(opts, output, std::move(raw), *conn, out, err);

    if (!output.json) {
        std::string peer = conn->peer_description();
        out << "PING " << opts.host << ':' << opts.port << ": RPC NULL program " << opts.program
            << " version " << opts.version << " over RPC-over-RDMA v1"
            << (peer.empty() ? "" : ", " + peer) << '\n' << std::flush;
    }
    uint32_t first_xid = std::random_device{}();
    PingStats stats =
        ping_session(opts, *conn, SessionIo{out, err, output}, first_xid, params.recv_depth);
    conn.reset(); // disconnect before the summary
    {
        // As the lines': a reader that takes nothing holds the summary
        // until a signal (a second one after a stop) ends the write.
        StopWindow window;
        if (output.json)
            print_json(out, ping_stats_json(stats), output);
        else
            out << ping_stats_text(stats);
        out.flush();
    }
    // Interrupted, the calls not sent do not count against it (ping(8)).
    uint64_t wanted = stats.interrupted ? stats.sent : opts.count;
    return stats.received > 0 && stats.received == wanted ? 0 : 1;
}

} // namespace rdmactl
