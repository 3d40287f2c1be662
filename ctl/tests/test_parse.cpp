// SPDX-License-Identifier: GPL-2.0
// Replies built with libnl as the kernel would send them, then parsed.
#include <gtest/gtest.h>

#include <string>

#include <sys/socket.h>

#include "errors.hpp"
#include "helpers.hpp"
#include "parse.hpp"

using namespace rdmactl;
using namespace testing_helpers;

namespace {

// Expects parse_device(msg) to fail with a message containing needle.
void expect_malformed_device(const MsgPtr &msg, const std::string &needle)
{
    try {
        parse_device(hdr(msg));
        FAIL() << "parsed a malformed device reply";
    } catch (const ProtocolError &e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(ParseDevice, CompleteOnePort)
{
    MsgPtr msg = device_reply();
    Device dev = parse_device(hdr(msg));
    EXPECT_EQ(dev.index, 3u);
    EXPECT_EQ(dev.name, "rxe0");
    EXPECT_EQ(dev.node_guid, 0x505400fffe123456ULL);
    EXPECT_TRUE(dev.usable);
    EXPECT_TRUE(dev.enabled);
    ASSERT_EQ(dev.ports.size(), 1u);
    EXPECT_EQ(dev.ports[0].number, 1u);
    EXPECT_EQ(dev.ports[0].state, uint32_t(XRPCRDMA_PORT_STATE_ACTIVE));
    EXPECT_EQ(dev.ports[0].netdev, "veth0");
}

TEST(ParseDevice, FalseFlags)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_USABLE, XRPCRDMA_A_DEVICE_ENABLED});
    nla_put_u8(msg.get(), XRPCRDMA_A_DEVICE_USABLE, 0);
    nla_put_u8(msg.get(), XRPCRDMA_A_DEVICE_ENABLED, 0);
    Device dev = parse_device(hdr(msg));
    EXPECT_FALSE(dev.usable);
    EXPECT_FALSE(dev.enabled);
}

TEST(ParseDevice, NoPorts)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_PORT});
    EXPECT_TRUE(parse_device(hdr(msg)).ports.empty());
}

TEST(ParseDevice, SeveralPortsInOrderNetdevOptional)
{
    MsgPtr msg = device_reply();
    put_port(msg.get(), 2, XRPCRDMA_PORT_STATE_DOWN);
    put_port(msg.get(), 3, 42, "ib3");
    Device dev = parse_device(hdr(msg));
    ASSERT_EQ(dev.ports.size(), 3u);
    EXPECT_EQ(dev.ports[0].number, 1u);
    EXPECT_EQ(dev.ports[1].number, 2u);
    EXPECT_EQ(dev.ports[1].state, uint32_t(XRPCRDMA_PORT_STATE_DOWN));
    EXPECT_FALSE(dev.ports[1].netdev.has_value());
    EXPECT_EQ(dev.ports[2].state, 42u);
    EXPECT_EQ(dev.ports[2].netdev, "ib3");
}

TEST(ParseDevice, UnknownAttributesIgnored)
{
    MsgPtr msg = device_reply();
    nla_put_u32(msg.get(), XRPCRDMA_A_DEVICE_MAX + 5, 7);
    nla_put_u64(msg.get(), XRPCRDMA_A_DEVICE_PAD, 0);
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_DEVICE_PORT);
    nla_put_u32(msg.get(), XRPCRDMA_A_PORT_NUMBER, 2);
    nla_put_u32(msg.get(), XRPCRDMA_A_PORT_STATE, 1);
    nla_put_string(msg.get(), XRPCRDMA_A_PORT_MAX + 1, "future");
    nla_nest_end(msg.get(), nest);
    Device dev = parse_device(hdr(msg));
    EXPECT_EQ(dev.name, "rxe0");
    EXPECT_EQ(dev.ports.size(), 2u);
}

class MissingDeviceAttr : public ::testing::TestWithParam<std::pair<int, const char *>> {};

TEST_P(MissingDeviceAttr, IsAnError)
{
    expect_malformed_device(device_reply({GetParam().first}), GetParam().second);
}

