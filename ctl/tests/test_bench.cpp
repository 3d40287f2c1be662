// SPDX-License-Identifier: GPL-2.0
// rdmactl bench: its command line, the requests and replies, the output
// (bench scripts read the JSON: its keys are pinned here), the progress
// bar, and run's wait over a scripted client and event source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <sstream>

#include <nlohmann/json.hpp>
#include <sys/socket.h>

#include <linux/xrpcrdma.h>

#include "argv.hpp"
#include "bench.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "helpers.hpp"
#include "msg.hpp"
#include "output.hpp"
#include "parse.hpp"

using namespace rdmactl;
using namespace testing_helpers;
using Json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

// ---- Command line ----

BenchRequest run_request(std::vector<std::string> args)
{
    Command cmd = parse(std::move(args));
    EXPECT_EQ(cmd.action, Action::Run);
    EXPECT_EQ(cmd.object, Object::Bench);
    EXPECT_EQ(cmd.verb, Verb::Run);
    return cmd.bench.value_or(BenchRequest{});
}

TEST(BenchCli, AddressAloneLeavesTheRestToTheKernel)
{
    for (auto args : std::vector<std::vector<std::string>>{
             {"bench", "10.0.0.1"}, {"bench", "run", "10.0.0.1"}, {"b", "r", "10.0.0.1"}}) {
        BenchRequest req = run_request(args);
        EXPECT_EQ(req.server.family, AF_INET) << args[1];
        EXPECT_EQ(req.server.addr, "10.0.0.1");
        EXPECT_EQ(req.server.port, 0);
        EXPECT_FALSE(req.transport || req.count || req.concurrency || req.program || req.version);
    }
}

TEST(BenchCli, EveryKeyword)
{
    BenchRequest req =
        run_request({"bench", "run", "10.0.0.1:2050", "transport", "rdma", "count", "2000",
                     "concurrency", "16", "program", "100005", "version", "4"});
    EXPECT_EQ(req.server.port, 2050);
    EXPECT_EQ(req.transport, uint32_t(XRPCRDMA_BENCH_TRANSPORT_RDMA));
    EXPECT_EQ(req.count, 2000u);
    EXPECT_EQ(req.concurrency, 16u);
    EXPECT_EQ(req.program, 100005u);
    EXPECT_EQ(req.version, 4u);
}

TEST(BenchCli, KeywordPrefixesAnyOrderAndLimits)
{
    BenchRequest req = run_request({"bench", "::1", "ver", "31", "conc", "128", "cou", "1000000",
                                    "tr", "tcp", "po", "20049", "prog", "0"});
    EXPECT_EQ(req.server.family, AF_INET6);
    EXPECT_EQ(req.server.addr, "::1");
    EXPECT_EQ(req.server.port, 20049);
    EXPECT_EQ(req.transport, uint32_t(XRPCRDMA_BENCH_TRANSPORT_TCP));
    EXPECT_EQ(req.count, 1000000u);
    EXPECT_EQ(req.concurrency, 128u);
    EXPECT_EQ(req.program, 0u);
    EXPECT_EQ(req.version, 31u);
}

TEST(BenchCli, Ipv6Forms)
{
    BenchRequest bracketed = run_request({"bench", "run", "[fe80:0::1]:20049"});
    EXPECT_EQ(bracketed.server.family, AF_INET6);
    EXPECT_EQ(bracketed.server.addr, "fe80::1"); // normalised
    EXPECT_EQ(bracketed.server.port, 20049);
    BenchRequest bare = run_request({"bench", "run", "[2001:db8::2]"});
    EXPECT_EQ(bare.server.addr, "2001:db8::2");
    EXPECT_EQ(bare.server.port, 0);
}

TEST(BenchCli, RdmaOpsTakeSizeAndQps)
{
    BenchRequest req = run_request({"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "1M",
                                    "qps", "4", "count", "10000", "concurrency", "16"});
    EXPECT_EQ(req.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_WRITE));
    EXPECT_EQ(req.size, 1048576u);
    EXPECT_EQ(req.qps, 4u);
    EXPECT_EQ(req.count, 10000u);
    EXPECT_EQ(req.concurrency, 16u);
    EXPECT_FALSE(req.transport || req.program || req.version);
    // No port: the kernel's default (any free one).
    EXPECT_EQ(req.server.port, 0);

    BenchRequest read =
        run_request({"bench", "[::1]:41000", "o", "rdma-read", "s", "4M", "q", "16"});
    EXPECT_EQ(read.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_READ));
    EXPECT_EQ(read.server.port, 41000);
    EXPECT_EQ(read.size, uint32_t(XRPCRDMA_BENCH_MAX_SIZE));
    EXPECT_EQ(read.qps, uint32_t(XRPCRDMA_BENCH_MAX_QPS));
}

TEST(BenchCli, OnlyWhatIsGivenIsSet)
{
    BenchRequest alone = run_request({"bench", "run", "10.0.0.1", "op", "rdma-read"});
    EXPECT_EQ(alone.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_READ));
    EXPECT_FALSE(alone.size || alone.qps || alone.count || alone.concurrency);
    EXPECT_EQ(alone.server.port, 0);
    BenchRequest rpc = run_request({"bench", "10.0.0.1", "op", "rpc-null", "transport", "rdma"});
    EXPECT_EQ(rpc.op, uint32_t(XRPCRDMA_BENCH_OP_RPC_NULL));
    EXPECT_EQ(rpc.transport, uint32_t(XRPCRDMA_BENCH_TRANSPORT_RDMA));
    EXPECT_FALSE(run_request({"bench", "10.0.0.1"}).op);
}

TEST(BenchCli, SizeInBytesKibOrMib)
{
    const std::pair<const char *, uint32_t> sizes[] = {
        {"1", 1},         {"4096", 4096},     {"4194304", 4194304}, {"64K", 65536},
        {"64KiB", 65536}, {"4096K", 4194304}, {"1M", 1048576},      {"1MiB", 1048576},
        {"4M", 4194304},  {"4MiB", 4194304},  {"0001K", 1024},
    };
    for (const auto &[word, bytes] : sizes)
        EXPECT_EQ(run_request({"bench", "10.0.0.1", "op", "rdma-write", "size", word}).size, bytes)
            << word;
}

