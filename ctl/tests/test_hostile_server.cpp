// SPDX-License-Identifier: GPL-2.0
// xr-hostile-server's scripts: the good reply decodes with the module's
// own decoder as the reply to the call, and each hostile turn puts on the
// wire what its script says (checked with the same decoder where it
// decodes, word by word where it must not).
#include <algorithm>

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hostile_server.hpp"
#include "rpcrdma_msg.hpp"

using namespace rdmactl;
using namespace rdmactl::hostile;

namespace {

constexpr uint32_t hs_xid = 0x11223344;

const Call hs_call = {hs_xid, 1, 32, 0, {}};

std::vector<uint8_t> hs_words(std::initializer_list<uint32_t> ws)
{
    std::vector<uint8_t> out;
    for (uint32_t w : ws)
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(uint8_t(w >> shift));
    return out;
}

// A NULL call offering a Reply chunk of two 8192-byte segments.
std::vector<uint8_t> hs_call_with_chunk()
{
    return hs_words({hs_xid, 1, 32, 0, 0, 0, 1, 2, 0x1001, 8192, 0, 0x10000, 0x1002, 8192, 0,
                     0x20000, hs_xid, 0, 2, 100003, 3, 0, 0, 0, 0, 0});
}

TransportReply hs_decode(const std::vector<uint8_t> &m)
{
    return decode_reply(m.data(), m.size());
}

uint32_t hs_word(const std::vector<uint8_t> &m, size_t i)
{
    return uint32_t(m.at(4 * i)) << 24 | uint32_t(m.at(4 * i + 1)) << 16 |
           uint32_t(m.at(4 * i + 2)) << 8 | m.at(4 * i + 3);
}

// The reply to hs_call, granting credits.
void hs_expect_reply(const std::vector<uint8_t> &m, uint32_t credits = 32)
{
    TransportReply r = hs_decode(m);
    ASSERT_EQ(r.kind, TransportReply::Kind::Message) << r.describe();
    EXPECT_EQ(r.xid, hs_xid);
    EXPECT_EQ(r.credits, credits);
    ASSERT_TRUE(r.rpc.has_value());
    EXPECT_EQ(r.describe(), "RDMA_MSG SUCCESS");
}

Plan hs_plan(Script s, bool turn = true, Params p = {})
{
    return plan(s, turn, hs_call, p);
}

} // namespace

TEST(HostileServer, NamesRoundTrip)
{
    std::set<std::string> names;
    for (const ScriptInfo &i : scripts()) {
        EXPECT_EQ(script_by_name(i.name), i.script);
        EXPECT_STREQ(script_name(i.script), i.name);
        names.insert(i.name);
    }
    EXPECT_EQ(names.size(), scripts().size());
    EXPECT_FALSE(script_by_name("nonsense").has_value());
}

TEST(HostileServer, ParseCall)
{
    std::vector<uint8_t> m = null_reply(hs_xid, 7);
    std::optional<Call> c = parse_call(m.data(), m.size());
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->xid, hs_xid);
    EXPECT_EQ(c->vers, 1u);
    EXPECT_EQ(c->credits, 7u);
    EXPECT_EQ(c->proc, 0u);
    EXPECT_FALSE(parse_call(m.data(), 15).has_value());
}

TEST(HostileServer, ParseCallReplyChunk)
{
    std::vector<uint8_t> m = hs_call_with_chunk();
    std::optional<Call> c = parse_call(m.data(), m.size());
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->xid, hs_xid);
    ASSERT_EQ(c->reply_chunk.size(), 2u);
    EXPECT_EQ(c->reply_chunk[0].handle, 0x1001u);
    EXPECT_EQ(c->reply_chunk[0].length, 8192u);
    EXPECT_EQ(c->reply_chunk[0].offset, 0x10000u);
    EXPECT_EQ(c->reply_chunk[1].handle, 0x1002u);
    EXPECT_EQ(c->reply_chunk[1].offset, 0x20000u);
    // Lists that do not decode: no Reply chunk, the fixed words still read.
    m.resize(30);
    c = parse_call(m.data(), m.size());
    ASSERT_TRUE(c.has_value());
    EXPECT_TRUE(c->reply_chunk.empty());
    EXPECT_EQ(c->credits, 32u);
}