INSTANTIATE_TEST_SUITE_P(
    Required, MissingDeviceAttr,
    ::testing::Values(std::make_pair(XRPCRDMA_A_DEVICE_INDEX, "missing attribute index"),
                      std::make_pair(XRPCRDMA_A_DEVICE_NAME, "missing attribute name"),
                      std::make_pair(XRPCRDMA_A_DEVICE_NODE_GUID, "missing attribute node-guid"),
                      std::make_pair(XRPCRDMA_A_DEVICE_USABLE, "missing attribute usable"),
                      std::make_pair(XRPCRDMA_A_DEVICE_ENABLED, "missing attribute enabled")),
    [](const auto &info) { return "type" + std::to_string(info.param.first); });

TEST(ParseDevice, ShortU32)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_INDEX});
    uint16_t two = 3;
    put_raw(msg.get(), XRPCRDMA_A_DEVICE_INDEX, &two, sizeof(two));
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, LongU8)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_USABLE});
    nla_put_u32(msg.get(), XRPCRDMA_A_DEVICE_USABLE, 1);
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, ShortU64)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_NODE_GUID});
    nla_put_u32(msg.get(), XRPCRDMA_A_DEVICE_NODE_GUID, 1);
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, NameWithoutNul)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_NAME});
    put_raw(msg.get(), XRPCRDMA_A_DEVICE_NAME, "rxe0", 4);
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, EmptyName)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_NAME});
    put_raw(msg.get(), XRPCRDMA_A_DEVICE_NAME, nullptr, 0);
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, NameTooLong)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_NAME});
    nla_put_string(msg.get(), XRPCRDMA_A_DEVICE_NAME,
                   std::string(XRPCRDMA_DEV_NAME_MAX_LEN + 1, 'x').c_str());
    expect_malformed_device(msg, "invalid attribute");
}

TEST(ParseDevice, NameOfMaximumLength)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_NAME});
    std::string name(XRPCRDMA_DEV_NAME_MAX_LEN, 'x');
    nla_put_string(msg.get(), XRPCRDMA_A_DEVICE_NAME, name.c_str());
    EXPECT_EQ(parse_device(hdr(msg)).name, name);
}

TEST(ParseDevice, PortWithoutNumber)
{
    MsgPtr msg = device_reply();
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_DEVICE_PORT);
    nla_put_u32(msg.get(), XRPCRDMA_A_PORT_STATE, 1);
    nla_nest_end(msg.get(), nest);
    expect_malformed_device(msg, "port: missing attribute number");
}

TEST(ParseDevice, PortWithoutState)
{
    MsgPtr msg = device_reply();
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_DEVICE_PORT);
    nla_put_u32(msg.get(), XRPCRDMA_A_PORT_NUMBER, 2);
    nla_nest_end(msg.get(), nest);
    expect_malformed_device(msg, "port: missing attribute state");
}

TEST(ParseDevice, PortStateWrongSize)
{
    MsgPtr msg = device_reply();
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_DEVICE_PORT);
    nla_put_u32(msg.get(), XRPCRDMA_A_PORT_NUMBER, 2);
    nla_put_u8(msg.get(), XRPCRDMA_A_PORT_STATE, 1);
    nla_nest_end(msg.get(), nest);
    expect_malformed_device(msg, "port: invalid attribute");
}

TEST(ParseDevice, PortThatIsNotANest)
{
    MsgPtr msg = device_reply({XRPCRDMA_A_DEVICE_PORT});
    nla_put_u32(msg.get(), XRPCRDMA_A_DEVICE_PORT, 1);
    expect_malformed_device(msg, "port");
}

TEST(ParseDevice, AttributeOverrunningTheMessage)
{
    MsgPtr msg = device_reply();
    // Claim more payload than the message has: libnl would stop quietly.
    nlattr *last = nla_reserve(msg.get(), XRPCRDMA_A_DEVICE_INDEX, 4);
    last->nla_len = 200;
    expect_malformed_device(msg, "trailing bytes");
}

TEST(ParseDevice, TrailingGarbage)
{
    MsgPtr msg = device_reply();
    void *junk = nlmsg_reserve(msg.get(), 8, NLMSG_ALIGNTO);
    std::memset(junk, 0, 8);
    expect_malformed_device(msg, "trailing bytes");
}

TEST(ParseDevice, TruncatedGenlHeader)
{
    MsgPtr msg(nlmsg_alloc_simple(test_family, 0));
    uint16_t half = 0;
    nlmsg_append(msg.get(), &half, sizeof(half), 0);
    expect_malformed_device(msg, "too short");
}