TEST(BenchCli, OptionsAnywhere)
{
    Command cmd = parse({"bench", "run", "10.0.0.1", "-j", "count", "5"});
    EXPECT_TRUE(cmd.output.json);
    EXPECT_EQ(cmd.bench.value().count, 5u);
}

TEST(BenchCli, Show)
{
    Command all = parse({"bench", "show"});
    EXPECT_EQ(all.object, Object::Bench);
    EXPECT_EQ(all.verb, Verb::Show);
    EXPECT_FALSE(all.bench_id);
    Command one = parse({"-j", "bench", "sh", "7"});
    EXPECT_EQ(one.verb, Verb::Show);
    EXPECT_EQ(one.bench_id, 7u);
    EXPECT_FALSE(one.bench);
}

TEST(BenchCli, Help)
{
    for (auto args : std::vector<std::vector<std::string>>{
             {"bench", "help"}, {"help", "bench"}, {"bench", "--help"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.action, Action::Help);
        EXPECT_EQ(cmd.object, Object::Bench);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Bench, UsageErrors,
    ::testing::Values(
        Refusal{{"bench"}, "'bench run' needs an address: ADDR[:PORT]"},
        Refusal{{"bench", "run"}, "'bench run' needs an address: ADDR[:PORT]"},
        Refusal{{"bench", "run", "nfs.example"},
               "invalid address 'nfs.example': expected an IPv4 or IPv6 address, with :PORT if "
               "wanted"},
        Refusal{{"bench", "run", "10.0.0.256"},
               "invalid address '10.0.0.256': expected an IPv4 or IPv6 address, with :PORT if "
               "wanted"},
        Refusal{{"bench", "run", "[::1"}, "invalid address '[::1': no closing ']'"},
        Refusal{{"bench", "run", "10.0.0.1:"}, "invalid address '10.0.0.1:': empty port"},
        Refusal{{"bench", "run", "10.0.0.1:0"},
               "invalid port '0': expected a whole number from 1 to 65535"},
        Refusal{{"bench", "run", "10.0.0.1", "port", "65536"},
               "invalid port '65536': expected 1 to 65535"},
        Refusal{{"bench", "run", "10.0.0.1:2049", "port", "2049"}, "'port' given more than once"},
        Refusal{{"bench", "run", "10.0.0.1", "transport", "udp"},
               "invalid transport 'udp': expected tcp or rdma"},
        Refusal{{"bench", "run", "10.0.0.1", "count", "0"},
               "invalid count '0': expected 1 to 1000000"},
        Refusal{{"bench", "run", "10.0.0.1", "count", "1000001"},
               "invalid count '1000001': expected 1 to 1000000"},
        Refusal{{"bench", "run", "10.0.0.1", "count", "-1"},
               "invalid count '-1': expected 1 to 1000000"},
        Refusal{{"bench", "run", "10.0.0.1", "concurrency", "129"},
               "invalid concurrency '129': expected 1 to 128"},
        Refusal{{"bench", "run", "10.0.0.1", "version", "0"},
               "invalid version '0': expected 1 to 31"},
        Refusal{{"bench", "run", "10.0.0.1", "version", "32"},
               "invalid version '32': expected 1 to 31"},
        Refusal{{"bench", "run", "10.0.0.1", "program", "x"},
               "invalid program 'x': expected 1 to 4294967295"},
        Refusal{{"bench", "run", "10.0.0.1", "count"}, "'count' needs a value"},
        Refusal{{"bench", "run", "10.0.0.1", "count", "1", "count", "2"},
               "'count' given more than once"},
        Refusal{{"bench", "run", "10.0.0.1", "c", "1"},
               "ambiguous bench setting 'c': count, concurrency"},
        Refusal{{"bench", "run", "10.0.0.1", "bogus", "1"}, "unknown bench setting 'bogus'"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma"},
               "invalid op 'rdma': expected rpc-null, rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "RDMA-WRITE"},
               "invalid op 'RDMA-WRITE': expected rpc-null, rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "op"}, "'op' needs a value"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-read", "op", "rdma-read"},
               "'op' given more than once"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "0"},
               "invalid size '0': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "4194305"},
               "invalid size '4194305': expected 1 to 4194304 bytes, or a number with K, KiB, M "
               "or MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "5M"},
               "invalid size '5M': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "4097K"},
               "invalid size '4097K': expected 1 to 4194304 bytes, or a number with K, KiB, M "
               "or MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "0M"},
               "invalid size '0M': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "1G"},
               "invalid size '1G': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "1k"},
               "invalid size '1k': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "1.5M"},
               "invalid size '1.5M': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "M"},
               "invalid size 'M': expected 1 to 4194304 bytes, or a number with K, KiB, M or "
               "MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "size", "99999999999K"},
               "invalid size '99999999999K': expected 1 to 4194304 bytes, or a number with K, "
               "KiB, M or MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "qps", "0"},
               "invalid qps '0': expected 1 to 16"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "qps", "17"},
               "invalid qps '17': expected 1 to 16"},
        Refusal{{"bench", "run", "10.0.0.1", "size", "1M"},
               "'size' needs op rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "qps", "2"}, "'qps' needs op rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rpc-null", "size", "1M"},
               "'size' needs op rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rpc-null", "qps", "2"},
               "'qps' needs op rdma-write or rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "transport", "rdma"},
               "'transport' is for op rpc-null, not rdma-write"},
        Refusal{{"bench", "run", "10.0.0.1", "transport", "tcp", "op", "rdma-read"},
               "'transport' is for op rpc-null, not rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "reply-size", "65537"},
               "invalid reply-size '65537': expected 0 to 65536 bytes, or a number with K, KiB, "
               "M or MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "reply-size", "1M"},
               "invalid reply-size '1M': expected 0 to 65536 bytes, or a number with K, KiB, "
               "M or MiB (1K = 1024 bytes)"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-write", "reply-size", "8K"},
               "'reply-size' is for op rpc-null, not rdma-write"},
        Refusal{{"bench", "run", "10.0.0.1", "op", "rdma-read", "program", "100003"},
               "'program' is for op rpc-null, not rdma-read"},
        Refusal{{"bench", "run", "10.0.0.1", "version", "3", "op", "rdma-write"},
               "'version' is for op rpc-null, not rdma-write"},
        Refusal{{"bench", "show", "0"}, "invalid bench id '0': expected 1 to 4294967295"},
        Refusal{{"bench", "show", "1", "2"}, "unexpected argument '2' for 'bench show'"}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

