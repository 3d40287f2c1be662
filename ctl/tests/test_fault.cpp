// SPDX-License-Identifier: GPL-2.0
// rdmactl fault: parsing (and what it refuses), the fault-set request, the
// fault-get reply, and the text and JSON output.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "argv.hpp"
#include "cli.hpp"
#include "errors.hpp"
#include "helpers.hpp"
#include "msg.hpp"
#include "output.hpp"
#include "parse.hpp"

using namespace rdmactl;
using testing_helpers::case_name;
using testing_helpers::parse;
using testing_helpers::Refusal;
using testing_helpers::UsageErrors;

namespace {

TEST(FaultParse, ShowIsTheDefault)
{
    for (auto args : {std::vector<std::string>{"fault"}, {"fault", "show"}, {"f", "sh"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.object, Object::Fault);
        EXPECT_EQ(cmd.verb, Verb::Show);
        EXPECT_FALSE(cmd.fault);
    }
}

TEST(FaultParse, SetNthWithErrnoName)
{
    Command cmd = parse({"fault", "set", "post-send", "nth", "3", "errno", "ENOMEM"});
    EXPECT_EQ(cmd.verb, Verb::Set);
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_POST_SEND));
    EXPECT_EQ(cmd.fault->trigger, uint32_t(XRPCRDMA_FAULT_TRIGGER_NTH));
    EXPECT_EQ(cmd.fault->n, 3u);
    EXPECT_EQ(cmd.fault->error, uint32_t(ENOMEM));
    EXPECT_FALSE(cmd.fault->times);
    EXPECT_FALSE(cmd.fault->probability);
}

TEST(FaultParse, SetEveryTimesNegativeErrnoTransport)
{
    Command cmd = parse(
        {"fault", "set", "dma", "every", "2", "times", "5", "errno", "-11", "transport", "7"});
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_DMA_MAP));
    EXPECT_EQ(cmd.fault->trigger, uint32_t(XRPCRDMA_FAULT_TRIGGER_EVERY));
    EXPECT_EQ(cmd.fault->n, 2u);
    EXPECT_EQ(cmd.fault->times, 5u);
    EXPECT_EQ(cmd.fault->error, 11u);
    EXPECT_EQ(cmd.fault->transport_id, 7u);
}

TEST(FaultParse, SetProbabilityAndDelay)
{
    Command cmd = parse(
        {"fault", "set", "completion-delay", "prob", "1000000", "times", "0", "delay", "250"});
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->trigger, uint32_t(XRPCRDMA_FAULT_TRIGGER_PROBABILITY));
    EXPECT_EQ(cmd.fault->probability, 1000000u);
    EXPECT_EQ(cmd.fault->times, 0u);
    EXPECT_EQ(cmd.fault->delay_ms, 250u);
}

TEST(FaultParse, QpFatalByNameAndShown)
{
    Command cmd = parse({"fault", "set", "qp-fatal", "nth", "2", "transport", "4"});
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_QP_FATAL));
    EXPECT_EQ(cmd.fault->transport_id, 4u);
    EXPECT_EQ(fault_point_name(XRPCRDMA_FAULT_POINT_QP_FATAL), "qp-fatal");
    EXPECT_EQ(parse({"fault", "set", "write", "every", "1"}).fault->point,
              uint32_t(XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG));
    EXPECT_EQ(fault_point_name(XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG), "write-chunk-long");
}

TEST(FaultParse, ReplyDelayTakesADelay)
{
    Command cmd = parse({"fault", "set", "reply-delay", "every", "1", "delay", "20"});
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_REPLY_DELAY));
    EXPECT_EQ(cmd.fault->delay_ms, 20u);
    EXPECT_EQ(fault_point_name(XRPCRDMA_FAULT_POINT_REPLY_DELAY), "reply-delay");
}

TEST(FaultParse, BcReleaseDelayTakesADelay)
{
    Command cmd = parse({"fault", "set", "bc-release-delay", "nth", "1", "delay", "500",
                         "transport", "3"});
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY));
    EXPECT_EQ(cmd.fault->delay_ms, 500u);
    EXPECT_EQ(cmd.fault->transport_id, 3u);
    EXPECT_EQ(fault_point_name(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY), "bc-release-delay");
    EXPECT_EQ(fault_point_last, uint32_t(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY));
}