TEST(ParseModule, Complete)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "0.3.1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.1.0-31-amd64");
    nla_put_u32(msg.get(), XRPCRDMA_A_MODULE_MODE, XRPCRDMA_MODE_SIDEBYSIDE);
    put_live_object(msg.get(), "device", 2);
    put_live_object(msg.get(), "transport", 0);
    put_live_object(msg.get(), "big", 1ULL << 40);
    ModuleInfo info = parse_module(hdr(msg));
    EXPECT_EQ(info.version, "0.3.1");
    EXPECT_EQ(info.build_kernel, "6.1.0-31-amd64");
    EXPECT_EQ(info.mode, XRPCRDMA_MODE_SIDEBYSIDE);
    ASSERT_EQ(info.live_objects.size(), 3u);
    EXPECT_EQ(info.live_objects[0].name, "device");
    EXPECT_EQ(info.live_objects[0].count, 2u);
    EXPECT_EQ(info.live_objects[1].name, "transport");
    EXPECT_EQ(info.live_objects[1].count, 0u);
    EXPECT_EQ(info.live_objects[2].count, 1ULL << 40);
}

TEST(ParseModule, NoLiveObjects)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    nla_put_u32(msg.get(), XRPCRDMA_A_MODULE_MODE, XRPCRDMA_MODE_SIDEBYSIDE);
    EXPECT_TRUE(parse_module(hdr(msg)).live_objects.empty());
}

TEST(ParseModule, MissingVersion)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    nla_put_u32(msg.get(), XRPCRDMA_A_MODULE_MODE, XRPCRDMA_MODE_SIDEBYSIDE);
    EXPECT_THROW(parse_module(hdr(msg)), ProtocolError);
}

TEST(ParseModule, MissingMode)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    EXPECT_THROW(parse_module(hdr(msg)), ProtocolError);
}

TEST(ParseModule, ModeWrongSize)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    nla_put_u8(msg.get(), XRPCRDMA_A_MODULE_MODE, 1);
    EXPECT_THROW(parse_module(hdr(msg)), ProtocolError);
}

TEST(ParseModule, LiveObjectWithoutCount)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    nla_put_u32(msg.get(), XRPCRDMA_A_MODULE_MODE, XRPCRDMA_MODE_SIDEBYSIDE);
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_MODULE_LIVE_OBJECT);
    nla_put_string(msg.get(), XRPCRDMA_A_LIVE_OBJECT_NAME, "device");
    nla_nest_end(msg.get(), nest);
    EXPECT_THROW(parse_module(hdr(msg)), ProtocolError);
}

TEST(ParseModule, LiveObjectCountWrongSize)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MODULE_GET);
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_VERSION, "1");
    nla_put_string(msg.get(), XRPCRDMA_A_MODULE_BUILD_KERNEL, "6.12.0");
    nla_put_u32(msg.get(), XRPCRDMA_A_MODULE_MODE, XRPCRDMA_MODE_SIDEBYSIDE);
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_MODULE_LIVE_OBJECT);
    nla_put_string(msg.get(), XRPCRDMA_A_LIVE_OBJECT_NAME, "device");
    nla_put_u32(msg.get(), XRPCRDMA_A_LIVE_OBJECT_COUNT, 1);
    nla_nest_end(msg.get(), nest);
    EXPECT_THROW(parse_module(hdr(msg)), ProtocolError);
}