// ---- Requests ----

TEST(BenchRequestMsg, EverythingGiven)
{
    BenchRequest req;
    req.server = SockAddr{AF_INET, "10.99.0.1", 20049};
    req.transport = XRPCRDMA_BENCH_TRANSPORT_RDMA;
    req.program = 100005;
    req.version = 4;
    req.count = 2000;
    req.concurrency = 16;
    MsgPtr msg = bench_run_request(test_family, req);
    EXPECT_EQ(hdr(msg)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(static_cast<const genlmsghdr *>(nlmsg_data(hdr(msg)))->cmd, XRPCRDMA_CMD_BENCH_RUN);
    EXPECT_EQ(attr_types(msg), (std::vector<int>{XRPCRDMA_A_BENCH_TRANSPORT, XRPCRDMA_A_BENCH_ADDR4,
                                                 XRPCRDMA_A_BENCH_PORT, XRPCRDMA_A_BENCH_PROGRAM,
                                                 XRPCRDMA_A_BENCH_VERSION, XRPCRDMA_A_BENCH_COUNT,
                                                 XRPCRDMA_A_BENCH_CONCURRENCY}));
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_ADDR4)), htonl(0x0a630001));
    // The spec gives the request's port no byte order: host order.
    EXPECT_EQ(nla_get_u16(find_attr(msg, XRPCRDMA_A_BENCH_PORT)), 20049);
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_TRANSPORT)),
              uint32_t(XRPCRDMA_BENCH_TRANSPORT_RDMA));
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_COUNT)), 2000u);
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_CONCURRENCY)), 16u);
}

TEST(BenchRequestMsg, ReplySize)
{
    Command cmd = parse({"bench", "run", "10.99.0.1", "transport", "rdma", "reply-size", "16K"});
    ASSERT_TRUE(cmd.bench);
    EXPECT_EQ(cmd.bench->reply_size, 16384u);
    EXPECT_EQ(parse({"bench", "run", "10.99.0.1", "reply-size", "0"}).bench->reply_size, 0u);
    EXPECT_EQ(parse({"bench", "run", "10.99.0.1", "reply-size", "64KiB"}).bench->reply_size,
              uint32_t(XRPCRDMA_BENCH_MAX_REPLY_SIZE));
    MsgPtr msg = bench_run_request(test_family, *cmd.bench);
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_REPLY_SIZE)), 16384u);
}

TEST(BenchRequestMsg, OnlyTheAddress)
{
    BenchRequest req;
    req.server = SockAddr{AF_INET6, "fe80::1", 0};
    MsgPtr msg = bench_run_request(test_family, req);
    EXPECT_EQ(attr_types(msg), std::vector<int>{XRPCRDMA_A_BENCH_ADDR6});
    const nlattr *a6 = find_attr(msg, XRPCRDMA_A_BENCH_ADDR6);
    ASSERT_EQ(nla_len(a6), 16);
    const auto *bytes = static_cast<const unsigned char *>(nla_data(a6));
    EXPECT_EQ(bytes[0], 0xfe);
    EXPECT_EQ(bytes[1], 0x80);
    EXPECT_EQ(bytes[15], 1);
}

TEST(BenchRequestMsg, RdmaOp)
{
    BenchRequest req;
    req.server = SockAddr{AF_INET, "10.99.0.1", 0};
    req.op = XRPCRDMA_BENCH_OP_RDMA_WRITE;
    req.size = 65536;
    req.qps = 4;
    req.count = 10000;
    MsgPtr msg = bench_run_request(test_family, req);
    // No port (the kernel picks a free one), transport, program or version.
    EXPECT_EQ(attr_types(msg),
              (std::vector<int>{XRPCRDMA_A_BENCH_ADDR4, XRPCRDMA_A_BENCH_COUNT, XRPCRDMA_A_BENCH_OP,
                                XRPCRDMA_A_BENCH_SIZE, XRPCRDMA_A_BENCH_QPS}));
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_OP)),
              uint32_t(XRPCRDMA_BENCH_OP_RDMA_WRITE));
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_SIZE)), 65536u);
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_QPS)), 4u);
}

TEST(BenchRequestMsg, OpAsGiven)
{
    BenchRequest req;
    req.server = SockAddr{AF_INET, "10.99.0.1", 41000};
    req.op = XRPCRDMA_BENCH_OP_RPC_NULL;
    MsgPtr msg = bench_run_request(test_family, req);
    EXPECT_EQ(attr_types(msg), (std::vector<int>{XRPCRDMA_A_BENCH_ADDR4, XRPCRDMA_A_BENCH_PORT,
                                                 XRPCRDMA_A_BENCH_OP}));
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_BENCH_OP)),
              uint32_t(XRPCRDMA_BENCH_OP_RPC_NULL));
    EXPECT_EQ(nla_get_u16(find_attr(msg, XRPCRDMA_A_BENCH_PORT)), 41000);
}

TEST(BenchRequestMsg, BadAddressIsRefused)
{
    BenchRequest req;
    req.server = SockAddr{AF_INET, "::1", 0};
    EXPECT_THROW(bench_run_request(test_family, req), std::invalid_argument);
    req.server = SockAddr{0, "10.0.0.1", 0};
    EXPECT_THROW(bench_run_request(test_family, req), std::invalid_argument);
}

