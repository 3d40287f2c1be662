// SPDX-License-Identifier: GPL-2.0
// Socket against the running kernel's own generic netlink controller
// ("nlctrl"), which every kernel has: family resolution, do requests with
// their ACK, multi-part dumps and kernel errors with extended ACKs. No
// xrpcrdma module is needed. Skipped where netlink sockets are not allowed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include <linux/genetlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "errors.hpp"
#include "nl.hpp"

using namespace rdmactl;

namespace {

class Live : public ::testing::Test {
protected:
    std::unique_ptr<Socket> sock;

    void SetUp() override
    {
        try {
            sock = std::make_unique<Socket>();
        } catch (const NetlinkError &e) {
            GTEST_SKIP() << "no generic netlink here: " << e.what();
        }
    }
};

MsgPtr getfamily(int flags)
{
    MsgPtr msg(nlmsg_alloc());
    genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, NLM_F_REQUEST | flags,
                CTRL_CMD_GETFAMILY, 1);
    return msg;
}

std::string family_name(const nlmsghdr *nlh)
{
    auto *ghdr = static_cast<genlmsghdr *>(nlmsg_data(nlh));
    nlattr *name =
        nla_find(genlmsg_attrdata(ghdr, 0), genlmsg_attrlen(ghdr, 0), CTRL_ATTR_FAMILY_NAME);
    return name ? nla_get_string(name) : "";
}

TEST_F(Live, ResolvesTheController)
{
    EXPECT_EQ(sock->resolve_family("nlctrl"), GENL_ID_CTRL);
}

TEST_F(Live, MissingFamily)
{
    try {
        sock->resolve_family("xrpcrdma_none");
        FAIL() << "resolved a family that does not exist";
    } catch (const FamilyNotFound &e) {
        EXPECT_STREQ(e.what(), "the xrpcrdma_none module is not loaded (generic netlink family "
                               "\"xrpcrdma_none\" not found)");
    }
}

TEST_F(Live, DoRequestGetsOneReplyAndTheAck)
{
    MsgPtr msg = getfamily(NLM_F_ACK);
    nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, "nlctrl");
    std::vector<std::string> names;
    sock->transact(std::move(msg), [&](const nlmsghdr *nlh) { names.push_back(family_name(nlh)); });
    EXPECT_EQ(names, std::vector<std::string>{"nlctrl"});
    EXPECT_TRUE(sock->take_warnings().empty());

    // The socket stays usable: the ACK was consumed, nothing is left over.
    msg = getfamily(NLM_F_ACK);
    nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, "nlctrl");
    int replies = 0;
    sock->transact(std::move(msg), [&](const nlmsghdr *) { replies++; });
    EXPECT_EQ(replies, 1);
}

TEST_F(Live, DumpReadsEveryPart)
{
    std::vector<std::string> names;
    sock->transact(getfamily(NLM_F_DUMP),
                   [&](const nlmsghdr *nlh) { names.push_back(family_name(nlh)); });
    EXPECT_NE(std::find(names.begin(), names.end(), "nlctrl"), names.end());
    EXPECT_GE(names.size(), 1u);
}

TEST_F(Live, KernelErrorWithoutMessage)
{
    MsgPtr msg = getfamily(NLM_F_ACK);
    nla_put_string(msg.get(), CTRL_ATTR_FAMILY_NAME, "xrpcrdma_none");
    try {
        sock->transact(std::move(msg), [](const nlmsghdr *) {});
        FAIL() << "no error";
    } catch (const KernelError &e) {
        EXPECT_EQ(e.errnum(), ENOENT);
    }
}

TEST_F(Live, KernelErrorCarriesTheExtendedAckMessage)
{
    // A family name without its NUL fails the controller's policy, and the
    // kernel says so in NLMSGERR_ATTR_MSG.
    MsgPtr msg = getfamily(NLM_F_ACK);
    nla_put(msg.get(), CTRL_ATTR_FAMILY_NAME, 3, "abc");
    try {
        sock->transact(std::move(msg), [](const nlmsghdr *) {});
        FAIL() << "no error";
    } catch (const KernelError &e) {
        EXPECT_EQ(e.errnum(), EINVAL);
        EXPECT_FALSE(e.kernel_message().empty());
        EXPECT_EQ(std::string(e.what()).rfind(std::string(std::strerror(EINVAL)) + ": ", 0), 0u)
            << e.what();
    }
}

TEST_F(Live, ExceptionInHandlerPropagates)
{
    EXPECT_THROW(sock->transact(getfamily(NLM_F_DUMP),
                                [](const nlmsghdr *) { throw ProtocolError("test"); }),
                 ProtocolError);
}

} // namespace
