// SPDX-License-Identifier: GPL-2.0
// rdmactl ping without RDMA: its options, latency statistics and output,
// and the ping and --raw sessions over a scripted fake connection.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <sstream>

#include <poll.h>
#include <unistd.h>

#include "argv.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "ping.hpp"
#include "rpcrdma_msg.hpp"
#include "signals.hpp"
#include "xdr.hpp"

extern "C" {
#include "proto.h"
}

using namespace rdmactl;
using testing_helpers::Argv;
using testing_helpers::case_name;
using testing_helpers::parse;
using testing_helpers::words;

namespace {

PingOptions ping_args(std::vector<std::string> args)
{
    OutputOptions output;
    return parse_ping_args(args, output);
}

std::string ping_usage_error(std::vector<std::string> args)
{
    try {
        ping_args(std::move(args));
    } catch (const UsageError &e) {
        return e.what();
    }
    return "(no usage error)";
}

// ---- A scripted server ----

// Interrupt: no reply, and SIGINT comes (every wait after the events
// already queued says Interrupted); SuccessThenInterrupt: after the reply.
enum class Answer {
    Success,
    ErrVers,
    ErrChunk,
    ProgUnavail,
    Garbage,
    Nothing,
    Disconnect,
    Interrupt,
    SuccessThenInterrupt,
};

class FakeConnection : public Connection {
public:
    std::function<Answer(size_t call)> script = [](size_t) { return Answer::Success; };
    uint32_t credits = 64;
    std::vector<std::vector<uint8_t>> sent;
    std::vector<std::vector<uint8_t>> *record = nullptr; // a copy outliving the connection
    size_t waits = 0;
    size_t waits_at_last_send = 0;
    // The send of this call (counted from 0) is interrupted while it waits
    // for a send slot.
    std::optional<size_t> interrupt_send;

    bool send(const std::vector<uint8_t> &msg, Clock::time_point) override
    {
        if (down_)
            return false;
        if (interrupt_send == sent.size()) {
            interrupt();
            throw InterruptedError("interrupted waiting for a Send to complete");
        }
        sent.push_back(msg);
        if (record)
            record->push_back(msg);
        waits_at_last_send = waits;
        uint32_t xid = msg.size() >= 4 ? uint32_t(msg[0]) << 24 | uint32_t(msg[1]) << 16 |
                                             uint32_t(msg[2]) << 8 | msg[3]
                                       : 0;
        switch (script(sent.size() - 1)) {
        case Answer::Success:
            receive(cat(words({xid, 1, credits, 0, 0, 0, 0}), words({xid, 1, 0, 0, 0, 0})));
            break;
        case Answer::SuccessThenInterrupt:
            receive(cat(words({xid, 1, credits, 0, 0, 0, 0}), words({xid, 1, 0, 0, 0, 0})));
            interrupt();
            break;
        case Answer::Interrupt:
            interrupt();
            break;
        case Answer::ProgUnavail:
            receive(cat(words({xid, 1, credits, 0, 0, 0, 0}), words({xid, 1, 0, 0, 0, 1})));
            break;
        case Answer::ErrVers:
            receive(words({xid, 1, credits, XR_RDMA_ERROR, XR_ERR_VERS, 1, 1}));
            break;
        case Answer::ErrChunk:
            receive(words({xid, 1, credits, XR_RDMA_ERROR, XR_ERR_CHUNK}));
            break;
        case Answer::Garbage:
            receive(words({xid, 1, credits}));
            break;
        case Answer::Nothing:
            break;
        case Answer::Disconnect:
            down_ = true;
            events_.push_back(
                ConnEvent{ConnEvent::Kind::Disconnected, {}, "Send failed: test", Clock::now()});
            break;
        }
        return true;
    }

    ConnEvent wait(Clock::time_point) override
    {
        waits++;
        if (events_.empty() && interrupted_ && !down_)
            return ConnEvent{ConnEvent::Kind::Interrupted, {}, "", Clock::now()};
        if (events_.empty())
            return ConnEvent{down_ ? ConnEvent::Kind::Disconnected : ConnEvent::Kind::Timeout,
                             {}, down_ ? "Send failed: test" : "", Clock::now()};
        ConnEvent ev = events_.front();
        events_.pop_front();
        return ev;
    }

    std::string peer_description() const override { return "fake peer"; }

    // --region: set by the test; the bytes the "server" wrote stay there.
    std::optional<RegionInfo> region_info;
    std::vector<uint8_t> region_bytes;
    std::optional<RegionInfo> region() const override { return region_info; }
    std::vector<uint8_t> region_contents() const override { return region_bytes; }

    void receive(std::vector<uint8_t> data)
    {
        events_.push_back(ConnEvent{ConnEvent::Kind::Received, std::move(data), "", Clock::now()});
    }

    // Nothing queued: the next wait would sleep.
    bool idle() const { return events_.empty(); }

    // As a stop signal does: Interrupted after what is queued so far.
    void interrupt()
    {
        if (!interrupted_)
            events_.push_back(ConnEvent{ConnEvent::Kind::Interrupted, {}, "", Clock::now()});
        interrupted_ = true;
    }

private:
    static std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b)
    {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }

    std::deque<ConnEvent> events_;
    bool down_ = false;
    bool interrupted_ = false;
};

struct Session {
    PingStats stats;
    std::string out, err;
};

Session run_session(const std::vector<std::string> &args, FakeConnection &conn,
                    uint32_t first_xid = 0x100, uint32_t receives = 32)
{
    OutputOptions output;
    PingOptions opts = parse_ping_args(args, output);
    std::ostringstream out, err;
    Session s;
    s.stats = ping_session(opts, conn, SessionIo{out, err, output}, first_xid, receives);
    s.out = out.str();
    s.err = err.str();
    return s;
}

} // namespace

// ---- Options ----

TEST(PingOptions, Defaults)
{
    PingOptions o = ping_args({"10.99.0.1"});
    EXPECT_FALSE(o.help);
    EXPECT_EQ(o.host, "10.99.0.1");
    EXPECT_EQ(o.port, 20049);
    EXPECT_EQ(o.count, 5u);
    EXPECT_DOUBLE_EQ(o.interval, 0.2);
    EXPECT_EQ(o.program, 100003u);
    EXPECT_EQ(o.version, 3u);
    EXPECT_DOUBLE_EQ(o.timeout, 5);
    EXPECT_FALSE(o.burst);
    EXPECT_FALSE(o.raw());
    EXPECT_EQ(o.expect, Expect::Any);
}

TEST(PingOptions, Everything)
{
    PingOptions o = ping_args({"-c", "20", "-i", "0", "-P", "100005", "-V", "1", "-t", "2.5",
                               "server:20050"});
    EXPECT_EQ(o.host, "server");
    EXPECT_EQ(o.port, 20050);
    EXPECT_EQ(o.count, 20u);
    EXPECT_DOUBLE_EQ(o.interval, 0);
    EXPECT_EQ(o.program, 100005u);
    EXPECT_EQ(o.version, 1u);
    EXPECT_DOUBLE_EQ(o.timeout, 2.5);

    o = ping_args({"--count=3", "--interval", ".5", "--program-version", "4", "h"});
    EXPECT_EQ(o.count, 3u);
    EXPECT_DOUBLE_EQ(o.interval, 0.5);
    EXPECT_EQ(o.version, 4u);
}

TEST(PingOptions, Burst)
{
    PingOptions o = ping_args({"--burst", "-c", "300", "h"});
    EXPECT_TRUE(o.burst);
    EXPECT_EQ(o.count, 300u);
}

