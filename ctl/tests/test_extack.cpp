// SPDX-License-Identifier: GPL-2.0
// NLMSG_ERROR and NLMSG_DONE messages laid out as the kernel's netlink_ack()
// and netlink_dump_done() lay them out, then decoded.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "errors.hpp"
#include "helpers.hpp"
#include "msg.hpp"
#include "nl.hpp"

using namespace rdmactl;
using namespace testing_helpers;

namespace {

void append(nl_msg *msg, const void *data, size_t len)
{
    ASSERT_EQ(nlmsg_append(msg, const_cast<void *>(data), len, NLMSG_ALIGNTO), 0);
}

// An error answering request: struct nlmsgerr, the request's payload unless
// capped, then (by the caller) the extended ACK attributes.
MsgPtr error_msg(int error, const nlmsghdr *request, int flags)
{
    MsgPtr msg(nlmsg_alloc_simple(NLMSG_ERROR, flags));
    nlmsgerr err{};
    err.error = error;
    err.msg = *request;
    append(msg.get(), &err, sizeof(err));
    if (!(flags & NLM_F_CAPPED))
        append(msg.get(), nlmsg_data(request), request->nlmsg_len - NLMSG_HDRLEN);
    return msg;
}

MsgPtr request()
{
    return device_set_request(test_family, "rxe0", true);
}

TEST(ExtAck, UncappedErrorWithMessageAndOffset)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-ENODEV, hdr(req), NLM_F_ACK_TLVS);
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "no RDMA device rxe0");
    nla_put_u32(msg.get(), NLMSGERR_ATTR_OFFS, 20);

    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, -ENODEV);
    EXPECT_EQ(st.ack.message, "no RDMA device rxe0");
    EXPECT_EQ(st.ack.offset, 20u);
    EXPECT_FALSE(st.ack.missing_type);
    EXPECT_EQ(describe(st.ack), "no RDMA device rxe0");
}

TEST(ExtAck, CappedError)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-EINVAL, hdr(req), NLM_F_CAPPED | NLM_F_ACK_TLVS);
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "integer out of range");

    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, -EINVAL);
    EXPECT_EQ(st.ack.message, "integer out of range");
}

TEST(ExtAck, EchoedRequestOfUnalignedLength)
{
    // A request whose payload is 5 bytes: the kernel pads the echo to 8.
    MsgPtr req(nlmsg_alloc_simple(test_family, NLM_F_REQUEST));
    const char five[5] = {1, 2, 3, 4, 5};
    ASSERT_EQ(nlmsg_append(req.get(), const_cast<char *>(five), 5, 0), 0);
    ASSERT_EQ(hdr(req)->nlmsg_len, NLMSG_HDRLEN + 5);

    MsgPtr msg = error_msg(-EPERM, hdr(req), NLM_F_ACK_TLVS);
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "padded");
    EXPECT_EQ(decode_status(hdr(msg)).ack.message, "padded");
}

TEST(ExtAck, ErrorWithoutAttributes)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-EPERM, hdr(req), 0);
    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, -EPERM);
    EXPECT_TRUE(st.ack.message.empty());
    EXPECT_EQ(describe(st.ack), "");
}

TEST(ExtAck, AttributesIgnoredWithoutTheFlag)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-EPERM, hdr(req), 0);
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "not flagged");
    EXPECT_TRUE(decode_status(hdr(msg)).ack.message.empty());
}

TEST(ExtAck, MissingAttributeOnly)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-EINVAL, hdr(req), NLM_F_CAPPED | NLM_F_ACK_TLVS);
    nla_put_u32(msg.get(), NLMSGERR_ATTR_MISS_TYPE, XRPCRDMA_A_DEVICE_NAME);
    nla_put_u32(msg.get(), NLMSGERR_ATTR_MISS_NEST, 24);

    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.ack.missing_type, uint32_t(XRPCRDMA_A_DEVICE_NAME));
    EXPECT_EQ(st.ack.missing_nest, 24u);
    EXPECT_EQ(describe(st.ack), "missing attribute (type 2)");
}

TEST(ExtAck, GarbledAttributesKeepTheError)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(-EIO, hdr(req), NLM_F_CAPPED | NLM_F_ACK_TLVS);
    put_raw(msg.get(), NLMSGERR_ATTR_MSG, "no NUL", 6);
    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, -EIO);
    EXPECT_TRUE(st.ack.message.empty());
}

TEST(ExtAck, AckWithWarning)
{
    MsgPtr req = request();
    MsgPtr msg = error_msg(0, hdr(req), NLM_F_CAPPED | NLM_F_ACK_TLVS);
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "device already enabled");
    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, 0);
    EXPECT_EQ(st.ack.message, "device already enabled");
}

TEST(ExtAck, TruncatedErrorMessage)
{
    MsgPtr msg(nlmsg_alloc_simple(NLMSG_ERROR, 0));
    int error = -EINVAL;
    append(msg.get(), &error, sizeof(error));
    EXPECT_THROW(decode_status(hdr(msg)), ProtocolError);
}

TEST(ExtAck, DoneWithErrorAndMessage)
{
    MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS));
    int error = -EMSGSIZE;
    append(msg.get(), &error, sizeof(error));
    nla_put_string(msg.get(), NLMSGERR_ATTR_MSG, "dump failed");
    Status st = decode_status(hdr(msg));
    EXPECT_EQ(st.error, -EMSGSIZE);
    EXPECT_EQ(st.ack.message, "dump failed");
}

TEST(ExtAck, DoneSuccessful)
{
    MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI));
    int error = 0;
    append(msg.get(), &error, sizeof(error));
    EXPECT_EQ(decode_status(hdr(msg)).error, 0);
}

TEST(ExtAck, BareDone)
{
    MsgPtr msg(nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI));
    EXPECT_EQ(decode_status(hdr(msg)).error, 0);
}

TEST(ExtAck, OtherMessageTypeRefused)
{
    MsgPtr msg = request();
    EXPECT_THROW(decode_status(hdr(msg)), ProtocolError);
}

TEST(KernelErrorText, WithAndWithoutMessage)
{
    KernelError with(ENODEV, "no RDMA device rxe9");
    EXPECT_STREQ(with.what(),
                 (std::string(std::strerror(ENODEV)) + ": no RDMA device rxe9").c_str());
    EXPECT_EQ(with.errnum(), ENODEV);
    EXPECT_EQ(with.kernel_message(), "no RDMA device rxe9");

    KernelError without(EPERM, "");
    EXPECT_STREQ(without.what(), std::strerror(EPERM));
}

} // namespace