TEST(BenchRequestMsg, GetAndDump)
{
    MsgPtr get = bench_get_request(test_family, 9);
    EXPECT_EQ(hdr(get)->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(attr_types(get), std::vector<int>{XRPCRDMA_A_BENCH_ID});
    EXPECT_EQ(nla_get_u32(find_attr(get, XRPCRDMA_A_BENCH_ID)), 9u);
    MsgPtr dump = bench_dump_request(test_family);
    EXPECT_EQ(hdr(dump)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_EQ(static_cast<const genlmsghdr *>(nlmsg_data(hdr(dump)))->cmd, XRPCRDMA_CMD_BENCH_GET);
}

// ---- Replies ----

TEST(BenchParse, Finished)
{
    Bench b = parse_bench(hdr(bench_reply(false)));
    EXPECT_EQ(b.id, 3u);
    EXPECT_EQ(b.transport, uint32_t(XRPCRDMA_BENCH_TRANSPORT_TCP));
    EXPECT_EQ(b.server.family, AF_INET);
    EXPECT_EQ(b.server.addr, "10.99.0.1");
    EXPECT_EQ(b.server.port, 2049); // sent in network byte order
    EXPECT_EQ(b.program, 100003u);
    EXPECT_EQ(b.version, 3u);
    EXPECT_EQ(b.count, 2000u);
    EXPECT_EQ(b.concurrency, 16u);
    EXPECT_FALSE(b.running);
    EXPECT_EQ(b.done, 2000u);
    EXPECT_EQ(b.errors, 0u);
    ASSERT_TRUE(b.result);
    EXPECT_EQ(b.result->status, 0);
    EXPECT_EQ(b.result->elapsed_ns, 250000000u);
    EXPECT_EQ(b.result->ops_per_sec, 8000u);
    EXPECT_EQ(b.result->lat_p50_ns, 52100u);
    EXPECT_EQ(b.result->lat_p99_ns, 120000u);
    EXPECT_EQ(b.result->lat_p999_ns, 300000u);
    EXPECT_EQ(b.result->lat_max_ns, 1200000u);
}

TEST(BenchParse, RpcNullHasNoRdmaFigures)
{
    Bench b = parse_bench(hdr(bench_reply(false)));
    EXPECT_EQ(b.op, uint32_t(XRPCRDMA_BENCH_OP_RPC_NULL));
    EXPECT_FALSE(b.size || b.qps);
    ASSERT_TRUE(b.result);
    EXPECT_FALSE(b.result->bytes_per_sec);
}

TEST(BenchParse, ReplySizeOnlyWhenSent)
{
    EXPECT_FALSE(parse_bench(hdr(bench_reply(false))).reply_size);
    MsgPtr msg = bench_reply(false);
    ASSERT_GE(nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_REPLY_SIZE, 16384), 0);
    Bench b = parse_bench(hdr(msg));
    EXPECT_EQ(b.reply_size, 16384u);
    EXPECT_EQ(bench_text(b),
              "3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 reply-size 16KiB "
              "count 2000 concurrency 16 finished\n"
              "    done 2000 errors 0 status 0 elapsed 250ms ops/s 8000\n"
              "    latency p50 52.1us p99 120us p99.9 300us max 1.20ms\n");
    EXPECT_EQ(bench_json(b)["reply-size"], 16384);
}

TEST(BenchParse, WithoutOpItIsRpcNull)
{
    Bench b = parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_OP})));
    EXPECT_EQ(b.op, uint32_t(XRPCRDMA_BENCH_OP_RPC_NULL));
    EXPECT_EQ(b.transport, uint32_t(XRPCRDMA_BENCH_TRANSPORT_TCP));
}

TEST(BenchParse, RdmaFinished)
{
    Bench b = parse_bench(hdr(rdma_bench_reply(false)));
    EXPECT_EQ(b.id, 4u);
    EXPECT_EQ(b.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_WRITE));
    EXPECT_EQ(b.server.addr, "10.99.0.1");
    EXPECT_EQ(b.server.port, 41000); // the port the listener got
    EXPECT_EQ(b.size, 1048576u);
    EXPECT_EQ(b.qps, 4u);
    EXPECT_EQ(b.count, 10000u);
    EXPECT_EQ(b.concurrency, 16u);
    EXPECT_FALSE(b.running);
    ASSERT_TRUE(b.result);
    EXPECT_EQ(b.result->ops_per_sec, 1170u);
    EXPECT_EQ(b.result->bytes_per_sec, 1227133513u);
    EXPECT_EQ(b.result->lat_p50_ns, 54100000u);
    EXPECT_EQ(parse_bench(hdr(rdma_bench_reply(false, XRPCRDMA_BENCH_OP_RDMA_READ))).op,
              uint32_t(XRPCRDMA_BENCH_OP_RDMA_READ));
}

TEST(BenchParse, RdmaRunning)
{
    Bench b = parse_bench(hdr(rdma_bench_reply(true)));
    EXPECT_TRUE(b.running);
    EXPECT_EQ(b.size, 1048576u);
    EXPECT_EQ(b.qps, 4u);
    EXPECT_FALSE(b.result);
}

TEST(BenchParse, RdmaMissingAttributes)
{
    // The message outlives the parse: hdr() points into it.
    auto without = [](int type, bool running = false) {
        return rdma_bench_reply(running, XRPCRDMA_BENCH_OP_RDMA_WRITE, {type});
    };
    EXPECT_THROW(parse_bench(hdr(without(XRPCRDMA_A_BENCH_SIZE))), ProtocolError);
    EXPECT_THROW(parse_bench(hdr(without(XRPCRDMA_A_BENCH_QPS, true))), ProtocolError);
    EXPECT_THROW(parse_bench(hdr(without(XRPCRDMA_A_BENCH_BYTES_PER_SEC))), ProtocolError);
    // A running benchmark has no figures yet.
    EXPECT_NO_THROW(parse_bench(hdr(without(XRPCRDMA_A_BENCH_BYTES_PER_SEC, true))));
    // Those of an RPC benchmark are what an RDMA op still sends.
    EXPECT_THROW(parse_bench(hdr(without(XRPCRDMA_A_BENCH_TRANSPORT))), ProtocolError);
    MsgPtr wide = rdma_bench_reply(false, XRPCRDMA_BENCH_OP_RDMA_WRITE, {XRPCRDMA_A_BENCH_SIZE});
    uint64_t size = 1048576;
    put_raw(wide.get(), XRPCRDMA_A_BENCH_SIZE, &size, sizeof(size));
    EXPECT_THROW(parse_bench(hdr(wide)), ProtocolError);
}

TEST(BenchParse, NegativeStatus)
{
    Bench b = parse_bench(hdr(bench_reply(false, -ECONNREFUSED)));
    ASSERT_TRUE(b.result);
    EXPECT_EQ(b.result->status, -ECONNREFUSED);
}