TEST(PingOptions, Raw)
{
    PingOptions o = ping_args({"--raw-hex", "00 01:0a FF", "--expect", "error-or-disconnect", "h"});
    ASSERT_TRUE(o.raw_bytes);
    EXPECT_EQ(*o.raw_bytes, std::vector<uint8_t>({0x00, 0x01, 0x0a, 0xff}));
    EXPECT_EQ(o.expect, Expect::ErrorOrDisconnect);
    EXPECT_TRUE(o.raw());

    o = ping_args({"--raw", "/some/file", "-t", "1", "h"});
    EXPECT_EQ(o.raw_file, "/some/file");
    EXPECT_EQ(o.expect, Expect::Any);

    o = ping_args({"--raw-hex", "", "--expect", "none", "h"});
    ASSERT_TRUE(o.raw_bytes);
    EXPECT_TRUE(o.raw_bytes->empty());
    EXPECT_EQ(o.expect, Expect::None);

    for (auto [word, expect] : std::vector<std::pair<std::string, Expect>>{
             {"error", Expect::Error},
             {"disconnect", Expect::Disconnect},
             {"reply", Expect::Reply}}) {
        EXPECT_EQ(ping_args({"--raw-hex", "00", "--expect", word, "h"}).expect, expect);
    }
}

TEST(PingOptions, Region)
{
    PingOptions o = ping_args({"--raw-hex", "00", "--region", "2097152", "h"});
    EXPECT_EQ(o.region_size, 2097152u);
    EXPECT_FALSE(o.region_out);

    o = ping_args({"--raw", "f", "--region", "1", "--region-out", "out.bin", "h"});
    EXPECT_EQ(o.region_size, 1u);
    EXPECT_EQ(o.region_out, "out.bin");
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--region", "67108864", "h"}).region_size,
              max_region_size);

    o = ping_args({"--raw-hex", "00", "h"});
    EXPECT_FALSE(o.region_size);
    EXPECT_FALSE(o.region_out);
}

TEST(PingOptions, Repeat)
{
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--repeat", "2", "h"}).repeat, 2u);
    EXPECT_EQ(ping_args({"--raw-hex", "00", "h"}).repeat, 1u);
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--repeat", "64", "h"}).repeat, max_raw_repeat);
}

TEST(PingOptions, NoReceives)
{
    EXPECT_TRUE(ping_args({"--raw-hex", "00", "--no-receives", "h"}).no_receives);
    EXPECT_FALSE(ping_args({"--raw-hex", "00", "h"}).no_receives);
}

TEST(PingOptions, HoldRtu)
{
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--hold-rtu", "1000", "h"}).hold_rtu_ms, 1000u);
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--hold-rtu", "60000", "h"}).hold_rtu_ms,
              max_hold_rtu_ms);
    EXPECT_EQ(ping_args({"--raw-hex", "00", "h"}).hold_rtu_ms, 0u);
}

TEST(PingOptions, PrivateData)
{
    EXPECT_EQ(ping_args({"h"}).private_data, PrivateData::Rfc8797);
    EXPECT_EQ(ping_args({"--private-data", "none", "h"}).private_data, PrivateData::None);
    EXPECT_EQ(ping_args({"--private-data=version-2", "-c", "2", "h"}).private_data,
              PrivateData::Version2);
    EXPECT_EQ(ping_args({"--raw-hex", "00", "--private-data", "bad-magic", "h"}).private_data,
              PrivateData::BadMagic);
}

TEST(PingOptions, Targets)
{
    struct T {
        std::string word, host;
        uint16_t port;
    };
    for (const T &t : std::vector<T>{{"10.0.0.1", "10.0.0.1", 20049},
                                     {"10.0.0.1:1", "10.0.0.1", 1},
                                     {"host.example:65535", "host.example", 65535},
                                     {"fe80::1", "fe80::1", 20049},
                                     {"[fe80::1]", "fe80::1", 20049},
                                     {"[fe80::1%eth0]:20050", "fe80::1%eth0", 20050}}) {
        PingOptions o = ping_args({t.word});
        EXPECT_EQ(o.host, t.host) << t.word;
        EXPECT_EQ(o.port, t.port) << t.word;
    }
}

TEST(PingOptions, JsonAndHelp)
{
    OutputOptions output;
    PingOptions o = parse_ping_args({"-j", "-p", "h"}, output);
    EXPECT_TRUE(output.json);
    EXPECT_TRUE(output.pretty);
    EXPECT_TRUE(ping_args({"help"}).help);
    EXPECT_TRUE(ping_args({"-h"}).help);
    EXPECT_TRUE(ping_args({"--help", "-c", "x"}).help);
}

struct BadArgs {
    std::vector<std::string> args;
    std::string message;
};

class PingUsageError : public ::testing::TestWithParam<BadArgs> {};