TEST(FaultParse, ClearOneOrAll)
{
    Command cmd = parse({"fault", "clear", "recv-drop"});
    EXPECT_EQ(cmd.verb, Verb::Clear);
    ASSERT_TRUE(cmd.fault);
    EXPECT_EQ(cmd.fault->point, uint32_t(XRPCRDMA_FAULT_POINT_RECV_DROP));
    EXPECT_EQ(cmd.fault->trigger, uint32_t(XRPCRDMA_FAULT_TRIGGER_OFF));
    EXPECT_FALSE(parse({"fault", "clear"}).fault);
    EXPECT_FALSE(parse({"fault", "clear", "all"}).fault);
}

INSTANTIATE_TEST_SUITE_P(
    Fault, UsageErrors,
    ::testing::Values(
        Refusal{{"fault", "set"}, "'fault set' needs a fault point"},
        Refusal{{"fault", "set", "bogus", "nth", "1"}, "unknown fault point 'bogus'"},
        Refusal{{"fault", "set", "post", "nth", "1"},
               "ambiguous fault point 'post': post-send, post-recv"},
        Refusal{{"fault", "set", "post-send"},
               "'fault set post-send' needs a trigger: nth N, every N or prob PPM"},
        Refusal{{"fault", "set", "post-send", "nth"}, "'nth' needs a value"},
        Refusal{{"fault", "set", "post-send", "nth", "0"},
               "invalid n '0': expected 1 to 4294967295"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "every", "2"},
               "more than one trigger: give one of nth, every, prob"},
        Refusal{{"fault", "set", "post-send", "prob", "1000001"},
               "invalid probability (per million) '1000001': expected 1 to 1000000"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "times", "2"},
               "'times' goes with every and prob: nth fires once"},
        Refusal{{"fault", "set", "post-send", "every", "1", "times", "2", "times", "3"},
               "'times' given more than once"},
        Refusal{{"fault", "set", "qp-fatal", "nth", "1", "errno", "EIO"},
               "'errno' is for post-send, post-recv, dma-map, sendctx-alloc, frwr-reg and rw-ctx, "
               "not qp-fatal"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "errno", "EWHAT"},
               "invalid errno 'EWHAT': expected a name such as EIO or a number"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "errno", "134"},
               "invalid errno '134': expected 1 to 133"},
        Refusal{{"fault", "set", "recv-drop", "nth", "1", "errno", "EIO"},
               "'errno' is for post-send, post-recv, dma-map, sendctx-alloc, frwr-reg and rw-ctx, "
               "not recv-drop"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "delay", "10"},
               "'delay' is for completion-delay, reply-delay and bc-release-delay, not post-send"},
        Refusal{{"fault", "set", "completion-delay", "nth", "1", "delay", "10001"},
               "invalid delay (ms) '10001': expected 1 to 10000"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "transport", "0"},
               "invalid transport id '0': expected 1 to 4294967295"},
        Refusal{{"fault", "set", "post-send", "nth", "1", "bogus", "1"},
               "unknown fault setting 'bogus'"},
        Refusal{{"fault", "clear", "post-send", "extra"},
               "unexpected argument 'extra' for 'fault clear'"}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(FaultRequest, SetCarriesOnlyWhatWasGiven)
{
    Fault f;
    f.point = XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC;
    f.trigger = XRPCRDMA_FAULT_TRIGGER_EVERY;
    f.n = 4;
    f.error = ENOMEM;
    MsgPtr msg = fault_set_request(testing_helpers::test_family, f);
    auto u32 = [&](int type) {
        const nlattr *attr = testing_helpers::find_attr(msg, type);
        EXPECT_NE(attr, nullptr) << type;
        return attr ? nla_get_u32(attr) : 0;
    };
    EXPECT_EQ(u32(XRPCRDMA_A_FAULT_POINT), uint32_t(XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC));
    EXPECT_EQ(u32(XRPCRDMA_A_FAULT_TRIGGER), uint32_t(XRPCRDMA_FAULT_TRIGGER_EVERY));
    EXPECT_EQ(u32(XRPCRDMA_A_FAULT_N), 4u);
    EXPECT_EQ(u32(XRPCRDMA_A_FAULT_ERRNO), uint32_t(ENOMEM));
    for (int type : {XRPCRDMA_A_FAULT_PROBABILITY, XRPCRDMA_A_FAULT_TIMES,
                     XRPCRDMA_A_FAULT_DELAY_MS, XRPCRDMA_A_FAULT_TRANSPORT_ID})
        EXPECT_EQ(testing_helpers::find_attr(msg, type), nullptr) << type;
}