TEST(BenchParse, RunningHasNoResult)
{
    Bench b = parse_bench(hdr(bench_reply(true)));
    EXPECT_TRUE(b.running);
    EXPECT_EQ(b.done, 700u);
    EXPECT_FALSE(b.result);
}

TEST(BenchParse, MissingOrWrongAttributes)
{
    EXPECT_THROW(parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_ID}))), ProtocolError);
    EXPECT_THROW(parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_ADDR4}))), ProtocolError);
    EXPECT_THROW(parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_PORT}))), ProtocolError);
    EXPECT_THROW(parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_RUNNING}))),
                 ProtocolError);
    EXPECT_THROW(parse_bench(hdr(bench_reply(false, 0, {XRPCRDMA_A_BENCH_LAT_MAX_NS}))),
                 ProtocolError);
    MsgPtr both = bench_reply(false);
    unsigned char a6[16] = {};
    put_raw(both.get(), XRPCRDMA_A_BENCH_ADDR6, a6, sizeof(a6));
    EXPECT_THROW(parse_bench(hdr(both)), ProtocolError);
    MsgPtr short_count = bench_reply(false, 0, {XRPCRDMA_A_BENCH_COUNT});
    uint16_t two = 2;
    put_raw(short_count.get(), XRPCRDMA_A_BENCH_COUNT, &two, sizeof(two));
    EXPECT_THROW(parse_bench(hdr(short_count)), ProtocolError);
}

TEST(BenchParse, RunReplyId)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_BENCH_RUN);
    nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_ID, 12);
    EXPECT_EQ(parse_bench_id(hdr(msg)), 12u);
    EXPECT_THROW(parse_bench_id(hdr(new_genl_msg(XRPCRDMA_CMD_BENCH_RUN))), ProtocolError);
}

TEST(BenchParse, Events)
{
    Event progress = parse_event(hdr(bench_progress_event(1400, 2)));
    EXPECT_EQ(progress.type, EventType::BenchProgress);
    EXPECT_EQ(progress.bench.id, 3u);
    EXPECT_EQ(progress.bench.count, 2000u);
    EXPECT_EQ(progress.bench.done, 1400u);
    EXPECT_EQ(progress.bench.errors, 2u);
    EXPECT_FALSE(progress.bench.result);

    Event done = parse_event(hdr(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF)));
    EXPECT_EQ(done.type, EventType::BenchDone);
    EXPECT_EQ(done.bench.server.addr, "10.99.0.1");
    ASSERT_TRUE(done.bench.result);
    EXPECT_EQ(done.bench.result->ops_per_sec, 8000u);

    Event rdma = parse_event(
        hdr(rdma_bench_reply(false, XRPCRDMA_BENCH_OP_RDMA_READ, {}, XRPCRDMA_CMD_BENCH_DONE_NTF)));
    EXPECT_EQ(rdma.type, EventType::BenchDone);
    EXPECT_EQ(rdma.bench.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_READ));
    EXPECT_EQ(rdma.bench.result.value().bytes_per_sec, 1227133513u);

    MsgPtr no_done = new_genl_msg(XRPCRDMA_CMD_BENCH_PROGRESS_NTF);
    nla_put_u32(no_done.get(), XRPCRDMA_A_BENCH_ID, 3);
    EXPECT_THROW(parse_event(hdr(no_done)), ProtocolError);
}

// ---- Output ----

Bench finished(int32_t status = 0)
{
    return parse_bench(hdr(bench_reply(false, status)));
}

TEST(BenchOutput, ResultText)
{
    EXPECT_EQ(bench_text(finished()),
              "3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count 2000 "
              "concurrency 16 finished\n"
              "    done 2000 errors 0 status 0 elapsed 250ms ops/s 8000\n"
              "    latency p50 52.1us p99 120us p99.9 300us max 1.20ms\n");
}

TEST(BenchOutput, StoppedText)
{
    EXPECT_EQ(bench_text(finished(-ECONNREFUSED)),
              "3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count 2000 "
              "concurrency 16 stopped\n"
              "    done 2000 errors 2000 status ECONNREFUSED elapsed 250ms ops/s 0\n"
              "    latency p50 0ns p99 0ns p99.9 0ns max 0ns\n");
}

TEST(BenchOutput, RunningText)
{
    EXPECT_EQ(bench_text(parse_bench(hdr(bench_reply(true)))),
              "3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count 2000 "
              "concurrency 16 running\n"
              "    done 700 errors 0\n");
}

TEST(BenchOutput, ResultJsonKeysAndTypes)
{
    EXPECT_EQ(bench_json(finished()).dump(),
              R"({"id":3,"op":"rpc-null","transport":"tcp","addr":"10.99.0.1","port":2049,)"
              R"("program":100003,"version":3,"count":2000,"concurrency":16,"running":false,)"
              R"("done":2000,"errors":0,"status":0,"elapsed-ns":250000000,"ops-per-sec":8000,)"
              R"("lat-p50-ns":52100,"lat-p99-ns":120000,"lat-p999-ns":300000,)"
              R"("lat-max-ns":1200000})");
}

TEST(BenchOutput, StoppedJsonNamesTheErrno)
{
    Json j = Json::parse(bench_json(finished(-ECONNREFUSED)).dump());
    EXPECT_EQ(j["status"], "ECONNREFUSED");
    EXPECT_EQ(j.size(), 19u);
}

TEST(BenchOutput, RunningJsonHasNoResultKeys)
{
    EXPECT_EQ(bench_json(parse_bench(hdr(bench_reply(true)))).dump(),
              R"({"id":3,"op":"rpc-null","transport":"tcp","addr":"10.99.0.1","port":2049,)"
              R"("program":100003,"version":3,"count":2000,"concurrency":16,"running":true,)"
              R"("done":700,"errors":0})");
}

TEST(BenchOutput, Ipv6AndRdma)
{
    Bench b = finished();
    b.transport = XRPCRDMA_BENCH_TRANSPORT_RDMA;
    b.server = SockAddr{AF_INET6, "fe80::1", 20049};
    EXPECT_EQ(bench_text(b).substr(0, 43), "3: rpc-null rdma server [fe80::1]:20049 pro");
    Json j = Json::parse(bench_json(b).dump());
    EXPECT_EQ(j["transport"], "rdma");
    EXPECT_EQ(j["addr"], "fe80::1");
    EXPECT_EQ(j["port"], 20049);
}