void expect_malformed_transport(const MsgPtr &msg, const std::string &needle)
{
    try {
        parse_transport(hdr(msg));
        FAIL() << "parsed a malformed transport reply";
    } catch (const ProtocolError &e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(ParseTransport, Listener)
{
    MsgPtr msg = transport_reply(false);
    Transport t = parse_transport(hdr(msg));
    EXPECT_EQ(t.id, 1u);
    EXPECT_EQ(t.role, uint32_t(XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER));
    EXPECT_EQ(t.state, uint32_t(XRPCRDMA_TRANSPORT_STATE_LISTENING));
    EXPECT_EQ(t.cls, "xrdma");
    EXPECT_EQ(t.serv, "nfsd");
    EXPECT_EQ(t.local.family, AF_INET);
    EXPECT_EQ(t.local.addr, "0.0.0.0");
    EXPECT_EQ(t.local.port, 20050);
    EXPECT_FALSE(t.conn.has_value());
}

TEST(ParseTransport, ConnectionInHostOrder)
{
    MsgPtr msg = transport_reply(true);
    Transport t = parse_transport(hdr(msg));
    EXPECT_EQ(t.id, 3u);
    EXPECT_EQ(t.local.addr, "10.99.0.1");
    ASSERT_TRUE(t.conn.has_value());
    const ConnectionInfo &c = *t.conn;
    EXPECT_EQ(c.peer.family, AF_INET);
    EXPECT_EQ(c.peer.addr, "10.99.0.1");
    EXPECT_EQ(c.peer.port, 851);
    EXPECT_EQ(c.credits, 64u);
    EXPECT_EQ(c.inline_send, 4096u);
    EXPECT_EQ(c.inline_recv, 4096u);
    EXPECT_EQ(c.peer_inline_send, 1024u);
    EXPECT_EQ(c.peer_inline_recv, 2048u);
    EXPECT_EQ(c.sq_depth, 64u);
    EXPECT_EQ(c.sq_free, 62u);
    EXPECT_EQ(c.rq_depth, 65u);
    EXPECT_EQ(c.sendctx_allocated, 3u);
    EXPECT_EQ(c.sendctx_free, 1u);
    EXPECT_EQ(c.recvctx_allocated, 66u);
    EXPECT_EQ(c.recvctx_bytes, 304128u);
    ASSERT_EQ(c.stats.size(), 2u);
    EXPECT_EQ(c.stats[0].name, "calls-received");
    EXPECT_EQ(c.stats[0].count, 12u);
    EXPECT_EQ(c.stats[1].name, "bad-headers");
}

TEST(ParseTransport, Ipv6Ends)
{
    MsgPtr msg =
        transport_reply(true, {XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4, XRPCRDMA_A_TRANSPORT_PEER_ADDR4});
    unsigned char any[16] = {}, peer[16] = {0xfe, 0x80};
    peer[15] = 1;
    put_raw(msg.get(), XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6, any, 16);
    put_raw(msg.get(), XRPCRDMA_A_TRANSPORT_PEER_ADDR6, peer, 16);
    Transport t = parse_transport(hdr(msg));
    EXPECT_EQ(t.local.family, AF_INET6);
    EXPECT_EQ(t.local.addr, "::");
    EXPECT_EQ(t.conn->peer.family, AF_INET6);
    EXPECT_EQ(t.conn->peer.addr, "fe80::1");
}

TEST(ParseTransport, ListenerGetReplyOfAConnectionIsBrief)
{
    MsgPtr msg = transport_reply(false, {XRPCRDMA_A_TRANSPORT_ROLE}, XRPCRDMA_CMD_LISTENER_GET);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_ROLE, XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION);
    EXPECT_FALSE(parse_transport(hdr(msg)).conn.has_value());
}

TEST(ParseTransport, ConnectionWithoutItsAttributes)
{
    MsgPtr msg = transport_reply(false, {XRPCRDMA_A_TRANSPORT_ROLE});
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_ROLE, XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION);
    expect_malformed_transport(msg, "a connection without its connection attributes");
}

TEST(ParseTransport, ListenerWithConnectionAttributes)
{
    MsgPtr msg = transport_reply(false);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_CREDITS, 64);
    expect_malformed_transport(msg, "a listener with connection attributes");
}

TEST(ParseTransport, BothAddressFamilies)
{
    MsgPtr msg = transport_reply(false);
    unsigned char any[16] = {};
    put_raw(msg.get(), XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6, any, 16);
    expect_malformed_transport(msg, "local has both an IPv4 and an IPv6 address");
}

TEST(ParseTransport, NoAddress)
{
    expect_malformed_transport(transport_reply(false, {XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4}),
                               "local has no address");
}

TEST(ParseTransport, ShortIpv6Address)
{
    MsgPtr msg = transport_reply(false, {XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4});
    unsigned char any[15] = {};
    put_raw(msg.get(), XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6, any, 15);
    expect_malformed_transport(msg, "invalid attribute");
}

TEST(ParseTransport, PortWrongSize)
{
    MsgPtr msg = transport_reply(false, {XRPCRDMA_A_TRANSPORT_LOCAL_PORT});
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_LOCAL_PORT, 20050);
    expect_malformed_transport(msg, "invalid attribute");
}

class MissingTransportAttr : public ::testing::TestWithParam<std::pair<int, const char *>> {};

TEST_P(MissingTransportAttr, IsAnError)
{
    expect_malformed_transport(transport_reply(true, {GetParam().first}), GetParam().second);
}