TEST(HostileServer, ReplyChunkAnswers)
{
    std::vector<uint8_t> raw = hs_call_with_chunk();
    Call c = *parse_call(raw.data(), raw.size());

    // Good: the RPC reply written into the first segment, RDMA_NOMSG.
    Plan p = plan(Script::Good, true, c, Params{});
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].handle, 0x1001u);
    EXPECT_EQ(p.writes[0].offset, 0x10000u);
    EXPECT_EQ(p.writes[0].data.size(), 24u);
    ASSERT_EQ(p.messages.size(), 1u);
    EXPECT_EQ(hs_decode(p.messages[0]).kind, TransportReply::Kind::NoMessage);
    EXPECT_EQ(hs_word(p.messages[0], 9), 24u); // first segment: 24 bytes
    EXPECT_EQ(hs_word(p.messages[0], 13), 0u); // second: nothing

    // The chunk returned unused with an inline reply: valid, alone.
    p = plan(Script::MsgUnusedChunk, true, c, Params{});
    EXPECT_TRUE(p.writes.empty());
    ASSERT_EQ(p.messages.size(), 1u);
    hs_expect_reply(p.messages[0]);
    EXPECT_EQ(hs_word(p.messages[0], 9), 0u);

    p = plan(Script::MsgUsedChunk, true, c, Params{});
    ASSERT_EQ(p.messages.size(), 2u);
    EXPECT_EQ(hs_word(p.messages[0], 3), 0u); // RDMA_MSG
    EXPECT_EQ(hs_word(p.messages[0], 9), 24u);
    EXPECT_EQ(hs_decode(p.messages[1]).kind, TransportReply::Kind::NoMessage);
    EXPECT_EQ(p.writes.size(), 1u);

    p = plan(Script::ChunkOverclaim, true, c, Params{});
    ASSERT_EQ(p.messages.size(), 2u);
    EXPECT_EQ(hs_word(p.messages[0], 9), 8192u + 4096);

    p = plan(Script::ChunkWrongHandle, true, c, Params{});
    ASSERT_EQ(p.messages.size(), 2u);
    EXPECT_EQ(hs_word(p.messages[0], 8), 0x1001u ^ 0xffff);

    p = plan(Script::ChunkEmpty, true, c, Params{});
    ASSERT_EQ(p.messages.size(), 2u);
    EXPECT_EQ(hs_word(p.messages[0], 9), 0u);
    EXPECT_EQ(hs_word(p.messages[0], 13), 0u);

    p = plan(Script::WritePastChunk, true, c, Params{});
    EXPECT_TRUE(p.messages.empty());
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].data.size(), 8192u + 4096);

    // Without a Reply chunk these scripts answer inline, once.
    for (Script s : {Script::MsgUsedChunk, Script::ChunkOverclaim, Script::WritePastChunk}) {
        p = hs_plan(s);
        ASSERT_EQ(p.messages.size(), 1u) << script_name(s);
        EXPECT_TRUE(p.writes.empty());
        hs_expect_reply(p.messages[0]);
    }
}

TEST(HostileServer, GoodAndOffTurnsAnswerOnce)
{
    for (const ScriptInfo &i : scripts()) {
        Plan p = hs_plan(i.script, false);
        ASSERT_EQ(p.messages.size(), 1u) << i.name;
        hs_expect_reply(p.messages[0]);
        EXPECT_FALSE(p.disconnect) << i.name;
    }
    Plan p = hs_plan(Script::Good, true);
    ASSERT_EQ(p.messages.size(), 1u);
    hs_expect_reply(p.messages[0]);
}

TEST(HostileServer, CreditsGranted)
{
    hs_expect_reply(hs_plan(Script::Good, true, Params{5, 1024}).messages.at(0), 5);
    Call asks_none = hs_call;
    asks_none.credits = 0;
    Plan p = plan(Script::Good, true, asks_none, Params{});
    EXPECT_EQ(hs_decode(p.messages.at(0)).credits, 1u);
    Call asks_many = hs_call;
    asks_many.credits = 1000;
    p = plan(Script::Good, true, asks_many, Params{0, 1024, 128});
    EXPECT_EQ(hs_decode(p.messages.at(0)).credits, 128u);
    hs_expect_reply(hs_plan(Script::CreditsZero).messages.at(0), 0);
    hs_expect_reply(hs_plan(Script::CreditsHuge).messages.at(0), UINT32_MAX);
}