Bench finished_rdma(uint32_t op = XRPCRDMA_BENCH_OP_RDMA_WRITE)
{
    return parse_bench(hdr(rdma_bench_reply(false, op)));
}

TEST(BenchOutput, RdmaResultText)
{
    EXPECT_EQ(bench_text(finished_rdma()),
              "4: rdma-write local 10.99.0.1:41000 size 1MiB qps 4 count 10000 concurrency 16 "
              "finished\n"
              "    done 10000 errors 0 status 0 elapsed 8.54s ops/s 1170 MiB/s 1170.3\n"
              "    latency p50 54.1ms p99 61.2ms p99.9 63.0ms max 70.5ms\n");
    EXPECT_EQ(bench_text(finished_rdma(XRPCRDMA_BENCH_OP_RDMA_READ)).substr(0, 47),
              "4: rdma-read local 10.99.0.1:41000 size 1MiB qp");
}

TEST(BenchOutput, RdmaRunningText)
{
    EXPECT_EQ(bench_text(parse_bench(hdr(rdma_bench_reply(true)))),
              "4: rdma-write local 10.99.0.1:41000 size 1MiB qps 4 count 10000 concurrency 16 "
              "running\n"
              "    done 2500 errors 0\n");
}

TEST(BenchOutput, RdmaResultJsonKeysAndTypes)
{
    EXPECT_EQ(bench_json(finished_rdma()).dump(),
              R"({"id":4,"op":"rdma-write","addr":"10.99.0.1","port":41000,"size":1048576,)"
              R"("qps":4,"count":10000,"concurrency":16,"running":false,"done":10000,)"
              R"("errors":0,"status":0,"elapsed-ns":8544800000,"ops-per-sec":1170,)"
              R"("bytes-per-sec":1227133513,"lat-p50-ns":54100000,"lat-p99-ns":61200000,)"
              R"("lat-p999-ns":63000000,"lat-max-ns":70500000})");
}

TEST(BenchOutput, RdmaRunningJson)
{
    EXPECT_EQ(bench_json(parse_bench(hdr(rdma_bench_reply(true)))).dump(),
              R"({"id":4,"op":"rdma-write","addr":"10.99.0.1","port":41000,"size":1048576,)"
              R"("qps":4,"count":10000,"concurrency":16,"running":true,"done":2500,)"
              R"("errors":0})");
}

TEST(BenchOutput, MibPerSecondToATenth)
{
    Bench b = finished_rdma();
    const std::pair<uint64_t, std::string> cases[] = {
        {0, "MiB/s 0.0\n"},
        {1048576, "MiB/s 1.0\n"},
        {1100000, "MiB/s 1.0\n"}, // 1.049 MiB
        {1153433, "MiB/s 1.1\n"}, // 1.09999 MiB
        {12884901888, "MiB/s 12288.0\n"},
    };
    for (const auto &[bytes, text] : cases) {
        b.result->bytes_per_sec = bytes;
        std::string out = bench_text(b);
        EXPECT_NE(out.find(" ops/s 1170 " + text), std::string::npos) << out;
    }
}

TEST(BenchOutput, OpAndSizeNames)
{
    EXPECT_EQ(bench_op_name(XRPCRDMA_BENCH_OP_RPC_NULL), "rpc-null");
    EXPECT_EQ(bench_op_name(XRPCRDMA_BENCH_OP_RDMA_WRITE), "rdma-write");
    EXPECT_EQ(bench_op_name(XRPCRDMA_BENCH_OP_RDMA_READ), "rdma-read");
    EXPECT_EQ(bench_op_name(9), "9");
    EXPECT_EQ(bench_op_by_name("rdma-read"), uint32_t(XRPCRDMA_BENCH_OP_RDMA_READ));
    EXPECT_FALSE(bench_op_by_name("rdma"));
    EXPECT_EQ(bench_size_text(4194304), "4MiB");
    EXPECT_EQ(bench_size_text(65536), "64KiB");
    EXPECT_EQ(bench_size_text(1536), "1536");
    EXPECT_EQ(bench_size_text(1), "1");
}

TEST(BenchOutput, UnknownOpShowsItsNumberAndNoRpcSettings)
{
    Bench b = parse_bench(hdr(bench_reply(false)));
    b.op = 9;
    EXPECT_EQ(bench_text(b).substr(0, 38), "3: 9 local 10.99.0.1:2049 count 2000 c");
    Json j = Json::parse(bench_json(b).dump());
    EXPECT_EQ(j["op"], "9");
    EXPECT_FALSE(j.contains("transport") || j.contains("program") || j.contains("version"));
}

TEST(BenchOutput, PrintShowsAnArrayOrAnObject)
{
    OutputOptions json;
    json.json = true;
    std::ostringstream list, one, text;
    print_benches(list, {finished(), finished(-EIO)}, json);
    Json array = Json::parse(list.str());
    ASSERT_TRUE(array.is_array());
    ASSERT_EQ(array.size(), 2u);
    EXPECT_EQ(array[1]["status"], "EIO");
    print_bench(one, finished(), json);
    EXPECT_TRUE(Json::parse(one.str()).is_object());
    print_benches(text, {}, OutputOptions{});
    EXPECT_EQ(text.str(), "");
}

TEST(BenchOutput, StatusNames)
{
    EXPECT_EQ(bench_status_name(0), "0");
    EXPECT_EQ(bench_status_name(-ETIMEDOUT), "ETIMEDOUT");
    EXPECT_EQ(bench_status_name(-EPROTONOSUPPORT), "EPROTONOSUPPORT"); // from the C library
    EXPECT_EQ(bench_status_name(-524), "524");                         // kernel-internal
    EXPECT_EQ(bench_transport_name(7), "7");
    EXPECT_EQ(bench_transport_by_name("rdma"), uint32_t(XRPCRDMA_BENCH_TRANSPORT_RDMA));
    EXPECT_FALSE(bench_transport_by_name("RDMA"));
}

