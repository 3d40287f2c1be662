// SPDX-License-Identifier: GPL-2.0
// Requests are built, then taken apart again and checked field by field.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "msg.hpp"

using namespace rdmactl;
using namespace testing_helpers;

namespace {

const genlmsghdr *genl(const MsgPtr &msg)
{
    return static_cast<const genlmsghdr *>(nlmsg_data(hdr(msg)));
}

void expect_header(const MsgPtr &msg, uint8_t cmd, int flags)
{
    EXPECT_EQ(hdr(msg)->nlmsg_type, test_family);
    EXPECT_EQ(hdr(msg)->nlmsg_flags, flags);
    EXPECT_GE(hdr(msg)->nlmsg_len, NLMSG_HDRLEN + GENL_HDRLEN);
    EXPECT_EQ(genl(msg)->cmd, cmd);
    EXPECT_EQ(genl(msg)->version, XRPCRDMA_FAMILY_VERSION);
}

void expect_name(const MsgPtr &msg, const std::string &name)
{
    const nlattr *attr = find_attr(msg, XRPCRDMA_A_DEVICE_NAME);
    ASSERT_NE(attr, nullptr);
    // NUL-terminated, as NLA_NUL_STRING in the kernel's policy requires.
    ASSERT_EQ(nla_len(attr), int(name.size() + 1));
    EXPECT_EQ(static_cast<const char *>(nla_data(attr))[name.size()], '\0');
    EXPECT_EQ(nla_get_string(attr), name);
}

TEST(Requests, DeviceGet)
{
    MsgPtr msg = device_get_request(test_family, "rxe0");
    expect_header(msg, XRPCRDMA_CMD_DEVICE_GET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(attr_types(msg), std::vector<int>{XRPCRDMA_A_DEVICE_NAME});
    expect_name(msg, "rxe0");
}

TEST(Requests, DeviceDump)
{
    MsgPtr msg = device_dump_request(test_family);
    // No NLM_F_ACK: a dump ends with NLMSG_DONE.
    expect_header(msg, XRPCRDMA_CMD_DEVICE_GET, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_TRUE(attr_types(msg).empty());
}

class DeviceSet : public ::testing::TestWithParam<bool> {};

TEST_P(DeviceSet, NameAndEnabled)
{
    MsgPtr msg = device_set_request(test_family, "mlx5_1", GetParam());
    expect_header(msg, XRPCRDMA_CMD_DEVICE_SET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(attr_types(msg),
              (std::vector<int>{XRPCRDMA_A_DEVICE_NAME, XRPCRDMA_A_DEVICE_ENABLED}));
    expect_name(msg, "mlx5_1");
    const nlattr *enabled = find_attr(msg, XRPCRDMA_A_DEVICE_ENABLED);
    ASSERT_NE(enabled, nullptr);
    EXPECT_EQ(nla_len(enabled), 1);
    EXPECT_EQ(nla_get_u8(enabled), GetParam() ? 1 : 0);
}

INSTANTIATE_TEST_SUITE_P(OnOff, DeviceSet, ::testing::Bool());

TEST(Requests, ModuleGet)
{
    MsgPtr msg = module_get_request(test_family);
    expect_header(msg, XRPCRDMA_CMD_MODULE_GET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_TRUE(attr_types(msg).empty());
}

void expect_id(const MsgPtr &msg, uint32_t id)
{
    EXPECT_EQ(attr_types(msg), std::vector<int>{XRPCRDMA_A_TRANSPORT_ID});
    const nlattr *attr = find_attr(msg, XRPCRDMA_A_TRANSPORT_ID);
    ASSERT_NE(attr, nullptr);
    EXPECT_EQ(nla_len(attr), 4);
    EXPECT_EQ(nla_get_u32(attr), id);
}

TEST(Requests, TransportGet)
{
    MsgPtr msg = transport_get_request(test_family, 4000000000u);
    expect_header(msg, XRPCRDMA_CMD_TRANSPORT_GET, NLM_F_REQUEST | NLM_F_ACK);
    expect_id(msg, 4000000000u);
}

TEST(Requests, TransportDump)
{
    MsgPtr msg = transport_dump_request(test_family);
    expect_header(msg, XRPCRDMA_CMD_TRANSPORT_GET, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_TRUE(attr_types(msg).empty());
}

TEST(Requests, ListenerDump)
{
    MsgPtr msg = listener_dump_request(test_family);
    expect_header(msg, XRPCRDMA_CMD_LISTENER_GET, NLM_F_REQUEST | NLM_F_DUMP);
    EXPECT_TRUE(attr_types(msg).empty());
}

TEST(Requests, ListenerDel)
{
    MsgPtr msg = listener_del_request(test_family, 2);
    expect_header(msg, XRPCRDMA_CMD_LISTENER_DEL, NLM_F_REQUEST | NLM_F_ACK);
    expect_id(msg, 2);
}

TEST(Requests, StatsGet)
{
    MsgPtr msg = stats_get_request(test_family);
    expect_header(msg, XRPCRDMA_CMD_STATS_GET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_TRUE(attr_types(msg).empty());
}

TEST(Requests, SequenceAndPortLeftForSending)
{
    MsgPtr msg = module_get_request(test_family);
    EXPECT_EQ(hdr(msg)->nlmsg_seq, 0u);
    EXPECT_EQ(hdr(msg)->nlmsg_pid, 0u);
}

TEST(Requests, LongestNameAccepted)
{
    std::string name(XRPCRDMA_DEV_NAME_MAX_LEN, 'n');
    expect_name(device_get_request(test_family, name), name);
}

TEST(Requests, BadNamesRefused)
{
    std::string too_long(XRPCRDMA_DEV_NAME_MAX_LEN + 1, 'n');
    std::string with_nul("rx\0e0", 5);
    for (const std::string &name : {std::string(), too_long, with_nul}) {
        EXPECT_THROW(device_get_request(test_family, name), std::invalid_argument);
        EXPECT_THROW(device_set_request(test_family, name, true), std::invalid_argument);
    }
}

TEST(Requests, ConfigGet)
{
    MsgPtr msg = config_get_request(test_family, std::nullopt);
    expect_header(msg, XRPCRDMA_CMD_CONFIG_GET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_TRUE(attr_types(msg).empty());
    msg = config_get_request(test_family, 5);
    EXPECT_EQ(attr_types(msg), std::vector<int>{XRPCRDMA_A_CONFIG_TRANSPORT_ID});
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_CONFIG_TRANSPORT_ID)), 5u);
}

TEST(Requests, ConfigSet)
{
    MsgPtr msg = config_set_request(test_family, 9, {{"inline-send", 512}, {"credits", 128}});
    expect_header(msg, XRPCRDMA_CMD_CONFIG_SET, NLM_F_REQUEST | NLM_F_ACK);
    EXPECT_EQ(attr_types(msg), (std::vector<int>{XRPCRDMA_A_CONFIG_TRANSPORT_ID,
                                                 XRPCRDMA_A_CONFIG_INLINE_SEND,
                                                 XRPCRDMA_A_CONFIG_CREDITS}));
    // Out of range goes to the kernel as it is: the module names the limit.
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_CONFIG_INLINE_SEND)), 512u);
    EXPECT_EQ(nla_get_u32(find_attr(msg, XRPCRDMA_A_CONFIG_CREDITS)), 128u);
    EXPECT_THROW(config_set_request(test_family, std::nullopt, {{"mtu", 1}}),
                 std::invalid_argument);
}

} // namespace