TEST_P(PingUsageError, Message)
{
    EXPECT_EQ(ping_usage_error(GetParam().args), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PingUsageError,
    ::testing::Values(
        BadArgs{{}, "'ping' needs an address: ADDR[:PORT]"},
        BadArgs{{"a", "b"}, "unexpected argument 'b' for 'ping'"},
        BadArgs{{"-c", "0", "h"}, "invalid count '0': expected a whole number from 1 to 1000000"},
        BadArgs{{"-c", "abc", "h"},
                "invalid count 'abc': expected a whole number from 1 to 1000000"},
        BadArgs{{"-c", "1000001", "h"},
                "invalid count '1000001': expected a whole number from 1 to 1000000"},
        BadArgs{{"-c", "99999999999999999999999", "h"},
                "invalid count '99999999999999999999999': expected a whole number from 1 to "
                "1000000"},
        BadArgs{{"--count=-1", "h"}, "invalid count '-1': expected a whole number from 1 to 1000000"},
        BadArgs{{"-i", "1e3", "h"}, "invalid interval '1e3': expected seconds, 0 to 3600"},
        BadArgs{{"-i", "nan", "h"}, "invalid interval 'nan': expected seconds, 0 to 3600"},
        BadArgs{{"-i", "3600.5", "h"}, "invalid interval '3600.5': expected seconds, 0 to 3600"},
        BadArgs{{"-i", ".", "h"}, "invalid interval '.': expected seconds, 0 to 3600"},
        BadArgs{{"-t", "0", "h"}, "invalid timeout '0': expected seconds, more than 0 to 3600"},
        BadArgs{{"-t", "1.2.3", "h"},
                "invalid timeout '1.2.3': expected seconds, more than 0 to 3600"},
        BadArgs{{"-P", "4294967296", "h"},
                "invalid program '4294967296': expected a whole number from 0 to 4294967295"},
        BadArgs{{"-V", "x", "h"},
                "invalid version 'x': expected a whole number from 0 to 4294967295"},
        BadArgs{{"h:"}, "invalid address 'h:': empty port"},
        BadArgs{{"h:0"}, "invalid port '0': expected a whole number from 1 to 65535"},
        BadArgs{{"h:65536"}, "invalid port '65536': expected a whole number from 1 to 65535"},
        BadArgs{{":20049"}, "invalid address ':20049': no host"},
        BadArgs{{"[::1"}, "invalid address '[::1': no closing ']'"},
        BadArgs{{"[::1]x"}, "invalid address '[::1]x': expected ':PORT' after ']'"},
        BadArgs{{"[]:1"}, "invalid address '[]:1': no host"},
        BadArgs{{"--expect", "error", "h"}, "--expect needs --raw or --raw-hex"},
        BadArgs{{"--raw-hex", "00", "--expect", "maybe", "h"},
                "invalid --expect 'maybe': expected one of error, disconnect, reply, "
                "error-or-disconnect, none"},
        BadArgs{{"--raw", "f", "--raw-hex", "00", "h"}, "--raw and --raw-hex exclude each other"},
        BadArgs{{"--raw", "", "h"}, "--raw needs a file name"},
        BadArgs{{"--raw-hex", "0", "h"}, "invalid hex: odd number of digits"},
        BadArgs{{"--raw-hex", "0g", "h"},
                "invalid hex '0g': expected pairs of hex digits, blanks or ':' between bytes"},
        BadArgs{{"--raw-hex", "0 1", "h"},
                "invalid hex '0 1': expected pairs of hex digits, blanks or ':' between bytes"},
        BadArgs{{"--raw-hex", "00", "-c", "2", "h"},
                "--raw sends one message as given: --count does not apply"},
        BadArgs{{"--raw-hex", "00", "-P", "1", "h"},
                "--raw sends one message as given: --program does not apply"},
        BadArgs{{"--raw-hex", "00", "--burst", "h"},
                "--raw sends one message as given: --burst does not apply"},
        BadArgs{{"--burst", "-i", "1", "h"}, "--burst sends every call at once: -i does not apply"},
        BadArgs{{"--region", "4096", "h"}, "--region needs --raw or --raw-hex"},
        BadArgs{{"--no-receives", "h"}, "--no-receives needs --raw or --raw-hex"},
        BadArgs{{"--hold-rtu", "5", "h"}, "--hold-rtu needs --raw or --raw-hex"},
        BadArgs{{"--raw-hex", "00", "--hold-rtu", "0", "h"},
                "invalid hold-rtu '0': expected a whole number from 1 to 60000"},
        BadArgs{{"--repeat", "2", "h"}, "--repeat needs --raw or --raw-hex"},
        BadArgs{{"--raw-hex", "00", "--repeat", "0", "h"},
                "invalid repeat '0': expected a whole number from 1 to 64"},
        BadArgs{{"--raw-hex", "00", "--repeat", "65", "h"},
                "invalid repeat '65': expected a whole number from 1 to 64"},
        BadArgs{{"--raw-hex", "00", "--region", "0", "h"},
                "invalid region '0': expected a whole number from 1 to 67108864"},
        BadArgs{{"--raw-hex", "00", "--region", "67108865", "h"},
                "invalid region '67108865': expected a whole number from 1 to 67108864"},
        BadArgs{{"--raw-hex", "00", "--region", "2M", "h"},
                "invalid region '2M': expected a whole number from 1 to 67108864"},
        BadArgs{{"--raw-hex", "00", "--region", "-1", "h"},
                "invalid region '-1': expected a whole number from 1 to 67108864"},
        BadArgs{{"--raw-hex", "00", "--region-out", "f", "h"}, "--region-out needs --region"},
        BadArgs{{"--region-out", "f", "h"}, "--region-out needs --region"},
        BadArgs{{"--raw-hex", "00", "--region", "8", "--region-out", "", "h"},
                "--region-out needs a file name"},
        BadArgs{{"--private-data", "v2", "h"},
                "invalid --private-data 'v2': expected rfc8797, none, short, bad-magic, "
                "version-2 or reserved-flags"}),
    [](const ::testing::TestParamInfo<BadArgs> &info) {
        return case_name(info.index, info.param.args);
    });

TEST(PingOptions, CliErrorsAreUsageErrors)
{
    std::string msg = ping_usage_error({"--bogus", "h"});
    EXPECT_EQ(msg.rfind("ping: ", 0), 0u) << msg;
    msg = ping_usage_error({"h", "-c"});
    EXPECT_EQ(msg.rfind("ping: ", 0), 0u) << msg;
}

TEST(PingOptions, HexTooLong)
{
    std::string hex(2 * 1024 * 1024 + 2, '0');
    EXPECT_EQ(ping_usage_error({"--raw-hex", hex, "h"}), "--raw-hex: more than 1048576 bytes");
}

// ---- The command line around ping ----

TEST(PingCommandLine, OptionsAfterTheObjectAreping)
{
    Command cmd = parse({"-j", "ping", "-V", "4", "-c", "2", "h"});
    EXPECT_EQ(cmd.action, Action::Run);
    EXPECT_EQ(cmd.object, Object::Ping);
    EXPECT_TRUE(cmd.output.json);
    EXPECT_EQ(cmd.ping.version, 4u);
    EXPECT_EQ(cmd.ping.count, 2u);

    cmd = parse({"p", "h", "-j"}); // a unique prefix; -j after it too
    EXPECT_EQ(cmd.object, Object::Ping);
    EXPECT_TRUE(cmd.output.json);
    EXPECT_EQ(cmd.ping.host, "h");
}

TEST(PingCommandLine, Help)
{
    for (auto args : std::vector<std::vector<std::string>>{
             {"help", "ping"}, {"ping", "help"}, {"ping", "-h"}, {"-h", "ping"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.action, Action::Help) << case_name(0, args);
        EXPECT_EQ(cmd.object, Object::Ping) << case_name(0, args);
    }
    EXPECT_EQ(parse({"-V", "ping", "h"}).action, Action::Version);
    EXPECT_EQ(usage(Object::Ping).rfind("Usage: rdmactl [-j [-p]] ping ", 0), 0u);
    EXPECT_NE(usage().find("ping"), std::string::npos);
}

TEST(PingCommandLine, OtherObjectsUnaffected)
{
    Command cmd = parse({"dev", "show", "-j"});
    EXPECT_EQ(cmd.object, Object::Dev);
    EXPECT_TRUE(cmd.output.json);
    EXPECT_THROW(parse({"-c", "3", "dev"}), UsageError);
}

TEST(PingCommandLine, UsageErrorExitsTwoWithoutConnecting)
{
    Argv argv({"ping", "-c", "0", "h"});
    std::ostringstream out, err;
    int code = run(argv.argc(), argv.argv(), out, err, []() -> std::unique_ptr<Client> {
        ADD_FAILURE() << "no netlink client for ping";
        return nullptr;
    });
    EXPECT_EQ(code, exit_usage);
    EXPECT_EQ(out.str(), "");
    EXPECT_EQ(err.str(), "rdmactl: invalid count '0': expected a whole number from 1 to 1000000\n"
                         "Try 'rdmactl help' for more information.\n");
}

// ---- Statistics ----

TEST(Latency, NearestRankPercentiles)
{
    std::vector<double> hundred;
    for (int i = 100; i >= 1; i--)
        hundred.push_back(i);
    EXPECT_EQ(percentile(hundred, 50), 50);
    EXPECT_EQ(percentile(hundred, 99), 99);
    EXPECT_EQ(percentile(hundred, 100), 100);
    EXPECT_EQ(percentile(hundred, 0), 1);
    EXPECT_EQ(percentile({7}, 50), 7);
    EXPECT_EQ(percentile({7}, 99), 7);
    EXPECT_EQ(percentile({2, 1}, 50), 1);
    EXPECT_EQ(percentile({2, 1}, 99), 2);
    EXPECT_EQ(percentile({3, 1, 2}, 50), 2);
    std::vector<double> twenty;
    for (int i = 1; i <= 20; i++)
        twenty.push_back(i * 10);
    EXPECT_EQ(percentile(twenty, 50), 100);
    EXPECT_EQ(percentile(twenty, 99), 200);
    EXPECT_EQ(percentile({}, 50), 0);
}

TEST(Latency, Summary)
{
    EXPECT_FALSE(summarize({}));
    auto s = summarize({30, 10, 20, 40});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->min, 10);
    EXPECT_EQ(s->max, 40);
    EXPECT_DOUBLE_EQ(s->avg, 25);
    EXPECT_EQ(s->p50, 20);
    EXPECT_EQ(s->p99, 40);
}

namespace {

PingStats sample_stats()
{
    PingStats st;
    st.target = "h:20049";
    st.program = 100003;
    st.version = 3;
    st.sent = 4;
    st.received = 2;
    st.errors = 1;
    st.lost = 1;
    st.credits = 64;
    st.rtt_us = {20.25, 10.5};
    return st;
}

} // namespace

TEST(PingOutput, SummaryText)
{
    EXPECT_EQ(ping_stats_text(sample_stats()),
              "--- h:20049 ping statistics ---\n"
              "4 sent, 2 received, 1 errors, 1 lost, credits 64\n"
              "rtt min/avg/p50/p99/max = 10.5/15.4/10.5/20.2/20.2 us\n");
    PingStats none;
    none.target = "h:1";
    none.sent = 1;
    none.lost = 1;
    none.disconnected = true;
    EXPECT_EQ(ping_stats_text(none),
              "--- h:1 ping statistics ---\n1 sent, 0 received, 0 errors, 1 lost, disconnected\n");
}

TEST(PingOutput, SummaryJson)
{
    EXPECT_EQ(ping_stats_json(sample_stats()).dump(),
              R"({"target":"h:20049","program":100003,"version":3,"sent":4,"received":2,)"
              R"("errors":1,"lost":1,"credits":64,"disconnected":false,"interrupted":false,)"
              R"("rtt_us":{"min":10.5,"avg":15.375,"p50":10.5,"p99":20.25,"max":20.25}})");
    PingStats none;
    none.target = "h:1";
    EXPECT_EQ(ping_stats_json(none).dump(),
              R"({"target":"h:1","program":0,"version":0,"sent":0,"received":0,"errors":0,)"
              R"("lost":0,"disconnected":false,"interrupted":false})");
}

TEST(PingOutput, SummaryInterrupted)
{
    PingStats st = sample_stats();
    st.interrupted = true;
    EXPECT_EQ(ping_stats_text(st),
              "--- h:20049 ping statistics ---\n"
              "4 sent, 2 received, 1 errors, 1 lost, credits 64, interrupted\n"
              "rtt min/avg/p50/p99/max = 10.5/15.4/10.5/20.2/20.2 us\n");
    EXPECT_EQ(ping_stats_json(st)["interrupted"], true);
    st.disconnected = true;
    EXPECT_NE(ping_stats_text(st).find("credits 64, disconnected, interrupted\n"),
              std::string::npos);
}

// ---- The ping session ----

TEST(PingSession, EveryCallAnswered)
{
    FakeConnection conn;
    Session s = run_session({"-c", "3", "-i", "0", "h"}, conn, 0xfffffffe);
    EXPECT_EQ(s.stats.sent, 3u);
    EXPECT_EQ(s.stats.received, 3u);
    EXPECT_EQ(s.stats.errors, 0u);
    EXPECT_EQ(s.stats.lost, 0u);
    EXPECT_EQ(s.stats.credits, 64u);
    EXPECT_EQ(s.stats.rtt_us.size(), 3u);
    EXPECT_EQ(s.err, "");
    // xids count up from the first, wrapping; each call is a NULL call in
    // RDMA_MSG asking for the credits of the Receives posted.
    ASSERT_EQ(conn.sent.size(), 3u);
    uint32_t xids[] = {0xfffffffe, 0xffffffff, 0};
    for (size_t i = 0; i < 3; i++)
        EXPECT_EQ(conn.sent[i], null_call_message(xids[i], 32, 100003, 3));
    std::istringstream lines(s.out);
    std::string line;
    for (const char *prefix : {"seq=1 xid=0xfffffffe time=", "seq=2 xid=0xffffffff time=",
                               "seq=3 xid=0x00000000 time="}) {
        ASSERT_TRUE(std::getline(lines, line));
        EXPECT_EQ(line.rfind(prefix, 0), 0u) << line;
        EXPECT_EQ(line.substr(line.size() - 3), " us");
    }
    EXPECT_FALSE(std::getline(lines, line));
}

// Writes fail once @lines lines went through, as a write a stop signal
// ended: the stop is asked for, as the signal's handler would.
class StuckReaderBuf : public std::stringbuf {
public:
    explicit StuckReaderBuf(int lines) : left_(lines) {}

protected:
    int sync() override
    {
        if (left_ > 0) {
            left_--;
            return 0;
        }
        request_stop();
        return -1;
    }

private:
    int left_;
};

// A stop that ended a line's write ends the calls there, and leaves the
// stream usable for the summary.
TEST(PingSession, AStopEndingALineEndsTheCalls)
{
    FakeConnection conn;
    OutputOptions output;
    PingOptions opts = parse_ping_args({"-c", "10", "-i", "0", "h"}, output);
    StuckReaderBuf buf(1);
    std::ostream out(&buf);
    std::ostringstream err;
    PingStats st = ping_session(opts, conn, SessionIo{out, err, output}, 0x100, 32);
    clear_stop_request();
    EXPECT_TRUE(st.interrupted);
    EXPECT_EQ(st.sent, 2u);
    EXPECT_EQ(st.received, 2u);
    EXPECT_EQ(st.lost, 0u);
    EXPECT_TRUE(out.good());
}

TEST(PingSession, ProgramAndVersionInTheCalls)
{
    FakeConnection conn;
    run_session({"-c", "1", "-P", "100005", "-V", "1", "h"}, conn, 7, 8);
    ASSERT_EQ(conn.sent.size(), 1u);
    EXPECT_EQ(conn.sent[0], null_call_message(7, 8, 100005, 1));
}

TEST(PingSession, ErrorsAndLostReplies)
{
    FakeConnection conn;
    std::vector<Answer> answers = {Answer::Success, Answer::ErrVers, Answer::ErrChunk,
                                   Answer::ProgUnavail, Answer::Nothing, Answer::Success};
    conn.script = [&](size_t i) { return answers.at(i); };
    Session s = run_session({"-c", "6", "-i", "0", "-t", "0.01", "h"}, conn, 0x10);
    EXPECT_EQ(s.stats.sent, 6u);
    EXPECT_EQ(s.stats.received, 2u);
    EXPECT_EQ(s.stats.errors, 3u);
    EXPECT_EQ(s.stats.lost, 1u);
    EXPECT_NE(s.out.find("seq=2 xid=0x00000011 rdma_error ERR_VERS 1-1\n"), std::string::npos)
        << s.out;
    EXPECT_NE(s.out.find("seq=3 xid=0x00000012 rdma_error ERR_CHUNK\n"), std::string::npos);
    EXPECT_NE(s.out.find("seq=4 xid=0x00000013 rpc error: PROG_UNAVAIL\n"), std::string::npos);
    EXPECT_NE(s.out.find("seq=5 xid=0x00000014 no reply within 0.01 s\n"), std::string::npos);
    EXPECT_NE(s.out.find("seq=6 xid=0x00000015 time="), std::string::npos);
}

TEST(PingSession, UndecodableMessageIsAWarning)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 1 ? Answer::Garbage : Answer::Success; };
    Session s = run_session({"-c", "3", "-i", "0", "-t", "0.01", "h"}, conn);
    EXPECT_EQ(s.stats.received, 2u);
    EXPECT_EQ(s.stats.lost, 1u);
    EXPECT_EQ(s.err, "rdmactl: warning: a message of 12 bytes without a transport header\n");
}