TEST(BenchOutput, Durations)
{
    EXPECT_EQ(duration_text(0), "0ns");
    EXPECT_EQ(duration_text(999), "999ns");
    EXPECT_EQ(duration_text(1000), "1.00us");
    EXPECT_EQ(duration_text(52100), "52.1us");
    EXPECT_EQ(duration_text(120400), "120us");
    EXPECT_EQ(duration_text(1200000), "1.20ms");
    EXPECT_EQ(duration_text(2345000000), "2.35s");
    EXPECT_EQ(duration_text(600000000000), "600s");
}

TEST(BenchProgressBar, Fill)
{
    EXPECT_EQ(bench_progress_bar(0, 2000, 0), "[--------------------] 0/2000   0% errors 0");
    EXPECT_EQ(bench_progress_bar(700, 2000, 3), "[#######-------------] 700/2000  35% errors 3");
    EXPECT_EQ(bench_progress_bar(2000, 2000, 0), "[####################] 2000/2000 100% errors 0");
}

TEST(BenchProgressBar, OddValuesStayInTheBar)
{
    // More done than count (should never be), or no count known yet.
    EXPECT_EQ(bench_progress_bar(5, 4, 0), "[####################] 5/4 100% errors 0");
    EXPECT_EQ(bench_progress_bar(0, 0, 0), "[--------------------] 0/0   0% errors 0");
    EXPECT_EQ(bench_progress_bar(1, 3, 0).find('\r'), std::string::npos);
    EXPECT_EQ(bench_progress_bar(1, 3, 0).find('\n'), std::string::npos);
}

// ---- The wait and the command ----

// What the fake client and source did, in order, and how they behave.
struct BenchScript {
    std::vector<std::string> calls;
    BenchRequest request; // the last one run
    std::function<uint32_t()> run = [] { return 3u; };
    std::deque<Bench> polls;                // bench-get answers; the last one repeats
    std::deque<std::vector<Event>> batches; // each wait's events; then none
    bool stop_when_empty = false;           // then ask for a stop (Ctrl-C)
};

class BenchClient : public Client {
public:
    explicit BenchClient(BenchScript &s) : s_(s) {}

    uint32_t run_bench(const BenchRequest &req) override
    {
        s_.calls.push_back("run " + req.server.addr);
        s_.request = req;
        return s_.run();
    }
    Bench get_bench(uint32_t id) override
    {
        s_.calls.push_back("get " + std::to_string(id));
        Bench b = s_.polls.front();
        if (s_.polls.size() > 1)
            s_.polls.pop_front();
        return b;
    }
    std::vector<Bench> list_benches() override { return unused<std::vector<Bench>>(); }
    std::vector<Device> list_devices() override { return unused<std::vector<Device>>(); }
    Device get_device(const std::string &) override { return unused<Device>(); }
    void set_device_enabled(const std::string &, bool) override { unused<int>(); }
    ModuleInfo get_module() override { return unused<ModuleInfo>(); }
    std::vector<Transport> list_transports() override { return unused<std::vector<Transport>>(); }
    Transport get_transport(uint32_t) override { return unused<Transport>(); }
    std::vector<Transport> list_listeners() override { return unused<std::vector<Transport>>(); }
    void delete_listener(uint32_t) override { unused<int>(); }
    Stats get_stats() override { return unused<Stats>(); }
    std::vector<Fault> list_faults() override { return unused<std::vector<Fault>>(); }
    void set_fault(const Fault &) override { unused<int>(); }
    Config get_config(std::optional<uint32_t>) override { return unused<Config>(); }
    void set_config(std::optional<uint32_t>, const std::vector<ConfigValue> &) override
    {
        unused<int>();
    }
    void add_nfsd_listener(const std::string &, uint16_t) override { unused<int>(); }

private:
    template <typename T> T unused()
    {
        ADD_FAILURE() << "bench run made another request";
        return T{};
    }

    BenchScript &s_;
};

class ScriptedSource : public EventSource {
public:
    explicit ScriptedSource(BenchScript &s) : s_(s) {}

    std::vector<Event> wait(int timeout_ms) override
    {
        EXPECT_GT(timeout_ms, 0);
        EXPECT_LE(timeout_ms, 500);
        s_.calls.push_back("wait");
        if (s_.batches.empty()) {
            if (s_.stop_when_empty)
                request_stop();
            return {};
        }
        std::vector<Event> batch = std::move(s_.batches.front());
        s_.batches.pop_front();
        return batch;
    }

private:
    BenchScript &s_;
};

Event event(const MsgPtr &msg)
{
    return parse_event(hdr(msg));
}

Bench running(uint32_t done)
{
    Bench b = parse_bench(hdr(bench_reply(true)));
    b.done = done;
    return b;
}

class BenchWait : public ::testing::Test {
protected:
    // A stop left asked for by another test (a monitor loop's) would end
    // the wait before it starts.
    void SetUp() override { clear_stop_request(); }

    BenchScript script;
    BenchClient client{script};
    ScriptedSource source{script};
    BenchWaitOptions opts;
    std::vector<uint32_t> seen; // done, each time progress was called

    std::optional<Bench> wait()
    {
        return wait_for_bench(3, client, source, opts,
                              [this](const Bench &b) { seen.push_back(b.done); });
    }
};

TEST_F(BenchWait, ProgressThenDone)
{
    script.batches = {{event(bench_progress_event(700))},
                      {event(bench_progress_event(1400))},
                      {event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::optional<Bench> b = wait();
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->running);
    EXPECT_EQ(b->result.value().ops_per_sec, 8000u);
    EXPECT_EQ(seen, (std::vector<uint32_t>{700, 1400}));
    EXPECT_EQ(script.calls, (std::vector<std::string>{"wait", "wait", "wait"}));
}

TEST_F(BenchWait, OtherBenchmarksAndEventsAreIgnored)
{
    Event other = event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF));
    other.bench.id = 2;
    Event lost;
    lost.type = EventType::EventsLost;
    script.batches = {{other, lost},
                      {event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::optional<Bench> b = wait();
    ASSERT_TRUE(b);
    EXPECT_EQ(b->id, 3u);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"wait", "wait"}));
}

TEST_F(BenchWait, LostNotificationsArePolledFor)
{
    opts.poll = 5ms;
    script.polls = {running(700), finished()};
    std::optional<Bench> b = wait();
    ASSERT_TRUE(b);
    EXPECT_FALSE(b->running);
    EXPECT_EQ(b->done, 2000u);
    EXPECT_EQ(std::count(script.calls.begin(), script.calls.end(), "get 3"), 2);
    EXPECT_EQ(seen.back(), 700u);
}

