// SPDX-License-Identifier: GPL-2.0
// The RPC messages of ping: the NULL call byte for byte, and replies of
// every form, cut short and garbled.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "rpc.hpp"
#include "xdr.hpp"

using namespace rdmactl::rpc;

using testing_helpers::words;

namespace {

Reply reply_of(const std::vector<uint8_t> &bytes)
{
    return parse_reply(bytes.data(), bytes.size());
}

constexpr uint32_t xid = 0xdeadbeef;

} // namespace

TEST(RpcCall, NullCallByteForByte)
{
    std::vector<uint8_t> expected = {
        0xde, 0xad, 0xbe, 0xef, // xid
        0, 0, 0, 0,             // CALL
        0, 0, 0, 2,             // rpcvers 2
        0, 1, 0x86, 0xa3,       // program 100003
        0, 0, 0, 3,             // version 3
        0, 0, 0, 0,             // procedure 0
        0, 0, 0, 0, 0, 0, 0, 0, // AUTH_NONE credential, empty
        0, 0, 0, 0, 0, 0, 0, 0, // AUTH_NONE verifier, empty
    };
    EXPECT_EQ(encode_null_call(xid, 100003, 3), expected);
}

TEST(RpcCall, ProgramAndVersionAsGiven)
{
    std::vector<uint8_t> call = encode_null_call(1, 0xfffffffe, 0x01020304);
    ASSERT_EQ(call.size(), 40u);
    EXPECT_EQ(std::vector<uint8_t>(call.begin() + 12, call.begin() + 20),
              words({0xfffffffe, 0x01020304}));
}

TEST(RpcReply, AcceptedSuccess)
{
    Reply r = reply_of(words({xid, 1, 0, 0, 0, 0}));
    EXPECT_EQ(r.form, Reply::Form::Accepted);
    EXPECT_TRUE(r.success());
    EXPECT_EQ(r.xid, xid);
    EXPECT_EQ(r.describe(), "SUCCESS");
}

TEST(RpcReply, VerifierBodyIsSkipped)
{
    // AUTH_SHORT-like verifier of 5 bytes, padded to 8.
    Reply r = reply_of(words({xid, 1, 0, 2, 5, 0x01020304, 0x05000000, 0}));
    EXPECT_TRUE(r.success()) << r.describe();
}

TEST(RpcReply, ResultsAfterTheStatusAreFine)
{
    EXPECT_TRUE(reply_of(words({xid, 1, 0, 0, 0, 0, 7, 8, 9})).success());
}

TEST(RpcReply, AcceptedErrors)
{
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0, 1})).describe(), "PROG_UNAVAIL");
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0, 2, 2, 4})).describe(), "PROG_MISMATCH 2-4");
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0, 3})).describe(), "PROC_UNAVAIL");
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0, 4})).describe(), "GARBAGE_ARGS");
    Reply r = reply_of(words({xid, 1, 0, 0, 0, 5}));
    EXPECT_EQ(r.describe(), "SYSTEM_ERR");
    EXPECT_EQ(r.form, Reply::Form::Accepted);
    EXPECT_FALSE(r.success());
}

TEST(RpcReply, Denied)
{
    Reply r = reply_of(words({xid, 1, 1, 0, 2, 2}));
    EXPECT_EQ(r.form, Reply::Form::Denied);
    EXPECT_FALSE(r.success());
    EXPECT_EQ(r.describe(), "denied RPC_MISMATCH 2-2");
    EXPECT_EQ(reply_of(words({xid, 1, 1, 1, 5})).describe(), "denied AUTH_ERROR 5");
}

TEST(RpcReply, Garbage)
{
    EXPECT_EQ(reply_of(words({xid, 0, 2, 100003, 3, 0, 0, 0, 0, 0})).describe(),
              "malformed: a CALL, not a REPLY");
    EXPECT_EQ(reply_of(words({xid, 7})).describe(), "malformed: message type 7");
    EXPECT_EQ(reply_of(words({xid, 1, 2})).describe(), "malformed: reply_stat 2");
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0, 6})).describe(), "malformed: accept_stat 6");
    EXPECT_EQ(reply_of(words({xid, 1, 1, 2})).describe(), "malformed: reject_stat 2");
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 401})).describe(),
              "malformed: verifier of 401 bytes");
    // A verifier length that would wrap a 32-bit sum.
    EXPECT_EQ(reply_of(words({xid, 1, 0, 0, 0xffffffff, 0})).form, Reply::Form::Malformed);
    EXPECT_EQ(reply_of({}).describe(), "malformed: shorter than an xid");
    EXPECT_FALSE(reply_of({}).has_xid);
    EXPECT_EQ(parse_reply(nullptr, 100).form, Reply::Form::Malformed);
}

// Every proper prefix of a valid reply is malformed (the xid is kept once
// there), and parsing it reads nothing beyond it.
TEST(RpcReply, TruncatedAtEveryByte)
{
    for (const auto &full : {words({xid, 1, 0, 2, 5, 0x01020304, 0x05000000, 2, 3, 4}),
                             words({xid, 1, 1, 0, 2, 2}), words({xid, 1, 1, 1, 5})}) {
        for (size_t len = 0; len < full.size(); len++) {
            // A heap copy of exactly len bytes, so an overread is caught by
            // the sanitizers where they run.
            std::vector<uint8_t> cut(full.begin(), full.begin() + long(len));
            Reply r = parse_reply(cut.empty() ? nullptr : cut.data(), cut.size());
            EXPECT_EQ(r.form, Reply::Form::Malformed) << "len " << len;
            EXPECT_EQ(r.has_xid, len >= 4) << "len " << len;
            EXPECT_FALSE(r.describe().empty());
        }
        EXPECT_NE(reply_of(full).form, Reply::Form::Malformed);
    }
}

TEST(RpcReply, RandomBytesNeverCrash)
{
    std::mt19937 rng(1234);
    for (int i = 0; i < 20000; i++) {
        std::vector<uint8_t> bytes(rng() % 64);
        for (auto &b : bytes)
            b = uint8_t(rng() % 4 == 0 ? rng() : rng() % 3); // small values are likelier
        Reply r = reply_of(bytes);
        (void)r.describe();
    }
}