INSTANTIATE_TEST_SUITE_P(
    Required, MissingTransportAttr,
    ::testing::Values(
        std::make_pair(XRPCRDMA_A_TRANSPORT_ID, "missing attribute id"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_ROLE, "missing attribute role"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_STATE, "missing attribute state"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_CLASS, "missing attribute class"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_SERV, "missing attribute serv"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_LOCAL_PORT, "missing attribute local-port"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_PEER_ADDR4, "peer has no address"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_PEER_PORT, "missing attribute peer-port"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_CREDITS, "missing attribute credits"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_INLINE_SEND, "missing attribute inline-send"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, "missing attribute peer-inline-recv"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_SQ_FREE, "missing attribute sq-free"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
                       "missing attribute recvctx-allocated"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES, "missing attribute recvctx-bytes"),
        std::make_pair(XRPCRDMA_A_TRANSPORT_STAT, "missing attribute stat")),
    [](const auto &info) { return "type" + std::to_string(info.param.first); });

TEST(ParseTransport, StatWithoutValue)
{
    MsgPtr msg = transport_reply(true);
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_TRANSPORT_STAT);
    nla_put_string(msg.get(), XRPCRDMA_A_STAT_NAME, "sq-starves");
    nla_nest_end(msg.get(), nest);
    expect_malformed_transport(msg, "stat: missing attribute value");
}

TEST(ParseTransport, UnknownAttributesIgnored)
{
    MsgPtr msg = transport_reply(true);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_MAX + 3, 1);
    EXPECT_EQ(parse_transport(hdr(msg)).id, 3u);
}

TEST(ParseTransport, ClientConnected)
{
    MsgPtr msg = client_reply(true);
    Transport t = parse_transport(hdr(msg));
    EXPECT_EQ(t.id, 7u);
    EXPECT_EQ(t.role, uint32_t(XRPCRDMA_TRANSPORT_ROLE_CLIENT));
    EXPECT_EQ(t.state, uint32_t(XRPCRDMA_TRANSPORT_STATE_CONNECTED));
    EXPECT_EQ(t.cls, "rdma");
    EXPECT_TRUE(t.serv.empty());
    EXPECT_EQ(t.local.family, AF_INET);
    EXPECT_EQ(t.local.port, 47000);
    ASSERT_TRUE(t.conn.has_value());
    const ConnectionInfo &c = *t.conn;
    EXPECT_TRUE(c.numbers);
    EXPECT_EQ(c.peer.addr, "10.99.0.1");
    EXPECT_EQ(c.peer.port, 20049);
    EXPECT_EQ(c.credits, 32u);
    EXPECT_EQ(c.sq_depth, 544u);
    EXPECT_EQ(c.recvctx_allocated, 32u);
    EXPECT_EQ(c.recvctx_bytes, 147456u);
    ASSERT_EQ(c.stats.size(), 2u);
    EXPECT_EQ(c.stats[0].name, "rpcs-sent");
    EXPECT_EQ(c.stats[0].count, 40u);
    EXPECT_EQ(c.stats[1].name, "read-chunk-calls");
}

TEST(ParseTransport, ClientWithoutConnection)
{
    MsgPtr msg = client_reply(false);
    Transport t = parse_transport(hdr(msg));
    EXPECT_EQ(t.state, uint32_t(XRPCRDMA_TRANSPORT_STATE_CONNECTING));
    EXPECT_EQ(t.local.family, 0);
    ASSERT_TRUE(t.conn.has_value());
    EXPECT_FALSE(t.conn->numbers);
    EXPECT_EQ(t.conn->peer.port, 20049);
    EXPECT_EQ(t.conn->credits, 0u);
    EXPECT_EQ(t.conn->stats.size(), 2u);
}

TEST(ParseTransport, ClientWithAService)
{
    MsgPtr msg = client_reply(false);
    nla_put_string(msg.get(), XRPCRDMA_A_TRANSPORT_SERV, "nfs");
    EXPECT_EQ(parse_transport(hdr(msg)).serv, "nfs");
}

TEST(ParseTransport, ClientWithoutConnectionButNumbers)
{
    MsgPtr msg = client_reply(false);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_CREDITS, 32);
    expect_malformed_transport(msg, "a client without a connection has its numbers");
}