// The server granted nothing yet (one credit, RFC 8166 3.3.1) and never
// answered the first call: no second call may go out.
TEST(PingSession, NoCallBeyondTheCredits)
{
    FakeConnection conn;
    conn.script = [](size_t) { return Answer::Nothing; };
    Session s = run_session({"-c", "3", "-i", "0", "-t", "0.01", "h"}, conn);
    EXPECT_EQ(conn.sent.size(), 1u);
    EXPECT_EQ(s.stats.sent, 1u);
    EXPECT_EQ(s.stats.lost, 1u);
    EXPECT_EQ(s.err, "rdmactl: no credit to send another call: 1 calls unanswered, the server "
                     "granted 1\n");
}

// With one credit granted, an unanswered call blocks the next as well.
TEST(PingSession, OneCreditGranted)
{
    FakeConnection conn;
    conn.credits = 1;
    conn.script = [](size_t i) { return i == 1 ? Answer::Nothing : Answer::Success; };
    Session s = run_session({"-c", "4", "-i", "0", "-t", "0.01", "h"}, conn);
    EXPECT_EQ(conn.sent.size(), 2u);
    EXPECT_EQ(s.stats.received, 1u);
    EXPECT_EQ(s.stats.credits, 1u);
}

// Credits also stop at the Receives this side keeps posted.
TEST(PingSession, NoCallBeyondOurReceives)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 0 ? Answer::Success : Answer::Nothing; };
    run_session({"-c", "5", "-i", "0", "-t", "0.01", "h"}, conn, 1, 2);
    // Call 1 answered (64 granted); calls 2 and 3 hold both Receives.
    EXPECT_EQ(conn.sent.size(), 3u);
}