TEST_F(BenchWait, NoPollWhileEventsCome)
{
    opts.poll = 1h;
    for (uint32_t done = 100; done <= 1900; done += 100)
        script.batches.push_back({event(bench_progress_event(done))});
    script.batches.push_back({event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))});
    ASSERT_TRUE(wait());
    EXPECT_EQ(std::count(script.calls.begin(), script.calls.end(), "get 3"), 0);
    EXPECT_EQ(seen.size(), 19u);
}

TEST_F(BenchWait, NoProgressForTooLongIsAnError)
{
    opts.poll = 1ms;
    opts.stall = 30ms;
    script.polls = {running(700)};
    try {
        wait();
        ADD_FAILURE() << "no error";
    } catch (const Error &e) {
        std::string what = e.what();
        EXPECT_EQ(what.find("bench 3 made no progress for "), 0u) << what;
        EXPECT_NE(what.find("'rdmactl bench show 3' shows it"), std::string::npos) << what;
    }
}

TEST_F(BenchWait, ModuleUnloadIsAnError)
{
    Event unload;
    unload.type = EventType::ModuleUnload;
    script.batches = {{unload}};
    EXPECT_THROW(wait(), Error);
}

TEST_F(BenchWait, StopRequested)
{
    script.stop_when_empty = true;
    EXPECT_FALSE(wait());
}

// The whole command, as main() runs it (err is not a terminal: no bar).
class BenchRun : public ::testing::Test {
protected:
    BenchScript script;
    bool no_module = false;

    int run_tool(std::vector<std::string> args, std::string &out, std::string &err)
    {
        Argv argv(std::move(args));
        std::ostringstream o, e;
        int rc = run(
            argv.argc(), argv.argv(), o, e,
            [this] {
                script.calls.push_back("client");
                return std::unique_ptr<Client>(std::make_unique<BenchClient>(script));
            },
            [this] {
                script.calls.push_back("source");
                if (no_module)
                    throw FamilyNotFound(XRPCRDMA_FAMILY_NAME);
                return std::unique_ptr<EventSource>(std::make_unique<ScriptedSource>(script));
            });
        out = o.str();
        err = e.str();
        return rc;
    }
};

TEST_F(BenchRun, JsonResultFromTheDoneEvent)
{
    script.batches = {{event(bench_progress_event(1000))},
                      {event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::string out, err;
    EXPECT_EQ(run_tool({"-j", "bench", "run", "10.99.0.1", "count", "2000"}, out, err), exit_ok);
    EXPECT_EQ(err, "");
    EXPECT_EQ(out, bench_json(finished()).dump() + "\n");
    // The group is joined before the benchmark starts.
    EXPECT_EQ(script.calls,
              (std::vector<std::string>{"source", "client", "run 10.99.0.1", "wait", "wait"}));
}

TEST_F(BenchRun, TextResult)
{
    script.batches = {{event(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "10.99.0.1"}, out, err), exit_ok);
    EXPECT_EQ(out, bench_text(finished()));
    EXPECT_EQ(err, "");
}

TEST_F(BenchRun, RdmaWrite)
{
    script.run = [] { return 4u; };
    script.batches = {{event(
        rdma_bench_reply(false, XRPCRDMA_BENCH_OP_RDMA_WRITE, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "run", "10.99.0.1", "op", "rdma-write", "size", "1M", "qps", "4"},
                       out, err),
              exit_ok);
    EXPECT_EQ(err, "");
    EXPECT_EQ(out, bench_text(finished_rdma()));
    EXPECT_EQ(script.request.op, uint32_t(XRPCRDMA_BENCH_OP_RDMA_WRITE));
    EXPECT_EQ(script.request.size, 1048576u);
    EXPECT_EQ(script.request.qps, 4u);
    EXPECT_EQ(script.request.server.port, 0);
}

TEST_F(BenchRun, RefusedByTheKernel)
{
    script.run = []() -> uint32_t { throw KernelError(EBUSY, "a benchmark is running already"); };
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "run", "10.99.0.1"}, out, err), exit_error);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "rdmactl: Device or resource busy: a benchmark is running already\n");
    EXPECT_EQ(std::count(script.calls.begin(), script.calls.end(), "wait"), 0);
}

TEST_F(BenchRun, StoppedWithAnError)
{
    script.batches = {{event(bench_reply(false, -ECONNREFUSED, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}};
    std::string out, err;
    EXPECT_EQ(run_tool({"-j", "bench", "run", "10.99.0.1"}, out, err), exit_error);
    EXPECT_EQ(Json::parse(out)["status"], "ECONNREFUSED");
    EXPECT_EQ(err, "rdmactl: bench 3 stopped: Connection refused\n");
}

TEST_F(BenchRun, Interrupted)
{
    script.stop_when_empty = true;
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "run", "10.99.0.1"}, out, err), exit_error);
    EXPECT_EQ(out, "");
    EXPECT_EQ(err, "rdmactl: interrupted: bench 3 goes on in the kernel (it cannot be "
                   "cancelled); 'rdmactl bench show 3' shows it\n");
}

TEST_F(BenchRun, ModuleNotLoaded)
{
    no_module = true;
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "run", "10.99.0.1"}, out, err), exit_error);
    EXPECT_NE(err.find("the xrpcrdma module is not loaded"), std::string::npos);
    EXPECT_EQ(script.calls, std::vector<std::string>{"source"});
}

TEST_F(BenchRun, UsageErrorStartsNothing)
{
    std::string out, err;
    EXPECT_EQ(run_tool({"bench", "run", "10.99.0.1", "count", "0"}, out, err), exit_usage);
    EXPECT_TRUE(script.calls.empty());
    EXPECT_EQ(
        run_tool({"bench", "run", "10.99.0.1", "op", "rdma-read", "transport", "rdma"}, out, err),
        exit_usage);
    EXPECT_EQ(err.find("rdmactl: 'transport' is for op rpc-null, not rdma-read\n"), 0u) << err;
    EXPECT_TRUE(script.calls.empty());
}

} // namespace