TEST(ParseTransport, ClientWithoutServer)
{
    expect_malformed_transport(client_reply(false, {XRPCRDMA_A_TRANSPORT_PEER_ADDR4}),
                               "peer has no address");
}

TEST(ParseTransport, ClientWithoutCounters)
{
    expect_malformed_transport(client_reply(false, {XRPCRDMA_A_TRANSPORT_STAT}),
                               "missing attribute stat");
    expect_malformed_transport(client_reply(true, {XRPCRDMA_A_TRANSPORT_STAT}),
                               "missing attribute stat");
}

TEST(ParseTransport, ClientWithNothingOfAConnection)
{
    expect_malformed_transport(client_reply(false, {XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
                                                    XRPCRDMA_A_TRANSPORT_PEER_PORT,
                                                    XRPCRDMA_A_TRANSPORT_STAT}),
                               "a connection without its connection attributes");
}

TEST(ParseTransport, ClientLocalPortWithoutAddress)
{
    expect_malformed_transport(client_reply(true, {XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4}),
                               "local has no address");
}

TEST(ParseTransport, ClientConnectedWithoutItsNumbers)
{
    expect_malformed_transport(client_reply(true, {XRPCRDMA_A_TRANSPORT_SQ_DEPTH}),
                               "missing attribute sq-depth");
}

TEST(ParseStats, Complete)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_STATS_GET);
    put_stat(msg.get(), XRPCRDMA_A_STATS_STAT, "calls-received", 1ULL << 40);
    put_stat(msg.get(), XRPCRDMA_A_STATS_STAT, "rdma-errors-sent", 2);
    Stats stats = parse_stats(hdr(msg));
    ASSERT_EQ(stats.server.size(), 2u);
    EXPECT_EQ(stats.server[0].name, "calls-received");
    EXPECT_EQ(stats.server[0].count, 1ULL << 40);
    EXPECT_EQ(stats.server[1].name, "rdma-errors-sent");
    EXPECT_EQ(stats.server[1].count, 2u);
}

TEST(ParseStats, NoCountersIsAnError)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_STATS_GET);
    EXPECT_THROW(parse_stats(hdr(msg)), ProtocolError);
}

TEST(ParseStats, StatWithoutName)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_STATS_GET);
    nlattr *nest = nla_nest_start(msg.get(), XRPCRDMA_A_STATS_STAT);
    nla_put_u64(msg.get(), XRPCRDMA_A_STAT_VALUE, 1);
    nla_nest_end(msg.get(), nest);
    EXPECT_THROW(parse_stats(hdr(msg)), ProtocolError);
}

TEST(ParseConfig, DefaultsInSpecOrder)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_CONFIG_GET);
    nla_put_u32(msg.get(), XRPCRDMA_A_CONFIG_INLINE_SEND, 8192);
    nla_put_u32(msg.get(), XRPCRDMA_A_CONFIG_CREDITS, 64);
    Config cfg = parse_config(hdr(msg));
    EXPECT_FALSE(cfg.transport_id);
    ASSERT_EQ(cfg.values.size(), 2u);
    EXPECT_EQ(cfg.values[0].name, "credits");
    EXPECT_EQ(cfg.values[0].value, 64u);
    EXPECT_EQ(cfg.values[1].name, "inline-send");
    EXPECT_EQ(cfg.values[1].value, 8192u);
}

TEST(ParseConfig, OneTransport)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_CONFIG_GET);
    nla_put_u32(msg.get(), XRPCRDMA_A_CONFIG_TRANSPORT_ID, 7);
    nla_put_u32(msg.get(), XRPCRDMA_A_CONFIG_SENDCTX_MAX, 0);
    Config cfg = parse_config(hdr(msg));
    EXPECT_EQ(cfg.transport_id, 7u);
    ASSERT_EQ(cfg.values.size(), 1u);
    EXPECT_EQ(cfg.values[0].name, "sendctx-max");
}

TEST(ParseConfig, Malformed)
{
    MsgPtr empty = new_genl_msg(XRPCRDMA_CMD_CONFIG_GET);
    EXPECT_THROW(parse_config(hdr(empty)), ProtocolError);
    MsgPtr shortval = new_genl_msg(XRPCRDMA_CMD_CONFIG_GET);
    nla_put_u16(shortval.get(), XRPCRDMA_A_CONFIG_CREDITS, 64);
    EXPECT_THROW(parse_config(hdr(shortval)), ProtocolError);
}

} // namespace