TEST(PingSession, Disconnect)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 1 ? Answer::Disconnect : Answer::Success; };
    Session s = run_session({"-c", "5", "-i", "0", "h"}, conn);
    EXPECT_EQ(s.stats.sent, 2u);
    EXPECT_EQ(s.stats.received, 1u);
    EXPECT_EQ(s.stats.lost, 1u);
    EXPECT_TRUE(s.stats.disconnected);
    EXPECT_NE(s.out.find("seq=2 xid=0x00000101 no reply: connection lost\n"), std::string::npos)
        << s.out;
    EXPECT_EQ(s.err, "rdmactl: connection lost: Send failed: test\n");
}

TEST(PingSession, BurstSendsEverythingFirst)
{
    FakeConnection conn;
    Session s = run_session({"--burst", "-c", "100", "h"}, conn);
    EXPECT_EQ(conn.sent.size(), 100u);
    EXPECT_EQ(conn.waits_at_last_send, 0u); // no wait before the last call
    EXPECT_EQ(s.stats.received, 100u);
}

TEST(PingSession, BurstCutShortByADisconnect)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 10 ? Answer::Disconnect : Answer::Success; };
    Session s = run_session({"--burst", "-c", "100", "h"}, conn);
    EXPECT_EQ(s.stats.sent, 11u);
    EXPECT_EQ(s.stats.received, 10u);
    EXPECT_EQ(s.stats.lost, 1u);
    EXPECT_TRUE(s.stats.disconnected);
}

TEST(PingSession, JsonPrintsNoLines)
{
    FakeConnection conn;
    Session s = run_session({"-j", "-c", "2", "h"}, conn);
    EXPECT_EQ(s.out, "");
    EXPECT_EQ(s.stats.received, 2u);
}

namespace {

// Keeps the whole output at each flush: what a reader of a pipe or a file
// would have seen by then.
class FlushLog : public std::stringbuf {
public:
    std::vector<std::string> flushed;

protected:
    int sync() override
    {
        flushed.push_back(str());
        return 0;
    }
};

// The output's lines, each with its newline.
std::vector<std::string> output_lines(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line + '\n');
    return lines;
}

} // namespace

// Each result line is flushed as it is printed, not at the end.
TEST(PingSession, EachLineFlushed)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 1 ? Answer::ErrChunk : Answer::Success; };
    FlushLog buf;
    std::ostream out(&buf);
    std::ostringstream err;
    OutputOptions output;
    PingOptions opts = parse_ping_args({"-c", "3", "-i", "0", "h"}, output);
    ping_session(opts, conn, SessionIo{out, err, output}, 0x100, 32);
    std::vector<std::string> lines = output_lines(buf.str());
    ASSERT_EQ(lines.size(), 3u) << buf.str();
    ASSERT_EQ(buf.flushed.size(), 3u) << buf.str();
    std::string upto;
    for (size_t i = 0; i < lines.size(); i++) {
        upto += lines[i];
        EXPECT_EQ(buf.flushed[i], upto) << i;
    }
}

// An interrupted session: what was sent, answered and lost.
static void expect_interrupted(const Session &s, uint64_t sent, uint64_t received, uint64_t lost)
{
    EXPECT_EQ(s.stats.sent, sent);
    EXPECT_EQ(s.stats.received, received);
    EXPECT_EQ(s.stats.lost, lost);
    EXPECT_TRUE(s.stats.interrupted);
}

// SIGINT while waiting for the third reply: no more calls, and that call
// is lost without a "no reply within" line.
TEST(PingSession, InterruptedWaitingForAReply)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 2 ? Answer::Interrupt : Answer::Success; };
    Session s = run_session({"-c", "5", "-i", "0", "h"}, conn);
    EXPECT_EQ(conn.sent.size(), 3u);
    expect_interrupted(s, 3, 2, 1);
    EXPECT_FALSE(s.stats.disconnected);
    EXPECT_EQ(s.out.find("no reply"), std::string::npos) << s.out;
    EXPECT_EQ(output_lines(s.out).size(), 2u) << s.out;
    EXPECT_EQ(s.err, "");
}

// SIGINT between two calls: every call sent was answered. (The interval
// is long for the wait between calls to be sure to happen; the fake never
// sleeps.)
TEST(PingSession, InterruptedBetweenCalls)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 1 ? Answer::SuccessThenInterrupt : Answer::Success; };
    Session s = run_session({"-c", "5", "-i", "60", "h"}, conn);
    expect_interrupted(s, 2, 2, 0);
    EXPECT_EQ(s.err, "");
}

// SIGINT while a send waits for a slot: that call was never sent.
TEST(PingSession, InterruptedSending)
{
    FakeConnection conn;
    conn.interrupt_send = 2;
    Session s = run_session({"-c", "5", "-i", "0", "h"}, conn);
    expect_interrupted(s, 2, 2, 0);
    EXPECT_EQ(s.err, "");
}

// A burst interrupted after four replies: the others are not waited for,
// nor reported one by one.
TEST(PingSession, BurstInterrupted)
{
    FakeConnection conn;
    conn.script = [](size_t i) { return i == 4 ? Answer::Interrupt : Answer::Success; };
    Session s = run_session({"--burst", "-c", "10", "-t", "0.01", "h"}, conn);
    expect_interrupted(s, 10, 4, 6);
    EXPECT_EQ(s.out.find("no reply"), std::string::npos) << s.out;
    EXPECT_EQ(output_lines(s.out).size(), 4u) << s.out;
}

// ---- --raw ----

TEST(RawSession, Outcomes)
{
    std::vector<uint8_t> msg = words({0x11223344, 2, 1, 0});
    struct Case {
        Answer answer;
        RawOutcome::Kind kind;
        std::string text;
    };
    for (const Case &c : std::vector<Case>{
             {Answer::ErrVers, RawOutcome::Kind::RdmaError, "rdma_error ERR_VERS 1-1 xid=0x11223344"},
             {Answer::ErrChunk, RawOutcome::Kind::RdmaError, "rdma_error ERR_CHUNK xid=0x11223344"},
             {Answer::Success, RawOutcome::Kind::Reply, "reply xid=0x11223344 RDMA_MSG SUCCESS"},
             {Answer::Garbage, RawOutcome::Kind::Reply,
              "reply malformed transport header: shorter than the fixed header"},
             {Answer::Disconnect, RawOutcome::Kind::Disconnected,
              "disconnected (Send failed: test)"},
             {Answer::Nothing, RawOutcome::Kind::NoReply, "no reply"},
             {Answer::Interrupt, RawOutcome::Kind::Interrupted, "interrupted"}}) {
        FakeConnection conn;
        conn.script = [&](size_t) { return c.answer; };
        RawOutcome o = raw_session(msg, 0.01, conn);
        EXPECT_EQ(o.kind, c.kind) << c.text;
        EXPECT_EQ(o.text, c.text);
        ASSERT_EQ(conn.sent.size(), 1u);
        EXPECT_EQ(conn.sent[0], msg);
    }
}