TEST(HostileServer, TwoAnswersOneXid)
{
    Plan p = hs_plan(Script::Dup);
    ASSERT_EQ(p.messages.size(), 2u);
    hs_expect_reply(p.messages[0]);
    EXPECT_EQ(p.messages[0], p.messages[1]);

    p = hs_plan(Script::ErrorThenReply);
    ASSERT_EQ(p.messages.size(), 2u);
    TransportReply e = hs_decode(p.messages[0]);
    ASSERT_EQ(e.kind, TransportReply::Kind::Error);
    EXPECT_EQ(e.xid, hs_xid);
    EXPECT_EQ(e.error_text(), "ERR_VERS 1-1");
    hs_expect_reply(p.messages[1]);

    p = hs_plan(Script::ReplyThenError);
    ASSERT_EQ(p.messages.size(), 2u);
    hs_expect_reply(p.messages[0]);
    e = hs_decode(p.messages[1]);
    ASSERT_EQ(e.kind, TransportReply::Kind::Error);
    EXPECT_EQ(e.xid, hs_xid);
    EXPECT_EQ(e.error_text(), "ERR_CHUNK");
}

TEST(HostileServer, BadMessagesBeforeTheReply)
{
    Plan p = hs_plan(Script::StrayXid);
    ASSERT_EQ(p.messages.size(), 2u);
    EXPECT_EQ(hs_decode(p.messages[0]).xid, ~hs_xid);
    hs_expect_reply(p.messages[1]);

    for (Script s : {Script::BadVersion, Script::Short, Script::ShortError,
                     Script::UnknownProc, Script::Msgp}) {
        p = hs_plan(s);
        ASSERT_EQ(p.messages.size(), 2u) << script_name(s);
        TransportReply r = hs_decode(p.messages[0]);
        EXPECT_EQ(r.kind, TransportReply::Kind::Malformed) << script_name(s);
        hs_expect_reply(p.messages[1]);
    }
    EXPECT_EQ(hs_plan(Script::Short).messages[0].size(), 12u);
    EXPECT_EQ(hs_word(hs_plan(Script::BadVersion).messages[0], 1), 2u);
    EXPECT_EQ(hs_word(hs_plan(Script::UnknownProc).messages[0], 3), 7u);
    EXPECT_EQ(hs_word(hs_plan(Script::Msgp).messages[0], 3), 2u);
    EXPECT_EQ(hs_plan(Script::ShortError).messages[0].size(), 16u);
}

TEST(HostileServer, ChunksNeverOffered)
{
    // A Write chunk of one 4096-byte segment, then the RPC reply.
    std::vector<uint8_t> m = hs_plan(Script::WriteList).messages.at(0);
    TransportReply r = hs_decode(m);
    ASSERT_EQ(r.kind, TransportReply::Kind::Message) << r.describe();
    EXPECT_EQ(hs_word(m, 5), 1u); // a Write chunk
    EXPECT_EQ(hs_word(m, 6), 1u); // of one segment
    EXPECT_EQ(hs_word(m, 8), 4096u);
    hs_expect_reply(hs_plan(Script::WriteList).messages.at(1));

    m = hs_plan(Script::ReplyChunk).messages.at(0);
    EXPECT_EQ(hs_word(m, 6), 1u); // a Reply chunk
    EXPECT_EQ(hs_word(m, 7), 1u);

    m = hs_plan(Script::NoMsg).messages.at(0);
    r = hs_decode(m);
    EXPECT_EQ(r.kind, TransportReply::Kind::NoMessage) << r.describe();
    EXPECT_EQ(m.size(), 4u * 12);
}

TEST(HostileServer, OversizeAndDisconnect)
{
    Plan p = hs_plan(Script::Oversize, true, Params{0, 8192});
    ASSERT_EQ(p.messages.size(), 1u);
    EXPECT_EQ(p.messages[0].size(), oversize_length(8192));
    EXPECT_GT(oversize_length(8192), 8192u + 4096);
    EXPECT_GT(oversize_length(0), 1024u + 4096);
    EXPECT_FALSE(p.disconnect);

    p = hs_plan(Script::Disconnect);
    ASSERT_EQ(p.messages.size(), 1u);
    hs_expect_reply(p.messages[0]);
    EXPECT_TRUE(p.disconnect);
}

// The NULL reply, then zeros to 1024 bytes: still a reply, and no more
// than any requester receives.
TEST(HostileServer, Overlong)
{
    Plan p = hs_plan(Script::Overlong);
    ASSERT_EQ(p.messages.size(), 1u);
    EXPECT_EQ(p.messages[0].size(), 1024u);
    hs_expect_reply(p.messages[0]);
    EXPECT_EQ(std::count(p.messages[0].begin() + 4 * 13, p.messages[0].end(), 0),
              1024 - 4 * 13);
    EXPECT_FALSE(p.disconnect);
}