TEST(FaultRequest, ClearSendsThePointAlone)
{
    Fault f;
    f.point = XRPCRDMA_FAULT_POINT_RECV_DROP;
    MsgPtr msg = fault_set_request(testing_helpers::test_family, f);
    EXPECT_NE(testing_helpers::find_attr(msg, XRPCRDMA_A_FAULT_POINT), nullptr);
    EXPECT_EQ(testing_helpers::find_attr(msg, XRPCRDMA_A_FAULT_TRIGGER), nullptr);
}

TEST(FaultReply, Parsed)
{
    MsgPtr msg = testing_helpers::new_genl_msg(XRPCRDMA_CMD_FAULT_GET);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_POINT, XRPCRDMA_FAULT_POINT_COMPLETION_DELAY);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_TRIGGER, XRPCRDMA_FAULT_TRIGGER_PROBABILITY);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_PROBABILITY, 5000);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_TIMES, 0);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_DELAY_MS, 300);
    nla_put_u64(msg.get(), XRPCRDMA_A_FAULT_HITS, 1ULL << 33);
    nla_put_u64(msg.get(), XRPCRDMA_A_FAULT_FIRED, 2);
    Fault f = parse_fault(testing_helpers::hdr(msg));
    EXPECT_EQ(f.point, uint32_t(XRPCRDMA_FAULT_POINT_COMPLETION_DELAY));
    EXPECT_EQ(f.probability, 5000u);
    EXPECT_EQ(f.times, 0u);
    EXPECT_EQ(f.delay_ms, 300u);
    EXPECT_FALSE(f.n);
    EXPECT_FALSE(f.error);
    EXPECT_EQ(f.hits, 1ULL << 33);
    EXPECT_EQ(f.fired, 2u);
}

TEST(FaultReply, MissingCountersIsAnError)
{
    MsgPtr msg = testing_helpers::new_genl_msg(XRPCRDMA_CMD_FAULT_GET);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_POINT, XRPCRDMA_FAULT_POINT_POST_SEND);
    nla_put_u32(msg.get(), XRPCRDMA_A_FAULT_TRIGGER, XRPCRDMA_FAULT_TRIGGER_OFF);
    EXPECT_THROW(parse_fault(testing_helpers::hdr(msg)), ProtocolError);
}

Fault armed()
{
    Fault f;
    f.point = XRPCRDMA_FAULT_POINT_POST_SEND;
    f.trigger = XRPCRDMA_FAULT_TRIGGER_EVERY;
    f.n = 3;
    f.times = 2;
    f.error = EIO;
    f.transport_id = 4;
    f.hits = 9;
    f.fired = 2;
    return f;
}

TEST(FaultOutput, Text)
{
    EXPECT_EQ(fault_text(armed()),
              "post-send: every 3 times 2 errno EIO transport 4 hits 9 fired 2\n");
    Fault off;
    off.point = XRPCRDMA_FAULT_POINT_RECV_DROP;
    off.hits = 5;
    off.fired = 1;
    EXPECT_EQ(fault_text(off), "recv-drop: off hits 5 fired 1\n");
    Fault delay;
    delay.point = XRPCRDMA_FAULT_POINT_COMPLETION_DELAY;
    delay.trigger = XRPCRDMA_FAULT_TRIGGER_PROBABILITY;
    delay.probability = 500;
    delay.times = 0;
    delay.delay_ms = 100;
    EXPECT_EQ(fault_text(delay), "completion-delay: prob 500 delay 100 hits 0 fired 0\n");
}

TEST(FaultOutput, Json)
{
    EXPECT_EQ(fault_json(armed()).dump(),
              R"({"point":"post-send","trigger":"every","n":3,"times":2,"errno":"EIO",)"
              R"("transport":4,"hits":9,"fired":2})");
    Fault odd = armed();
    odd.error = 99;
    EXPECT_EQ(fault_json(odd)["errno"], "99");
}

} // namespace