TEST(RawSession, ExpectMatches)
{
    using K = RawOutcome::Kind;
    EXPECT_TRUE(outcome_matches(Expect::Any, K::NoReply));
    EXPECT_TRUE(outcome_matches(Expect::Error, K::RdmaError));
    EXPECT_FALSE(outcome_matches(Expect::Error, K::Reply));
    EXPECT_TRUE(outcome_matches(Expect::Disconnect, K::Disconnected));
    EXPECT_FALSE(outcome_matches(Expect::Disconnect, K::NoReply));
    EXPECT_TRUE(outcome_matches(Expect::Reply, K::Reply));
    EXPECT_TRUE(outcome_matches(Expect::ErrorOrDisconnect, K::RdmaError));
    EXPECT_TRUE(outcome_matches(Expect::ErrorOrDisconnect, K::Disconnected));
    EXPECT_FALSE(outcome_matches(Expect::ErrorOrDisconnect, K::NoReply));
    EXPECT_FALSE(outcome_matches(Expect::ErrorOrDisconnect, K::Reply));
    EXPECT_TRUE(outcome_matches(Expect::None, K::NoReply));
    EXPECT_FALSE(outcome_matches(Expect::None, K::RdmaError));
    for (Expect e : {Expect::Any, Expect::Error, Expect::Disconnect, Expect::Reply,
                     Expect::ErrorOrDisconnect, Expect::None})
        EXPECT_FALSE(outcome_matches(e, K::Interrupted)) << expect_name(e);
}

TEST(RawSession, InterruptedSending)
{
    FakeConnection conn;
    conn.interrupt_send = 1;
    RawOutcome o = raw_session(words({1, 2}), 0.01, conn, 3);
    EXPECT_EQ(o.kind, RawOutcome::Kind::Interrupted);
    EXPECT_EQ(o.json.dump(), R"({"outcome":"interrupted"})");
    EXPECT_EQ(conn.sent.size(), 1u);
}

// ---- The whole command over a fake connector ----

namespace {

struct Ran {
    int code;
    std::string out, err;
    ConnectParams params;
    std::vector<std::vector<uint8_t>> sent;
};

Ran run_fake(std::vector<std::string> args, std::function<Answer(size_t)> script = nullptr,
             bool refuse = false, std::function<void(FakeConnection &)> tweak = nullptr)
{
    Ran r{};
    OutputOptions output;
    PingOptions opts = parse_ping_args(args, output);
    std::ostringstream out, err;
    r.code = run_ping(opts, output, out, err, [&](const ConnectParams &p) {
        r.params = p;
        if (refuse)
            throw Error("connection to h:20049 refused");
        auto conn = std::make_unique<FakeConnection>();
        if (script)
            conn->script = script;
        conn->record = &r.sent;
        if (p.region_size) {
            conn->region_info = RegionInfo{0xabcd1234, 0x00007f0012340000, p.region_size};
            for (uint64_t i = 0; i < p.region_size; i++)
                conn->region_bytes.push_back(region_pattern(i));
        }
        if (tweak)
            tweak(*conn);
        return std::unique_ptr<Connection>(std::move(conn));
    });
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace

TEST(RunPing, AllAnswered)
{
    Ran r = run_fake({"-c", "2", "-i", "0", "h"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out.rfind("PING h:20049: RPC NULL program 100003 version 3 over RPC-over-RDMA v1, "
                          "fake peer\nseq=1 xid=",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find("\n--- h:20049 ping statistics ---\n2 sent, 2 received, 0 errors, 0 "
                         "lost, credits 64\nrtt min/avg/p50/p99/max = "),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.params.host, "h");
    EXPECT_EQ(r.params.port, 20049);
    EXPECT_EQ(r.params.recv_depth, 32u);
    EXPECT_EQ(r.params.recv_size, 4096u);
}

TEST(RunPing, AnErrorMakesItExitOne)
{
    Ran r = run_fake({"-c", "2", "-i", "0", "h"},
                     [](size_t i) { return i ? Answer::ErrVers : Answer::Success; });
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("rdma_error ERR_VERS 1-1"), std::string::npos);
}

TEST(RunPing, JsonSummaryOnly)
{
    Ran r = run_fake({"-j", "-c", "2", "-i", "0", "h:9"});
    EXPECT_EQ(r.code, 0);
    auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["target"], "h:9");
    EXPECT_EQ(json["sent"], 2);
    EXPECT_EQ(json["received"], 2);
    EXPECT_TRUE(json["rtt_us"]["p50"].get<double>() <= json["rtt_us"]["p99"].get<double>());
}

// The header goes out before the first call, each line after it as it comes.
TEST(RunPing, HeaderAndLinesFlushed)
{
    OutputOptions output;
    PingOptions opts = parse_ping_args({"-c", "2", "-i", "0", "h"}, output);
    FlushLog buf;
    std::ostream out(&buf);
    std::ostringstream err;
    int code = run_ping(opts, output, out, err, [&](const ConnectParams &) {
        auto conn = std::make_unique<FakeConnection>();
        FakeConnection *raw = conn.get();
        conn->script = [raw, &buf](size_t) {
            // The header is out before the first call is sent.
            EXPECT_EQ(output_lines(buf.flushed.empty() ? "" : buf.flushed.back()).size(),
                      raw->sent.size()) << buf.str();
            return Answer::Success;
        };
        return std::unique_ptr<Connection>(std::move(conn));
    });
    EXPECT_EQ(code, 0);
    std::vector<std::string> lines = output_lines(buf.str());
    ASSERT_GE(buf.flushed.size(), 3u) << buf.str();
    EXPECT_EQ(buf.flushed[0], lines.at(0));
    EXPECT_EQ(buf.flushed[0].rfind("PING h:20049: ", 0), 0u) << buf.flushed[0];
    EXPECT_EQ(buf.flushed[1], lines.at(0) + lines.at(1));
    EXPECT_EQ(buf.flushed[2], lines.at(0) + lines.at(1) + lines.at(2));
    EXPECT_EQ(buf.flushed.back(), buf.str());
}

// Interrupted: the summary as usual, with "interrupted"; exit 0 only when
// every call sent got a successful reply, and there was one.
TEST(RunPing, Interrupted)
{
    Ran r = run_fake({"-c", "5", "-i", "0", "h"},
                     [](size_t i) { return i == 2 ? Answer::Interrupt : Answer::Success; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out.find("no reply"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n--- h:20049 ping statistics ---\n3 sent, 2 received, 0 errors, 1 "
                         "lost, credits 64, interrupted\nrtt "),
              std::string::npos)
        << r.out;

    r = run_fake({"-c", "5", "-i", "60", "h"},
                 [](size_t i) { return i == 1 ? Answer::SuccessThenInterrupt : Answer::Success; });
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("\n2 sent, 2 received, 0 errors, 0 lost, credits 64, interrupted\n"),
              std::string::npos)
        << r.out;

    // Nothing answered: not a success, whatever else.
    r = run_fake({"-c", "5", "-i", "0", "h"}, [](size_t) { return Answer::Interrupt; });
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("\n1 sent, 0 received, 0 errors, 1 lost, interrupted\n"),
              std::string::npos)
        << r.out;
    r = run_fake({"-c", "5", "-i", "0", "h"}, nullptr, false,
                 [](FakeConnection &c) { c.interrupt_send = 0; });
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("\n0 sent, 0 received, 0 errors, 0 lost, interrupted\n"),
              std::string::npos)
        << r.out;

    // An error reply before the interruption.
    r = run_fake({"-c", "5", "-i", "60", "h"}, [](size_t i) {
        return i == 0 ? Answer::ErrChunk : Answer::SuccessThenInterrupt;
    });
    EXPECT_EQ(r.code, 1);
}

TEST(RunPing, InterruptedJson)
{
    Ran r = run_fake({"-j", "-c", "5", "-i", "0", "h"},
                     [](size_t i) { return i == 2 ? Answer::Interrupt : Answer::Success; });
    EXPECT_EQ(r.code, 1);
    auto json = nlohmann::json::parse(r.out);
    EXPECT_EQ(json["interrupted"], true);
    EXPECT_EQ(json["disconnected"], false);
    EXPECT_EQ(json["sent"], 3);
    EXPECT_EQ(json["received"], 2);
    EXPECT_EQ(json["lost"], 1);

    r = run_fake({"-j", "-c", "5", "-i", "60", "h"},
                 [](size_t i) { return i == 2 ? Answer::SuccessThenInterrupt : Answer::Success; });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out)["interrupted"], true);
}

