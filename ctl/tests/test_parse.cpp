// SPDX-License-Identifier: GPL-2.0
// Replies built with libnl as the kernel would send them, then parsed.
#include <gtest/gtest.h>

#include <string>

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

} // namespace
