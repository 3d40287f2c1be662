// SPDX-License-Identifier: GPL-2.0
// Transport messages of ping: the call it sends decodes back with the
// module's own decoder as a call, replies of every kind decode, and
// anything cut short or garbled is reported, never trusted.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "rpcrdma_msg.hpp"
#include "xdr.hpp"

extern "C" {
#include "proto.h"
}

using namespace rdmactl;

using testing_helpers::words;

namespace {

std::vector<uint8_t> cat(std::vector<uint8_t> a, const std::vector<uint8_t> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TransportReply decode(const std::vector<uint8_t> &m)
{
    return decode_reply(m.data(), m.size());
}

constexpr uint32_t call_xid = 0x0a0b0c0d;

// An RDMA_MSG reply header (no chunks) and an accepted SUCCESS reply.
std::vector<uint8_t> success_reply(uint32_t x = call_xid, uint32_t credits = 64)
{
    return cat(words({x, 1, credits, XR_RDMA_MSG, 0, 0, 0}), words({x, 1, 0, 0, 0, 0}));
}

} // namespace

TEST(NullCallMessage, ByteForByte)
{
    std::vector<uint8_t> expected = words({call_xid, 1, 32, 0, 0, 0, 0,           // transport header
                                           call_xid, 0, 2, 100003, 3, 0, 0, 0, 0, 0}); // RPC call
    EXPECT_EQ(null_call_message(call_xid, 32, 100003, 3), expected);
}

TEST(NullCallMessage, DecodesBackAsACall)
{
    std::vector<uint8_t> msg = null_call_message(call_xid, 17, 100005, 1);
    std::vector<uint32_t> aligned(msg.size() / 4);
    std::memcpy(aligned.data(), msg.data(), msg.size());
    xr_limits lim = {16, 4, 16, 32, 1 << 20, 0}; // a server's view: a call
    auto storage = std::make_unique<xr_hdr_buf>();
    xr_hdr *hdr = xr_hdr_buf_init(storage.get());
    ASSERT_EQ(xr_hdr_decode(aligned.data(), msg.size(), &lim, hdr), 0);
    EXPECT_EQ(be32_to_cpu(hdr->hd_xid), call_xid);
    EXPECT_EQ(hdr->hd_vers, 1u);
    EXPECT_EQ(hdr->hd_credits, 17u);
    EXPECT_EQ(hdr->hd_proc, unsigned(XR_RDMA_MSG));
    EXPECT_EQ(hdr->hd_nreads, 0u);
    EXPECT_EQ(hdr->hd_nwrites, 0u);
    EXPECT_FALSE(hdr->hd_flags & XR_HDR_REPLY_CHUNK);
    ASSERT_EQ(hdr->hd_hdr_len, unsigned(XR_HDR_MIN_SIZE));
    std::vector<uint8_t> rpc(msg.begin() + XR_HDR_MIN_SIZE, msg.end());
    EXPECT_EQ(rpc, rpc::encode_null_call(call_xid, 100005, 1));
}

TEST(DecodeReply, Success)
{
    TransportReply r = decode(success_reply());
    ASSERT_EQ(r.kind, TransportReply::Kind::Message) << r.describe();
    EXPECT_TRUE(r.has_xid);
    EXPECT_EQ(r.xid, call_xid);
    EXPECT_EQ(r.credits, 64u);
    ASSERT_TRUE(r.rpc);
    EXPECT_TRUE(r.rpc->success());
    EXPECT_EQ(r.describe(), "RDMA_MSG SUCCESS");
}

TEST(DecodeReply, RpcErrorInsideAGoodHeader)
{
    TransportReply r =
        decode(cat(words({call_xid, 1, 8, XR_RDMA_MSG, 0, 0, 0}), words({call_xid, 1, 0, 0, 0, 1})));
    ASSERT_EQ(r.kind, TransportReply::Kind::Message);
    EXPECT_FALSE(r.rpc->success());
    EXPECT_EQ(r.describe(), "RDMA_MSG PROG_UNAVAIL");
}

TEST(DecodeReply, RdmaErrors)
{
    TransportReply vers = decode(words({call_xid, 1, 1, XR_RDMA_ERROR, XR_ERR_VERS, 1, 1}));
    ASSERT_EQ(vers.kind, TransportReply::Kind::Error);
    EXPECT_EQ(vers.xid, call_xid);
    EXPECT_EQ(vers.error_text(), "ERR_VERS 1-1");
    EXPECT_EQ(vers.describe(), "rdma_error ERR_VERS 1-1");

    TransportReply chunk = decode(words({call_xid, 1, 1, XR_RDMA_ERROR, XR_ERR_CHUNK}));
    ASSERT_EQ(chunk.kind, TransportReply::Kind::Error);
    EXPECT_EQ(chunk.describe(), "rdma_error ERR_CHUNK");
}

// The in-tree server answers ERR_VERS with the requester's version in the
// header; it is still an ERR_VERS.
TEST(DecodeReply, ErrVersEchoingTheBadVersion)
{
    TransportReply r = decode(words({call_xid, 7, 1, XR_RDMA_ERROR, XR_ERR_VERS, 1, 1}));
    ASSERT_EQ(r.kind, TransportReply::Kind::Error) << r.describe();
    EXPECT_EQ(r.version, 7u);
    EXPECT_EQ(r.error_text(), "ERR_VERS 1-1");
}

TEST(DecodeReply, NoMessageIsReported)
{
    // RDMA_NOMSG with a one-segment Reply chunk: valid, but ping offers none.
    TransportReply r =
        decode(words({call_xid, 1, 1, XR_RDMA_NOMSG, 0, 0, 1, 1, 7, 40, 0, 0x1000}));
    EXPECT_EQ(r.kind, TransportReply::Kind::NoMessage) << r.describe();
}

TEST(DecodeReply, Malformed)
{
    TransportReply r = decode(words({call_xid, 2, 1, XR_RDMA_MSG, 0, 0, 0}));
    EXPECT_EQ(r.kind, TransportReply::Kind::Malformed);
    EXPECT_TRUE(r.has_xid);
    EXPECT_EQ(r.describe(), "malformed transport header: version 2");

    EXPECT_EQ(decode(words({call_xid, 1, 1, 9})).describe(), "malformed transport header: procedure 9");
    EXPECT_EQ(decode(words({call_xid, 1, 1})).describe(),
              "malformed transport header: shorter than the fixed header");
    EXPECT_FALSE(decode(words({call_xid, 1, 1})).has_xid);
    // rdma_xid and the RPC call_xid differ.
    EXPECT_EQ(decode(cat(words({call_xid, 1, 1, 0, 0, 0, 0}), words({call_xid + 1, 1, 0, 0, 0, 0}))).kind,
              TransportReply::Kind::Malformed);
    // A Read list in a reply.
    EXPECT_EQ(decode(cat(words({call_xid, 1, 1, 0, 1, 0, 1, 8, 0, 0, 0, 0, 0}),
                         words({call_xid, 1, 0, 0, 0, 0})))
                  .kind,
              TransportReply::Kind::Malformed);
    EXPECT_EQ(decode({}).kind, TransportReply::Kind::Malformed);
}

TEST(DecodeReply, TruncatedAtEveryByte)
{
    std::vector<uint8_t> full = success_reply();
    for (size_t len = 0; len < full.size(); len++) {
        std::vector<uint8_t> cut(full.begin(), full.begin() + long(len));
        TransportReply r = decode_reply(cut.data(), cut.size());
        EXPECT_FALSE(r.kind == TransportReply::Kind::Message && r.rpc && r.rpc->success())
            << "len " << len;
        EXPECT_EQ(r.has_xid, len >= 16) << "len " << len;
        EXPECT_FALSE(r.describe().empty());
    }
}

TEST(DecodeReply, UnalignedInput)
{
    std::vector<uint8_t> buf(1 + success_reply().size());
    std::vector<uint8_t> reply = success_reply();
    std::memcpy(buf.data() + 1, reply.data(), reply.size());
    EXPECT_EQ(decode_reply(buf.data() + 1, reply.size()).kind, TransportReply::Kind::Message);
}

TEST(DecodeReply, RandomBytesNeverCrash)
{
    std::mt19937 rng(42);
    std::vector<uint8_t> base = success_reply();
    for (int i = 0; i < 20000; i++) {
        std::vector<uint8_t> m = base;
        m.resize(rng() % 96);
        for (int flips = 0; flips < 3; flips++)
            if (!m.empty())
                m[rng() % m.size()] = uint8_t(rng() % 5 ? rng() % 3 : rng());
        (void)decode(m).describe();
    }
}

TEST(FormatXid, EightHexDigits)
{
    EXPECT_EQ(format_xid(0x1a2b), "0x00001a2b");
    EXPECT_EQ(format_xid(0xffffffff), "0xffffffff");
}

TEST(PrivateData, RoundTrip)
{
    std::vector<uint8_t> pd = connect_private_data(4096, 8192);
    EXPECT_EQ(pd, std::vector<uint8_t>({0xf6, 0xab, 0x0e, 0x18, 1, 0, 3, 7}));
    auto peer = parse_private_data(pd.data(), pd.size());
    ASSERT_TRUE(peer);
    EXPECT_EQ(peer->send_size, 4096u);
    EXPECT_EQ(peer->recv_size, 8192u);
    EXPECT_FALSE(peer->send_with_invalidate);
    EXPECT_FALSE(parse_private_data(nullptr, 0));
    EXPECT_FALSE(parse_private_data(pd.data(), 7));
    EXPECT_THROW(connect_private_data(512, 4096), std::invalid_argument);
}

// The kinds ping --private-data sends: each but rfc8797 and
// reserved-flags must read as no private data at all.
TEST(PrivateData, Kinds)
{
    using V = std::vector<uint8_t>;
    EXPECT_EQ(connect_private_data(PrivateData::Rfc8797, 4096, 8192),
              connect_private_data(4096, 8192));
    EXPECT_EQ(connect_private_data(PrivateData::None, 4096, 8192), V{});
    EXPECT_EQ(connect_private_data(PrivateData::Short, 4096, 8192),
              V({0xf6, 0xab, 0x0e, 0x18, 1, 0, 3}));
    EXPECT_EQ(connect_private_data(PrivateData::BadMagic, 4096, 8192),
              V({0xf7, 0xab, 0x0e, 0x18, 1, 0, 3, 7}));
    EXPECT_EQ(connect_private_data(PrivateData::Version2, 4096, 8192),
              V({0xf6, 0xab, 0x0e, 0x18, 2, 0, 3, 7}));
    EXPECT_EQ(connect_private_data(PrivateData::ReservedFlags, 4096, 8192),
              V({0xf6, 0xab, 0x0e, 0x18, 1, 0xfe, 3, 7}));
    for (PrivateData kind : {PrivateData::None, PrivateData::Short, PrivateData::BadMagic,
                             PrivateData::Version2}) {
        V pd = connect_private_data(kind, 4096, 8192);
        EXPECT_FALSE(parse_private_data(pd.data(), pd.size())) << private_data_name(kind);
    }
    V pd = connect_private_data(PrivateData::ReservedFlags, 4096, 8192);
    auto peer = parse_private_data(pd.data(), pd.size());
    ASSERT_TRUE(peer);
    EXPECT_EQ(peer->send_size, 4096u);
    EXPECT_EQ(peer->recv_size, 8192u);
    EXPECT_FALSE(peer->send_with_invalidate);

    for (const char *name :
         {"rfc8797", "none", "short", "bad-magic", "version-2", "reserved-flags"}) {
        std::optional<PrivateData> kind = private_data_by_name(name);
        ASSERT_TRUE(kind) << name;
        EXPECT_EQ(private_data_name(*kind), name);
    }
    EXPECT_FALSE(private_data_by_name("RFC8797"));
    EXPECT_FALSE(private_data_by_name(""));
}