namespace {

// Waits as the RDMA connection does when nothing is queued: a ppoll(2)
// with the stop signals' wait mask, Interrupted when a stop was asked for.
// The script raises SIGINT between waits, while it is blocked.
class SignalledConnection : public FakeConnection {
public:
    SignalledConnection() { EXPECT_EQ(pipe(quiet_), 0); }
    ~SignalledConnection() override
    {
        close(quiet_[0]);
        close(quiet_[1]);
    }

    ConnEvent wait(Clock::time_point deadline) override
    {
        if (!idle())
            return FakeConnection::wait(deadline);
        EXPECT_NE(stop_wait_mask(), nullptr);
        pollfd pfd{quiet_[0], POLLIN, 0};
        timespec ts{30, 0}; // only reached when the signal is not let in
        if (!stop_requested())
            ppoll(&pfd, 1, &ts, stop_wait_mask());
        if (stop_requested())
            return ConnEvent{ConnEvent::Kind::Interrupted, {}, "", Clock::now()};
        return FakeConnection::wait(deadline);
    }

private:
    int quiet_[2] = {-1, -1};
};

} // namespace

// A real SIGINT during the session: taken in a wait, not fatal, and the
// summary follows; the handlers are gone afterwards.
TEST(RunPing, SigintDuringTheSession)
{
    OutputOptions output;
    PingOptions opts = parse_ping_args({"-c", "5", "-i", "0", "h"}, output);
    std::ostringstream out, err;
    int code = run_ping(opts, output, out, err, [](const ConnectParams &) {
        EXPECT_EQ(stop_wait_mask(), nullptr); // not while connecting
        auto conn = std::make_unique<SignalledConnection>();
        conn->script = [](size_t i) {
            if (i == 2) {
                if (stop_wait_mask())
                    raise(SIGINT);
                else
                    ADD_FAILURE() << "SIGINT would end the test";
                return Answer::Nothing;
            }
            return Answer::Success;
        };
        return std::unique_ptr<Connection>(std::move(conn));
    });
    clear_stop_request();
    EXPECT_EQ(stop_wait_mask(), nullptr);
    EXPECT_EQ(code, 1);
    EXPECT_EQ(err.str(), "");
    EXPECT_EQ(out.str().find("no reply"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("\n3 sent, 2 received, 0 errors, 1 lost, credits 64, interrupted\n"),
              std::string::npos)
        << out.str();
}

TEST(RunPing, ConnectFailure)
{
    Ran r = run_fake({"h"}, nullptr, true);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "rdmactl: connection to h:20049 refused\n");
}

TEST(RunPing, BurstPostsAReceiveForEachCall)
{
    Ran r = run_fake({"--burst", "-c", "300", "h"});
    EXPECT_EQ(r.params.recv_depth, 300u);
    EXPECT_EQ(run_fake({"--burst", "-c", "5", "h"}).params.recv_depth, 32u);
    EXPECT_EQ(run_fake({"--burst", "-c", "5000", "h"}).params.recv_depth, 1024u);
}

TEST(RunPing, RawExpected)
{
    Ran r = run_fake({"--raw-hex", "11223344 00000002", "--expect", "error", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "rdma_error ERR_CHUNK xid=0x11223344\n");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.params.send_depth, 1u);
}

// --repeat: the same message, back to back; the outcome follows the last.
TEST(RunPing, RawRepeat)
{
    Ran r = run_fake({"--raw-hex", "11223344 00000002", "--repeat", "3", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.code, 0);
    ASSERT_EQ(r.sent.size(), 3u);
    EXPECT_EQ(r.sent[0], r.sent[2]);
    EXPECT_EQ(r.params.send_depth, 3u);
}

// A peer that takes no reply: no Receive posted, RNR retry for ever.
TEST(RunPing, RawNoReceives)
{
    Ran r = run_fake({"--raw-hex", "11223344 00000002", "--no-receives", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_FALSE(r.params.post_receives);
    EXPECT_EQ(r.params.rnr_retry, 7u);
    r = run_fake({"--raw-hex", "11223344 00000002", "h"}, [](size_t) { return Answer::ErrChunk; });
    EXPECT_TRUE(r.params.post_receives);
    EXPECT_EQ(r.params.rnr_retry, 0u);
}

// A peer whose RTU never goes out; the message is sent all the same.
TEST(RunPing, RawHoldRtu)
{
    Ran r = run_fake({"--raw-hex", "11223344 00000002", "--hold-rtu", "700", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.sent.size(), 1u);
    EXPECT_EQ(r.params.hold_rtu_ms, 700u);
    r = run_fake({"--raw-hex", "11223344 00000002", "h"}, [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.params.hold_rtu_ms, 0u);
}

// The kind of private data reaches the connection.
TEST(RunPing, PrivateDataKind)
{
    EXPECT_EQ(run_fake({"-c", "1", "h"}).params.private_data, PrivateData::Rfc8797);
    EXPECT_EQ(run_fake({"-c", "1", "--private-data", "reserved-flags", "h"}).params.private_data,
              PrivateData::ReservedFlags);
}

TEST(RunPing, RawUnexpected)
{
    Ran r = run_fake({"--raw-hex", "11223344", "--expect", "disconnect", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: expected disconnect, got: rdma_error ERR_CHUNK xid=0x11223344\n");

    r = run_fake({"--raw-hex", "11223344", "--expect", "error-or-disconnect", "h"},
                 [](size_t) { return Answer::Nothing; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "no reply\n");
}

TEST(RunPing, RawInterrupted)
{
    Ran r = run_fake({"--raw-hex", "11223344", "h"}, [](size_t) { return Answer::Interrupt; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "interrupted\n");
    EXPECT_EQ(r.err, "");

    r = run_fake({"--raw-hex", "11223344", "--expect", "none", "h"},
                 [](size_t) { return Answer::Interrupt; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: expected none, got: interrupted\n");

    r = run_fake({"-j", "--raw-hex", "11223344", "h"}, [](size_t) { return Answer::Interrupt; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, R"({"outcome":"interrupted"})"
                     "\n");
}

TEST(RunPing, RawWithoutExpectReportsAndSucceeds)
{
    Ran r = run_fake({"--raw-hex", "11223344", "h"}, [](size_t) { return Answer::Disconnect; });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "disconnected (Send failed: test)\n");
}

TEST(RunPing, RawJson)
{
    Ran r = run_fake({"-j", "--raw-hex", "11223344", "h"}, [](size_t) { return Answer::ErrVers; });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, R"({"outcome":"rdma_error","error":"ERR_VERS 1-1","xid":"0x11223344","bytes":28})"
                     "\n");
    r = run_fake({"-j", "--raw-hex", "11223344", "h"}, [](size_t) { return Answer::Nothing; });
    EXPECT_EQ(r.out, R"({"outcome":"no_reply","waited_s":5.0})"
                     "\n");
}

TEST(RunPing, RawFile)
{
    char name[] = "/tmp/rdmactl-raw-XXXXXX";
    int fd = mkstemp(name);
    ASSERT_GE(fd, 0);
    std::vector<uint8_t> bytes(5000, 0xab);
    ASSERT_EQ(write(fd, bytes.data(), bytes.size()), ssize_t(bytes.size()));
    close(fd);
    Ran r = run_fake({"--raw", name, "h"}, [](size_t) { return Answer::Nothing; });
    std::remove(name);
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.sent, std::vector<std::vector<uint8_t>>{bytes});
    EXPECT_EQ(r.params.max_send, 5000u); // the buffer grows to the message
    EXPECT_EQ(r.params.inline_send, 4096u);

    r = run_fake({"--raw", "/nonexistent/rdmactl-raw", "h"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err.rfind("rdmactl: cannot open /nonexistent/rdmactl-raw: ", 0), 0u) << r.err;
}

// ---- --region ----

namespace {

constexpr uint32_t P = region_placeholder;
constexpr uint32_t rkey = 0xabcd1234;
constexpr uint64_t addr = 0x00007f0012340000;

// RDMA_MSG: a Read list of two segments (ours, then someone else's), a Write
// list of one chunk of two segments, a Reply chunk of one, and an RPC call
// whose words look like a placeholder segment.
std::vector<uint8_t> all_lists(uint32_t proc = XR_RDMA_MSG)
{
    return words({0x11223344, 1, 32, proc,
                  1, 40, P, 0x10000, 0, 0x200,       // Read: position 40, our offset 0x200
                  1, 40, 0x55, 0x10000, 0, 0x9000,   // Read: not ours
                  0,                                 // end of the Read list
                  1, 2, P, 4096, 0, 0, P, 8192, 1, 0, // Write chunk: two segments of ours
                  0,                                 // end of the Write list
                  1, 1, P, 1024, 0, 0x100000,        // Reply chunk
                  0x11223344, 0, 2, P, P, 0, 0});    // the call
}

} // namespace

TEST(PlaceRegion, EverySegmentOfOursInEveryList)
{
    std::vector<uint8_t> msg = all_lists();
    EXPECT_EQ(place_region(msg, rkey, addr), 4u);
    uint32_t hi = uint32_t(addr >> 32), lo = uint32_t(addr);
    EXPECT_EQ(msg, words({0x11223344, 1, 32, 0,
                          1, 40, rkey, 0x10000, hi, lo + 0x200,
                          1, 40, 0x55, 0x10000, 0, 0x9000,
                          0,
                          1, 2, rkey, 4096, hi, lo, rkey, 8192, hi + 1, lo,
                          0,
                          1, 1, rkey, 1024, hi, lo + 0x100000,
                          0x11223344, 0, 2, P, P, 0, 0}));
}

TEST(PlaceRegion, OffsetsCarryAndWrap)
{
    std::vector<uint8_t> msg =
        words({1, 1, 1, XR_RDMA_MSG, 0, 1, 1, P, 4, 0xffffffff, 0xffff0000, 0, 0});
    EXPECT_EQ(place_region(msg, rkey, 0x10000), 1u);
    EXPECT_EQ(msg, words({1, 1, 1, XR_RDMA_MSG, 0, 1, 1, rkey, 4, 0, 0, 0, 0}));
}

TEST(PlaceRegion, NoMsgAndMsgp)
{
    std::vector<uint8_t> msg = all_lists(XR_RDMA_NOMSG);
    EXPECT_EQ(place_region(msg, rkey, addr), 4u);

    // RDMA_MSGP: alignment and threshold words come before the lists.
    msg = words({1, 1, 1, XR_RDMA_MSGP, P, P, 0, 0, 1, 1, P, 8, 0, 0});
    EXPECT_EQ(place_region(msg, rkey, 0), 1u);
    EXPECT_EQ(msg, words({1, 1, 1, XR_RDMA_MSGP, P, P, 0, 0, 1, 1, rkey, 8, 0, 0}));
}

TEST(PlaceRegion, OtherProceduresAreLeftAlone)
{
    for (uint32_t proc : {3u, 4u, 5u, 0xffffffffu}) {
        std::vector<uint8_t> msg = all_lists(proc);
        std::vector<uint8_t> before = msg;
        EXPECT_EQ(place_region(msg, rkey, addr), 0u) << proc;
        EXPECT_EQ(msg, before) << proc;
    }
}

TEST(PlaceRegion, StopsAtABadDiscriminator)
{
    // A Read list item marked 2: nothing after it is a list any more.
    std::vector<uint8_t> msg = words({1, 1, 1, 0, 1, 0, P, 8, 0, 0, 2, 0, P, 8, 0, 0, 0, 0});
    EXPECT_EQ(place_region(msg, rkey, 0), 1u);
    EXPECT_EQ(msg, words({1, 1, 1, 0, 1, 0, rkey, 8, 0, 0, 2, 0, P, 8, 0, 0, 0, 0}));

    // A Write list ended by 7 leaves the Reply chunk alone.
    msg = words({1, 1, 1, 0, 0, 7, 1, 1, P, 8, 0, 0});
    EXPECT_EQ(place_region(msg, rkey, 0), 0u);
}

TEST(PlaceRegion, ACutMessageChangesOnlyWholeSegments)
{
    std::vector<uint8_t> full = all_lists();
    std::vector<uint8_t> placed = full;
    place_region(placed, rkey, addr);
    size_t last = 0;
    for (size_t len = 0; len <= full.size(); len++) {
        std::vector<uint8_t> msg(full.begin(), full.begin() + long(len));
        size_t n = place_region(msg, rkey, addr);
        EXPECT_GE(n, last) << len;
        last = n;
        // Changed bytes are those of a whole segment of the full result.
        for (size_t i = 0; i < len; i++) {
            if (msg[i] != full[i]) {
                EXPECT_EQ(msg[i], placed[i]) << len << ' ' << i;
            }
        }
        if (len >= 4 * (4 + 6) && len < 4 * (4 + 6 + 4)) {
            EXPECT_EQ(n, 1u) << len; // within the second Read segment
        }
    }
    EXPECT_EQ(last, 4u);
    // A huge segment count in a short message does not read past it.
    std::vector<uint8_t> msg = words({1, 1, 1, 0, 0, 1, 0xffffffff, P, 8, 0, 0});
    EXPECT_EQ(place_region(msg, rkey, 0), 1u);
}

TEST(RunPing, RawRegion)
{
    char name[] = "/tmp/rdmactl-region-XXXXXX";
    int fd = mkstemp(name);
    ASSERT_GE(fd, 0);
    close(fd);
    std::vector<uint8_t> msg = all_lists();
    std::string hex;
    for (uint8_t b : msg) {
        char two[3];
        std::snprintf(two, sizeof(two), "%02x", b);
        hex += two;
    }
    // The "server" writes four bytes at offset 8 of the region.
    Ran r = run_fake({"--raw-hex", hex, "--region", "300", "--region-out", name, "h"},
                     [](size_t) { return Answer::Success; }, false, [](FakeConnection &c) {
                         c.script = [&c](size_t) {
                             std::fill_n(c.region_bytes.begin() + 8, 4, 0xee);
                             return Answer::Success;
                         };
                     });
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.params.region_size, 300u);
    ASSERT_EQ(r.sent.size(), 1u);
    place_region(msg, rkey, addr);
    EXPECT_EQ(r.sent[0], msg);

    std::ifstream in(name, std::ios::binary);
    std::vector<uint8_t> out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(name);
    ASSERT_EQ(out.size(), 300u);
    for (size_t i = 0; i < out.size(); i++)
        EXPECT_EQ(out[i], i >= 8 && i < 12 ? 0xee : i % 251) << i;
}

TEST(RunPing, RawRegionWithoutPlaceholderWarns)
{
    Ran r = run_fake({"--raw-hex", "11223344 00000001 00000001 00000000 00000000 00000000 00000000", "--region", "64",
                      "h"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "rdmactl: warning: --region: no segment of the message has the handle "
                     "0xffffffff\n");
    EXPECT_EQ(r.params.region_size, 64u);
    EXPECT_EQ(run_fake({"--raw-hex", "00", "h"}).params.region_size, 0u);
}

TEST(RunPing, RawRegionOutUnwritable)
{
    Ran r = run_fake({"--raw-hex", "11223344", "--region", "64", "--region-out",
                      "/nonexistent/rdmactl-region", "--expect", "error", "h"},
                     [](size_t) { return Answer::ErrChunk; });
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "rdma_error ERR_CHUNK xid=0x11223344\n");
    EXPECT_NE(r.err.find("\nrdmactl: cannot open /nonexistent/rdmactl-region: "),
              std::string::npos)
        << r.err;
}
